"""The lab editor never loses code: drafts are autosaved on the server per problem and backend, a
refused submission (too large, not UTF-8, rate limited) re-renders the page with the typed code and
the error beside the button, and "run public tests" costs no attempt and has its own limit."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from gradinglab import conf
from gradinglab.models import Draft, Submission
from gradinglab.runner.source import MAX_SOURCE_BYTES
from gradinglab.tests.labkit import make_assignment, purge

pytestmark = pytest.mark.django_db

URL = "/lab/problems/vector-add/"
TYPED = "import triton\n# half-way through my kernel\n"


def test_draft_is_saved_per_backend_and_shown_only_to_its_owner(client_a, client_b) -> None:
    make_assignment()
    ok = client_a.post(URL + "draft/", {"backend": "cuda", "source": "// cuda draft"})
    assert ok.status_code == 200 and ok.json()["saved"] is True
    client_a.post(URL + "draft/", {"backend": "triton", "source": TYPED})
    client_a.post(URL + "draft/", {"backend": "triton", "source": TYPED + "# more\n"})
    assert Draft.objects.count() == 2  # one per backend, updated in place
    page = client_a.get(URL).content.decode()
    assert "# more" in page and "// cuda draft" in page  # the editor and the per-backend drafts
    assert "已恢复" in page
    other = client_b.get(URL).content.decode()
    assert "# more" not in other and "// cuda draft" not in other and "@triton.jit" in other


def test_the_browser_does_not_put_back_form_state_over_the_servers_copy(client_a) -> None:
    """Firefox restores a textarea's and a select's contents on reload before lab.js runs; lab.js
    then took the restored text for the server's copy and never saved it, and dropped its own
    copy of it. The editor and the backend choice opt out of that restoring."""
    make_assignment()
    page = client_a.get(URL).content.decode()
    for tag in ('<textarea name="source"', '<select name="backend"'):
        element = page.split(tag, 1)[1].split(">", 1)[0]
        assert 'autocomplete="off"' in element, tag


@pytest.mark.parametrize(
    "data",
    [
        {"backend": "fortran", "source": "x"},
        {"backend": "triton", "source": "x" * (MAX_SOURCE_BYTES + 1)},
        {"backend": "triton", "source": "a\x00b"},
    ],
)
def test_bad_drafts_are_refused_with_a_reason(client_a, data) -> None:
    make_assignment()
    response = client_a.post(URL + "draft/", data)
    assert response.status_code == 400 and response.json()["error"]
    assert not Draft.objects.exists()


def _editor(html: str) -> str:
    start = html.index('id="source"')
    return html[start : html.index("</textarea>", start)]


def test_non_utf8_upload_keeps_the_typed_code_and_says_why_beside_the_button(client_a) -> None:
    make_assignment()
    upload = SimpleUploadedFile("k.py", b"\xff\xfe not utf-8")
    response = client_a.post(
        URL + "submit/", {"backend": "triton", "source": TYPED, "file": upload}
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "half-way through my kernel" in _editor(html)
    error = html[html.index('id="submit-error"') :][:300]
    assert "UTF-8" in error
    assert html.index('id="submit-button"') < html.index('id="submit-error"')
    assert not Submission.objects.exists()
    assert Draft.objects.get().source == TYPED  # saved on the way, for the next machine too


def test_oversized_upload_is_refused_before_reading(client_a) -> None:
    make_assignment()
    upload = SimpleUploadedFile("k.py", b"x" * (MAX_SOURCE_BYTES + 10))
    response = client_a.post(
        URL + "submit/", {"backend": "triton", "source": TYPED, "file": upload}
    )
    assert response.status_code == 400 and "256 KiB" in response.content.decode()
    assert "half-way through my kernel" in _editor(response.content.decode())


def test_rate_limited_submission_keeps_the_code(client_a, django_capture_on_commit_callbacks):
    from gradinglab.tests.labkit import correct_source

    make_assignment(rate_limit_count=1, rate_limit_minutes=10)
    purge()
    with django_capture_on_commit_callbacks(execute=True):
        first = client_a.post(URL + "submit/", {"backend": "triton", "source": correct_source()})
    assert first.status_code == 302
    again = client_a.post(URL + "submit/", {"backend": "triton", "source": TYPED})
    assert again.status_code == 429
    assert "half-way through my kernel" in _editor(again.content.decode())
    assert "提交过于频繁" in again.content.decode()
    purge()


def test_public_test_run_costs_no_attempt_and_has_its_own_limit(
    client_a, django_capture_on_commit_callbacks, settings
) -> None:
    from gradinglab.tests.labkit import correct_source

    assignment = make_assignment(rate_limit_count=1, rate_limit_minutes=10, gpu_kind="h100")
    purge()
    purge("grade-gpu-h100")
    with django_capture_on_commit_callbacks(execute=True):
        run = client_a.post(
            URL + "submit/", {"backend": "triton", "source": correct_source(), "action": "test"}
        )
        graded = client_a.post(URL + "submit/", {"backend": "triton", "source": correct_source()})
    assert run.status_code == 302 and graded.status_code == 302  # the test run used no attempt
    practice = Submission.objects.get(practice=True)
    assert practice.queue == "grade-cpu" and practice.counts_as_attempt is False
    assert Submission.objects.get(practice=False).queue == assignment.queue_name
    limit = conf.PRACTICE_RATE_COUNT
    Submission.objects.bulk_create(
        [
            Submission(
                assignment=assignment, student=practice.student, backend="triton", source="x",
                sha256="0" * 64, created_at=practice.created_at, queue="grade-cpu",
                practice=True, counts_as_attempt=False, status="accepted",
            )
            for _ in range(limit)
        ]
    )  # fmt: skip
    refused = client_a.post(
        URL + "submit/", {"backend": "triton", "source": TYPED, "action": "test"}
    )
    assert refused.status_code == 429
    purge()
    purge("grade-gpu-h100")


def test_practice_results_are_never_scored(assignment, student_a) -> None:
    from gradinglab.services.results import result_finish
    from gradinglab.tests.labkit import load_doc

    sub = Submission.objects.create(
        assignment=assignment, student=student_a, backend="triton", source="x", sha256="0" * 64,
        created_at=assignment.created_at, queue="grade-cpu", practice=True, counts_as_attempt=False,
    )  # fmt: skip
    result_finish(sub, load_doc("accepted"), None, assignment.created_at)
    sub.refresh_from_db()
    assert sub.status == "accepted" and sub.score is None and sub.counts_as_attempt is False
    from gradebook.models import Grade

    assert not Grade.objects.exists()
