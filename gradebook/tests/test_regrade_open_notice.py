"""The regrade form says at once that the student already has an open request for this work,
with a link to it, instead of a form whose message is refused once written and sent
(你已有一个针对此项的待处理复核申请 came back only after the POST). Another work of the same item,
or the same work once the request is answered, gets the form."""

from __future__ import annotations

import pytest
from django.conf import settings

from gradebook.models import RegradeRequest

NEW = "/grades/regrades/new/"
ASK = {"item": "lab:3", "ref": "testref:123", "message": "第 2 个测试用例的容差判错了"}


def _form(client, ref: str = "testref:123", lang: str = "zh-hans") -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.get(NEW, {"item": "lab:3", "ref": ref})
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("zh-hans", "你已有一个针对此项的待处理复核申请。"),
        ("en", "You already have an open request for this."),
    ],
)
def test_an_open_request_is_named_before_anything_is_written(
    client_a, make_item, lang: str, said: str
) -> None:
    make_item("lab:3", max_points=100)
    assert client_a.post(NEW, ASK).status_code == 302
    open_request = RegradeRequest.objects.get()
    page = _form(client_a, lang=lang)
    assert 'id="regrade-open"' in page and said in page
    assert f'href="/grades/regrades/{open_request.pk}/"' in page
    assert 'name="message"' not in page  # no form to write in and be refused


@pytest.mark.django_db
def test_other_work_and_answered_requests_get_the_form(client_a, make_item) -> None:
    make_item("lab:3", max_points=100)
    assert client_a.post(NEW, ASK).status_code == 302
    assert 'name="message"' in _form(client_a, ref="testref:456")
    RegradeRequest.objects.update(status=RegradeRequest.Status.DECLINED)
    page = _form(client_a)
    assert 'name="message"' in page and 'id="regrade-open"' not in page


@pytest.mark.django_db
@pytest.mark.parametrize("ref", ["\x00", "testref:1\x00", "x" * 65, "a b"])
def test_a_ref_no_work_has_is_refused_not_looked_up(client_a, make_item, ref: str) -> None:
    """The notice's lookup ran after the service had refused the ref: a NUL byte reached
    PostgreSQL and the answer was a 500 (a review); it is the service's 400 again."""
    make_item("lab:3", max_points=100)
    response = client_a.post(NEW, ASK | {"ref": ref})
    assert response.status_code == 400 and not RegradeRequest.objects.exists()
