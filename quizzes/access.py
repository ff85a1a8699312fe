"""Who may author and who may publish quizzes: the one access check of the staff quiz pages.

TAs draft (questions, picked questions, rules, settings); instructors also publish, and once a
quiz is published only they change it (``can_change``). Both come from the role table in
``accounts.roles`` (permissions ``quizzes.change_quiz`` and ``quizzes.publish_quiz``), so the
admin and the staff pages agree. Built on ``accounts.access``.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from accounts.access import access_required, is_staff_member


def can_author(user) -> bool:
    return user.is_authenticated and user.has_perm("quizzes.change_quiz")


def can_publish(user) -> bool:
    return user.is_authenticated and user.has_perm("quizzes.publish_quiz")


def can_change(user, quiz) -> bool:
    """Authors change a draft; a published quiz's settings, picks, points and rules (what students
    take and how it counts in the gradebook) are changed by those who may publish it, and so are
    those of a quiz taken back to a draft after students answered it: its settings still rescore
    their grades and set its gradebook item's late policy (an audit: a TA did both so)."""
    if not can_author(user):
        return False
    return can_publish(user) or not (quiz.published or _answered(quiz))


def _answered(quiz) -> bool:
    from quizzes.models import Attempt

    return Attempt.objects.filter(quiz=quiz, state=Attempt.State.SUBMITTED).exists()


def can_change_question(user, question) -> bool:
    """A question students have answered is changed by those who may publish: its answer and
    points decided grades already given (a TA changed a live quiz's answers in the admin)."""
    from quizzes.models import Answer

    if not can_author(user):
        return False
    return can_publish(user) or not Answer.objects.filter(question=question).exists()


ANSWERED_IS_LOCKED = gettext_lazy("学生已经作答过这道题：只有教师能修改它。")

# What someone who may author but not publish is told about a published quiz (editor and admin).
PUBLISHED_IS_LOCKED = gettext_lazy(
    "这个测验已发布或已有学生交卷：只有教师能修改它的设置、选题、分值和抽题规则。"
)


# Signed in (else the login page) and allowed to author quizzes (else 403).
author_required = access_required(can_author, "quiz authoring is for TAs and instructors")


def sees_all_answers(user) -> bool:
    """Staff review any attempt with every answer, point and explanation shown; a student sees
    what the quiz's review settings release (quizzes.selectors.review_flags)."""
    return is_staff_member(user)
