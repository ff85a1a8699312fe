"""Must hold 4 (issue 14): one score scale. One correct kernel, graded for real by the runner (the
students' CLI locally, and the worker path for the web); the CLI, the submission page, the problem
page and the gradebook all show the same points — the assignment's (7.5 here, not the package's
60 + 40 = 100)."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal

import pytest
from django.test import Client

from accounts.models import ApiToken
from gradebook.models import Grade
from gradinglab.models import Submission
from gradinglab.services.workers import worker_token_create
from gradinglab.tests.labkit import ROOT, SOLUTIONS, make_assignment, post_result, purge, take_jobs

pytestmark = [pytest.mark.django_db(transaction=True)]
CLI_TIMEOUT_S = 240  # seconds: the Triton interpreter on a loaded 2-core machine


def test_cli_submission_page_problem_page_and_gradebook_show_the_same_points(
    live_server, student_a, django_capture_on_commit_callbacks
) -> None:
    from gradinglab.runner import grade

    assignment = make_assignment(points=Decimal("7.5"))
    kernel = SOLUTIONS / "triton" / "correct.py"
    raw = ApiToken.new_raw()
    ApiToken.objects.create(user=student_a, key_hash=ApiToken.hash(raw))

    cli = subprocess.run(
        [sys.executable, "-m", "gradinglab.cli", "--url", live_server.url, "--token", raw,
         "test", "vector-add", str(kernel)],
        cwd=ROOT, capture_output=True, text=True, timeout=CLI_TIMEOUT_S,
    )  # fmt: skip
    assert cli.returncode == 0, cli.stdout + cli.stderr
    assert "points: 7.50 / 7.50" in cli.stdout
    assert "/ 100" not in cli.stdout  # the package's own breakdown is not shown as points

    # The web path: the student submits; the runner grades the same kernel (all tests); the
    # worker API stores its document.
    client = Client()
    client.force_login(student_a)
    purge()
    with django_capture_on_commit_callbacks(execute=True):
        created = client.post(
            "/api/v1/submissions",
            data=json.dumps({"problem": "vector-add", "backend": "triton",
                             "source": kernel.read_text(encoding="utf-8")}),
            content_type="application/json",
        )  # fmt: skip
    assert created.status_code == 201, created.content
    (job,) = take_jobs()
    document = grade(slug="vector-add", source=job["source"], backend="triton")
    assert document["status"] == "accepted"
    token = worker_token_create(name="scale-cpu", kind="cpu")
    assert post_result(Client(), token, job["job_token"], document).status_code == 201

    sub = Submission.objects.get()
    page = client.get(f"/lab/submissions/{sub.pk}/").content.decode()
    assert '<strong id="score">7.50</strong> / 7.50' in page
    rule = client.get("/lab/problems/vector-add/").content.decode()
    rule = rule.split('id="scoring-rule">')[1].split("</p>")[0]
    assert "本实验共 7.5 分：正确性 7.5 分" in rule and "60" not in rule  # points_text, as 我的成绩
    grade_row = Grade.objects.get(student=student_a, item__key=assignment.grade_item_key)
    assert grade_row.points == Decimal("7.50")
    mine = client.get("/grades/api/mine").json()
    (item,) = [i for i in mine["items"] if i["key"] == assignment.grade_item_key]
    assert (item["points"], item["max_points"]) == ("7.50", "7.50")
    assert (
        item["title_en"] == grade_row.item.title_en == "Lab: Vector addition"
    )  # for English clients
