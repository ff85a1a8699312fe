"""What a submission page offers depends on who looks: its student may ask for a regrade (the
gradebook's form takes only the student's own work); course staff looking at a student's work get
the admin page where they re-run, comment and override, not a regrade form that would refuse them."""

from __future__ import annotations

import pytest

from gradinglab.tests import labkit
from gradinglab.tests.labkit import load_doc, submit_and_take

pytestmark = pytest.mark.django_db

REGRADE_LINK = "/grades/regrades/new/?item="
REVIEW_LINK = 'id="review-in-admin"'


@pytest.fixture
def graded(client, client_a, worker_token, django_capture_on_commit_callbacks) -> int:
    labkit.make_assignment()
    labkit.purge()
    response, job = submit_and_take(client_a, django_capture_on_commit_callbacks)
    labkit.post_result(client, worker_token, job["job_token"], load_doc("wrong_answer"))
    return response.json()["id"]


@pytest.mark.parametrize("url", ["/lab/submissions/{}/", "/lab/submissions/{}/status/"])
def test_the_student_is_offered_a_regrade_and_no_admin_link(graded, client_a, url) -> None:
    html = client_a.get(url.format(graded)).content.decode()
    assert f"{REGRADE_LINK}lab%3A" in html and f"ref=submission%3A{graded}" in html
    assert REVIEW_LINK not in html


@pytest.mark.parametrize("who", ["client_ta", "client_instructor"])
def test_staff_get_the_admin_page_instead_of_a_regrade_form(graded, request, who) -> None:
    staff = request.getfixturevalue(who)
    for url in (f"/lab/submissions/{graded}/", f"/lab/submissions/{graded}/status/"):
        html = staff.get(url).content.decode()
        assert "答案错误" in html  # the staff member does see the result
        assert REGRADE_LINK not in html, url
    page = staff.get(f"/lab/submissions/{graded}/").content.decode()
    assert f'href="/admin/gradinglab/submission/{graded}/change/" {REVIEW_LINK}' in page
    admin = staff.get(f"/admin/gradinglab/submission/{graded}/change/")
    assert admin.status_code == 200 and "改分" in admin.content.decode()
