"""Lecture page throughput vs the same HTML served as a static file.

Both are served by gunicorn (same worker count and class), measured one after the other in one
run by the same asyncio load generator holding 32 concurrent clients:

- dynamic: ``GET /lectures/3/`` as a signed-in student, the way production serves it: Redis as
  the shared cache, so a revisit is answered by the lecture fast path (lectures/fastpath.py: the
  stored page after live session, CSRF-cookie and stamp checks) without the Django request cycle;
- full cycle (reference): the same page with the fast path switched off
  (``PDC_LECTURE_FAST_PATH=false``): session, auth, per-user "读完了" buttons and progress through
  every middleware, the lecture body from the fragment cache;
- static: the byte-identical HTML saved to a file and served by WhiteNoise under gunicorn.

Run: ``make services`` once, then ``.venv/bin/python bench/lecture_rps.py`` (about two minutes; a
throwaway SQLite database and static root under a temp dir, Redis database 8 of the `make services`
server as the cache), or with ``BENCH_PG_URL=postgres://…/db`` to use a scratch database on that
PostgreSQL server as production does; ``BENCH_REDIS_URL=redis://host:port/db`` picks another Redis
database (it is flushed). Prints a Markdown section for docs/benchmarks.md.
"""

from __future__ import annotations

import asyncio
import os
import platform
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.common import free_port, services_redis  # noqa: E402

PYTHON = sys.executable
CONCURRENCY = 32  # simultaneous clients, each with one request in flight
DURATION_S = 15.0  # measured seconds per server
WARMUP_S = 2.0  # seconds of load before measuring (fills caches, forks settle)
WORKERS = 2  # gunicorn sync workers for both servers: one per core on the 2-core dev box
TARGET_RATIO = 0.5  # dynamic RPS must be at least half the static RPS
TARGET_P99_MS = 50.0  # dynamic p99 latency limit in milliseconds
LECTURE = 3


def static_app(environ, start_response):
    """WhiteNoise over BENCH_STATIC_ROOT; built on first call so importing this module is cheap."""
    global _STATIC
    if _STATIC is None:
        from whitenoise import WhiteNoise

        def not_found(env, respond):
            respond("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not found"]

        _STATIC = WhiteNoise(not_found, root=os.environ["BENCH_STATIC_ROOT"], autorefresh=False)
    return _STATIC(environ, start_response)


_STATIC = None


@dataclass
class Result:
    name: str
    requests: int
    errors: int
    seconds: float
    latencies_ms: list[float]
    bytes_per_response: int

    @property
    def rps(self) -> float:
        return self.requests / self.seconds

    def pct(self, q: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def manage(env: dict[str, str], *args: str) -> str:
    cmd = [PYTHON, "manage.py", *args]
    return subprocess.run(cmd, cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout


def bench_database(tmp: Path) -> tuple[str, str | None]:
    """(DATABASE_URL, name of a scratch PostgreSQL database to drop afterwards or None).

    With BENCH_PG_URL (a PostgreSQL server URL, e.g. the one ``make services`` writes to
    var/test.env) the run uses a fresh database there, as production does; otherwise SQLite.
    """
    server = os.environ.get("BENCH_PG_URL")
    if not server:
        return f"sqlite:///{tmp / 'bench.sqlite3'}", None
    import psycopg

    name = f"pdclab_bench_{os.getpid()}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return server.rsplit("/", 1)[0] + f"/{name}", name


def drop_database(name: str | None) -> None:
    if name:
        import psycopg

        with psycopg.connect(os.environ["BENCH_PG_URL"], autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def bench_cache() -> str:
    """A Redis database for the shared cache (flushed first): BENCH_REDIS_URL or var/test.env's."""
    url = os.environ.get("BENCH_REDIS_URL")
    if not url:
        return services_redis(8, flush=True)
    import redis

    redis.Redis.from_url(url).flushdb()
    return url


def prepare(tmp: Path, database_url: str) -> tuple[dict[str, str], str]:
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DJANGO_ENV", "PDC_TEST_RUN_ID")},
        "DJANGO_ENV": "development",
        "DEBUG": "false",
        "PDC_VAR_DIR": str(tmp),
        "DATABASE_URL": database_url,
        "CACHE_URL": bench_cache(),
    }
    manage(env, "migrate", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    manage(env, "import_lectures")
    script = (
        "from django.test import Client; from accounts.services import user_create_with_role as u;"
        "user = u(username='bench', password='pw-bench-12345', role='student', name='bench');"
        "c = Client(); c.force_login(user); print(c.cookies['sessionid'].value)"
    )
    cookie = manage(env, "shell", "-c", script).strip().splitlines()[-1]
    return env, cookie


def start_gunicorn(app: str, port: int, env: dict[str, str]) -> subprocess.Popen:
    cmd = [
        str(Path(PYTHON).parent / "gunicorn"), app, "--bind", f"127.0.0.1:{port}",
        "--workers", str(WORKERS), "--worker-class", "sync", "--log-level", "warning",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env)
    deadline = time.monotonic() + 30  # seconds for gunicorn to boot
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"gunicorn {app} did not start on port {port}")


async def fetch(port: int, path: str, cookie: str) -> tuple[int, bytes, bytes]:
    """One GET on a fresh connection (gunicorn sync workers close after each response)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        f"Cookie: {cookie}\r\nAccept-Encoding: identity\r\n\r\n"
    )
    writer.write(request.encode())
    data = await reader.read()
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), head, body


def browser_cookies(head: bytes, session: str) -> str:
    """The cookies a browser would send next: the session plus the CSRF cookie it was given."""
    match = re.search(rb"Set-Cookie: csrftoken=([^;]+)", head, re.I)
    if match is None:
        raise RuntimeError("the lecture page set no csrftoken cookie")
    return f"sessionid={session}; csrftoken={match.group(1).decode()}"


async def run_load(name: str, port: int, path: str, cookie: str) -> Result:
    latencies: list[float] = []
    counters = {"ok": 0, "err": 0, "bytes": 0}
    measuring = asyncio.Event()
    stop = asyncio.Event()

    async def client() -> None:
        while not stop.is_set():
            t0 = time.perf_counter()
            try:
                status, _, body = await fetch(port, path, cookie)
            except OSError:
                status, body = 0, b""
            if measuring.is_set() and not stop.is_set():
                if status == 200:
                    counters["ok"] += 1
                    counters["bytes"] = len(body)
                    latencies.append((time.perf_counter() - t0) * 1000)
                else:
                    counters["err"] += 1

    tasks = [asyncio.create_task(client()) for _ in range(CONCURRENCY)]
    await asyncio.sleep(WARMUP_S)
    measuring.set()
    start = time.perf_counter()
    await asyncio.sleep(DURATION_S)
    stop.set()
    elapsed = time.perf_counter() - start
    await asyncio.gather(*tasks)
    return Result(name, counters["ok"], counters["err"], elapsed, latencies, counters["bytes"])


def report(dynamic: Result, full: Result, static: Result, floor: Result, database: str) -> str:
    ratio = dynamic.rps / static.rps
    rows = [
        f"| {r.name} | {r.rps:.0f} | {r.pct(0.5):.1f} | {r.pct(0.99):.1f} | "
        f"{statistics.fmean(r.latencies_ms):.1f} | {r.requests} | {r.errors} | {r.bytes_per_response} |"
        for r in (dynamic, full, static, floor)
    ]
    verdict = (
        f"ratio {ratio:.2f}× static (target ≥ {TARGET_RATIO}×: "
        f"{'met' if ratio >= TARGET_RATIO else 'NOT met'}); dynamic p99 {dynamic.pct(0.99):.1f} ms "
        f"(target < {TARGET_P99_MS:.0f} ms: {'met' if dynamic.pct(0.99) < TARGET_P99_MS else 'NOT met'})"
    )
    return "\n".join(
        [
            f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {platform.node()} "
            f"({os.cpu_count()} CPUs, {platform.python_implementation()} {platform.python_version()}, "
            f"database {database}, cache Redis), "
            f"gunicorn {WORKERS} sync workers each, {CONCURRENCY} concurrent clients, "
            f"{DURATION_S:.0f} s measured after {WARMUP_S:.0f} s warm-up, command "
            "`.venv/bin/python bench/lecture_rps.py`.",
            "",
            "| server | req/s | p50 ms | p99 ms | mean ms | requests | errors | bytes |",
            "|---|---|---|---|---|---|---|---|",
            *rows,
            "",
            f"Result: {verdict}. Without the fast path the page reaches "
            f"{full.rps / static.rps:.2f}× static; the empty Django view "
            f"{floor.rps / static.rps:.2f}×.",
        ]
    )


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="pdc-bench-") as tmpdir:
        tmp = Path(tmpdir)
        database_url, scratch_db = bench_database(tmp)
        try:
            dynamic, full, static, floor = measure(tmp, database_url)
        finally:
            drop_database(scratch_db)
    print(report(dynamic, full, static, floor, database_url.split(":", 1)[0]))


def measure(tmp: Path, database_url: str) -> tuple[Result, Result, Result, Result]:
    env, session = prepare(tmp, database_url)
    path = f"/lectures/{LECTURE}/"
    app = start_gunicorn("pdcsite.wsgi:application", app_port := free_port(), env)
    try:
        _, head, _ = asyncio.run(fetch(app_port, path, f"sessionid={session}"))
        cookie = browser_cookies(head, session)
        status, _, html = asyncio.run(fetch(app_port, path, cookie))
        if status != 200 or b'id="sec-3-4"' not in html:
            raise RuntimeError(f"lecture page answered {status}; is the content imported?")
        if asyncio.run(fetch(app_port, path, cookie))[2] != html:
            raise RuntimeError("the revisit differs from the stored page: is the fast path on?")
        static_root = tmp / "static-html"
        (static_root / "lectures" / str(LECTURE)).mkdir(parents=True)
        (static_root / "lectures" / str(LECTURE) / "index.html").write_bytes(html)
        dynamic = asyncio.run(run_load("lecture page (fast path)", app_port, path, cookie))
        # Reference point, not a target: the cheapest Django view (one SELECT 1, full middleware).
        floor = asyncio.run(run_load("Django /healthz (floor)", app_port, "/healthz", cookie))
    finally:
        app.terminate()
        app.wait()
    full_env = {**env, "PDC_LECTURE_FAST_PATH": "false"}
    app = start_gunicorn("pdcsite.wsgi:application", full_port := free_port(), full_env)
    try:
        status, _, same = asyncio.run(fetch(full_port, path, cookie))
        if status != 200 or len(same) != len(html):
            raise RuntimeError(f"full-cycle lecture page answered {status}, {len(same)} bytes")
        full = asyncio.run(run_load("lecture page, full Django cycle", full_port, path, cookie))
    finally:
        app.terminate()
        app.wait()
    static_env = {**env, "BENCH_STATIC_ROOT": str(static_root)}
    server = start_gunicorn("bench.lecture_rps:static_app", static_port := free_port(), static_env)
    try:
        static_path = f"/lectures/{LECTURE}/index.html"
        static = asyncio.run(run_load("same HTML, static file", static_port, static_path, cookie))
    finally:
        server.terminate()
        server.wait()
    return dynamic, full, static, floor


if __name__ == "__main__":
    main()
