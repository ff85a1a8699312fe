"""Who may author and who may publish quizzes: the one access check of the staff quiz pages.

TAs draft (questions, picked questions, rules, settings); instructors also publish. Both come
from the role table in ``accounts.roles`` (permissions ``quizzes.change_quiz`` and
``quizzes.publish_quiz``), so the admin and the staff pages agree.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied


def can_author(user) -> bool:
    return user.is_authenticated and user.has_perm("quizzes.change_quiz")


def can_publish(user) -> bool:
    return user.is_authenticated and user.has_perm("quizzes.publish_quiz")


def author_required(view):
    """Signed in (else the login page) and allowed to author quizzes (else 403)."""

    @login_required
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not can_author(request.user):
            raise PermissionDenied("quiz authoring is for TAs and instructors")
        return view(request, *args, **kwargs)

    return wrapper
