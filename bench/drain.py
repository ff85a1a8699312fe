"""Drain benchmark: N queued CPU-path submissions graded by 1 worker process, then by 2, side by side.

    .venv/bin/python bench/drain.py [--count 100] [--redis redis://127.0.0.1:PORT/7]

The whole pipeline is real: a gunicorn web app (SQLite in a scratch folder), Redis as the broker,
`celery -A gradinglab.worker` processes (prefork, concurrency 1 each) running the runner's sandbox and
posting results over HTTP. For each worker count the workers are started and ready first; the clock
runs from the first enqueue until every submission has its stored result. Redis defaults to the one
`make services` started (var/test.env), on its own database index so no test run is disturbed.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.common import free_port, services_redis  # noqa: E402

BIN = Path(sys.executable).parent
READY_TIMEOUT_S = 180  # seconds for a worker to import torch/triton and report ready
DRAIN_TIMEOUT_S = 3600  # seconds; generous for 100 jobs on one loaded core


def _django(env: dict[str, str]) -> None:
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def _prepare(count: int) -> tuple[object, str]:
    from decimal import Decimal

    from django.core.management import call_command

    from accounts.services import user_create_with_role
    from gradinglab.models import Assignment, Problem
    from gradinglab.services.problem_sync import problems_sync
    from gradinglab.services.workers import worker_token_create

    call_command("migrate", verbosity=0)
    problems_sync()
    user = user_create_with_role(username="bench", password="bench-pw-12345", role="student")
    assignment = Assignment.objects.create(
        problem=Problem.objects.get(slug="vector-add"),
        points=Decimal("10"),
        published=True,
        rate_limit_count=10 * count,  # the benchmark submits far faster than a student may
    )
    return (user, assignment), worker_token_create(name="bench-cpu", kind="cpu")


def _start_web(env: dict[str, str], port: int, log: Path) -> subprocess.Popen:
    cmd = [
        str(BIN / "gunicorn"),
        "pdcsite.wsgi",
        "-b",
        f"127.0.0.1:{port}",
        "-w",
        "2",
        "--threads",
        "4",
    ]
    out = log.open("ab")
    return subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )


def _start_workers(
    n: int, env: dict[str, str], log_dir: Path, tag: str, pin: bool = False
) -> list[subprocess.Popen]:
    procs = []
    for i in range(n):
        # --pin: worker i (its Celery child and every sandbox it starts inherit the affinity) runs
        # on core i only, as a GPU host runs one worker per GPU: each worker gets one unit of
        # compute in both runs, so the ratio measures the pipeline's scaling, not the box's cores.
        cmd = ["taskset", "-c", str(i % (os.cpu_count() or 1))] if pin else []
        cmd += [str(BIN / "celery"), "-A", "gradinglab.worker", "worker", "-Q", "grade-cpu",
                "--pool", "prefork", "--concurrency", "1", "--hostname", f"bench{tag}-{i}@%h",
                "--without-gossip", "--without-mingle", "--loglevel", "INFO"]  # fmt: skip
        out = (log_dir / f"worker-{tag}-{i}.log").open("ab")
        procs.append(
            subprocess.Popen(
                cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        )
    deadline = time.monotonic() + READY_TIMEOUT_S
    for i in range(n):
        path = log_dir / f"worker-{tag}-{i}.log"
        while b" ready." not in path.read_bytes():
            if time.monotonic() > deadline or procs[i].poll() is not None:
                raise SystemExit(f"worker {i} did not start:\n{path.read_text()[-2000:]}")
            time.sleep(0.5)
    return procs


def _stop(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def _cpu_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine from /proc/stat (includes other users' load)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


def _drain(student, assignment, count: int, source: str) -> tuple[float, dict[str, int]]:
    from django.db.models import Count

    from gradinglab.models import Submission
    from gradinglab.services.submissions import submission_create

    start = time.monotonic()
    ids = [
        submission_create(
            student=student, assignment=assignment, backend="triton", source=source
        ).pk
        for _ in range(count)
    ]
    pending = Submission.objects.filter(pk__in=ids, status__in=Submission.PENDING)
    deadline = start + DRAIN_TIMEOUT_S
    while pending.exists():
        if time.monotonic() > deadline:
            raise SystemExit("drain timed out")
        time.sleep(0.2)
    elapsed = time.monotonic() - start
    statuses = dict(
        Submission.objects.filter(pk__in=ids).values_list("status").annotate(n=Count("pk"))
    )
    return elapsed, statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--redis", default=None)
    parser.add_argument(
        "--order", default="1,2", help="worker counts in run order, e.g. 2,1 to check order bias"
    )
    parser.add_argument(
        "--pin", action="store_true", help="pin worker i to core i (one core per worker)"
    )
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    scratch = Path(tempfile.mkdtemp(prefix="pdc-drain-"))
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "DJANGO_ENV", "PDC_TEST_RUN_ID")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="pdcsite.settings",
        PDC_VAR_DIR=str(scratch),
        CELERY_BROKER_URL=args.redis or services_redis(7),
        PDC_API_URL=f"http://127.0.0.1:{port}",
        PDC_WORKER_KIND="cpu",
        PYTHONUNBUFFERED="1",
    )
    _django(env)
    (student, assignment), token = _prepare(args.count)
    env["PDC_WORKER_TOKEN"] = token
    from gradinglab.tests.labkit import purge

    purge()
    source = (ROOT / "gradinglab/problems/vector-add/solutions/triton/correct.py").read_text()
    web = _start_web(env, port, scratch / "web.log")
    results: dict[int, tuple[float, dict[str, int]]] = {}
    cpu: dict[int, float] = {}
    try:
        for n in (int(x) for x in args.order.split(",")):
            busy0, total0 = _cpu_ticks()
            workers = _start_workers(n, env, scratch, str(n), pin=args.pin)
            try:
                results[n] = _drain(student, assignment, args.count, source)
            finally:
                _stop(workers)
            busy1, total1 = _cpu_ticks()
            cpu[n] = (busy1 - busy0) / max(1, total1 - total0)
            print(
                f"{n} worker(s): {results[n][0]:.1f} s for {args.count} jobs {results[n][1]}; "
                f"machine CPU busy {100 * cpu[n]:.0f}% of {os.cpu_count()} cores"
            )
    finally:
        _stop([web])
    one, two = results[1][0], results[2][0]
    print(
        f"\n| workers | drain time (s) | jobs/min |\n|---|---|---|\n"
        f"| 1 | {one:.1f} | {60 * args.count / one:.1f} |\n"
        f"| 2 | {two:.1f} | {60 * args.count / two:.1f} |\n\n"
        f"speedup 2 vs 1: {one / two:.2f}x (target >= 1.8x)\n"
        f"date {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, {os.cpu_count()} CPUs, "
        f"1-min load average before the run: {load_before:.1f}; "
        f"{'each worker pinned to its own core' if args.pin else 'workers not pinned'}"
    )
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
