"""HTTP views: thin wrappers over quizzes.services (writes) and quizzes.selectors (reads)."""

from __future__ import annotations

import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.access import is_staff_member, staff_check
from gradebook.refs import regrade_request_url
from quizzes import selectors, services
from quizzes.access import sees_all_answers
from quizzes.models import Attempt, Question, Quiz


def _own_attempt(request: HttpRequest, pk: int) -> Attempt:
    """An attempt is taken only by its student, staff included (they review through visible_to)."""
    attempts = Attempt.objects.owned_by(request.user).select_related("quiz")
    return get_object_or_404(attempts, pk=pk)


@login_required
def quiz_list(request: HttpRequest) -> HttpResponse:
    quizzes = selectors.quizzes_for_index(request.user)
    return render(
        request,
        "quizzes/quiz_list.html",
        {
            "graded": selectors.quiz_rows(
                [q for q in quizzes if q.kind == Quiz.Kind.GRADED], request.user
            ),
            "practice": selectors.quiz_rows(
                [q for q in quizzes if q.kind == Quiz.Kind.PRACTICE], request.user
            ),
            "selftest": selectors.quiz_rows(
                [q for q in quizzes if q.kind == Quiz.Kind.SELFTEST], request.user
            ),
        },
    )


@login_required
def quiz_detail(request: HttpRequest, slug: str) -> HttpResponse:
    quiz = get_object_or_404(Quiz.objects.visible_to(request.user), slug=slug)
    status = selectors.quiz_status(quiz, request.user)
    return render(
        request,
        "quizzes/quiz_detail.html",
        {
            "quiz": quiz,
            "status": status,
            "is_staff": is_staff_member(request.user),
            "late_terms": selectors.late_terms(selectors.quiz_late_item(quiz)),
        },
    )


@login_required
@require_POST
def attempt_start(request: HttpRequest, slug: str) -> HttpResponse:
    quiz = get_object_or_404(Quiz.objects.visible_to(request.user), slug=slug)
    try:
        attempt = services.attempt_start(quiz=quiz, student=request.user)
    except services.QuizError as exc:
        messages.error(request, str(exc))
        return redirect("quizzes:detail", slug=slug)
    return redirect("quizzes:attempt", pk=attempt.pk)


@login_required
def attempt_take(request: HttpRequest, pk: int) -> HttpResponse:
    attempt = _own_attempt(request, pk)
    if attempt.is_open and services.attempt_is_expired(attempt):
        attempt = services.attempt_submit(attempt_id=attempt.pk, auto=True)
        messages.warning(request, _("作答时间已到，试卷已自动提交。"))
    if not attempt.is_open:
        return redirect("quizzes:review", pk=attempt.pk)
    return render(
        request,
        "quizzes/attempt.html",
        {
            "attempt": attempt,
            "quiz": attempt.quiz,
            "questions": selectors.attempt_questions(attempt),
            "seconds_left": selectors.seconds_left(attempt),
            "flags": attempt.quiz.review_flags("during"),
        },
    )


@login_required
@require_POST
def answer_save(request: HttpRequest, pk: int, question_pk: int) -> HttpResponse:
    try:
        outcome = services.answer_save(
            attempt_id=pk,
            student=request.user,
            question_id=question_pk,
            data={"value": request.POST.getlist("value")},
        )
    except Attempt.DoesNotExist:
        raise Http404 from None
    except services.QuizError as exc:
        outcome = services.SaveOutcome(False, str(exc))
    context: dict = {"outcome": outcome}
    if outcome.saved and outcome.fraction is not None:
        attempt = outcome.attempt
        context["flags"] = attempt.quiz.review_flags("during")
        question = Question.objects.get(pk=question_pk)
        context["view"] = selectors.question_feedback(attempt, question, outcome.answer)
    # No request: the fragment needs no context processors (one query less per autosave).
    response = HttpResponse(render_to_string("quizzes/partials/answer_status.html", context))
    response["X-Quiz-Saved"] = "1" if outcome.saved else "0"
    return response


@login_required
@require_POST
def attempt_submit(request: HttpRequest, pk: int) -> HttpResponse:
    attempt = _own_attempt(request, pk)
    services.attempt_submit(attempt_id=attempt.pk)
    return redirect("quizzes:review", pk=attempt.pk)


@login_required
def attempt_review(request: HttpRequest, pk: int) -> HttpResponse:
    attempt = get_object_or_404(
        Attempt.objects.visible_to(request.user).select_related("quiz", "student"), pk=pk
    )
    if attempt.is_open:
        if attempt.student_id == request.user.pk:
            return redirect("quizzes:attempt", pk=attempt.pk)
        raise PermissionDenied
    staff = sees_all_answers(request.user)
    flags = {k: True for k in ("correctness", "points", "right_answer", "explanation")}
    if not staff:
        flags = selectors.review_flags(attempt)
    return render(
        request,
        "quizzes/review.html",
        {
            "attempt": attempt,
            "quiz": attempt.quiz,
            "questions": selectors.attempt_questions(attempt),
            "flags": flags,
            "late_terms": selectors.late_terms(selectors.quiz_late_item(attempt.quiz)),
            "late": attempt.pk in selectors.late_attempt_ids([attempt]),
            "regrade_url": _regrade_url(request, attempt, flags),
        },
    )


def _regrade_url(request: HttpRequest, attempt: Attempt, flags: dict[str, bool]) -> str:
    """The regrade request form about this attempt, for its student once the review shows the
    score, as the lab's submission page offers one about a submission."""
    if attempt.student_id != request.user.pk or attempt.quiz.kind != Quiz.Kind.GRADED:
        return ""
    if not flags["points"]:
        return ""
    return regrade_request_url(attempt.quiz.gradebook_key, f"quiz-attempt:{attempt.pk}")


def _staff_quiz(request: HttpRequest, slug: str) -> Quiz:
    staff_check(request.user)
    return get_object_or_404(Quiz, slug=slug)


@login_required
def quiz_analysis(request: HttpRequest, slug: str) -> HttpResponse:
    quiz = _staff_quiz(request, slug)
    n_attempts, stats = selectors.item_analysis(quiz)
    return render(
        request,
        "quizzes/analysis.html",
        {"quiz": quiz, "n_attempts": n_attempts, "stats": stats},
    )


@login_required
def attempts_csv(request: HttpRequest, slug: str) -> HttpResponse:
    quiz = _staff_quiz(request, slug)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{quiz.slug}-attempts.csv"'
    response.write("\ufeff")  # BOM so that spreadsheet programs read UTF-8 names correctly
    writer = csv.writer(response)
    writer.writerows(selectors.attempts_csv_rows(quiz))
    return response
