"""What the benchmarks share: a free local port and the services `make services` started."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVICES_ENV = ROOT / "var" / "test.env"


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
