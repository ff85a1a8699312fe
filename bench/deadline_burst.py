"""Deadline burst: 300 students submit 500 lab jobs within 60 s while 200 others read lectures and
autosave quiz answers, against gunicorn on the PostgreSQL + Redis of `make services`.

    make services
    .venv/bin/python bench/deadline_burst.py               # print the results
    .venv/bin/python bench/deadline_burst.py --write-doc   # also append them to docs/benchmarks.md

Every request is real: submitters open the problem page, then POST the editor form (the correct
vector-add kernel; the static pre-check runs on each); readers open a lecture page, then autosave an
answer of their graded quiz, with 1.5-4.5 s of thinking between two requests. Measured: every web
request's latency during the burst (p50/p95/max, per kind), errors (any status but the expected one,
timeouts, resets), and lost jobs: after the burst, each accepted submission must be in the database
with its grading job AND exactly once in the broker's `grade-cpu` queue (the messages are popped
and matched by submission id). No grading worker runs on this host during the burst — as in
production, where grading runs on the GPU/CPU worker hosts — so the queue holds all 500 jobs.

It creates and drops its own database (pdclab_burst_<pid>); Redis databases 12 (broker) and 13
(cache) are flushed first.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench import common  # noqa: E402
from bench.quiz_load import _pct, _value, _wait_up  # noqa: E402

SUBMITTERS, JOBS, READERS = 300, 500, 200
BURST_S = 60.0  # every job is submitted within this window (seconds)
THINK_S = (1.5, 4.5)  # a reader's pause between two requests (uniform, seconds)
HTTP_TIMEOUT_S = 30.0
P95_TARGET_MS = 300.0
SOLUTION = ROOT / "gradinglab/problems/vector-add/solutions/triton/correct.py"


def _setup(n_users: int) -> dict:
    """Migrate, lectures, bank, a graded quiz, the vector-add assignment, N signed-in students."""
    import django

    django.setup()
    from decimal import Decimal

    from django.core.management import call_command
    from django.db import connections

    from gradinglab.models import Assignment, Problem
    from gradinglab.services.problem_sync import problems_sync
    from lectures.services import content_import
    from quizzes.models import Question

    call_command("migrate", verbosity=0)
    content_import(lectures_dir=ROOT / "content/lectures", pages_dir=ROOT / "content/course")
    call_command("import_quizzes", no_defaults=True, stdout=open(os.devnull, "w"))
    problems_sync()
    Assignment.objects.create(
        problem=Problem.objects.get(slug="vector-add"),
        points=Decimal("10"),
        published=True,
        rate_limit_count=10,  # two submissions a student within a minute are allowed
    )
    questions = list(Question.objects.exclude(qtype="param").order_by("bank_id")[:20])
    _quiz, plan = common.graded_quiz(questions, title="截止日负载", slug="burst-quiz")
    sessions = [key for _pk, key in common.logged_in_students("burst", n_users)]
    numbers = sorted(set(content_lecture_numbers()))
    connections.close_all()
    return {"plan": plan, "sessions": sessions, "lectures": numbers}


def content_lecture_numbers() -> list[int]:
    from lectures.models import Lecture

    return list(Lecture.objects.values_list("number", flat=True))


class Recorder:
    def __init__(self) -> None:
        self.ms: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.accepted: list[int] = []  # submission ids from the 302 Location
        self.autosaves = 0


async def _request(
    port: int, method: str, path: str, cookie: str, token: str, body: str = ""
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 request on a fresh connection (hand-rolled: the client shares the 2 cores)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    payload = body.encode()
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\nConnection: close\r\n"
    )
    if method == "POST":
        head += (
            f"X-CSRFToken: {token}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(payload)}\r\n"
        )
    writer.write(head.encode() + b"\r\n" + payload)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    status_line, _, rest = raw.partition(b"\r\n")
    header_block, _, content = rest.partition(b"\r\n\r\n")
    headers = {}
    for line in header_block.decode("latin-1").split("\r\n"):
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers, content


async def _timed(rec: Recorder, kind: str, *args: object) -> tuple[int, dict[str, str], bytes]:
    t0 = time.perf_counter()
    try:
        result = await asyncio.wait_for(_request(*args), timeout=HTTP_TIMEOUT_S)
    except (TimeoutError, OSError, IndexError, ValueError) as exc:
        rec.errors.append(f"{kind} {type(exc).__name__}")
        raise
    rec.ms[kind].append((time.perf_counter() - t0) * 1000)
    return result


def _cookie(session_key: str, rng: random.Random) -> tuple[str, str]:
    token = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(32))
    return f"sessionid={session_key}; csrftoken={token}", token


async def _submitter(port: int, key: str, times: list[float], t0: float, rec: Recorder) -> None:
    rng = random.Random(key)
    cookie, token = _cookie(key, rng)
    body = urlencode({"backend": "triton", "source": SOLUTION.read_text()})
    for at in times:
        await asyncio.sleep(max(0.0, t0 + at - time.perf_counter()))
        try:
            status, _, _ = await _timed(
                rec, "problem page", port, "GET", "/lab/problems/vector-add/", cookie, token
            )
            if status != 200:
                rec.errors.append(f"problem page {status}")
            status, headers, _ = await _timed(
                rec, "submit", port, "POST", "/lab/problems/vector-add/submit/", cookie, token, body
            )
        except (TimeoutError, OSError, IndexError, ValueError):
            continue
        match = re.search(r"/lab/submissions/(\d+)/", headers.get("location", ""))
        if status != 302 or not match:
            rec.errors.append(f"submit {status} {headers.get('location', '')}")
            continue
        rec.accepted.append(int(match.group(1)))


async def _reader(port: int, key: str, setup: dict, until: float, rec: Recorder) -> None:
    rng = random.Random(key)
    cookie, token = _cookie(key, rng)
    await asyncio.sleep(rng.uniform(0, THINK_S[1]))
    try:
        status, headers, _ = await _timed(
            rec, "quiz start", port, "POST", "/quizzes/burst-quiz/start/", cookie, token
        )
    except (TimeoutError, OSError, IndexError, ValueError):
        return
    if status != 302 or "/attempt/" not in headers.get("location", ""):
        rec.errors.append(f"quiz start {status}")
        return
    attempt = int(headers["location"].rstrip("/").split("/")[-1])
    step = 0
    while time.perf_counter() < until:
        await asyncio.sleep(rng.uniform(*THINK_S))
        try:
            if step % 2 == 0:
                number = rng.choice(setup["lectures"])
                status, _, _ = await _timed(
                    rec, "lecture", port, "GET", f"/lectures/{number}/", cookie, token
                )
                if status != 200:
                    rec.errors.append(f"lecture {status}")
            else:
                q = setup["plan"][(step // 2) % len(setup["plan"])]
                body = urlencode([("value", v) for v in _value(rng, q)])
                path = f"/quizzes/attempt/{attempt}/answer/{q['pk']}/"
                status, headers, _ = await _timed(
                    rec, "autosave", port, "POST", path, cookie, token, body
                )
                if status != 200 or headers.get("x-quiz-saved") != "1":
                    rec.errors.append(f"autosave {status}")
                else:
                    rec.autosaves += 1
        except (TimeoutError, OSError, IndexError, ValueError):
            pass
        step += 1


def _schedule(rng: random.Random) -> list[list[float]]:
    """500 submission times in [0, BURST_S - 5): 200 students submit twice, 100 once."""
    counts = [2] * (JOBS - SUBMITTERS) + [1] * (2 * SUBMITTERS - JOBS)
    times = sorted(rng.uniform(0, BURST_S - 5) for _ in range(JOBS))
    rng.shuffle(times)
    out, i = [], 0
    for c in counts:
        out.append(sorted(times[i : i + c]))
        i += c
    return out


async def _burst(port: int, setup: dict, rec: Recorder) -> float:
    rng = random.Random(2026)
    sessions = setup["sessions"]
    t0 = time.perf_counter()
    tasks = [
        _submitter(port, key, times, t0, rec)
        for key, times in zip(sessions[:SUBMITTERS], _schedule(rng), strict=True)
    ]
    tasks += [_reader(port, key, setup, t0 + BURST_S, rec) for key in sessions[SUBMITTERS:]]
    await asyncio.gather(*tasks)
    return time.perf_counter() - t0


def _check_jobs(rec: Recorder) -> dict[str, int]:
    """Lost = accepted but missing from the database, its job, or the queue (or queued twice)."""
    from collections import Counter

    from django.db import connections

    from gradinglab.models import GradingJob, Submission
    from gradinglab.tests.labkit import take_messages

    connections.close_all()
    accepted = set(rec.accepted)
    in_db = set(Submission.objects.filter(pk__in=accepted).values_list("pk", flat=True))
    with_job = set(
        GradingJob.objects.filter(submission_id__in=accepted).values_list(
            "submission_id", flat=True
        )
    )
    queued = Counter(
        kwargs["payload"]["submission_id"]
        for _name, kwargs in take_messages("grade-cpu", expect=len(accepted) + 50, timeout_s=15)
    )
    return {
        "accepted": len(accepted),
        "in_db": len(in_db),
        "with_job": len(with_job),
        "queued": sum(queued.values()),
        "lost": len(accepted - (in_db & with_job & set(queued))),
        "duplicated": sum(1 for n in queued.values() if n > 1),
        "all_submissions": Submission.objects.count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common.add_site_arguments(parser)
    parser.add_argument("--scale", type=float, default=1.0, help="smoke test: fewer people")
    args = parser.parse_args()
    global SUBMITTERS, JOBS, READERS
    SUBMITTERS, JOBS, READERS = (max(2, int(n * args.scale)) for n in (SUBMITTERS, JOBS, READERS))
    JOBS = min(JOBS, 2 * SUBMITTERS)
    site = common.scratch_site("burst", broker_db=12, cache_db=13)
    server = None
    try:
        setup = _setup(SUBMITTERS + READERS)
        port = common.free_port()
        server = subprocess.Popen(
            [str(ROOT / ".venv/bin/gunicorn"), "pdcsite.wsgi:application", "-w", str(args.workers),
             "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
            cwd=ROOT, env=os.environ.copy(),
        )  # fmt: skip
        _wait_up(f"http://127.0.0.1:{port}")
        rec = Recorder()
        load_before = os.getloadavg()[0]
        wall = asyncio.run(_burst(port, setup, rec))
        load_after = os.getloadavg()[0]
        jobs = _check_jobs(rec)
    finally:
        common.stop_site(server, site)
    _report(rec, jobs, wall, (load_before, load_after), args)


def _report(rec: Recorder, jobs: dict[str, int], wall: float, load: tuple, args) -> None:
    every = [ms for values in rec.ms.values() for ms in values]
    p95 = _pct(every, 95)
    ok = not rec.errors and jobs["lost"] == 0 and jobs["accepted"] == JOBS and p95 < P95_TARGET_MS
    kinds = ", ".join(
        f"{kind} n={len(v)} p50 {_pct(v, 50):.0f} / p95 {_pct(v, 95):.0f} ms"
        for kind, v in sorted(rec.ms.items())
    )
    lines = [
        f"- {SUBMITTERS} submitters × {JOBS} jobs (problem page + submit each) within "
        f"{BURST_S:.0f} s, {READERS} readers (lecture page / quiz autosave, {THINK_S[0]}–"
        f"{THINK_S[1]} s apart); gunicorn {args.workers} sync workers; PostgreSQL + Redis broker "
        "and cache of `make services`; no grading worker on the web host",
        f"- wall time {wall:.1f} s; web requests {len(every)}; errors {len(rec.errors)}"
        + (f" ({sorted(set(rec.errors))[:5]})" if rec.errors else ""),
        f"- jobs: accepted {jobs['accepted']}/{JOBS}, in the database with a grading job "
        f"{min(jobs['in_db'], jobs['with_job'])}, in the queue {jobs['queued']} "
        f"(duplicated {jobs['duplicated']}); lost {jobs['lost']}",
        f"- web latency during the burst, all requests: p50 {_pct(every, 50):.0f} ms, "
        f"p95 {p95:.0f} ms, max {max(every, default=float('nan')):.0f} ms "
        f"(target p95 < {P95_TARGET_MS:.0f} ms)",
        f"- by kind: {kinds}; autosaves stored {rec.autosaves}",
    ] + common.closing_lines(load, ok)
    command = f".venv/bin/python bench/deadline_burst.py --workers {args.workers} --write-doc"
    common.report(lines, title="Deadline burst", command=command, write_doc=args.write_doc)


if __name__ == "__main__":
    main()
