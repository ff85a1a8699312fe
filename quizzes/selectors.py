"""Reads of the quiz engine: what a student sees in an attempt or review, and staff statistics."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import NamedTuple

from django.utils.translation import gettext as _

from accounts.language import in_page_language, page_lang
from gradebook.calc import days_late
from gradebook.models import GradeItem
from gradebook.selectors import late_rules
from gradebook.templatetags.gradebook_tags import pts
from lectures.selectors import SectionLink, section_links
from pdcsite.csvcells import plain
from pdcsite.moments import local_text
from quizzes import clock
from quizzes.access import sees_all_answers
from quizzes.generators import UNIT_EN, variant_seed
from quizzes.grading import AnswerFormatError, numeric_fraction, parse_number
from quizzes.models import Answer, Attempt, Choice, Question, Quiz
from quizzes.scoring import answer_fraction, correct_keys, question_variant
from quizzes.services import points_in, quiz_hard_close, quiz_late_policy


@dataclass
class ChoiceView:
    key: str
    text: str
    selected: bool
    correct: bool
    label: str = ""  # A, B, C … by the position the student sees (the key is the identity)


@dataclass
class QuestionView:
    number: int
    question: Question
    stem: str
    choices: list[ChoiceView]
    answer: Answer | None
    value: str
    unit: str
    right_answer: str = ""
    explanation: str = ""
    fraction: Decimal | None = None
    points: Decimal | None = None
    params: dict = field(default_factory=dict)
    worth: Decimal | None = None  # what the question is worth in this quiz / attempt
    section_link: SectionLink | None = None  # the notes' section the explanation points back to


# Enough digits to be graded right when typed back, for any tolerance (17 round-trips a float).
MAX_DISPLAY_DIGITS = 17
MIN_DISPLAY_DIGITS = 4  # significant figures shown when the tolerance allows fewer


def format_number(value: float, abs_tol: float = 0.0, rel_tol: float = 0.0) -> str:
    """The shortest plain decimal (no exponent) with at least 4 significant figures that is
    graded right under the given tolerance; exact integers are printed in full."""
    if float(value).is_integer() and abs(value) < 10**MAX_DISPLAY_DIGITS:
        return str(int(value))
    exact = Decimal(repr(value))
    abs_t, rel_t = Decimal(repr(abs_tol)), Decimal(repr(rel_tol))
    for digits in range(MIN_DISPLAY_DIGITS, MAX_DISPLAY_DIGITS + 1):
        text = _plain(Decimal(f"{value:.{digits}g}"))
        if _accepted(text, exact, abs_t, rel_t):
            return text
    return _plain(exact)


def _plain(number: Decimal) -> str:
    text = f"{number:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _accepted(text: str, exact: Decimal, abs_tol: Decimal, rel_tol: Decimal) -> bool:
    try:
        return numeric_fraction(parse_number(text), exact, abs_tol, rel_tol) == 1
    except AnswerFormatError:
        return False


def question_text(question: Question, en: bool) -> tuple[str, str]:
    """(stem, explanation) in the reader's language; Chinese when no English was written."""
    if en and question.stem_en:
        return question.stem_en, question.explanation_en or question.explanation
    return question.stem, question.explanation


def choice_text(choice: Choice, en: bool) -> str:
    return choice.text_en if en and choice.text_en else choice.text


def _choice_order(quiz: Quiz, seed: int, question: Question, keys: list[str]) -> list[str]:
    """Display order of the choices: a shuffle seeded by the attempt (student, quiz, attempt
    number), so a reload shows the same order and another attempt a new one; without shuffling,
    the bank file's order."""
    if not quiz.shuffle_choices:
        return keys
    order = sorted(keys)  # by identity, so reordering the bank file does not move them
    random.Random(variant_seed(seed, question.bank_id, "choices")).shuffle(order)
    return order


def _unit(question: Question, variant_unit: str | None, en: bool) -> str:
    if variant_unit is not None:
        return UNIT_EN.get(variant_unit, variant_unit) if en else variant_unit
    return (question.unit_en or question.unit) if en else question.unit


def _right_answer(question: Question, choices: list[ChoiceView], variant, unit: str) -> str:
    if question.has_choices:
        return "; ".join(f"{c.label}. {c.text}" for c in choices if c.correct)
    if question.qtype == Question.Type.TRUEFALSE:
        return _("对") if question.answer_bool else _("错")
    if question.qtype == Question.Type.NUMERIC:
        return f"{question.answer_number.normalize():f} {unit}".strip()
    shown = format_number(variant.answer, variant.abs_tol, variant.rel_tol)
    return f"{shown} {unit}".strip()


def attempt_questions(attempt: Attempt) -> list[QuestionView]:
    """Questions of an attempt in display order with the student's saved answers."""
    answers = {a.question_id: a for a in attempt.answers.all()}
    return questions_as_seen(
        attempt.quiz, attempt.seed, attempt.question_ids, answers, attempt.points_map
    )


def questions_as_seen(
    quiz: Quiz,
    seed: int,
    question_ids: list[int],
    answers: dict[int, Answer] | None = None,
    points_map: dict[str, str] | None = None,
) -> list[QuestionView]:
    """The questions exactly as a student with this seed sees them (staff preview and bank
    browsing use it with a chosen seed; a student's attempt with its own)."""
    questions = Question.objects.prefetch_related("choices").in_bulk(question_ids)
    anchors = sorted({questions[qid].section for qid in question_ids})
    links = {link.anchor: link for link in section_links(anchors=anchors)}
    answers = answers or {}
    en = page_lang() == "en"  # question text comes from the *_en fields
    views = []
    for number, qid in enumerate(question_ids, start=1):
        question = questions[qid]
        answer = answers.get(qid)
        variant = question_variant(question, seed)
        stem, explanation = question_text(question, en)
        stem = stem.format_map(variant.params) if variant else stem
        by_key = {c.key: c for c in question.choices.all()}
        selected = set(answer.selected) if answer else set()
        choices = [
            ChoiceView(k, choice_text(by_key[k], en), k in selected, by_key[k].correct, _label(i))
            for i, k in enumerate(_choice_order(quiz, seed, question, list(by_key)))
        ]
        unit = _unit(question, variant.unit if variant else None, en)
        views.append(
            QuestionView(
                number=number,
                question=question,
                stem=stem,
                choices=choices,
                answer=answer,
                value=answer.value if answer else "",
                unit=unit,
                right_answer=_right_answer(question, choices, variant, unit),
                explanation=explanation,
                fraction=answer.fraction if answer else None,
                points=answer.points if answer else None,
                params=dict(variant.params) if variant else {},
                worth=points_in(points_map, question),
                section_link=links.get(question.section),
            )
        )
    return views


def _label(position: int) -> str:
    return chr(ord("A") + position)


def question_feedback(attempt: Attempt, question: Question, answer: Answer) -> QuestionView:
    """One question's view with a live-computed fraction (practice feedback during the attempt)."""
    view = next(v for v in attempt_questions(attempt) if v.question.pk == question.pk)
    view.fraction = answer_fraction(attempt.quiz, question, answer, attempt.seed)
    view.points = (view.fraction * view.worth).quantize(Decimal("0.001"))
    return view


def review_moment(attempt: Attempt, now: datetime | None = None) -> str:
    """'during' while open; 'closed' once the quiz's last submission moment passed; else 'after'."""
    if attempt.is_open:
        return "during"
    now = now or clock.now()
    close = quiz_hard_close(attempt.quiz)
    return "closed" if close and now >= close else "after"


def review_flags(attempt: Attempt) -> dict[str, bool]:
    return attempt.quiz.review_flags(review_moment(attempt))


def seconds_left(attempt: Attempt) -> int | None:
    if attempt.deadline is None or not attempt.is_open:
        return None
    return max(0, int((attempt.deadline - clock.now()).total_seconds()))


@dataclass
class QuizStatus:
    quiz: Quiz
    attempts: list[Attempt]
    late: set[int]  # the attempts (pk) that were late: `late_attempt_ids`
    open_attempt: Attempt | None
    attempts_left: int | None
    can_start: bool
    reason: str
    # The submitted attempts (pk) whose score the student may see now: the review's rule
    # (review_flags' "points"; staff see every score, as in the review). The page showed every
    # score while the review and the quiz list said "截止后公布".
    scored: set[int] = field(default_factory=set)


def quiz_status(quiz: Quiz, student) -> QuizStatus:
    attempts = list(Attempt.objects.filter(quiz=quiz, student=student).order_by("number"))
    every = sees_all_answers(student)
    scored = {a.pk for a in attempts if not a.is_open and (every or review_flags(a)["points"])}
    open_attempt = next((a for a in attempts if a.is_open), None)
    left = None if not quiz.max_attempts else max(0, quiz.max_attempts - len(attempts))
    now = clock.now()
    close = quiz_hard_close(quiz)
    reason = ""
    if quiz.opens_at and now < quiz.opens_at:
        reason = _("尚未开放")
    elif close and now >= close:
        reason = _("已截止")
    elif left == 0 and open_attempt is None:
        reason = _("已用完作答次数")
    return QuizStatus(
        quiz,
        attempts,
        late_attempt_ids(attempts),
        open_attempt,
        left,
        open_attempt is not None or not reason,
        reason,
        scored,
    )


# ----------------------------------------------------------------------------- late policy
def quiz_late_item(quiz: Quiz) -> GradeItem:
    """Where a quiz's late policy lives: its gradebook item, which charges the penalty and which
    staff may change in the gradebook; before the item exists (a draft, a practice quiz), an
    unsaved item holding the policy it will be created with (the quiz's "迟交扣分")."""
    item = GradeItem.objects.filter(key=quiz.gradebook_key).first() if quiz.pk else None
    return item or GradeItem(key=quiz.gradebook_key, **quiz_late_policy(quiz))


def flat_late_percent(item: GradeItem) -> Decimal | None:
    """The item's policy as a quiz's one "迟交扣分 %" (any lateness costs that percent), or None
    when the gradebook holds a policy that one percent cannot say (per day, grace days)."""
    if item.late_policy == GradeItem.LatePolicy.NONE:
        return Decimal(0)
    if (
        item.late_policy == GradeItem.LatePolicy.PENALTY
        and item.late_penalty_per_day >= item.late_penalty_cap
    ):
        return item.late_penalty_cap
    return None


def late_terms(item: GradeItem) -> str:
    """The late policy in words: "扣分 10%", or the gradebook's per-day terms."""
    flat = flat_late_percent(item)
    if flat == 0:
        return str(item.get_late_policy_display())
    if flat is not None:
        return _("扣分 %(p)s%%") % {"p": pts(flat)}
    return _("%(policy)s：每天 %(p)s%%，上限 %(cap)s%%") % {
        "policy": item.get_late_policy_display(),
        "p": pts(item.late_penalty_per_day),
        "cap": pts(item.late_penalty_cap),
    }


def late_attempt_ids(attempts: Iterable[Attempt]) -> set[int]:
    """The submitted attempts that were late, by the gradebook's rule as it stands now: submitted
    after the student's own due date (the quiz's item's, or their extension's), so a moved close
    time or a new extension shows at once, as the penalty does. A quiz with no gradebook item
    (practice) by its close time."""
    done = [a for a in attempts if a.submitted_at is not None]
    keys = {a.quiz.gradebook_key for a in done}
    rules = late_rules({a.student_id for a in done}, keys) if done else {}
    late = set()
    for a in done:
        rule = rules.get((a.student_id, a.quiz.gradebook_key))
        due = rule.due_at if rule else a.quiz.closes_at
        if days_late(a.submitted_at, due) > 0:
            late.add(a.pk)
    return late


def quizzes_for_index(user) -> list[Quiz]:
    return list(Quiz.objects.visible_to(user).order_by("kind", "lecture", "title"))


# ----------------------------------------------------------------------------- staff
class ChoiceCount(NamedTuple):
    """How many submitted attempts picked one choice (or answered true / false)."""

    key: str  # the choice's identity, as answers store it
    text: str  # in the page's language: each student saw their own shuffle, so no letter names it
    count: int
    correct: bool


@dataclass
class ItemStats:
    question: Question
    n: int
    facility: float | None
    discrimination: float | None
    distribution: list[ChoiceCount]


DISCRIMINATION_GROUP = 0.27  # Kelley's upper/lower 27 % groups, fraction of attempts


def item_analysis(quiz: Quiz) -> tuple[int, list[ItemStats]]:
    """Facility (mean fraction), discrimination (upper 27 % − lower 27 % mean fraction) and the
    choice distribution per question, over all submitted attempts: one row per picked question
    and per question a rule drew for some attempt."""
    attempts = list(
        Attempt.objects.filter(quiz=quiz, state=Attempt.State.SUBMITTED).order_by("score", "pk")
    )
    fractions: dict[tuple[int, int], Decimal] = {}
    selections: dict[tuple[int, str], int] = {}
    answered: set[tuple[int, int]] = set()
    for answer in Answer.objects.filter(attempt__in=attempts).only(
        "attempt_id", "question_id", "fraction", "selected", "value"
    ):
        fractions[(answer.attempt_id, answer.question_id)] = answer.fraction or Decimal(0)
        if answer.selected or answer.value:
            answered.add((answer.attempt_id, answer.question_id))
        for key in answer.selected or ([answer.value] if answer.value in ("true", "false") else []):
            selections[(answer.question_id, key)] = selections.get((answer.question_id, key), 0) + 1
    group = max(1, round(len(attempts) * DISCRIMINATION_GROUP)) if len(attempts) >= 2 else 0
    lower, upper = attempts[:group], attempts[len(attempts) - group :] if group else []
    stats = []
    for question in _served_questions(quiz, attempts):
        # Facility is over the students who answered: a blank is not evidence about difficulty.
        took = [a for a in attempts if (a.pk, question.pk) in answered]
        values = [float(fractions.get((a.pk, question.pk), 0)) for a in took]
        stats.append(
            ItemStats(
                question=question,
                n=len(took),
                facility=sum(values) / len(values) if values else None,
                discrimination=_discrimination(question, upper, lower, fractions),
                distribution=_distribution(question, selections),
            )
        )
    return len(attempts), stats


def _pool_questions(quiz: Quiz) -> list[Question]:
    links = quiz.pool.select_related("question").prefetch_related("question__choices")
    return [link.question for link in links.order_by("order", "pk")]


def _served_questions(quiz: Quiz, attempts: list[Attempt]) -> list[Question]:
    """The picked questions (in the quiz's order), then every other question these attempts were
    given (drawn by a rule, or picked and since removed) in bank order: rule draws differ per
    attempt, so only the attempts say which questions were served."""
    picked = _pool_questions(quiz)
    known = {q.pk for q in picked}
    others = {qid for a in attempts for qid in a.question_ids} - known
    drawn = Question.objects.filter(pk__in=others).prefetch_related("choices")
    return picked + list(drawn.order_by("lecture", "bank_id"))


def _mean_fraction(question: Question, group: list[Attempt], fractions: dict) -> float | None:
    took = [
        float(fractions.get((a.pk, question.pk), 0)) for a in group if question.pk in a.question_ids
    ]
    return sum(took) / len(took) if took else None


def _discrimination(question: Question, upper: list, lower: list, fractions: dict) -> float | None:
    high = _mean_fraction(question, upper, fractions)
    low = _mean_fraction(question, lower, fractions)
    return None if high is None or low is None else high - low


def _distribution(question: Question, selections: dict) -> list[ChoiceCount]:
    def counted(key: str, text: str, correct: bool) -> ChoiceCount:
        return ChoiceCount(key, text, selections.get((question.pk, key), 0), correct)

    if question.has_choices:
        return [
            counted(c.key, in_page_language(c.text, c.text_en), c.correct)
            for c in question.choices.all()
        ]
    if question.qtype == Question.Type.TRUEFALSE:
        return [
            counted("true", _("对"), question.answer_bool is True),
            counted("false", _("错"), question.answer_bool is False),
        ]
    return []


def attempts_csv_rows(quiz: Quiz) -> list[list[str]]:
    """Header + one row per attempt, with the points of each question any attempt was given
    (picked or drawn by a rule; '' where this attempt was not given it, or is still in progress).
    Column names are keys, as in the gradebook's files; a state, a yes/no and a time are written
    as the pages say them (in the site's time zone, to the second)."""
    attempts = list(
        Attempt.objects.filter(quiz=quiz)
        .select_related("student")
        .prefetch_related("answers")
        .order_by("student__username", "number")
    )
    columns = [(q.pk, q.bank_id) for q in _served_questions(quiz, attempts)]
    late = late_attempt_ids(attempts)
    header = [
        "username",
        "name",
        "attempt",
        "state",
        "started_at",
        "submitted_at",
        "auto_submitted",
        "late",
        "raw_score",
        "raw_max",
        "score",
        *[bank_id for _pk, bank_id in columns],
    ]
    rows = [header]
    for a in attempts:
        points = {ans.question_id: ans.points for ans in a.answers.all()}
        cells = []
        for pk, _bank_id in columns:
            if pk not in a.question_ids or a.is_open:  # not given, or not graded yet
                cells.append("")
            else:
                cells.append(_s(points.get(pk) or Decimal(0)))  # unanswered: 0 points
        rows.append(
            [
                a.student.username,  # [\w.@+-] only, and kept as typed: the key of a row
                plain(a.student.get_full_name()),
                str(a.number),
                a.get_state_display(),
                local_text(a.started_at, seconds=True),
                local_text(a.submitted_at, seconds=True),
                _yes_no(a.auto_submitted),
                _yes_no(a.pk in late),
                _s(a.raw_score),
                _s(a.raw_max),
                _s(a.score),
                *cells,
            ]
        )
    return rows


def _yes_no(value: bool) -> str:
    return _("是") if value else _("否")


def _s(value: Decimal | None) -> str:
    """Points as the pages write them (`pts`: 1.000 -> 1, 0.500 -> 0.5); '' for none."""
    return "" if value is None else pts(value)


def correct_key_list(question: Question) -> list[str]:
    return correct_keys(question)


# ----------------------------------------------------------------------------- staff authoring
BANK_PAGE_SIZE = 200  # questions per bank page; the whole course bank is about this size


def bank_questions(
    *, lecture: int | None = None, section: str = "", qtype: str = "", tag: str = ""
) -> list[Question]:
    """Bank questions matching the filters (blank matches all), in lecture / id order."""
    found = Question.objects.all()
    for name, value in (("lecture", lecture), ("section", section), ("qtype", qtype), ("tag", tag)):
        if value not in (None, ""):
            found = found.filter(**{name: value})
    return list(found.order_by("lecture", "bank_id")[:BANK_PAGE_SIZE])


def bank_lectures() -> list[int]:
    return sorted(set(Question.objects.values_list("lecture", flat=True)))


def questions_sample(questions: list[Question], seed: int) -> list[QuestionView]:
    """Questions as a student sees them, parameterized ones with the draw of ``seed``."""
    unshuffled = Quiz(shuffle_choices=False)
    return questions_as_seen(unshuffled, seed, [q.pk for q in questions])


@dataclass
class Preview:
    seed: int
    questions: list[QuestionView]
    total: Decimal


def quiz_preview(quiz: Quiz, seed: int) -> Preview:
    """The quiz exactly as a student whose attempt has this seed would get it."""
    from quizzes.services import quiz_draw

    draw = quiz_draw(quiz, seed)
    views = questions_as_seen(quiz, seed, draw.question_ids, None, draw.points)
    return Preview(seed, views, sum((v.worth for v in views), Decimal(0)))


def staff_quizzes() -> list[Quiz]:
    return list(Quiz.objects.filter(kind=Quiz.Kind.GRADED).order_by("-created_at"))


def quiz_pool(quiz: Quiz):
    return quiz.pool.select_related("question").order_by("order", "pk")


def staff_questions_by_lecture() -> dict[int, list[Question]]:
    """Questions written on the staff pages, per lecture (what the YAML export holds)."""
    found: dict[int, list[Question]] = {}
    for q in Question.objects.filter(origin="staff").prefetch_related("choices"):
        found.setdefault(q.lecture, []).append(q)
    return found


@dataclass
class QuizRow:
    quiz: Quiz
    attempts: int
    best: Decimal | None  # best score the student may already see
    hidden: bool  # submitted, but scores are released after the close


def quiz_rows(quizzes: list[Quiz], student) -> list[QuizRow]:
    """The quiz list's rows: attempts made and the best visible score, in one query."""
    mine: dict[int, list[Attempt]] = {}
    for a in (
        Attempt.objects.visible_to(student)
        .filter(student=student, quiz__in=quizzes, state=Attempt.State.SUBMITTED)
        .select_related("quiz")
    ):
        mine.setdefault(a.quiz_id, []).append(a)
    rows = []
    for quiz in quizzes:
        done = mine.get(quiz.pk, [])
        shown = [a.score for a in done if a.score is not None and review_flags(a)["points"]]
        rows.append(
            QuizRow(quiz, len(done), max(shown) if shown else None, bool(done) and not shown)
        )
    return rows
