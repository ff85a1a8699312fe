"""Who may see and answer a flag: the student who submitted (their own only), and course staff
(through the lab's access check and the gradebook's staff_required)."""

from __future__ import annotations

from django.test import Client

from flagreview.models import FlagResponse, FlagVerdict
from flagreview.tests.kit import gpu_assignment, graded


def test_another_student_can_neither_see_nor_answer(rejected, client_b) -> None:
    base = f"/flags/submissions/{rejected.pk}/"
    assert client_b.get(base).status_code == 404
    assert client_b.post(base + "respond/", {"text": "not mine"}).status_code == 404
    assert client_b.post(base + "verdict/", {"decision": "keep", "reason": "x"}).status_code == 403
    assert client_b.get("/flags/").status_code == 403
    assert not FlagResponse.objects.exists() and not FlagVerdict.objects.exists()
    anonymous = Client().get(base)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_owner_sees_evidence_in_words_not_raw_flags(rejected, client_a) -> None:
    page = client_a.get(f"/flags/submissions/{rejected.pk}/").content.decode()
    assert "低于这台设备" in page and "0.0100 ms" in page and "0.0601 ms" in page
    assert "flagged for TA review" not in page  # the raw flag string is for staff
    assert 'id="response-form"' in page and 'id="verdict-form"' not in page
    lab = client_a.get(f"/lab/submissions/{rejected.pk}/").content.decode()
    assert "flagged for TA review" not in lab and f"/flags/submissions/{rejected.pk}/" in lab


def test_staff_see_raw_flags_and_judge_but_do_not_answer(rejected, client_ta) -> None:
    base = f"/flags/submissions/{rejected.pk}/"
    page = client_ta.get(base).content.decode()
    assert "flagged for TA review" in page and 'id="verdict-form"' in page
    assert client_ta.post(base + "respond/", {"text": "as the TA"}).status_code == 403
    assert client_ta.get("/flags/").status_code == 200


def test_outputs_that_changed_while_timed_are_a_case_told_in_words(
    client, client_a, gpu_worker_token, django_capture_on_commit_callbacks
) -> None:
    """A run that passed the tests but whose outputs changed during the timed calls (the runner's
    wrong_answer with its comparison message) is a case, its evidence said in the page's words;
    a clean accepted run is not a case (404)."""
    from gradinglab.runner.result import finish
    from gradinglab.tests.labkit import gpu_doc

    gpu_assignment()
    doc = gpu_doc(median_ms=0.2)
    doc["timing"] = None  # a wrong result during timed calls carries no timing (runner/measure)
    finish(
        doc,
        status="wrong_answer",
        message="wrong result during timed calls (large, float32): out: 12 of 16777216 elements "
        "differ; first at index 5: got 1, expected 2 (atol 1e-05, rtol 1e-05)",
    )
    sub = graded(client, client_a, gpu_worker_token, doc, django_capture_on_commit_callbacks)
    page = client_a.get(f"/flags/submissions/{sub.pk}/").content.decode()
    assert "输出 out 有 12 / 16777216 个元素与正确结果不同" in page and "得到 1，应为 2" in page
    assert 'id="response-form"' in page
    clean = graded(
        client,
        client_a,
        gpu_worker_token,
        gpu_doc(roofline=0.35),
        django_capture_on_commit_callbacks,
        "# 2\n",
    )
    assert client_a.get(f"/flags/submissions/{clean.pk}/").status_code == 404  # not a case
