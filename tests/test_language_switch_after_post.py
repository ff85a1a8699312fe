"""The language switch on a page that answers a POST goes back to a page that answers GET.

A refused lab submission is the response to POST /lab/problems/<slug>/submit/; the switch used to
send the reader back to that address with a GET, which answers 405 (a blank page in Chromium).
On a page drawn for a GET the switch returns to the same address; on one drawn for a POST, to the
page the form lives on: the one the view names, else the same-site page the form was sent from
(Referer), else home.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from gradebook.models import GradeItem
from gradinglab.tests.labkit import make_assignment

pytestmark = pytest.mark.django_db

PROBLEM = "/lab/problems/vector-add/"
NEXT = re.compile(
    r'<form action="/i18n/setlang/"[^>]*>.*?name="next" type="hidden" value="([^"]*)"', re.S
)


def _next(html: str) -> str:
    found = NEXT.search(html)
    assert found, "no language switch on the page"
    return found.group(1).replace("&amp;", "&")


def _switch_to_english(client: Client, page_html: str):
    return client.post("/i18n/setlang/", {"language": "en", "next": _next(page_html)}, follow=True)


def test_switching_language_after_a_refused_submission_lands_on_the_problem_page(
    client_a,
) -> None:
    assignment = make_assignment()
    refused = client_a.post(
        PROBLEM + "submit/",
        {"assignment": assignment.pk, "backend": "triton", "source": ""},
        HTTP_REFERER=f"http://testserver{PROBLEM}submit/",  # sent again from its own error page
    )
    assert refused.status_code == 400 and "提交的代码为空" in refused.content.decode()
    assert _next(refused.content.decode()) == f"{PROBLEM}?assignment={assignment.pk}"

    landed = _switch_to_english(client_a, refused.content.decode())
    html = landed.content.decode()
    assert landed.status_code == 200, landed.redirect_chain
    assert landed.redirect_chain[-1][0] == f"{PROBLEM}?assignment={assignment.pk}"
    assert '<html lang="en">' in html and 'id="submit-form"' in html


def test_a_page_drawn_for_a_get_comes_back_to_itself(client_a) -> None:
    make_assignment()
    html = client_a.get(PROBLEM + "?assignment=1&x=2").content.decode()
    assert _next(html) == PROBLEM + "?assignment=1&x=2"


def _failed_override(client: Client, student_pk: int, **headers: str):
    item = GradeItem.objects.create(key="exam:mid", title="期中", max_points=10)
    url = f"/grades/staff/students/{student_pk}/override/"
    data = {"override-item": item.pk, "override-points": "5"}  # no reason: a field error
    response = client.post(url, data, **headers)
    assert response.status_code == 400
    return response


def test_a_view_that_names_no_page_returns_to_the_page_the_form_was_sent_from(
    client_ta, student_a
) -> None:
    page = f"/grades/staff/students/{student_a.pk}/"
    refused = _failed_override(client_ta, student_a.pk, HTTP_REFERER=f"http://testserver{page}")
    assert _next(refused.content.decode()) == page
    landed = _switch_to_english(client_ta, refused.content.decode())
    assert landed.status_code == 200 and landed.redirect_chain[-1][0] == page
    assert '<html lang="en">' in landed.content.decode()


@pytest.mark.parametrize("referer", [None, "https://elsewhere.example/grades/", "not a url"])
def test_without_a_same_site_referer_the_switch_goes_home(client_ta, student_a, referer) -> None:
    headers = {"HTTP_REFERER": referer} if referer else {}
    refused = _failed_override(client_ta, student_a.pk, **headers)
    assert _next(refused.content.decode()) == "/"
    landed = _switch_to_english(client_ta, refused.content.decode())
    assert landed.status_code == 200 and landed.redirect_chain[-1][0] == "/"
