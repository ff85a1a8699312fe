"""Must hold 1: real Redis, a real Celery worker process on grade-cpu, a live server. A correct Triton
vector-add submitted over HTTP and one submitted with the CLI are both accepted, and each student's
gradebook shows the score."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from accounts.models import ApiToken
from gradebook.models import Grade
from gradinglab.models import Submission, SubmissionResult
from gradinglab.services.workers import worker_token_create
from gradinglab.tests.labkit import (
    ROOT,
    SOLUTIONS,
    make_assignment,
    purge,
    start_worker,
    stop_worker,
    wait_until,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

GRADE_TIMEOUT_S = (
    240  # seconds: worker start (Django + torch import) and two interpreter runs on 2 busy cores
)


def _done(pk: int) -> Submission | None:
    sub = Submission.objects.get(pk=pk)
    return None if sub.is_pending else sub


def test_http_and_cli_submissions_are_graded_by_a_real_worker(
    live_server, student_a, student_b, tmp_path: Path
) -> None:
    from django.test import Client

    assignment = make_assignment()
    purge()
    log = tmp_path / "worker.log"
    worker = start_worker(
        app="pdcsite",
        api_url=live_server.url,
        token=worker_token_create(name="e2e-cpu", kind="cpu"),
        log_path=log,
    )
    try:
        # Student A: the browser form over HTTP.
        client = Client()
        client.force_login(student_a)
        source = (SOLUTIONS / "triton" / "correct.py").read_text(encoding="utf-8")
        response = client.post(
            f"{live_server.url}/lab/problems/vector-add/submit/",
            {"backend": "triton", "source": source},
        )
        assert response.status_code == 302
        http_sub = Submission.objects.get(student=student_a)
        assert http_sub.status in ("queued", "running") and http_sub.via == "web"

        # Student B: the command-line tool with a personal API token, waiting for the verdict.
        raw = ApiToken.new_raw()
        ApiToken.objects.create(user=student_b, key_hash=ApiToken.hash(raw))
        cli = subprocess.run(
            [sys.executable, "-m", "gradinglab.cli", "--url", live_server.url, "--token", raw,
             "submit", "vector-add", str(SOLUTIONS / "triton" / "correct.py"), "--wait", "240"],
            cwd=ROOT, capture_output=True, text=True, timeout=GRADE_TIMEOUT_S + 30,
        )  # fmt: skip
        assert cli.returncode == 0, (
            cli.stdout + cli.stderr + log.read_text(errors="replace")[-3000:]
        )
        assert "ACCEPTED" in cli.stdout and "points: 10.00 / 10.00" in cli.stdout

        http_done = wait_until(
            lambda: _done(http_sub.pk),
            timeout_s=GRADE_TIMEOUT_S,
            what="HTTP submission",
            log_path=log,
        )
    finally:
        stop_worker(worker)
    cli_sub = Submission.objects.get(student=student_b)
    assert (http_done.status, cli_sub.status) == ("accepted", "accepted")
    assert cli_sub.via == "cli"
    assert SubmissionResult.objects.count() == 2
    for student in (student_a, student_b):
        grade = Grade.objects.get(student=student, item__key=assignment.grade_item_key)
        assert grade.points == 10 and grade.source == "lab"
    # Each student's own gradebook shows the lab item with the score.
    from gradebook.selectors import student_view

    for student in (student_a, student_b):
        rows = {row.item.key: row for row in student_view(student)["rows"]}
        assert rows[assignment.grade_item_key].result.raw == 10
    page = client.get("/grades/")
    assert page.status_code == 200 and "实验：向量加法" in page.content.decode()
