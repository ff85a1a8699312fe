"""Must hold 6 (issue 13): with the real PostgreSQL of the test run stopped, pages answer a friendly
503 (and the API a JSON 503) instead of a trace; once it is back, the site works again."""

from __future__ import annotations

import os
import shlex
import subprocess
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.serial]

PG_DATA = os.environ.get("PG_DATA", "")


def _pg_ctl(*args: str) -> subprocess.CompletedProcess:
    pg_bin = Path(Path(PG_DATA, "postmaster.opts").read_text().split()[0].strip('"')).parent
    cmd = [str(pg_bin / "pg_ctl"), "-D", PG_DATA, "-w", *args]
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root (scripts/services.sh does the same)
        cmd = ["runuser", "-u", "postgres", "--", *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def _start_options() -> str:
    """The server's own command line (postmaster.opts) less the binary and -D, for pg_ctl -o."""
    words = shlex.split(Path(PG_DATA, "postmaster.opts").read_text())[1:]
    i = words.index("-D")
    return shlex.join(words[:i] + words[i + 2 :])


@pytest.mark.skipif(
    not PG_DATA, reason="needs the PostgreSQL that `make test` / `make services` starts"
)
def test_database_down_is_a_friendly_503_then_recovers(student_a) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(student_a)
    assert client.get("/").status_code == 200
    options = _start_options()
    log = Path(PG_DATA).parent / "pg.log"
    stopped = _pg_ctl("-m", "fast", "stop")
    assert stopped.returncode == 0, stopped.stderr
    try:
        page = client.get("/lectures/")
        html = page.content.decode()
        assert page.status_code == 503 and page["Retry-After"] == "30"
        assert "暂时无法访问" in html and "几十秒内就会恢复" in html
        assert "Traceback" not in html and "OperationalError" not in html and "psycopg" not in html
        api = client.get("/api/v1/submissions/1")
        assert api.status_code == 503 and "数据库暂时不可用" in api.json()["detail"]
        english = Client(raise_request_exception=False)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        english.cookies.load({settings.SESSION_COOKIE_NAME: session, "django_language": "en"})
        english_html = english.get("/").content.decode()
        assert "Temporarily unavailable" in english_html and "暂时无法访问" not in english_html
    finally:
        started = _pg_ctl("-l", str(log), "-o", options, "start")
        assert started.returncode == 0, started.stdout + started.stderr
        connection.close()  # the test thread's connection died with the server
    for _ in range(50):
        if client.get("/").status_code == 200:
            break
        time.sleep(0.2)
    assert client.get("/").status_code == 200
