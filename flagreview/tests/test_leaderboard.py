"""The leaderboard never ranks an unresolved flag or rejection, nor what a TA hid; a TA's restore
or keep puts the run back (remove `leaderboard_eligible` from gradinglab.selectors.leaderboard and
the first assertions fail)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from accounts.models import Profile
from flagreview import services
from flagreview.tests.kit import flagged_doc, gpu_assignment, graded, rejected_doc
from gradinglab.models import Problem
from gradinglab.selectors import leaderboard
from gradinglab.services.submissions import submissions_rerun
from gradinglab.tests import labkit


def _times() -> list[float]:
    return [
        round(r["median_ms"], 4)
        for r in leaderboard(Problem.objects.get(slug="vector-add"), "h100")
    ]


@pytest.fixture
def three_students(db, student_a, student_b, instructor):
    for i, user in enumerate((student_a, student_b)):
        Profile.objects.update_or_create(
            user=user,
            defaults={"student_id": f"S{i}", "display_name": user.username, "pseudonym": f"p{i}"},
        )


def test_unresolved_flags_are_hidden_until_a_verdict(
    client,
    client_a,
    client_b,
    three_students,
    ta,
    gpu_worker_token,
    django_capture_on_commit_callbacks,
) -> None:
    gpu_assignment()
    cap = django_capture_on_commit_callbacks
    rejected = graded(client, client_a, gpu_worker_token, rejected_doc(0.01), cap, "# r\n")
    flagged = graded(client, client_b, gpu_worker_token, flagged_doc(0.08), cap, "# f\n")
    assert (rejected.status, rejected.flagged, flagged.status, flagged.flagged) == (
        "rejected", True, "accepted", True,
    )  # fmt: skip
    assert _times() == []  # neither an unresolved rejection nor an unresolved flag

    services.flag_verdict_record(
        submission=rejected,
        actor=ta,
        decision="restore",
        reason="floor table wrong",
        points=Decimal("10"),
    )
    assert _times() == [0.01]
    services.flag_verdict_record(
        submission=flagged, actor=ta, decision="keep", reason="fused kernel"
    )
    assert _times() == [0.01, 0.08]


def test_a_hidden_run_stays_off_and_the_next_best_shows(
    client, client_a, three_students, ta, gpu_worker_token, django_capture_on_commit_callbacks
) -> None:
    gpu_assignment()
    cap = django_capture_on_commit_callbacks
    fast = graded(client, client_a, gpu_worker_token, flagged_doc(0.08), cap, "# fast\n")
    graded(client, client_a, gpu_worker_token, labkit.gpu_doc(median_ms=0.2), cap, "# slow\n")
    assert _times() == [0.2]
    services.flag_verdict_record(submission=fast, actor=ta, decision="hide", reason="looks cached")
    assert _times() == [0.2]
    page = client_a.get("/lab/problems/vector-add/leaderboard/?kind=h100").content.decode()
    assert "0.2000" in page and "0.0800" not in page


def test_a_verdict_stands_for_its_round_only(
    client, client_a, three_students, ta, gpu_worker_token, django_capture_on_commit_callbacks
) -> None:
    """A TA restored round 1's rejection; staff re-run the submission and round 2 is rejected
    again: it stays off the board until a TA judges round 2 (the round-1 verdict does not carry
    over, neither while round 2 is queued nor once it is graded)."""
    gpu_assignment()
    cap = django_capture_on_commit_callbacks
    sub = graded(client, client_a, gpu_worker_token, rejected_doc(0.01), cap, "# r\n")
    services.flag_verdict_record(
        submission=sub, actor=ta, decision="restore", reason="floor table wrong", points=Decimal(10)
    )
    assert _times() == [0.01]

    labkit.purge("grade-gpu-h100")
    with cap(execute=True):
        assert submissions_rerun(submissions=[sub], actor=ta) == 1
    [job] = labkit.take_jobs("grade-gpu-h100")
    assert _times() == []  # round 2 is queued: nothing of it is judged yet
    response = labkit.post_result(client, gpu_worker_token, job["job_token"], rejected_doc(0.01))
    assert response.status_code == 201, response.content
    assert _times() == []
    sub.refresh_from_db()
    assert (sub.round, sub.status) == (2, "rejected")
    services.flag_verdict_record(
        submission=sub, actor=ta, decision="restore", reason="same again", points=Decimal(10)
    )
    assert _times() == [0.01]
