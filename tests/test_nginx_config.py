"""deploy/nginx.conf, run by a real nginx in front of the live server: a body over 2 MiB is refused
by the proxy (413) before it reaches the app, and ordinary requests pass through with the
forwarding headers the app trusts. Only the TLS listener is swapped for a loopback port."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _local_config(upstream_port: int, port: int) -> str:
    text = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    text = text.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream_port};")
    text = re.sub(r"server \{\s*listen 80;.*?\n\}\n", "", text, count=1, flags=re.S)
    text = text.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{port};")
    return re.sub(r"^\s*ssl_certificate(_key)? .*$", "", text, flags=re.M)


@pytest.fixture
def proxy(live_server, tmp_path: Path) -> Iterator[str]:
    if not Path(NGINX).exists():
        pytest.fail("nginx is missing: `make setup` installs Debian's nginx-light")
    port = _free_port()
    (tmp_path / "site.conf").write_text(_local_config(live_server.thread.port, port))
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\n"
        "events {}\n"
        f"http {{\n access_log off;\n client_body_temp_path {tmp_path}/body;\n"
        f" proxy_temp_path {tmp_path}/proxy;\n include {tmp_path}/site.conf;\n}}\n"
    )
    args = [
        NGINX,
        "-p",
        str(tmp_path),
        "-c",
        str(tmp_path / "nginx.conf"),
        "-e",
        str(tmp_path / "error.log"),
    ]
    check = subprocess.run([*args, "-t"], capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([*args, "-g", "daemon off;"], stderr=subprocess.PIPE)
    try:
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.django_db(transaction=True)
def test_proxy_refuses_bodies_over_the_limit_and_passes_the_rest(proxy: str) -> None:
    limit = settings.PDC_MAX_REQUEST_BYTES
    big = urllib.request.Request(
        f"{proxy}/api/v1/submissions",
        data=b"x" * (limit + 1),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(big, timeout=30)
    assert refused.value.code == 413 and "nginx" in refused.value.headers.get("Server", "")
    with urllib.request.urlopen(f"{proxy}/healthz", timeout=30) as ok:
        assert ok.status == 200 and ok.headers["Content-Security-Policy"]  # from the app
