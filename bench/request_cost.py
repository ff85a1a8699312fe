"""CPU cost per request of each kind the deadline burst sends, in-process (no gunicorn, no network).

    make services
    .venv/bin/python bench/request_cost.py [--n 50]

The deadline burst (bench/deadline_burst.py) offers about 85 requests/s to 2 cores; whether its
p95 can stay under 300 ms depends first on what each request costs the web process. This measures
that cost as the CPU time of a one-worker gunicorn (utime + stime from /proc, ms) and the wall time
per request of each kind, sent one at a time, with the same
setup (PostgreSQL + Redis cache and broker of `make services`), so the kind to work on is clear.
Results are reported as a table; the offered load times the cost gives the cores the web needs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
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
from bench.deadline_burst import (  # noqa: E402
    BURST_S,
    JOBS,
    READERS,
    SOLUTION,
    THINK_S,
    _cookie,
    _request,
    _setup,
)
from bench.quiz_load import _value, _wait_up  # noqa: E402


def _offered_per_s() -> dict[str, float]:
    """Requests/s of each kind in the burst: submitters' two requests, readers' alternation."""
    reader_rate = READERS / statistics.mean(THINK_S)  # requests/s over all readers
    return {
        "problem page": JOBS / (BURST_S - 5),
        "submit": JOBS / (BURST_S - 5),
        "lecture": reader_rate / 2,
        "autosave": reader_rate / 2,
    }


def _cpu_ms(pid: int) -> float:
    """utime + stime of one process (ms), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1e3 / os.sysconf("SC_CLK_TCK")


def _measure(port: int, worker: int, n: int, setup: dict) -> dict[str, tuple[float, float]]:
    """n requests of each kind, one at a time; the gunicorn worker's CPU over each kind's batch."""
    rng = random.Random(1)
    sessions = setup["sessions"]
    body = urlencode({"backend": "triton", "source": SOLUTION.read_text()})
    reader = _cookie(sessions[-1], rng)  # (cookie header, its CSRF token)
    status, headers, _ = asyncio.run(_request(port, "POST", "/quizzes/burst-quiz/start/", *reader))
    assert status == 302, status
    attempt = int(headers["location"].rstrip("/").split("/")[-1])

    def requests(kind: str, i: int) -> tuple[str, str, tuple[str, str], str, int]:
        student = _cookie(sessions[i % (len(sessions) - 1)], rng)
        if kind == "problem page":
            return "GET", "/lab/problems/vector-add/", student, "", 200
        if kind == "submit":
            return "POST", "/lab/problems/vector-add/submit/", student, body, 302
        if kind == "lecture":
            return "GET", f"/lectures/{rng.choice(setup['lectures'])}/", reader, "", 200
        q = setup["plan"][i % len(setup["plan"])]
        data = urlencode([("value", v) for v in _value(rng, q)])
        return "POST", f"/quizzes/attempt/{attempt}/answer/{q['pk']}/", reader, data, 200

    out = {}
    for kind in ("problem page", "submit", "lecture", "autosave"):
        walls = []
        cpu0 = _cpu_ms(worker)
        for i in range(n):
            method, path, (cookie, token), data, expect = requests(kind, i)
            w0 = time.perf_counter()
            status, _, _ = asyncio.run(_request(port, method, path, cookie, token, data))
            walls.append((time.perf_counter() - w0) * 1e3)
            assert status == expect, (kind, status)
        out[kind] = ((_cpu_ms(worker) - cpu0) / n, statistics.median(walls))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50, help="requests of each kind")
    args = parser.parse_args()
    site = common.scratch_site("cost", broker_db=10, cache_db=11)
    server = None
    try:
        setup = _setup(300)
        port = common.free_port()
        server = subprocess.Popen(
            [str(ROOT / ".venv/bin/gunicorn"), "pdcsite.wsgi:application", "-w", "1",
             "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
            cwd=ROOT, env=os.environ.copy(),
        )  # fmt: skip
        _wait_up(f"http://127.0.0.1:{port}")
        children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
        worker = int(children[0])
        _measure(port, worker, 5, setup)  # warm: imports, templates, first queries
        setup["sessions"] = setup["sessions"][5:]  # fresh students: the rate limit is per student
        costs = _measure(port, worker, args.n, setup)
    finally:
        common.stop_site(server, site)
    offered = _offered_per_s()
    total = 0.0
    print("| kind | CPU ms / request (mean) | wall ms (median) | offered req/s | cores |")
    print("|---|---|---|---|---|")
    for kind, (cpu, wall) in costs.items():
        cores = cpu * offered[kind] / 1e3
        total += cores
        print(f"| {kind} | {cpu:.1f} | {wall:.1f} | {offered[kind]:.1f} | {cores:.2f} |")
    print(
        f"web process total: {total:.2f} cores of the burst's offered load (load {os.getloadavg()[0]:.1f})"
    )


if __name__ == "__main__":
    main()
