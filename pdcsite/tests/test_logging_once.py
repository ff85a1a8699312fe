"""Every log line of the site reaches the console once, with DEBUG on (`make run`) and off.

Django's own default logging gives the ``django`` logger a console handler of its own that only
writes while DEBUG is on; our root handler writes every propagated record too. Unless the site's
LOGGING takes the ``django`` logger over, each django.request warning (a 403, a 404) was printed
twice during development. The check runs a real child process, because logging is configured
once per process at django.setup() and the test process's DEBUG is off."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.processenv import environ_without_site

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import logging, django
django.setup()
logging.getLogger("django.request").warning("probe-request")
logging.getLogger("django.server").info("probe-server")
logging.getLogger("gradinglab").warning("probe-app")
"""


def _stderr(tmp_path: Path, debug: str) -> str:
    env = environ_without_site() | {
        "DJANGO_SETTINGS_MODULE": "pdcsite.settings",
        "DJANGO_ENV": "development",
        "DEBUG": debug,
        "PDC_VAR_DIR": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


@pytest.mark.parametrize("debug", ["true", "false"])
def test_each_record_is_written_once(tmp_path: Path, debug: str) -> None:
    err = _stderr(tmp_path, debug)
    for probe in ("probe-request", "probe-server", "probe-app"):
        assert err.count(probe) == 1, f"{probe} with DEBUG={debug}:\n{err}"
