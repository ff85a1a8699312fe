"""End-to-end latency of one vector-add submission in production shape, beside grade() of the same
file in a warm sandbox, measured alternately in one run.

    make services
    .venv/bin/python bench/e2e_latency.py [--runs 30] [--write-doc]

end-to-end  the student's POST of the editor form to gunicorn (DJANGO_ENV=production, manifest
            static files, PostgreSQL, Redis broker and cache) -> queue -> `gradinglab.worker`
            (prefork, one process, its warm sandbox pool) -> result API -> the status fragment the
            page polls shows the verdict. Polled every POLL_S; the clock stops at the first
            answer that is no longer pending.
grade()     `gradinglab.runner.grade()` of the same file in this process with a warm sandbox (the
            pool refilled before each call), i.e. the grading itself without the web and queue.
Target (issue 13): end-to-end p50 <= grade() p50 + 1 s. Submissions are sequential; after each
measurement the next waits SETTLE_S so one's sandbox refill does not overlap the other's timing.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench import common  # noqa: E402
from bench.quiz_load import _pct  # noqa: E402
from tests.processenv import environ_without_site  # noqa: E402

BIN = Path(sys.executable).parent
SOLUTION = ROOT / "gradinglab/problems/vector-add/solutions/triton/correct.py"
POLL_S = 0.05  # seconds between two polls of the status fragment
SETTLE_S = 4.0  # seconds between two measurements: the sandbox pool refills (warm) meanwhile
WARMUP = 2  # unmeasured end-to-end submissions first (worker imports, first sandbox)
READY_TIMEOUT_S = 180


def _production_env(db_url: str, var: Path) -> dict[str, str]:
    env = environ_without_site()
    env.update(
        DJANGO_SETTINGS_MODULE="pdcsite.settings",
        DJANGO_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(48),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=db_url,
        CELERY_BROKER_URL=common.services_redis(14, flush=True),
        CACHE_URL=common.services_redis(15, flush=True),
        PDC_VAR_DIR=str(var),
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    return env


def _setup() -> tuple[str, str]:
    """Schema, static files, the problem, one student (a session) and the CPU worker's token."""
    import django

    django.setup()
    from decimal import Decimal

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.db import connections

    from accounts.services import user_create_with_role
    from gradinglab.models import Assignment, Problem
    from gradinglab.services.problem_sync import problems_sync
    from gradinglab.services.workers import worker_token_create

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    problems_sync()
    Assignment.objects.create(
        problem=Problem.objects.get(slug="vector-add"),
        points=Decimal("10"),
        published=True,
        rate_limit_count=1000,  # sequential submissions far faster than a student's
    )
    user = user_create_with_role(username="e2e", password=secrets.token_urlsafe(12), role="student")
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    token = worker_token_create(name="e2e-cpu", kind="cpu")
    connections.close_all()
    return store.session_key, token


class Student:
    """The browser behind the TLS proxy: X-Forwarded-Proto https, Secure cookies sent by hand."""

    def __init__(self, base: str, session_key: str) -> None:
        self.base = base
        self.csrf = secrets.token_hex(16)
        self.headers = {
            "X-Forwarded-Proto": "https",
            "Origin": "https://" + urllib.parse.urlsplit(base).netloc,
            "Cookie": f"sessionid={session_key}; csrftoken={self.csrf}",
        }
        self.opener = urllib.request.build_opener(_NoRedirect)

    def submit(self, source: str) -> int:
        body = urllib.parse.urlencode(
            {"backend": "triton", "source": source, "csrfmiddlewaretoken": self.csrf}
        ).encode()
        request = urllib.request.Request(
            f"{self.base}/lab/problems/vector-add/submit/", data=body, headers=self.headers
        )
        try:
            self.opener.open(request, timeout=30)
        except urllib.error.HTTPError as exc:
            location = exc.headers.get("Location", "")
            if exc.code == 302 and (match := re.search(r"/lab/submissions/(\d+)/", location)):
                return int(match.group(1))
            raise SystemExit(f"submit answered {exc.code}: {exc.read()[:300]!r}") from exc
        raise SystemExit("submit did not redirect")

    def status(self, pk: int) -> str:
        request = urllib.request.Request(
            f"{self.base}/lab/submissions/{pk}/status/", headers=self.headers
        )
        with self.opener.open(request, timeout=30) as response:
            html = response.read().decode()
        return re.search(r'data-status="(\w+)"', html).group(1)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[override]
        return None


def _end_to_end(student: Student, source: str, pending: set[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    pk = student.submit(source)
    while (status := student.status(pk)) in pending:
        if time.perf_counter() - t0 > 300:
            raise SystemExit(f"submission {pk} still {status} after 300 s")
        time.sleep(POLL_S)
    return time.perf_counter() - t0, status


def _grade_warm(source: str) -> float:
    from gradinglab.runner import grade

    sys.path.insert(0, str(ROOT / "bench"))
    from grade_latency import _wait_for_spare

    _wait_for_spare()
    t0 = time.perf_counter()
    doc = grade(slug="vector-add", source=source, backend="triton", device="cpu")
    assert doc["status"] == "accepted", doc.get("message")
    return time.perf_counter() - t0


def _start(cmd: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip


def _wait_for(text: bytes, log: Path, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while text not in log.read_bytes():
        if time.monotonic() > deadline or proc.poll() is not None:
            raise SystemExit(f"{log.name}: not ready\n{log.read_text()[-2000:]}")
        time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--write-doc", action="store_true", help="append to docs/benchmarks.md")
    args = parser.parse_args()
    base_url = common.services_env()["DATABASE_URL"]
    db_name = f"pdclab_e2e_{os.getpid()}"
    var = Path(tempfile.mkdtemp(prefix="pdc-e2e-"))
    env = _production_env(common.create_database(base_url, db_name), var)
    os.environ.update(env)
    procs: list[subprocess.Popen] = []
    try:
        session_key, token = _setup()
        from gradinglab.models import Submission
        from gradinglab.runner import pool

        pending = {str(s) for s in Submission.PENDING}
        port = common.free_port()
        base = f"http://127.0.0.1:{port}"
        procs.append(
            _start(
                [
                    str(BIN / "gunicorn"),
                    "pdcsite.wsgi:application",
                    "-b",
                    f"127.0.0.1:{port}",
                    "-w",
                    "2",
                    "--log-level",
                    "warning",
                ],
                env,
                var / "web.log",
            )  # fmt: skip
        )
        worker_env = {k: v for k, v in env.items() if k not in ("DATABASE_URL", "SECRET_KEY")}
        worker_env.update(PDC_API_URL=base, PDC_WORKER_TOKEN=token, PDC_WORKER_KIND="cpu")
        worker_env.pop("DJANGO_ENV")
        procs.append(
            _start(
                [
                    str(BIN / "celery"),
                    "-A",
                    "gradinglab.worker",
                    "worker",
                    "-Q",
                    "grade-cpu",
                    "--pool",
                    "prefork",
                    "--concurrency",
                    "1",
                    "--hostname",
                    f"e2e-{port}@%h",
                    "--without-gossip",
                    "--without-mingle",
                    "--loglevel",
                    "INFO",
                ],
                worker_env,
                var / "worker.log",
            )  # fmt: skip
        )
        _wait_for(b" ready.", var / "worker.log", procs[1])
        source = SOLUTION.read_text()
        student = Student(base, session_key)
        for _ in range(WARMUP):
            _end_to_end(student, source, pending)
        pool.configure(1)
        pool.warm_up()
        e2e, graded, statuses = [], [], []
        load_before = os.getloadavg()[0]
        for _ in range(args.runs):
            time.sleep(SETTLE_S)
            seconds, status = _end_to_end(student, source, pending)
            e2e.append(seconds)
            statuses.append(status)
            time.sleep(SETTLE_S)
            graded.append(_grade_warm(source))
        load_after = os.getloadavg()[0]
        pool.configure(0)
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, 15)
                proc.wait(timeout=30)
        from django.db import connections

        connections.close_all()
        common.drop_database(base_url, db_name)
        shutil.rmtree(var, ignore_errors=True)
    _report(e2e, graded, statuses, (load_before, load_after), args)


def _report(e2e: list[float], graded: list[float], statuses: list[str], load, args) -> None:
    p50_e2e, p50_grade = statistics.median(e2e), statistics.median(graded)
    ok = p50_e2e <= p50_grade + 1.0 and set(statuses) == {"accepted"}
    lines = [
        f"- {args.runs} sequential vector-add submissions (Triton, CPU path), each alternating "
        f"with one grade() call; status polled every {POLL_S * 1000:.0f} ms",
        f"- end to end (POST -> verdict visible): p50 {p50_e2e:.2f} s, p95 {_pct(e2e, 95):.2f} s, "
        f"min {min(e2e):.2f} s, max {max(e2e):.2f} s; verdicts {sorted(set(statuses))}",
        f"- grade() in a warm sandbox: p50 {p50_grade:.2f} s, p95 {_pct(graded, 95):.2f} s, "
        f"min {min(graded):.2f} s, max {max(graded):.2f} s",
        f"- overhead of web + queue + worker + result API at p50: {p50_e2e - p50_grade:+.2f} s "
        "(target <= +1.00 s)",
    ] + common.closing_lines(load, ok)
    command = f".venv/bin/python bench/e2e_latency.py --runs {args.runs} --write-doc"
    title = "Submission end-to-end latency vs grade()"
    common.report(lines, title=title, command=command, write_doc=args.write_doc)


if __name__ == "__main__":
    main()
