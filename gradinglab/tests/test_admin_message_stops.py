"""The lab admin's action messages are sentences that end as the site's other messages do: "。" on
Chinese pages, "." on English ones ("已重新排队 1 个提交" had none, nor the flag, unflag,
publishing check and rescore messages)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.messages import get_messages

from conftest import admin_action
from gradinglab.tests.labkit import make_assignment
from gradinglab.tests.test_override_scope import _graded

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/gradinglab/submission/"


@pytest.mark.parametrize(("lang", "stop"), [("zh-hans", "。"), ("en", ".")])
@pytest.mark.parametrize("action", ["rerun_selected", "unflag_selected"])
def test_an_action_message_ends_with_a_full_stop(client_ta, student_a, lang, stop, action) -> None:
    sub = _graded(make_assignment(title="向量加法实验"), student_a, ("10.00",))[0]
    client_ta.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = admin_action(client_ta, CHANGELIST, action, sub)
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert len(said) == 1 and said[0].endswith(stop), said


def test_the_rescore_message_ends_with_a_full_stop(client_instructor, student_a) -> None:
    sub = _graded(make_assignment(title="向量加法实验"), student_a, ("10.00",))[0]
    url = f"/admin/gradinglab/assignment/{sub.assignment.pk}/rescore/"
    response = client_instructor.post(url)
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert len(said) == 1 and said[0].endswith("。"), said
