"""Writes of the quiz engine: importing the bank, starting, autosaving, submitting attempts.

Concurrency: every write to an attempt first locks its row (SELECT … FOR UPDATE), so autosaves of
one attempt and its submission are serialised; the unique constraints on Answer(attempt, question)
and on the one open attempt per (quiz, student) are the backstop. Time always comes from
``quizzes.clock.now()`` (the server), never from the browser.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Final, Literal

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from gradebook.calc import Score
from gradebook.models import Grade, GradeItem
from gradebook.reasons import Reason
from gradebook.selectors import late_rule
from gradebook.services import (
    grade_item_ensure,
    grade_item_late_policy_set,
    grade_record,
    item_release_set,
)
from quizzes import clock
from quizzes.bank import ID_TAKEN, BankError, BankFile, QuestionSpec
from quizzes.generators import variant_seed
from quizzes.grading import (
    AnswerFormatError,
    AnswerOutOfRange,
    parse_number,
    quiz_grade,
    scaled_score,
)
from quizzes.models import Answer, Attempt, Choice, Question, Quiz, QuizQuestion
from quizzes.scoring import answer_fraction

log = logging.getLogger("quizzes")

# An autosave sent in the last instant before the deadline may arrive a little after it; this
# grace (seconds) absorbs network latency only, far below any meaningful extra working time.
DEADLINE_GRACE = timedelta(seconds=2)
SELFTEST_SLUG = "selftest"
SELFTEST_DRAW = 20  # questions per 互动自测 attempt, drawn from all lectures


class QuizError(Exception):
    """A request the quiz rules refuse; the message is shown to the student as is."""


# ----------------------------------------------------------------------------- bank import
@dataclass
class ImportResult:
    file: str
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    ids: list[str] = field(default_factory=list)


def _question_fields(spec: QuestionSpec, source_file: str) -> dict:
    return {
        "lecture": spec.lecture,
        "section": spec.section,
        "qtype": spec.type,
        "tag": spec.tag,
        "stem": spec.stem,
        "explanation": spec.explanation,
        "stem_en": spec.stem_en,
        "explanation_en": spec.explanation_en,
        "points": spec.points,
        "answer_bool": spec.answer if spec.type == "truefalse" else None,
        "answer_number": spec.answer if spec.type == "numeric" else None,
        "abs_tol": spec.abs_tol,
        "rel_tol": spec.rel_tol,
        "unit": spec.unit,
        "unit_en": spec.unit_en,
        "generator": spec.generator,
        "source_file": source_file,
    }


def _same(question: Question, fields: dict) -> bool:
    for name, value in fields.items():
        current = getattr(question, name)
        if isinstance(current, Decimal) and value is not None:
            if current != Decimal(value):
                return False
        elif current != value:
            return False
    return True


def _choice_rows(spec: QuestionSpec) -> list[tuple[str, int, str, str, bool]]:
    return [(c.key, i, c.text, c.text_en, c.correct) for i, c in enumerate(spec.choices)]


def _choices_same(question: Question, spec: QuestionSpec) -> bool:
    have = [(c.key, c.position, c.text, c.text_en, c.correct) for c in question.choices.all()]
    return have == _choice_rows(spec)


@transaction.atomic
def bank_import_file(bank: BankFile) -> ImportResult:
    """Create or update every question of one validated file, all or nothing. Idempotent."""
    result = ImportResult(file=bank.path.name)
    taken = dict(
        Question.objects.filter(bank_id__in=[q.id for q in bank.questions])
        .exclude(source_file=bank.path.name)
        .exclude(origin="staff")
        .values_list("bank_id", "source_file")
    )
    staff_rows = {
        q.bank_id: q
        for q in Question.objects.filter(
            bank_id__in=[q.id for q in bank.questions], origin="staff"
        ).prefetch_related("choices")
    }
    for spec in bank.questions:
        if spec.id in taken:
            raise BankError(bank.path.name, spec.id, ID_TAKEN % {"file": taken[spec.id]})
        if spec.id in staff_rows:
            _keep_staff_question(bank.path.name, staff_rows[spec.id], spec)
            result.unchanged += 1
            result.ids.append(spec.id)
            continue
        fields = _question_fields(spec, bank.path.name)
        question = Question.objects.filter(bank_id=spec.id).prefetch_related("choices").first()
        if question is None:
            question = Question.objects.create(bank_id=spec.id, **fields)
            result.created += 1
        elif _same(question, fields) and _choices_same(question, spec):
            result.unchanged += 1
            result.ids.append(spec.id)
            continue
        else:
            Question.objects.filter(pk=question.pk).update(**fields)
            result.updated += 1
        # Answers store choice keys (derived from the text, not the position), so replacing the
        # choices, reordered or not, loses no answer and regrades none.
        question.choices.all().delete()
        Choice.objects.bulk_create(
            Choice(question=question, key=key, position=pos, text=text, text_en=en, correct=ok)
            for key, pos, text, en, ok in _choice_rows(spec)
        )
        result.ids.append(spec.id)
    return result


def _keep_staff_question(file: str, question: Question, spec: QuestionSpec) -> None:
    """A question written on the staff pages is never overwritten by a file. The same question
    exported to YAML and committed imports as unchanged; a different one is refused by name."""
    fields = _question_fields(spec, question.source_file)
    if not (_same(question, fields) and _choices_same(question, spec)):
        raise BankError(
            file,
            spec.id,
            _(
                "该编号属于网页编写的题目，导入永远不会覆盖它"
                "（请在文件中给题目改用别的编号，或在教师页面修改该题）"
            ),
        )


def english(msgid: str) -> str:
    """The English words of a default the site writes into the database (a quiz's English title):
    stored once, whatever language the import runs in."""
    with translation.override("en"):
        return _(msgid)


def default_words_ensure(quiz: Quiz, **words: tuple[str, str]) -> None:
    """Fill a default quiz's English words (title_en=(default Chinese, English), ...) where the
    field is empty and its Chinese field still holds the default: staff's own words are kept."""
    changed = []
    for name, (zh, en) in words.items():
        if not getattr(quiz, f"{name}_en") and getattr(quiz, name) == zh:
            setattr(quiz, f"{name}_en", en)
            changed.append(f"{name}_en")
    if changed:
        quiz.save(update_fields=changed)
        if quiz.is_graded and quiz.published:
            quiz_gradebook_item(quiz)  # the gradebook column's English title follows


@transaction.atomic
def quizzes_ensure_defaults(titles: dict[int, str]) -> list[Quiz]:
    """Per-lecture practice quizzes and the comprehensive 互动自测, published; pools synced.

    Settings staff changed later are kept: only missing quizzes are created, only missing
    questions are added to the pools, and English titles are filled only where empty.
    """
    made = []
    for lecture, title in sorted(titles.items()):
        zh_title = f"第 {lecture} 讲练习：{title}"
        en_title = english(gettext_noop("第 %(n)d 讲练习")) % {"n": lecture}
        quiz, _created = Quiz.objects.get_or_create(
            slug=f"practice-l{lecture}",
            defaults={
                "title": zh_title,
                "title_en": en_title,
                "kind": Quiz.Kind.PRACTICE,
                "lecture": lecture,
                "published": True,
                "partial_credit": Quiz.Partial.NET_CORRECT,
                "review_correctness_during": True,
                "review_points_during": True,
                "review_right_answer_during": True,
                "review_explanation_during": True,
                "review_right_answer_after": True,
                "review_explanation_after": True,
            },
        )
        default_words_ensure(quiz, title=(zh_title, en_title))
        _pool_sync(quiz, Question.objects.filter(lecture=lecture))
        made.append(quiz)
    words = {
        "title": gettext_noop("互动自测（第 1–10 讲）"),
        "description": gettext_noop(
            "覆盖第 1–10 讲全部考点的综合自测，每次随机抽题，支持单选与多选，自动判分。"
        ),
    }
    selftest, _created = Quiz.objects.get_or_create(
        slug=SELFTEST_SLUG,
        defaults={
            **words,
            **{f"{name}_en": english(zh) for name, zh in words.items()},
            "kind": Quiz.Kind.SELFTEST,
            "published": True,
            "draw_count": SELFTEST_DRAW,
            "shuffle_questions": True,
            "shuffle_choices": True,
            "partial_credit": Quiz.Partial.NET_CORRECT,
            "review_right_answer_after": True,
            "review_explanation_after": True,
        },
    )
    default_words_ensure(selftest, **{name: (zh, english(zh)) for name, zh in words.items()})
    _pool_sync(selftest, Question.objects.all())
    made.append(selftest)
    return made


def _pool_sync(quiz: Quiz, questions) -> None:
    have = set(quiz.pool.values_list("question_id", flat=True))
    start = quiz.pool.aggregate(m=Max("order"))["m"] or 0
    new = [q for q in questions.order_by("lecture", "bank_id") if q.pk not in have]
    QuizQuestion.objects.bulk_create(
        QuizQuestion(quiz=quiz, question=q, order=start + i + 1) for i, q in enumerate(new)
    )


# ----------------------------------------------------------------------------- attempts
def quiz_hard_close(quiz: Quiz) -> datetime | None:
    """The last moment any answer is accepted: the late window's end, else the close time."""
    return quiz.late_until or quiz.closes_at


@dataclass(frozen=True)
class Draw:
    question_ids: list[int]
    points: dict[str, str]  # question id (JSON key) -> points in this quiz, for non-bank values


def quiz_draw(quiz: Quiz, seed: int) -> Draw:
    """The questions (display order) and their points for one seed: the picked pool (or
    ``draw_count`` of it), then each rule's draw from the bank, never repeating a question.
    The same seed always gives the same draw, so a staff preview with seed S is what a student
    with seed S gets."""
    links = list(quiz.pool.order_by("order", "pk").values_list("question_id", "points"))
    rng = random.Random(seed)
    if quiz.draw_count and quiz.draw_count < len(links):
        picked = set(rng.sample([qid for qid, _p in links], quiz.draw_count))
        links = [link for link in links if link[0] in picked]
    chosen = [qid for qid, _p in links]
    points = {str(qid): str(p) for qid, p in links if p is not None}
    for rule in quiz.rules.order_by("order", "pk"):
        candidates = list(rule.matching(exclude=set(chosen)).values_list("pk", flat=True))
        drawn = rng.sample(candidates, min(rule.count, len(candidates)))
        chosen += drawn
        points.update({str(qid): str(rule.points) for qid in drawn})
    if quiz.shuffle_questions:
        rng.shuffle(chosen)
    return Draw(chosen, points)


def points_in(points_map: dict[str, str] | None, question: Question) -> Decimal:
    """What ``question`` is worth under a draw's points map (``Draw.points``, an attempt's
    ``points_map``): the quiz's or the rule's value, else the bank's. The one place that decides
    it: grading, the attempt page, the review and the staff preview all ask here."""
    value = (points_map or {}).get(str(question.pk))
    return Decimal(value) if value is not None else question.points


def question_points(attempt: Attempt, question: Question) -> Decimal:
    """What the question is worth in this attempt (fixed at its start)."""
    return points_in(attempt.points_map, question)


def _check_can_start(quiz: Quiz, student, now: datetime) -> int:
    if not quiz.published:
        raise QuizError(_("该测验尚未发布。"))
    if quiz.opens_at and now < quiz.opens_at:
        raise QuizError(_("该测验尚未开放。"))
    close = quiz_hard_close(quiz)
    if close and now >= close:
        raise QuizError(_("该测验已截止，不能再开始作答。"))
    if not quiz.pool.exists() and not quiz.rules.exists():
        raise QuizError(_("该测验还没有题目。"))
    done = Attempt.objects.filter(quiz=quiz, student=student).aggregate(m=Max("number"))["m"] or 0
    if quiz.max_attempts and done >= quiz.max_attempts:
        raise QuizError(_("已达到最多作答次数（%(n)d 次）。") % {"n": quiz.max_attempts})
    return done + 1


def attempt_start(*, quiz: Quiz, student) -> Attempt:
    """Resume the open attempt, or open a new one. A double click opens only one."""
    now = clock.now()
    with transaction.atomic():
        current = (
            Attempt.objects.select_for_update(of=("self",))
            .filter(quiz=quiz, student=student, state=Attempt.State.IN_PROGRESS)
            .first()
        )
        if current is not None and not _expired(current, now):
            return current
    if current is not None:
        attempt_submit(attempt_id=current.pk, auto=True)
    number = _check_can_start(quiz, student, now)
    seed = variant_seed(settings.SECRET_KEY, "attempt", student.pk, quiz.pk, number)
    deadline = quiz_hard_close(quiz)
    if quiz.time_limit_minutes:
        limit_end = now + timedelta(minutes=quiz.time_limit_minutes)
        deadline = min(limit_end, deadline) if deadline else limit_end
    try:
        draw = quiz_draw(quiz, seed)
        with transaction.atomic():
            return Attempt.objects.create(
                quiz=quiz,
                student=student,
                number=number,
                seed=seed,
                question_ids=draw.question_ids,
                points_map=draw.points,
                started_at=now,
                deadline=deadline,
            )
    except IntegrityError:  # a concurrent start won the race: use its attempt
        return Attempt.objects.get(quiz=quiz, student=student, state=Attempt.State.IN_PROGRESS)


def _expired(attempt: Attempt, now: datetime) -> bool:
    return attempt.deadline is not None and now > attempt.deadline + DEADLINE_GRACE


def attempt_is_expired(attempt: Attempt) -> bool:
    """True once the server clock is past the attempt's deadline (plus the latency grace)."""
    return attempt.is_open and _expired(attempt, clock.now())


@dataclass
class SaveOutcome:
    saved: bool
    message: str
    answer: Answer | None = None
    fraction: Decimal | None = None
    attempt_closed: bool = False
    attempt: Attempt | None = None


def _question_shape(question_id: int) -> tuple[str, set[str]]:
    """(type, choice keys) in one query: a LEFT JOIN row per choice (one row, key None, if none)."""
    rows = list(Question.objects.filter(pk=question_id).values_list("qtype", "choices__key"))
    if not rows:
        raise QuizError(_("该题不在本次作答中。"))
    return rows[0][0], {key for _qtype, key in rows if key is not None}


def _parse_input(qtype: str, keys: set[str], data: dict[str, list[str]]) -> tuple[list[str], str]:
    """(selected choice keys, raw value) from the posted form lists; QuizError when invalid."""
    values = [v for v in data.get("value", []) if v != ""]
    if qtype in (Question.Type.SINGLE, Question.Type.MULTIPLE):
        if any(v not in keys for v in values):
            raise QuizError(_("请选择有效的选项。"))
        if qtype == Question.Type.SINGLE and len(values) != 1:
            raise QuizError(_("单选题只能选一个选项。") if values else _("请选择一个选项。"))
        return sorted(set(values)), ""
    if not values:
        raise QuizError(_("请填写答案。"))
    raw = values[0].strip()[:64]
    if qtype == Question.Type.TRUEFALSE:
        if raw not in ("true", "false"):
            raise QuizError(_("请选择“对”或“错”。"))
        return [], raw
    try:
        parse_number(raw)
    except AnswerOutOfRange:
        raise QuizError(
            _("“%(v)s”超出可接受的数值范围（绝对值在 1e-100 与 1e100 之间），这次修改未保存。")
            % {"v": raw}
        ) from None
    except AnswerFormatError:
        raise QuizError(_("“%(v)s”不是有效的数字，这次修改未保存。") % {"v": raw}) from None
    return [], raw


def answer_save(
    *,
    attempt_id: int,
    student,
    question_id: int,
    data: dict[str, list[str]],
) -> SaveOutcome:
    """Autosave one answer. Refused (earlier answers kept) once the attempt is over."""
    with transaction.atomic():
        attempt = (
            Attempt.objects.select_for_update(of=("self",))
            .select_related("quiz")
            .get(pk=attempt_id, student=student)
        )
        if not attempt.is_open:
            return SaveOutcome(
                False,
                _("本次作答已提交，这次修改未保存；之前保存的答案都已保留。"),
                attempt_closed=True,
            )
        now = clock.now()
        if not _expired(attempt, now):
            return _save_locked(attempt, question_id, data, now)
    attempt_submit(attempt_id=attempt.pk, auto=True)
    return SaveOutcome(
        False,
        _("作答时间已到，试卷已自动提交；这次修改未保存，之前保存的答案都已保留。"),
        attempt_closed=True,
    )


def _save_locked(attempt: Attempt, question_id: int, data: dict, now: datetime) -> SaveOutcome:
    if question_id not in attempt.question_ids:
        raise QuizError(_("该题不在本次作答中。"))
    qtype, keys = _question_shape(question_id)
    selected, value = _parse_input(qtype, keys, data)
    # One INSERT … ON CONFLICT DO UPDATE: the autosave hot path is a single write.
    (answer,) = Answer.objects.bulk_create(
        [
            Answer(
                attempt=attempt,
                question_id=question_id,
                selected=selected,
                value=value,
                saved_at=now,
            )
        ],
        update_conflicts=True,
        unique_fields=["attempt", "question"],
        update_fields=["selected", "value", "saved_at"],
    )
    fraction = None
    if any(attempt.quiz.review_flags("during").values()):
        question = Question.objects.prefetch_related("choices").get(pk=question_id)
        fraction = answer_fraction(attempt.quiz, question, answer, attempt.seed)
    return SaveOutcome(True, _("已保存"), answer=answer, fraction=fraction, attempt=attempt)


def attempt_submit(*, attempt_id: int, auto: bool = False) -> Attempt:
    """Grade and close an attempt exactly once; a second submit returns the first result."""
    with transaction.atomic():
        attempt = (
            Attempt.objects.select_for_update(of=("self",))
            .select_related("quiz")
            .get(pk=attempt_id)
        )
        if not attempt.is_open:
            return attempt
        now = clock.now()
        expired = _expired(attempt, now)
        # Submitted at most at the deadline: an expired attempt counts as submitted then, whenever
        # the server noticed, and a submit inside the latency grace is not "late".
        attempt.submitted_at = min(now, attempt.deadline) if attempt.deadline else now
        attempt.auto_submitted = auto or expired
        _grade(attempt)
        attempt.state = Attempt.State.SUBMITTED
        attempt.save()
        if attempt.quiz.is_graded:
            _post_to_gradebook(attempt)
    return attempt


def _grade(attempt: Attempt) -> None:
    quiz = attempt.quiz
    # Choices prefetched and answers written in one UPDATE: a submit is a handful of queries
    # whatever the number of questions (300 students submitting together is the load peak).
    questions = Question.objects.prefetch_related("choices").in_bulk(attempt.question_ids)
    answers = {a.question_id: a for a in attempt.answers.all()}
    raw, raw_max = Decimal("0"), Decimal("0")
    graded = []
    for qid in attempt.question_ids:
        question = questions[qid]
        worth = question_points(attempt, question)
        raw_max += worth
        answer = answers.get(qid)
        if answer is None:
            continue
        answer.fraction = answer_fraction(quiz, question, answer, attempt.seed)
        answer.points = (answer.fraction * worth).quantize(Decimal("0.001"))
        graded.append(answer)
        raw += answer.points
    Answer.objects.bulk_update(graded, ["fraction", "points"])
    attempt.raw_score, attempt.raw_max = raw, raw_max
    attempt.score = scaled_score(raw, raw_max, quiz.grade_max_points)


def quiz_late_policy(quiz: Quiz) -> dict[str, object]:
    """The quiz's late penalty as a gradebook policy: a flat percent for any lateness (the cap
    equals the per-day rate, so one late day already costs the whole penalty)."""
    if quiz.late_penalty_percent <= 0:
        return {"late_policy": "none"}
    return {
        "late_policy": "penalty",
        "late_penalty_per_day": quiz.late_penalty_percent,
        "late_penalty_cap": quiz.late_penalty_percent,
    }


# `quiz_scores_from`'s answer for a quiz that never shows a student their points.
NEVER: Final = "never"


def quiz_scores_from(quiz: Quiz) -> datetime | None | Literal["never"]:
    """When a student may see their points on ``quiz`` after submitting: the one rule the
    gradebook item's hold (GradeItem.scores_from) is written from, as the review shows them
    (`quizzes.selectors.review_moment`, `Quiz.review_flags`).

    - None: at once, where the review shows points after submitting (review_points_after). Also
      when it hides them again after the close (points_closed off): a score read once cannot be
      taken back, and the gradebook's one moment says from when, not until when.
    - The quiz's hard close (`quiz_hard_close`, the late window's end else the close), where
      points show only once it is closed.
    - NEVER where the review never shows points: after the close it does not either, or the quiz
      has no close to reach. The gradebook item is then kept hidden with no end: created
      unreleased, and hidden when staff change the quiz to this (`quiz_settings_apply`), so the
      score reaches students when an instructor releases the item in the gradebook, the staff
      toggle's usual meaning (scores typed in for an exam wait for it the same way).
    """
    if quiz.review_points_after:
        return None
    close = quiz_hard_close(quiz)
    if quiz.review_points_closed and close is not None:
        return close
    return NEVER


def quiz_gradebook_item(quiz: Quiz):
    """The graded quiz's gradebook item, created or updated (title, maximum, due date, and when
    students see its scores: `quiz_scores_from`, written on every call so that a change of the
    quiz's review options or close moves the hold).

    The late policy is given once, when the item is created; after that the gradebook owns it.
    """
    shown = quiz_scores_from(quiz)
    return grade_item_ensure(
        key=quiz.gradebook_key,
        title=quiz.title,
        title_en=quiz.title_en,
        kind="quiz",
        max_points=quiz.grade_max_points,
        category="quiz",
        due_at=quiz.closes_at,
        late=quiz_late_policy(quiz),
        released=shown != NEVER,
        scores_from=None if shown == NEVER else shown,
    )


def _post_to_gradebook(attempt: Attempt) -> None:
    reason = Reason("attempt_graded", number=attempt.number, method=attempt.quiz.grading_method)
    quiz_grade_sync(quiz=attempt.quiz, student=attempt.student, reason=reason)


def quiz_grade_sync(*, quiz: Quiz, student, reason: str, actor=None) -> Grade | None:
    """Post the student's quiz grade from their submitted attempts' scores (scaled, no penalty)
    and the counting attempt's time: the gradebook charges lateness, and its rule for this student
    (`late_rule`) also decides which attempt is best. None when nothing is submitted."""
    submitted = list(
        Attempt.objects.filter(quiz=quiz, student=student, state=Attempt.State.SUBMITTED)
        .order_by("submitted_at", "number")
        .values_list("score", "submitted_at", "pk")
    )
    item = quiz_gradebook_item(quiz)
    rule = late_rule(student, item.key)
    works = [Score(score, at, f"quiz-attempt:{pk}") for score, at, pk in submitted]
    counted = [rule.counted(work.points, work.submitted_at) for work in works]
    graded = quiz_grade(quiz.grading_method, [work.points for work in works], counted)
    if graded is None:
        return None
    points, counting = graded
    return grade_record(
        student=student,
        item=item,
        points=points,
        source="quiz",
        actor=actor,
        reason=reason,
        submitted_at=works[counting].submitted_at,
        ref=works[counting].ref,
        # Only "best" chooses between attempts, and grace days can change which one is best.
        others=works if quiz.grading_method == Quiz.Grading.BEST else (),
    )


def quiz_grade_follow_due(*, pk: int, student, actor) -> None:
    """The student's lateness on quiz ``pk``'s item changed (an extension, a new late policy):
    the attempt worth most after the late penalty may now be another one. Registered with the
    gradebook for "quiz:" items (quizzes.apps; Quiz.gradebook_key)."""
    quiz = Quiz.objects.filter(pk=pk).first()
    if quiz is not None and quiz.is_graded:
        quiz_grade_sync(quiz=quiz, student=student, reason=Reason("due_changed"), actor=actor)


# Settings whose change alters grades already given: the scale of every attempt's score (the
# gradebook maximum) and which attempt makes the grade (the grading method; for "best", the due
# date too, since the best attempt is the best after the late penalty).
RESCORE_FIELDS = frozenset(
    {"grade_max_points", "grading_method", "closes_at", "late_penalty_percent"}
)


def _made_never(quiz: Quiz, changed: Collection[str]) -> bool:
    """This change of settings (``changed``, already saved) leaves the quiz never showing points
    (`quiz_scores_from`) where it may have shown them: a review option changed, or the close went
    while points were to show once closed. A new close date of a quiz whose review never shows
    points does not count, so it does not hide again an item an instructor has released."""
    if quiz_scores_from(quiz) != NEVER:
        return False
    review = {"review_points_after", "review_points_closed"}
    return bool(review & set(changed)) or (
        quiz.review_points_closed and bool({"closes_at", "late_until"} & set(changed))
    )


def quiz_settings_apply(*, quiz: Quiz, changed: Collection[str], actor) -> int:
    """What follows a staff change of a quiz's settings (already saved): a published graded
    quiz's gradebook item follows its title, maximum and due date, a new late penalty becomes
    the item's policy, and a change of a ``RESCORE_FIELDS`` setting recomputes the grades
    already given. Returns how many students' grades were recomputed."""
    if quiz.is_graded and quiz.published:
        quiz_gradebook_item(quiz)
    item = GradeItem.objects.filter(key=quiz.gradebook_key).first()
    if item is not None and _made_never(quiz, changed):
        # Staff made the quiz never show points: its item's scores are hidden too (audited as
        # theirs), until an instructor releases them in the gradebook (quiz_scores_from).
        item = item_release_set(item=item, released=False, actor=actor)
    if item is not None and "late_penalty_percent" in changed:
        # The gradebook item holds the policy once it exists (it charges the penalty): a new
        # "迟交扣分" is written there, never kept on the quiz alone. Its followers are not called:
        # the penalty is a RESCORE_FIELDS setting, so the rescore below recomputes every grade.
        grade_item_late_policy_set(
            item=item, late=quiz_late_policy(quiz), actor=actor, followers=False
        )
    if RESCORE_FIELDS.isdisjoint(changed):
        return 0
    return quiz_grades_rescore(quiz=quiz, actor=actor)


def recomputed_text(count: int) -> str:
    """What the staff pages say after ``quiz_settings_apply`` recomputed ``count`` grades."""
    return ngettext(
        "已按新设置重新计算 %(n)d 名学生的成绩。", "已按新设置重新计算 %(n)d 名学生的成绩。", count
    ) % {"n": count}


def open_ended_warning(quiz: Quiz) -> str | None:
    """What the staff pages warn of when a graded quiz is published, or left published, with no
    closing time: students can take it at any time, and no attempt is ever late (the gradebook's
    due date is the close). A warning, not a refusal: a quiz open all term may be meant."""
    if not (quiz.is_graded and quiz.published and quiz.closes_at is None):
        return None
    return _(
        "这个计分测验没有截止时间：学生任何时候都可以作答，迟交与迟交扣分都无从谈起。"
        "如需截止，请在设置中填写“截止时间”。"
    )


@transaction.atomic
def quiz_grades_rescore(*, quiz: Quiz, actor) -> int:
    """Rescore (nothing is graded again): every submitted attempt's score from its stored raw
    score under the quiz's current maximum, then each student's gradebook grade under the current
    grading method, audited as a rescore by ``actor``; a staff override stays in force. Returns
    how many students' grades were recomputed (0 for a quiz with no gradebook item)."""
    attempts = list(
        Attempt.objects.select_for_update(of=("self",))
        .filter(quiz=quiz, state=Attempt.State.SUBMITTED)
        .select_related("student")
        .order_by("pk")
    )
    rescaled = []
    for attempt in attempts:
        score = scaled_score(attempt.raw_score, attempt.raw_max, quiz.grade_max_points)
        if score != attempt.score:
            attempt.score = score
            rescaled.append(attempt)
    Attempt.objects.bulk_update(rescaled, ["score"])
    if not quiz.is_graded or not GradeItem.objects.filter(key=quiz.gradebook_key).exists():
        return 0
    students = {attempt.student_id: attempt.student for attempt in attempts}
    reason = Reason("quiz_rescore", user=actor.get_username())
    for student in students.values():
        quiz_grade_sync(quiz=quiz, student=student, reason=reason, actor=actor)
    return len(students)


def attempts_expire_overdue() -> int:
    """Auto-submit every open attempt whose deadline has passed (for the periodic sweep).

    Each attempt on its own: one that cannot be graded is logged and left open for staff, and the
    sweep goes on, so it never keeps everyone else's attempts open past their deadline.
    """
    now = clock.now()
    overdue = (
        Attempt.objects.filter(state=Attempt.State.IN_PROGRESS, deadline__lt=now - DEADLINE_GRACE)
        .order_by("deadline", "pk")
        .values_list("pk", flat=True)
    )
    count = 0
    for pk in list(overdue):
        try:
            attempt_submit(attempt_id=pk, auto=True)
        except Exception:
            log.exception("auto-submit of attempt %s failed; the sweep goes on", pk)
            continue
        count += 1
    return count
