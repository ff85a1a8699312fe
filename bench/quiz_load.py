"""Quiz autosave load test: N simulated students each start a graded quiz, autosave 20 answers and
submit, against gunicorn (production's worker count by default) on the throwaway PostgreSQL of
`make services`.

Reports errors, lost answers (checked in the database afterwards), p50/p95/max latency and the
wall time. Target (issue 5): 300 students within 60 s, 0 errors, 0 lost, autosave p95 < 150 ms.

    make services
    .venv/bin/python bench/quiz_load.py                 # print the results
    .venv/bin/python bench/quiz_load.py --write-doc     # also append them to docs/benchmarks.md

It creates and drops its own database (pdclab_bench_<pid>) in that PostgreSQL cluster.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench import common  # noqa: E402

ANSWERS_PER_STUDENT = 20
START_SPREAD_S = 8.0  # students arrive over the first 8 s
THINK_S = (1.3, 2.7)  # seconds between two answers of one student (uniform): ~2 s per answer
HTTP_TIMEOUT_S = 30.0


def _setup(n_students: int) -> dict:
    """Migrate, import the bank, make one graded quiz of 20 questions and N logged-in students."""
    import django

    sys.path.insert(0, str(ROOT))
    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from quizzes.models import Question

    call_command("migrate", verbosity=0)
    call_command("import_quizzes", no_defaults=True, stdout=open(os.devnull, "w"))
    params = list(Question.objects.filter(qtype="param").order_by("bank_id")[:4])
    others = list(Question.objects.exclude(qtype="param").order_by("bank_id")[:16])
    quiz, plan = common.graded_quiz(others + params, title="负载测试", slug="bench-quiz")
    sessions = common.logged_in_students("bench", n_students)
    connections.close_all()
    return {"quiz_slug": quiz.slug, "plan": plan, "sessions": sessions}


def _value(rng: random.Random, q: dict) -> list[str]:
    if q["type"] == "single":
        return [rng.choice(q["keys"])]
    if q["type"] == "multiple":
        return sorted(rng.sample(q["keys"], rng.randint(1, 2)))
    if q["type"] == "truefalse":
        return [rng.choice(["true", "false"])]
    return [f"{rng.uniform(0, 1000):.3f}"]


class Recorder:
    def __init__(self) -> None:
        self.autosave_ms: list[float] = []
        self.other_ms: list[float] = []
        self.errors: list[str] = []
        self.sent: dict[tuple[int, int], list[str]] = {}


async def _post(port: int, path: str, cookie: str, token: str, body: str) -> tuple[int, dict]:
    """One HTTP/1.1 POST on a fresh connection (gunicorn's sync workers close after each reply).

    A hand-rolled client on asyncio streams: the load generator shares the 2 cores with the
    server, so it must cost far less CPU per request than the server does.
    """
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    payload = body.encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n"
        f"X-CSRFToken: {token}\r\nHX-Request: true\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n"
    )
    writer.write(head.encode() + payload)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    status_line, _, rest = raw.partition(b"\r\n")
    header_block = rest.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    headers = {}
    for line in header_block.split("\r\n"):
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers


async def _timed(rec_list: list[float], *args: object) -> tuple[int, dict]:
    t0 = time.perf_counter()
    result = await asyncio.wait_for(_post(*args), timeout=HTTP_TIMEOUT_S)
    rec_list.append((time.perf_counter() - t0) * 1000)
    return result


async def _step(rec: Recorder, step: str, times: list[float], *args: object) -> tuple[int, dict]:
    """One timed POST of a student's ``step``; a timeout or a failed connection is recorded as
    that step's error and answers status 0 (no reply, as a browser reports it)."""
    try:
        return await _timed(times, *args)
    except (TimeoutError, OSError) as exc:
        rec.errors.append(f"{step} {type(exc).__name__}")
        return 0, {}


async def _student(port: int, slug: str, plan: list, session_key: str, seed: int, rec: Recorder):
    rng = random.Random(seed)
    token = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(32))
    cookie = f"sessionid={session_key}; csrftoken={token}"
    await asyncio.sleep(rng.uniform(0, START_SPREAD_S))
    start = f"/quizzes/{slug}/start/"
    status, headers = await _step(rec, "start", rec.other_ms, port, start, cookie, token, "")
    if status == 0:
        return
    if status != 302 or "/attempt/" not in headers.get("location", ""):
        rec.errors.append(f"start {status}")
        return
    attempt = int(headers["location"].rstrip("/").split("/")[-1])
    for q in plan:
        await asyncio.sleep(rng.uniform(*THINK_S))
        value = _value(rng, q)
        body = urlencode([("value", v) for v in value])
        path = f"/quizzes/attempt/{attempt}/answer/{q['pk']}/"
        status, headers = await _step(
            rec, "autosave", rec.autosave_ms, port, path, cookie, token, body
        )
        if status == 0:
            continue
        if status != 200 or headers.get("x-quiz-saved") != "1":
            rec.errors.append(f"autosave {status} saved={headers.get('x-quiz-saved')}")
            continue
        rec.sent[(attempt, q["pk"])] = value
    submit = f"/quizzes/attempt/{attempt}/submit/"
    status, _h = await _step(rec, "submit", rec.other_ms, port, submit, cookie, token, "")
    if status not in (0, 302):
        rec.errors.append(f"submit {status}")


async def _run_students(port: int, setup: dict, rec: Recorder) -> None:
    await asyncio.gather(
        *(
            _student(port, setup["quiz_slug"], setup["plan"], key, i, rec)
            for i, (_pk, key) in enumerate(setup["sessions"])
        )
    )


def _check_lost(rec: Recorder, n_students: int) -> tuple[int, int, int]:
    """(lost answers, attempts not submitted, students without exactly one grade)."""
    from django.db import connections

    from gradebook.models import Grade
    from quizzes.models import Answer, Attempt

    connections.close_all()
    stored = {
        (a.attempt_id, a.question_id): (a.selected or [a.value]) for a in Answer.objects.all()
    }
    lost = sum(1 for key, value in rec.sent.items() if stored.get(key) != value)
    open_attempts = Attempt.objects.exclude(state="submitted").count()
    graded = (
        Grade.objects.filter(item__key__startswith="quiz:").values("student").distinct().count()
    )
    return lost, open_attempts, n_students - graded


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=300)
    common.add_site_arguments(parser)
    args = parser.parse_args()

    site = common.scratch_site("bench", cache_db=10)
    server = None
    try:
        setup = _setup(args.students)
        port = common.free_port()
        server = subprocess.Popen(
            [
                str(ROOT / ".venv/bin/gunicorn"),
                "pdcsite.wsgi:application",
                "-w",
                str(args.workers),
                "-b",
                f"127.0.0.1:{port}",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=os.environ.copy(),
        )
        base = f"http://127.0.0.1:{port}"
        _wait_up(base)
        rec = Recorder()
        load_before = os.getloadavg()[0]
        t0 = time.perf_counter()
        asyncio.run(_run_students(port, setup, rec))
        wall = time.perf_counter() - t0
        lost, unsubmitted, gradeless = _check_lost(rec, args.students)
        result = {
            "students": args.students,
            "workers": args.workers,
            "wall_s": wall,
            "autosaves": len(rec.autosave_ms),
            "errors": len(rec.errors),
            "lost": lost,
            "unsubmitted": unsubmitted,
            "gradeless": gradeless,
            "p50": _pct(rec.autosave_ms, 50),
            "p95": _pct(rec.autosave_ms, 95),
            "max": max(rec.autosave_ms, default=float("nan")),
            "other_p95": _pct(rec.other_ms, 95),
            "error_kinds": sorted(set(rec.errors))[:5],
            "load": (load_before, os.getloadavg()[0]),
        }
    finally:
        common.stop_site(server, site)
    _report(result, args)


def _wait_up(base: str) -> None:
    import requests

    for _ in range(100):
        try:
            if requests.get(f"{base}/healthz", timeout=2).status_code < 500:
                return
        except requests.RequestException:
            pass
        time.sleep(0.2)
    sys.exit("gunicorn did not come up")


def _report(r: dict, args: argparse.Namespace) -> None:
    ok = r["errors"] == 0 and r["lost"] == 0 and r["p95"] < 150 and r["wall_s"] < 60
    lines = [
        f"- students: {r['students']} × {ANSWERS_PER_STUDENT} autosaves + start + submit; "
        f"gunicorn {r['workers']} sync workers; PostgreSQL (throwaway, `make services`); "
        "Redis cache (`CACHE_URL`, sessions `cached_db`)",
        f"- wall time: {r['wall_s']:.1f} s (target < 60 s)",
        f"- autosaves: {r['autosaves']}; errors: {r['errors']}; lost answers: {r['lost']}; "
        f"attempts left open: {r['unsubmitted']}; students without a grade: {r['gradeless']}",
        f"- autosave latency: p50 {r['p50']:.1f} ms, p95 {r['p95']:.1f} ms, max {r['max']:.1f} ms "
        f"(target p95 < 150 ms); start/submit p95 {r['other_p95']:.1f} ms",
        f"- machine load average (1 min) before/after: {r['load'][0]:.1f} / {r['load'][1]:.1f} "
        "(other engineers' test runs share the 2 cores)",
        f"- verdict: {'PASS' if ok else 'FAIL'}"
        + (f" ({r['error_kinds']})" if r["errors"] else ""),
    ]
    print("\n".join(lines))
    if args.write_doc:
        machine = (
            f"{platform.node()}, {os.cpu_count()} CPU cores (shared), {platform.python_version()}"
        )
        command = (
            f".venv/bin/python bench/quiz_load.py --students {r['students']} "
            f"--workers {r['workers']} --write-doc"
        )
        common.append_to_doc(common.doc_section("Quiz autosave load", command, lines, machine))


if __name__ == "__main__":
    main()
