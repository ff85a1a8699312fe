"""What the benchmarks share: the `make services` PostgreSQL and Redis, a scratch site on them (its
database, environment, students and quiz), a free local port, and the docs/benchmarks.md section."""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVICES_ENV = ROOT / "var" / "test.env"


def production_web_workers() -> int:
    """The gunicorn worker count production runs with here (deploy/gunicorn.conf.py: one per CPU
    this process may use, unless PDC_WEB_WORKERS says otherwise), so a benchmark's default is
    the deployed shape rather than a number of its own."""
    import runpy

    return int(runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))["workers"])


def add_site_arguments(parser: argparse.ArgumentParser) -> None:
    """--workers and --write-doc of the benchmarks that run the site under gunicorn."""
    parser.add_argument(
        "--workers",
        type=int,
        default=production_web_workers(),
        help="gunicorn worker processes (default: production's, deploy/gunicorn.conf.py)",
    )
    parser.add_argument("--write-doc", action="store_true", help="append to docs/benchmarks.md")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def services_env() -> dict[str, str]:
    """var/test.env of `make services` (DATABASE_URL, REDIS_PORT, …); exits when it is missing."""
    if not SERVICES_ENV.exists():
        sys.exit("var/test.env missing: run `make services` first")
    pairs = (line.split("=", 1) for line in SERVICES_ENV.read_text().splitlines() if "=" in line)
    return {k.strip(): v.strip() for k, v in pairs}


def services_redis(db: int, *, flush: bool = False) -> str:
    """URL of database ``db`` on the `make services` Redis, emptied first when ``flush``."""
    url = f"redis://127.0.0.1:{services_env()['REDIS_PORT']}/{db}"
    if flush:
        import redis

        redis.Redis.from_url(url).flushdb()
    return url


def create_database(base_url: str, name: str) -> str:
    """A new, empty database ``name`` beside ``base_url``'s (dropped first); returns its URL."""
    import psycopg

    admin = base_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return base_url.rsplit("/", 1)[0] + "/" + name


def drop_database(base_url: str, name: str) -> None:
    import psycopg

    admin = base_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def scratch_site(label: str, *, cache_db: int, broker_db: int | None = None) -> tuple[str, str]:
    """Make a scratch database ``pdclab_<label>_<pid>`` on the `make services` PostgreSQL and point
    this process's environment (and so the site it starts) at it, see site_env. Returns the
    services' database URL and the scratch database's name, for stop_site."""
    base_url = services_env()["DATABASE_URL"]
    db_name = f"pdclab_{label}_{os.getpid()}"
    db_url = create_database(base_url, db_name)
    os.environ.update(site_env(db_url, cache_db=cache_db, broker_db=broker_db))
    return base_url, db_name


def stop_site(server, site: tuple[str, str]) -> None:
    """Stop the benchmark's gunicorn (None: it never started), then drop its scratch database."""
    if server is not None:
        server.terminate()
        server.wait(timeout=30)
    from django.db import connections

    connections.close_all()
    drop_database(*site)


def site_env(db_url: str, *, cache_db: int, broker_db: int | None = None) -> dict[str, str]:
    """The environment of a benchmark's site: its scratch database, production's shape (Redis as
    the shared cache, so sessions and the lecture fast path read through it), quiet logs; each
    Redis database named here is emptied first."""
    env = {
        "DATABASE_URL": db_url,
        "DJANGO_SETTINGS_MODULE": "pdcsite.settings",
        "DJANGO_ENV": "development",
        "DEBUG": "false",
        "LOG_LEVEL": "WARNING",
    }
    if broker_db is not None:
        env["CELERY_BROKER_URL"] = services_redis(broker_db, flush=True)
    env["CACHE_URL"] = services_redis(cache_db, flush=True)
    return env


def graded_quiz(questions: list, *, title: str, slug: str) -> tuple[object, list[dict]]:
    """A published graded quiz of ``questions`` in that order, and the answer plan a simulated
    student follows (each question's key, type and choice keys)."""
    from quizzes.models import Quiz, QuizQuestion

    quiz = Quiz.objects.create(title=title, slug=slug, kind="graded", published=True)
    for i, q in enumerate(questions):
        QuizQuestion.objects.create(quiz=quiz, question=q, order=i)
    plan = [
        {"pk": q.pk, "type": q.qtype, "keys": list(q.choices.values_list("key", flat=True))}
        for q in questions
    ]
    return quiz, plan


def logged_in_students(prefix: str, n: int) -> list[tuple[int, str]]:
    """``n`` new students (``prefix``000, …), each with a database session: (user pk, session key)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import Group, User
    from django.contrib.sessions.backends.db import SessionStore

    group, _ = Group.objects.get_or_create(name="student")
    users = User.objects.bulk_create(
        User(username=f"{prefix}{i:03d}", password="!unusable") for i in range(n)
    )
    group.user_set.add(*users)
    sessions = []
    for user in users:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        sessions.append((user.pk, store.session_key))
    return sessions


def append_to_doc(section: str) -> None:
    """Add a section to docs/benchmarks.md (made, with its title, if it is not there yet)."""
    doc = ROOT / "docs" / "benchmarks.md"
    if not doc.exists():
        doc.write_text("# Benchmarks\n", encoding="utf-8")
    with doc.open("a", encoding="utf-8") as fh:
        fh.write(section)


def doc_section(title: str, command: str, lines: list[str], machine: str = "") -> str:
    """A docs/benchmarks.md section: the title with the time, the command, the machine, the lines."""
    import os
    import platform
    from datetime import UTC, datetime

    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    machine = machine or f"{platform.node()}, {os.cpu_count()} CPU cores (shared)"
    head = f"\n## {title} ({stamp})\n\nCommand: `{command}` · machine: {machine}\n\n"
    return head + "\n".join(lines) + "\n"


def closing_lines(load: tuple[float, float], ok: bool) -> list[str]:
    """The last lines of a report: the machine's load around the run, and the verdict."""
    return [
        f"- load average (1 min) before/after: {load[0]:.1f} / {load[1]:.1f} "
        "(other engineers' runs share the 2 cores)",
        f"- verdict: {'PASS' if ok else 'FAIL'}",
    ]


def report(lines: list[str], *, title: str, command: str, write_doc: bool) -> None:
    """Print a benchmark's report; with --write-doc also append it to docs/benchmarks.md."""
    print("\n".join(lines))
    if write_doc:
        append_to_doc(doc_section(title, command, lines))
