"""An attempt is the student's work: the admin shows it and changes nothing, superusers included.
Its score reaches the gradebook only through the services (the best attempt, the audit row); a
review found that an attempt edited in the admin left the gradebook counting a score that no
longer existed, with no audit row. Staff change a grade by a rescore, an override or an excusal."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from quizzes.models import Attempt
from quizzes.tests.factories import question_single, quiz_with, submit_at

pytestmark = pytest.mark.django_db


def test_a_superuser_sees_an_attempt_and_cannot_change_it(client, student_a, monkeypatch) -> None:
    quiz = quiz_with([question_single("ro-1")], closes_at=timezone.now() + timedelta(days=1))
    attempt = submit_at(quiz, student_a, 1, timezone.now(), monkeypatch)
    root = get_user_model().objects.create_superuser("root", "root@example.edu", "pw-12345-long")
    client.force_login(root)
    url = f"/admin/quizzes/attempt/{attempt.pk}/change/"
    page = client.get(url)
    assert page.status_code == 200 and b'name="score"' not in page.content  # shown, read-only
    client.post(url, {"score": "0", "state": "submitted"})
    assert Attempt.objects.get(pk=attempt.pk).score == attempt.score
    assert client.get("/admin/quizzes/attempt/add/").status_code == 403
