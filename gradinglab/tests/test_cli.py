"""The students' CLI: `test` runs the public tests locally with the runner's report format; clear
errors (exit 2) without a token or server; all of it without Django installed. `submit`/`status` against a live server: tests/test_lab_end_to_end.py."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gradinglab.tests.labkit import ROOT, SOLUTIONS

pytestmark = pytest.mark.slow


# A student's laptop has only requirements/cli.txt: the tool runs with Django, Celery and the web
# side made unimportable (an import of any of them fails the run), like `python -m gradinglab.cli`.
_STANDALONE = (
    "import runpy, sys\n"
    "for name in ('django', 'rest_framework', 'celery', 'kombu', 'psycopg', 'pdcsite'):\n"
    "    sys.modules[name] = None\n"
    "sys.argv[0] = 'gradinglab.cli'\n"
    "runpy.run_module('gradinglab.cli', run_name='__main__', alter_sys=True)\n"
)


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", _STANDALONE, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,  # seconds: one Triton-interpreter run on a busy machine
        env=env,
    )


def test_local_test_reports_like_the_runner() -> None:
    ok = _cli("test", "vector-add", str(SOLUTIONS / "triton" / "correct.py"))
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("vector-add [triton, cpu path]: ACCEPTED")
    assert "PASS tiny {'n': 1} float32" in ok.stdout
    wrong = _cli("test", "vector-add", str(SOLUTIONS / "triton" / "off_by_one.py"))
    assert wrong.returncode == 1 and "WRONG_ANSWER" in wrong.stdout and "FAIL" in wrong.stdout


def test_submit_without_token_or_server_fails_clearly(tmp_path) -> None:
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("PDC_TOKEN", "PDC_URL")}
    file = str(SOLUTIONS / "triton" / "correct.py")
    no_token = _cli("submit", "vector-add", file, env=env)
    assert no_token.returncode == 2 and "no API token" in no_token.stderr
    no_server = _cli(
        "--url", "http://127.0.0.1:9", "--token", "pdc_x", "submit", "vector-add", file
    )
    assert no_server.returncode == 2 and "cannot reach" in no_server.stderr
    missing = _cli("--token", "pdc_x", "submit", "vector-add", str(tmp_path / "nope.py"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


@pytest.mark.parametrize(
    ("code", "body", "said"),
    [
        (
            400,
            b'{"source": ["\\u8be5\\u5b57\\u6bb5\\u4e0d\\u80fd\\u4e3a\\u7a7a\\u3002"]}',
            "source: 该字段不能为空。",
        ),
        (429, b'{"detail": "too many submissions"}', "too many submissions"),
        (404, b'{"detail": "No Submission matches the given query."}', "not found (no such"),
        (400, b'{"non_field_errors": ["a", "b"]}', "a; b"),
    ],
)
def test_server_errors_are_printed_as_sentences(code, body, said) -> None:
    import io
    import urllib.error

    from gradinglab.cli import _error_text

    exc = urllib.error.HTTPError("http://x/api/v1/submissions", code, "Bad", {}, io.BytesIO(body))
    text = _error_text(exc)
    assert said in text and "{" not in text and "[" not in text
