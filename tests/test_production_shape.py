"""Must hold 1: the app started as production starts it, then walked by a student.

The steps of the Dockerfile and docker-compose.yml that can run without a container engine, in order:
``compilemessages``; ``collectstatic`` with DJANGO_ENV=production (the manifest storage, as the image
build runs it); ``migrate`` and ``scripts/import_content.sh`` (the web service's command); gunicorn
with production settings on PostgreSQL (a fresh database on the server ``make test`` started) with
Redis as broker and cache; a grading worker (``gradinglab.worker``, no database credentials) with
its worker token. Then login → a lecture (twice: the second is the fast path) → a graded quiz
submitted → a lab submission graded in the sandbox → the gradebook, and ``check --deploy`` clean.

Cheap on purpose: one gunicorn worker, one Celery worker with one process.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path

import psycopg
import pytest
import redis

from tests.processenv import environ_without_site

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
pytestmark = pytest.mark.slow
PASSWORD = "prod-shape-pw-2026"
GRADE_S = 240  # s: worker start plus an interpreter run on 2 busy cores


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _services() -> tuple[str, str]:
    database, broker = os.environ.get("DATABASE_URL", ""), os.environ.get("CELERY_BROKER_URL", "")
    if not database.startswith("postgres") or not broker.startswith("redis"):
        pytest.fail("needs the PostgreSQL + Redis that `make test` / `make services` start")
    return database, broker


class Browser:
    """Plain HTTP as a browser behind the TLS proxy would send it (X-Forwarded-Proto: https).

    Production cookies are Secure, so a stock cookie jar would not send them over loopback HTTP;
    this keeps them itself.
    """

    def __init__(self, base: str) -> None:
        self.base, self.cookies = base, SimpleCookie()
        self.origin = "https://" + urllib.parse.urlsplit(base).netloc

    def request(self, path: str, data: dict[str, str] | None = None) -> tuple[int, dict, str]:
        headers = {"X-Forwarded-Proto": "https", "Origin": self.origin}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={m.value}" for k, m in self.cookies.items())
        body = None
        if data is not None:
            data = {"csrfmiddlewaretoken": self.cookies["csrftoken"].value, **data}
            body = urllib.parse.urlencode(data).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(request, timeout=60) as response:
                status, head, text = response.status, response.headers, response.read().decode()
        except urllib.error.HTTPError as exc:
            status, head, text = exc.code, exc.headers, exc.read().decode()
        for cookie in head.get_all("Set-Cookie") or []:
            self.cookies.load(cookie)
        return status, dict(head), text

    def get(self, path: str) -> str:
        status, _, text = self.request(path)
        assert status == 200, (path, status, text[:500])
        return text

    def post(self, path: str, data: dict[str, str]) -> str:
        status, head, text = self.request(path, data)
        assert status == 302, (path, status, text[:500])
        return head["Location"]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[override]
        return None


@pytest.fixture
def production(tmp_path: Path) -> Iterator[dict[str, str]]:
    """Production environment on a fresh database and two Redis databases of their own."""
    database, broker = _services()
    name = f"pdclab_prod_{os.getpid()}"
    admin = psycopg.connect(database, autocommit=True)
    admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    admin.execute(f'CREATE DATABASE "{name}"')
    redis_base = broker.rsplit("/", 1)[0]
    for db in (6, 7):  # broker 6, cache 7: nothing else in the suite uses them
        redis.Redis.from_url(f"{redis_base}/{db}").flushdb()
    env = environ_without_site()
    env.update(
        DJANGO_ENV="production",
        SECRET_KEY="prod-shape-test-" + "s3cr3t-" * 8,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=database.rsplit("/", 1)[0] + f"/{name}",
        CELERY_BROKER_URL=f"{redis_base}/6",
        CACHE_URL=f"{redis_base}/7",
        PDC_VAR_DIR=str(tmp_path / "var"),
        PDC_DEMO_PASSWORD=PASSWORD,
        PYTHONUNBUFFERED="1",
    )
    try:
        yield env
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def _manage(env: dict[str, str], *args: str, timeout: int = 300) -> str:
    started = time.monotonic()
    result = subprocess.run(
        [str(BIN / "python"), "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, f"manage.py {' '.join(args)}:\n{result.stdout}{result.stderr}"
    print(f"manage.py {args[0]}: {time.monotonic() - started:.1f} s")  # shown with -s
    return result.stdout


def _build_steps(env: dict[str, str]) -> None:
    """The Dockerfile's RUN steps that need no base image: messages, then collectstatic."""
    _manage(env, "compilemessages", "-v", "0", "--ignore", ".venv/*", "--ignore", "var/*")
    build_env = env | {"DATABASE_URL": f"sqlite:///{env['PDC_VAR_DIR']}/build.db"}
    _manage(build_env, "collectstatic", "--noinput", "-v", "0")
    manifest = Path(env["PDC_VAR_DIR"]) / "staticfiles" / "staticfiles.json"
    assert "vendor/chartjs/chart.umd.js" in manifest.read_text()


def _start(cmd: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, 15)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait(timeout=10)


def _wait_healthy(base: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()[-3000:]
        try:
            status, _, text = Browser(base).request("/healthz")
            if status == 200:
                assert text.strip() == '{"status": "ok"}'
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise AssertionError("gunicorn did not become healthy:\n" + log.read_text()[-3000:])


def _worker_env(env: dict[str, str], base: str, token: str) -> dict[str, str]:
    worker = {k: v for k, v in env.items() if k not in ("DATABASE_URL", "SECRET_KEY", "CACHE_URL")}
    worker.update(PDC_API_URL=f"{base}/api/v1/", PDC_WORKER_TOKEN=token, PDC_WORKER_KIND="cpu")
    worker.pop("DJANGO_ENV")  # a grading host runs no Django at all
    return worker


def _make_graded_quiz(env: dict[str, str]) -> tuple[str, str, str]:
    """The imported self-test made a graded quiz; returns its slug and both gradebook keys."""
    code = (
        "from quizzes.models import Quiz; from gradinglab.models import Assignment;"
        "q = Quiz.objects.filter(kind=Quiz.Kind.SELFTEST).first();"
        "Quiz.objects.filter(pk=q.pk).update(kind=Quiz.Kind.GRADED, grade_max_points=10);"
        "q.refresh_from_db();"
        "a = Assignment.objects.get(problem__slug='vector-add');"
        "print(q.slug, q.gradebook_key, a.grade_item_key)"
    )
    slug, quiz_key, lab_key = _manage(env, "shell", "-c", code).strip().splitlines()[-1].split()
    return slug, quiz_key, lab_key


def _graded_row(grades: str, key: str) -> bool:
    row = re.search(rf'data-key="{re.escape(key)}">(.*?)</tr>', grades, re.S)
    return bool(row and re.search(r'class="num points"[^>]*>\d', row.group(1)))


def _walk(browser: Browser, quiz: tuple[str, str, str], source: str) -> None:
    quiz_slug, quiz_key, lab_key = quiz
    browser.get("/accounts/login/")
    assert browser.post("/accounts/login/", {"username": "student1", "password": PASSWORD}) == "/"
    assert "PDC Lab" in browser.get("/")
    for _ in range(2):  # the second read comes from the lecture fast path
        assert 'id="sec-3-4"' in browser.get("/lectures/3/")
    attempt = browser.post(f"/quizzes/{quiz_slug}/start/", {})
    page = browser.get(attempt)
    answer_url, value = re.search(
        r'hx-post="(/quizzes/attempt/\d+/answer/\d+/)".*?name="value" value="([^"]*)"', page, re.S
    ).groups()
    status, _, _ = browser.request(answer_url, {"value": value})
    assert status == 200
    review = browser.post(attempt.rstrip("/") + "/submit/", {})
    assert "attempt-score" in browser.get(review)
    submission = browser.post(
        "/lab/problems/vector-add/submit/", {"backend": "triton", "source": source}
    )
    deadline = time.monotonic() + GRADE_S
    while 'id="score"' not in (page := browser.get(submission)):
        assert time.monotonic() < deadline, page[-2000:]
        time.sleep(2)
    grades = browser.get("/grades/")
    assert _graded_row(grades, quiz_key) and _graded_row(grades, lab_key), grades[-3000:]


def test_production_shape_serves_the_student_path(production: dict[str, str], tmp_path) -> None:
    env = production
    _build_steps(env)
    _manage(env, "migrate", "--noinput", "-v", "0")
    token = _manage(env, "worker_token", "create", "prod-cpu", "--kind", "cpu").strip()
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    web_log, worker_log = tmp_path / "gunicorn.log", tmp_path / "worker.log"
    # Started now, so its imports (torch, triton) overlap the content import below.
    worker = _start(
        [str(BIN / "celery"), "-A", "gradinglab.worker", "worker", "-Q", "grade-cpu",
         "--pool", "prefork", "--concurrency", "1", "--hostname", f"prod-{port}@%h",
         "--without-gossip", "--without-mingle"],
        _worker_env(env, base, token), worker_log,
    )  # fmt: skip
    web = None
    try:
        started = time.monotonic()
        subprocess.run(
            ["scripts/import_content.sh"],
            cwd=ROOT,
            env=env | {"PYTHON": str(BIN / "python")},
            check=True,
            capture_output=True,
            timeout=300,
        )
        print(f"import_content.sh: {time.monotonic() - started:.1f} s")
        assert "student1" in _manage(env, "create_demo_users")
        _manage(env, "publish_demo_labs")
        quiz = _make_graded_quiz(env)
        deploy = _manage(env, "check", "--deploy", "--fail-level", "WARNING")
        assert "System check identified no issues" in deploy
        web = _start(
            [str(BIN / "gunicorn"), "pdcsite.wsgi:application", "--bind", f"127.0.0.1:{port}",
             "--workers", "1", "--access-logfile", "-"],
            env, web_log,
        )  # fmt: skip
        _wait_healthy(base, web, web_log)
        started = time.monotonic()
        source = (ROOT / "gradinglab/problems/vector-add/solutions/triton/correct.py").read_text()
        _walk(Browser(base), quiz, source)
        print(f"walk: {time.monotonic() - started:.1f} s")
    except BaseException:
        print("--- gunicorn\n" + (web_log.read_text()[-4000:] if web_log.exists() else ""))
        print("--- worker\n" + worker_log.read_text()[-4000:])
        raise
    finally:
        _stop(worker)
        if web is not None:
            _stop(web)
    shutil.rmtree(Path(env["PDC_VAR_DIR"]) / "staticfiles", ignore_errors=True)
