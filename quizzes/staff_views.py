"""Staff quiz pages: the bank, graded quizzes built from picked questions and rules, preview,
publish. Thin: one access check (``quizzes.access``), writes in ``quizzes.authoring``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from pdcsite.params import query_id
from quizzes import authoring, selectors
from quizzes import forms as qforms
from quizzes.access import PUBLISHED_IS_LOCKED, author_required, can_change, can_publish
from quizzes.bank import dump_bank_file
from quizzes.models import Quiz
from quizzes.services import (
    QuizError,
    open_ended_warning,
    quiz_settings_apply,
    recomputed_text,
)

DEFAULT_SEED = 1


def _seed(request: HttpRequest) -> int:
    form = qforms.PreviewForm(request.GET)
    return (form.cleaned_data.get("seed") if form.is_valid() else None) or DEFAULT_SEED


@author_required
@require_GET
def bank(request: HttpRequest) -> HttpResponse:
    target = Quiz.objects.filter(slug=request.GET.get("quiz", "")).first()
    if target is not None and not can_change(request.user, target):
        target = None  # the plain bank: no ticks for a quiz this user may not change
    return _bank_page(request, request.GET or None, target)


def _bank_page(
    request: HttpRequest,
    filter_data: Any,
    target: Quiz | None,
    pick_form: qforms.PickForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The bank under `filter_data`'s filters; when picking for `target`, a refused pick form
    comes back with its ticks and points kept (the list the staff member was working on)."""
    form = qforms.BankFilterForm(filter_data)
    filters = form.cleaned_data if form.is_valid() else {}
    questions = selectors.bank_questions(
        lecture=filters.get("lecture"),
        section=filters.get("section") or "",
        qtype=filters.get("qtype") or "",
        tag=filters.get("tag") or "",
    )
    seed = filters.get("seed") or DEFAULT_SEED
    context = {
        "form": form,
        "views": selectors.questions_sample(questions, seed),
        "target": target,
        "lectures": selectors.bank_lectures(),
        "staff_lectures": sorted(selectors.staff_questions_by_lecture()),
        "pick_form": pick_form,
        "picked": _picked_ids(pick_form),
    }
    return render(request, "quizzes/staff/bank.html", context, status=status)


def _picked_ids(pick_form: qforms.PickForm | None) -> set[int]:
    if pick_form is None:
        return set()
    return {pk for pk in map(query_id, pick_form.data.getlist("questions")) if pk is not None}


@author_required
def question_new(request: HttpRequest) -> HttpResponse:
    form = qforms.QuestionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            question = authoring.question_create_staff(lecture=data["lecture"], data=data)
        except authoring.QuestionInvalid as exc:  # the id was taken since the form's check
            form.add_problems(exc)
        else:
            messages.success(request, _("已保存题目 %(id)s。") % {"id": question.bank_id})
            return redirect(f"{_url('quizzes:staff_bank')}?lecture={question.lecture}")
    status = 400 if request.method == "POST" else 200
    return render(request, "quizzes/staff/question_form.html", {"form": form}, status=status)


def _url(name: str, *args) -> str:
    from django.urls import reverse

    return reverse(name, args=args)


@author_required
@require_GET
def bank_export(request: HttpRequest, lecture: int) -> HttpResponse:
    questions = selectors.staff_questions_by_lecture().get(lecture)
    if not questions:
        raise Http404("no questions written on the staff pages for this lecture")
    title = _("第 %(n)d 讲（网页编写的题目）") % {"n": lecture}
    body = dump_bank_file(lecture, title, questions)
    response = HttpResponse(body, content_type="application/yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="lecture{lecture:02d}-staff.yaml"'
    return response


@author_required
def quiz_list(request: HttpRequest) -> HttpResponse:
    form = qforms.QuizSettingsForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        quiz = form.save(commit=False)
        quiz.kind, quiz.published = Quiz.Kind.GRADED, False  # a new quiz is always a draft
        quiz.save()
        messages.success(request, _("已创建草稿：%(t)s") % {"t": quiz.shown_title})
        return _to_editor(quiz)
    context = {"quizzes": selectors.staff_quizzes(), "form": form}
    status = 400 if request.method == "POST" else 200
    return render(request, "quizzes/staff/quiz_list.html", context, status=status)


def _edit_page(request: HttpRequest, quiz: Quiz, status: int = 200, **forms) -> HttpResponse:
    context = {
        "quiz": quiz,
        "settings_form": forms.get("settings_form") or qforms.QuizSettingsForm(instance=quiz),
        "rule_form": forms.get("rule_form") or qforms.RuleForm(),
        "pool": selectors.quiz_pool(quiz),
        "rules": quiz.rules.all(),
        "can_publish": can_publish(request.user),
        "can_change": can_change(request.user, quiz),
        "locked_note": PUBLISHED_IS_LOCKED,
        "lectures": selectors.bank_lectures(),
        "points_error": forms.get("points_error"),
    }
    return render(request, "quizzes/staff/quiz_edit.html", context, status=status)


def _graded(slug: str) -> Quiz:
    return get_object_or_404(Quiz, slug=slug, kind=Quiz.Kind.GRADED)


def _first_error(form) -> str:
    """What a form the editor shows again after a redirect got wrong, said in a message: the
    field's label and Django's own words ("no more than 4 digits before the decimal point")."""
    name, errors = next(iter(form.errors.items()))
    return _("%(field)s：%(error)s") % {"field": form.fields[name].label, "error": errors[0]}


def _to_editor(quiz: Quiz) -> HttpResponse:
    return redirect("quizzes:staff_quiz", slug=quiz.slug)


def quiz_action(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A POST to the editor of one graded quiz: authors only (checked before the quiz is looked
    up, so others get 403 and learn nothing of which slugs exist), then the URL's ``slug`` becomes
    the graded Quiz it names, or 404. A published quiz is changed only by those who may publish
    (``access.can_change``); a TA is sent back to the editor, which says why, instead of a bare
    403 page."""

    @author_required
    @require_POST
    @functools.wraps(view)
    def wrapped(request: HttpRequest, slug: str, **kwargs) -> HttpResponse:
        quiz = _graded(slug)
        if not can_change(request.user, quiz):
            messages.error(request, PUBLISHED_IS_LOCKED)
            return _to_editor(quiz)
        return view(request, quiz, **kwargs)

    return wrapped


@author_required
@require_GET
def quiz_edit(request: HttpRequest, slug: str) -> HttpResponse:
    return _edit_page(request, _graded(slug))


@quiz_action
def quiz_settings(request: HttpRequest, quiz: Quiz) -> HttpResponse:
    form = qforms.QuizSettingsForm(request.POST, instance=quiz)
    if not form.is_valid():
        return _edit_page(request, Quiz.objects.get(pk=quiz.pk), 400, settings_form=form)
    quiz = form.save()
    recomputed = quiz_settings_apply(quiz=quiz, changed=form.changed_data, actor=request.user)
    messages.success(request, _("设置已保存。"))
    if recomputed:
        messages.info(request, recomputed_text(recomputed))
    if "closes_at" in form.changed_data:
        _warn_open_ended(request, quiz)
    return _to_editor(quiz)


def _warn_open_ended(request: HttpRequest, quiz: Quiz) -> None:
    if warning := open_ended_warning(quiz):
        messages.warning(request, warning)


@quiz_action
def quiz_pick(request: HttpRequest, quiz: Quiz) -> HttpResponse:
    form = qforms.PickForm(request.POST)
    if not form.is_valid():
        # The bank again, as it was filtered (the pick form carries the filters), ticks and
        # points kept: a redirect lost every tick of a long list over one bad number.
        return _bank_page(request, request.POST, quiz, pick_form=form, status=400)
    added = authoring.pool_add(
        quiz=quiz,
        question_ids=[q.pk for q in form.cleaned_data["questions"]],
        points=form.cleaned_data.get("points"),
    )
    messages.success(
        request, ngettext("已加入 %(n)d 道题。", "已加入 %(n)d 道题。", added) % {"n": added}
    )
    return _to_editor(quiz)


@quiz_action
def quiz_points(request: HttpRequest, quiz: Quiz) -> HttpResponse:
    form = qforms.PointsForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        if request.POST.get("remove"):
            authoring.pool_remove(quiz=quiz, question_id=data["question"])
        else:
            authoring.pool_points_set(
                quiz=quiz, question_id=data["question"], points=data.get("points")
            )
        messages.success(request, _("已保存。"))
        return _to_editor(quiz)
    if "question" in form.errors:  # no row to show it in
        messages.error(request, _first_error(form))
        return _to_editor(quiz)
    # The editor again with the typed value in its row and the error under it (a redirect
    # showed the stored value, and the number typed was gone).
    said = {
        "question": form.cleaned_data["question"],
        "typed": request.POST.get("points", ""),
        "errors": form.errors["points"],
    }
    return _edit_page(request, quiz, 400, points_error=said)


@quiz_action
def quiz_rule_add(request: HttpRequest, quiz: Quiz) -> HttpResponse:
    form = qforms.RuleForm(request.POST)
    if form.is_valid():
        try:
            authoring.rule_add(quiz=quiz, spec=form.spec())
        except QuizError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("已添加抽题规则。"))
            return _to_editor(quiz)
    return _edit_page(request, quiz, 400, rule_form=form)


@quiz_action
def quiz_rule_remove(request: HttpRequest, quiz: Quiz, rule_id: int) -> HttpResponse:
    authoring.rule_remove(quiz=quiz, rule_id=rule_id)
    return _to_editor(quiz)


@quiz_action
def quiz_publish(request: HttpRequest, quiz: Quiz) -> HttpResponse:
    if not can_publish(request.user):
        raise PermissionDenied("only instructors publish quizzes")
    try:
        quiz = authoring.quiz_publish_set(quiz=quiz, published=request.POST.get("published") == "1")
    except QuizError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("已发布。") if quiz.published else _("已取消发布。"))
        _warn_open_ended(request, quiz)
    return _to_editor(quiz)


@author_required
@require_GET
def quiz_preview(request: HttpRequest, slug: str) -> HttpResponse:
    quiz = _graded(slug)
    preview = selectors.quiz_preview(quiz, _seed(request))
    return render(request, "quizzes/staff/preview.html", {"quiz": quiz, "preview": preview})
