"""Writes of quiz authoring on the staff pages: questions written in the browser, a graded quiz's
picked questions and drawing rules, and publishing.

Permissions are checked by the views (``quizzes.access``); these services keep the rules that
hold whoever calls them: a rule must be satisfiable, a quiz cannot be published without
questions, and a question written here is validated exactly like a bank file's question
(``quizzes.bank``) and stored as ``origin="staff"`` so ``import_quizzes`` never overwrites it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from decimal import Decimal

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext

from quizzes.bank import (
    NOT_A_NUMBER,
    TOO_FEW_CHOICES,
    BankError,
    QuestionSpec,
    bank_empty_message,
    parse_question,
)
from quizzes.models import Choice, Question, Quiz, QuizQuestion, QuizRule
from quizzes.services import (
    QuizError,
    _choice_rows,
    _question_fields,
    default_words_ensure,
    english,
    quiz_gradebook_item,
)

MAX_RULE_COUNT = 50  # questions per rule; a graded quiz is a page, not an exam bank


def _next_order(quiz: Quiz) -> int:
    return (quiz.pool.aggregate(m=Max("order"))["m"] or 0) + 1


@transaction.atomic
def pool_add(*, quiz: Quiz, question_ids: list[int], points: Decimal | None = None) -> int:
    """Add picked questions (those not in the quiz yet) at the end; returns how many."""
    have = set(quiz.pool.values_list("question_id", flat=True))
    found = list(Question.objects.filter(pk__in=question_ids).order_by("lecture", "bank_id"))
    new = [q for q in found if q.pk not in have]
    start = _next_order(quiz)
    QuizQuestion.objects.bulk_create(
        QuizQuestion(quiz=quiz, question=q, order=start + i, points=points)
        for i, q in enumerate(new)
    )
    return len(new)


def pool_remove(*, quiz: Quiz, question_id: int) -> bool:
    return bool(QuizQuestion.objects.filter(quiz=quiz, question_id=question_id).delete()[0])


def pool_points_set(*, quiz: Quiz, question_id: int, points: Decimal | None) -> None:
    if points is not None and points <= 0:
        raise QuizError(_("分值必须大于 0。"))
    QuizQuestion.objects.filter(quiz=quiz, question_id=question_id).update(points=points)


@dataclass(frozen=True)
class RuleSpec:
    count: int
    points: Decimal
    lecture: int | None = None
    section: str = ""
    qtype: str = ""
    tag: str = ""


@transaction.atomic
def rule_add(*, quiz: Quiz, spec: RuleSpec) -> QuizRule:
    """A drawing rule such as "3 from lecture 5, multiple choice"; refused when the bank has fewer
    matching questions than it asks for (beside the picked ones, which it never repeats)."""
    if not 1 <= spec.count <= MAX_RULE_COUNT:
        raise QuizError(_("抽题数必须在 1–%(max)d 之间。") % {"max": MAX_RULE_COUNT})
    if spec.points <= 0:
        raise QuizError(_("分值必须大于 0。"))
    rule = QuizRule(
        quiz=quiz,
        **asdict(spec),  # RuleSpec's fields are QuizRule's, by name
        order=(quiz.rules.aggregate(m=Max("order"))["m"] or 0) + 1,
    )
    picked = set(quiz.pool.values_list("question_id", flat=True))
    available = rule.matching(exclude=picked).count()
    if available < spec.count:
        raise QuizError(
            ngettext(
                "符合条件的题目只有 %(n)d 道（已选入的题目不重复抽取），少于要抽的 %(count)d 道。",
                "符合条件的题目只有 %(n)d 道（已选入的题目不重复抽取），少于要抽的 %(count)d 道。",
                available,
            )
            % {"n": available, "count": spec.count}
        )
    rule.save()
    return rule


def rule_remove(*, quiz: Quiz, rule_id: int) -> bool:
    return bool(QuizRule.objects.filter(quiz=quiz, pk=rule_id).delete()[0])


@transaction.atomic
def quiz_publish_set(*, quiz: Quiz, published: bool) -> Quiz:
    """Publish (students see it; its gradebook item appears with its due date) or take back."""
    quiz = Quiz.objects.select_for_update().get(pk=quiz.pk)
    if published and not quiz.pool.exists() and not quiz.rules.exists():
        raise QuizError(_("该测验还没有题目，不能发布。"))
    if published:
        _settings_check(quiz)
    quiz.published = published
    quiz.save(update_fields=["published"])
    if published and quiz.is_graded:
        quiz_gradebook_item(quiz)
    return quiz


def _settings_check(quiz: Quiz) -> None:
    """The settings' rules (the model's validators and clean) hold at publishing too: a draft
    saved before they existed, with a 0-minute limit or a close before its opening, is refused
    here rather than found by its students."""
    try:
        quiz.full_clean(validate_unique=False)
    except ValidationError as exc:
        name, errors = next(iter(exc.message_dict.items()))
        if name != NON_FIELD_ERRORS:
            label = Quiz._meta.get_field(name).verbose_name
            errors = [_("%(field)s：%(error)s") % {"field": label, "error": errors[0]}]
        raise QuizError(_("设置有误，不能发布：%(error)s") % {"error": errors[0]}) from exc


# --- questions written on the staff pages -----------------------------------------------------

# One thing wrong with a question written on the staff pages: the form's field at fault ("" for
# the whole question) and what to do, in the reader's language.
Problem = tuple[str, str]


class QuestionInvalid(QuizError):
    """A question the bank's checks refuse, with every problem found (``problems``)."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(message for _field, message in problems))
        self.problems = problems


# The bank file's key -> the staff form's field, where they differ.
_FORM_FIELD = {"id": "bank_id", "type": "qtype", "choices.en": "choices_en", "tolerance": "abs_tol"}


def question_raw(data: dict, problems: list[Problem]) -> dict:
    """The form's cleaned data as a bank-file question mapping (the YAML format's keys). What only
    the form can get wrong (a true/false answer's word, more English choices than Chinese ones)
    is added to ``problems``. A field the form refused is not in ``data``, nor in the mapping."""
    raw: dict = {"id": data.get("bank_id"), "section": data.get("section")}
    raw["type"] = data.get("qtype")
    texts = ("stem", "explanation", "tag", "stem_en", "explanation_en")
    raw |= {key: data[key] for key in texts if data.get(key)}
    if data.get("points") is not None:
        raw["points"] = str(data["points"])
    if raw["type"] in ("single", "multiple"):
        chinese, english = data.get("choices") or "", data.get("choices_en") or ""
        raw["choices"] = _choices_raw(chinese, english, problems)
    elif raw["type"] == "truefalse":
        raw["answer"] = _truth(data.get("answer", ""), problems)
    elif raw["type"] == "numeric":
        raw["answer"] = data.get("answer", "")
        raw["tolerance"] = {"abs": str(data.get("abs_tol") or 0)}
        if data.get("unit"):
            raw["unit"] = data["unit"]
        if data.get("unit_en"):
            raw["unit_en"] = data["unit_en"]
    return raw


# What staff type for a true/false answer. Anything else is refused: blank, "正确" and "√"
# were stored as 错 without a word (an audit).
_TRUE_WORDS = {"对", "正确", "是", "√", "✓", "true", "t", "yes", "y", "1"}
_FALSE_WORDS = {"错", "错误", "否", "×", "✗", "false", "f", "no", "n", "0"}


def _truth(answer: str, problems: list[Problem]) -> bool | None:
    word = answer.strip().lower()
    if word in _TRUE_WORDS | _FALSE_WORDS:
        return word in _TRUE_WORDS
    problems.append(("answer", _("判断题的答案请写“对”或“错”（也可写 true / false）。")))
    return None


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _choices_raw(chinese: str, english: str, problems: list[Problem]) -> list[dict]:
    """One choice a line, * before the right ones; the English lines go with the Chinese ones in
    order (a * there is ignored: which choices are right is said once, on the Chinese lines)."""
    zh, en = _lines(chinese), [line.lstrip("*").strip() for line in _lines(english)]
    if len(en) > len(zh):
        message = ngettext(
            "英文选项有 %(en)d 行，比中文选项（%(zh)d 行）多。",
            "英文选项有 %(en)d 行，比中文选项（%(zh)d 行）多。",
            len(en),
        )
        problems.append(("choices_en", message % {"en": len(en), "zh": len(zh)}))
    return [
        {
            "text": line.lstrip("*").strip(),
            **({"correct": True} if line.startswith("*") else {}),
            **({"en": en[i]} if i < len(en) else {}),
        }
        for i, line in enumerate(zh)
    ]


# A bank file's words that name a YAML key ("（choices 列表）"), and the form's beside its field.
_FORM_WORDS = (
    (TOO_FEW_CHOICES, gettext_lazy("至少需要 2 个选项：每行写一个，正确项以 * 开头。")),
    (NOT_A_NUMBER, gettext_lazy("数值题的答案请填一个数，如 3.5 或 1e-3。")),
)


def _form_message(exc: BankError) -> str:
    """A bank file's message names its YAML key ("“explanation_en”必须是非空字符串"); next to the
    form's field, say what to do instead."""
    message = str(exc.message)
    if message != str(bank_empty_message(exc.key)):
        return next((str(form) for bank, form in _FORM_WORDS if message == str(bank)), message)
    if exc.key in ("stem_en", "explanation_en"):
        return _("写了英文（题干、解析或选项）时，英文题干和英文解析都要填写。")
    return _("请填写这一项。")


def question_check(*, lecture: int, data: dict) -> QuestionSpec:
    """The staff form's question validated like a bank file's question: its spec, or
    QuestionInvalid with every problem found, so the author fixes them all in one save. A field
    the form's own words already say is wrong (the true/false answer) is not said wrong twice."""
    problems: list[Problem] = []
    if data.get("bank_id") and Question.objects.filter(bank_id=data["bank_id"]).exists():
        problems.append(("bank_id", _("题目编号“%(id)s”已被使用。") % {"id": data["bank_id"]}))
    raw = question_raw(data, problems)
    said = {field for field, _message in problems}
    try:
        spec = parse_question("staff", 0, raw, lecture, None)
    except BankError as exc:
        for error in exc.errors:
            field = _FORM_FIELD.get(error.key, error.key)
            if field not in said:
                problems.append((field, _form_message(error)))
    else:
        if not problems:
            return spec
    raise QuestionInvalid(problems)


@transaction.atomic
def question_create_staff(*, lecture: int, data: dict) -> Question:
    """Validate like a bank file's question, then store it as the staff pages' own."""
    spec = question_check(lecture=lecture, data=data)
    question = Question.objects.create(
        bank_id=spec.id, origin="staff", **_question_fields(spec, source_file="")
    )
    Choice.objects.bulk_create(
        Choice(question=question, key=key, position=pos, text=text, text_en=en, correct=ok)
        for key, pos, text, en, ok in _choice_rows(spec)
    )
    return question


# --- the demo graded quiz of `make run` -------------------------------------------------------

DEMO_SLUG = "demo-l5-graded"
DEMO_CLOSE_DAYS, DEMO_LATE_DAYS = 7, 7  # days from now: due date, then the late window


@transaction.atomic
def demo_quiz_ensure() -> Quiz | None:
    """Demo only: a published graded quiz on lecture 5 — three picked single-choice questions and
    a rule drawing the three multiple-choice ones — unless it exists or the bank lacks them."""
    from datetime import timedelta

    from django.utils import timezone

    title = gettext_noop("第 5 讲小测（计分，演示）")
    description = gettext_noop(
        "三道选定的单选题，加上从第 5 讲多选题中随机抽取的三道（每道 2 分）。"
    )
    if kept := Quiz.objects.filter(slug=DEMO_SLUG).first():
        words = {
            "title": (title, english(title)),
            "description": (description, english(description)),
        }
        default_words_ensure(kept, **words)  # made before quizzes had English words
        return None
    picked = list(Question.objects.filter(lecture=5, qtype="single").order_by("bank_id")[:3])
    rule = RuleSpec(count=3, points=Decimal("2"), lecture=5, qtype="multiple")
    if len(picked) < 3 or Question.objects.filter(lecture=5, qtype="multiple").count() < 3:
        return None
    now = timezone.now()
    quiz = Quiz.objects.create(
        title=title,
        title_en=english(title),
        slug=DEMO_SLUG,
        kind=Quiz.Kind.GRADED,
        lecture=5,
        description=description,
        description_en=english(description),
        closes_at=now + timedelta(days=DEMO_CLOSE_DAYS),
        late_until=now + timedelta(days=DEMO_CLOSE_DAYS + DEMO_LATE_DAYS),
        late_penalty_percent=Decimal("20"),
        time_limit_minutes=20,
        max_attempts=2,
        grade_max_points=Decimal("10"),
    )
    pool_add(quiz=quiz, question_ids=[q.pk for q in picked])
    rule_add(quiz=quiz, spec=rule)
    return quiz_publish_set(quiz=quiz, published=True)
