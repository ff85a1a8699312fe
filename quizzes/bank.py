"""Question-bank files: parse and validate, with no database access.

One YAML file per lecture under ``content/quizzes/``. Every problem is reported as a
``BankError`` naming the file and the question id, so an author can fix it without guessing; a
question's checks go on past the first problem, and ``BankErrors`` reports every one found (the
staff form shows each at its field; said one at a time, three mistakes took three saves).
``import_quizzes`` (services.bank_import_file) writes a validated file in one transaction.
"""

from __future__ import annotations

import hashlib
import re
import string
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import yaml
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from gradinglab.runner.yamlkeys import DuplicateKeyError, load_unique
from pdcsite.storable import has_unstorable
from quizzes.generators import GENERATORS, generate
from quizzes.models import LECTURE_MAX, Question

QUESTION_TYPES = ("single", "multiple", "truefalse", "numeric", "param")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
ANCHOR_RE = re.compile(
    r"^sec-([0-9]+)-([0-9]+)$"
)  # ASCII digits: \d took "sec-５-3", which never links
# A section heading in the notes: "2.26 合并访存（Coalescing …）" or "1.6.1 …" (-> sec-1-6)
NOTES_HEADING_RE = re.compile(r"^(\d{1,2})\.(\d{1,2})(?:\.\d+)?\s+\S")

QUESTION_TAGS = ("recall", "understand", "compute")
COMMON_KEYS = {"id", "section", "type", "tag", "stem", "stem_en", "explanation", "explanation_en"}
COMMON_KEYS |= {"points"}
TYPE_KEYS = {
    "single": {"choices"},
    "multiple": {"choices"},
    "truefalse": {"answer"},
    "numeric": {"answer", "tolerance", "unit", "unit_en"},
    "param": {"generator"},
}


# Messages said in more than one place (in the reader's language: staff pages and commands alike).
_NON_EMPTY = gettext_lazy("“%(key)s”必须是非空字符串")


def bank_empty_message(key: str) -> str:
    """The message of a key that must hold text and does not (the staff form says it its way)."""
    return _NON_EMPTY % {"key": key}


ID_TAKEN = gettext_lazy("编号已在 %(file)s 中使用")
TOO_FEW_CHOICES = gettext_lazy("至少需要 2 个选项（choices 列表）")
NOT_A_NUMBER = gettext_lazy("数值题需要数值答案（answer）")


class BankError(ValueError):
    """A malformed bank file or question; the message names the file and question id."""

    def __init__(self, file: str, question_id: str | None, message: str, key: str = "") -> None:
        self.file = file
        self.question_id = question_id
        self.message = message  # without the file and id: the staff pages' form shows it alone
        self.key = key  # the question's key at fault ("choices.en": a choice's English), or ""
        if question_id:
            text = _("%(file)s：题目 %(id)s：%(message)s")
        else:
            text = _("%(file)s：%(message)s")
        super().__init__(text % {"file": file, "id": question_id, "message": message})

    @property
    def errors(self) -> list[BankError]:
        """Every error this one stands for: itself (``BankErrors`` holds several)."""
        return [self]


class BankErrors(BankError):
    """Several errors at once, a line each; its file, id, message and key are the first one's."""

    def __init__(self, errors: list[BankError]) -> None:
        first = errors[0]
        super().__init__(first.file, first.question_id, first.message, first.key)
        self.args = ("\n".join(str(error) for error in errors),)
        self._errors = errors

    @property
    def errors(self) -> list[BankError]:
        return self._errors


@dataclass
class _Problems:
    """The errors found so far in one question: each check adds its own and the next goes on."""

    file: str
    question_id: str
    found: list[BankError] = field(default_factory=list)

    def add(self, message: str, key: str = "") -> None:
        self.found.append(BankError(self.file, self.question_id, message, key))

    def raise_any(self) -> None:
        if self.found:
            raise BankErrors(self.found)


def choice_key(text: str) -> str:
    """A choice's stable identity, derived from its (Chinese) text.

    Answers store keys, so a key must survive reordering the choices in the file: grading goes
    by which choice was picked, never by where it stood. Editing a choice's text makes it a new
    choice. 8 hex digits: a collision among one question's few choices is checked and refused.
    """
    return hashlib.sha256(text.encode()).hexdigest()[:8]


@dataclass(frozen=True)
class ChoiceSpec:
    key: str
    text: str
    correct: bool
    text_en: str = ""


@dataclass(frozen=True)
class QuestionSpec:
    id: str
    lecture: int
    section: str
    type: str
    stem: str
    explanation: str
    tag: str = ""
    stem_en: str = ""
    explanation_en: str = ""
    points: Decimal = Decimal("1")
    choices: tuple[ChoiceSpec, ...] = ()
    answer: Any = None  # bool for truefalse, Decimal for numeric
    abs_tol: Decimal = Decimal("0")
    rel_tol: Decimal = Decimal("0")
    unit: str = ""
    unit_en: str = ""
    generator: str = ""


@dataclass
class BankFile:
    path: Path
    lecture: int
    title: str
    questions: list[QuestionSpec] = field(default_factory=list)


def notes_anchors(notes_path: Path) -> set[str]:
    """Section anchors ``sec-N-M`` that exist in the course notes."""
    anchors: set[str] = set()
    for line in notes_path.read_text(encoding="utf-8").splitlines():
        match = NOTES_HEADING_RE.match(line)
        if match:
            anchors.add(f"sec-{int(match.group(1))}-{int(match.group(2))}")
    return anchors


def load_bank_file(path: Path, anchors: set[str] | None) -> BankFile:
    """Parse and validate one bank file. ``anchors=None`` skips the anchor check."""
    name = path.name
    data = _read_yaml(path)
    if not isinstance(data, dict):
        raise BankError(name, None, _("顶层必须是含 lecture、title、questions 的映射"))
    lecture = data.get("lecture")
    if type(lecture) is not int or lecture < 1:  # YAML reads an unquoted yes as True, an int
        raise BankError(name, None, _("lecture 必须是正整数"))
    if lecture > LECTURE_MAX:  # as on the staff forms; past 32767 the import was a database error
        raise BankError(name, None, _("lecture 不能大于 %(max)d") % {"max": LECTURE_MAX})
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        raise BankError(name, None, _NON_EMPTY % {"key": "title"})
    raw_questions = data.get("questions")
    if not isinstance(raw_questions, list) or not raw_questions:
        raise BankError(name, None, _("questions 必须是非空列表"))
    bank = BankFile(path=path, lecture=lecture, title=title.strip())
    seen: set[str] = set()
    errors: list[BankError] = []  # of every question: the file is fixed in one go
    for index, raw in enumerate(raw_questions):
        try:
            bank.questions.append(_parse_question(name, index, raw, lecture, anchors))
        except BankError as exc:
            errors += exc.errors
        # By the id as written, parsed or not: a question with a mistake still takes its id, and
        # a later one with the same id was said only once the first was fixed.
        qid = raw.get("id") if isinstance(raw, dict) else None
        if isinstance(qid, str) and ID_RE.match(qid):
            if qid in seen:
                errors.append(BankError(name, qid, _("本文件中题目编号重复")))
            seen.add(qid)
    if errors:
        raise BankErrors(errors)
    return bank


def _read_yaml(path: Path) -> object:
    """The file's YAML (safe loading: no tag makes an object), or BankError. Each of these stopped
    import_quizzes with a traceback, or (a NUL or lone surrogate, which YAML's "\\0" and
    "\\udcff" escapes write) with PostgreSQL's error at the import. A key written twice in one
    mapping (`answer:` twice) is an error at each repeat: YAML kept the last value silently."""
    name = path.name
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BankError(name, None, _("文件不是 UTF-8 编码；请以 UTF-8 另存后再导入")) from exc
    try:
        data = load_unique(text)
    except DuplicateKeyError as exc:
        message = _("第 %(line)d 行：键“%(key)s”重复（第 %(first)d 行已有），只能写一次")
        repeats = [
            BankError(name, None, message % {"line": d.line, "key": d.key, "first": d.first_line})
            for d in exc.duplicates
        ]
        raise BankErrors(repeats) from exc
    except yaml.YAMLError as exc:
        raise BankError(name, None, _("不是有效的 YAML：%(error)s") % {"error": exc}) from exc
    except RecursionError as exc:  # thousands of nested [ or {: the parser's stack ran out
        raise BankError(name, None, _("YAML 嵌套过深")) from exc
    if has_unstorable(data):
        message = _("文件含有空字符（NUL）或不成对的代理字符（UTF-16 surrogate），无法保存")
        raise BankError(name, None, message)
    return data


def load_bank_dir(directory: Path, anchors: set[str] | None) -> list[BankFile]:
    """Validate every ``*.yaml`` file in ``directory``; ids must be unique across files."""
    files = sorted(directory.glob("*.yaml")) + sorted(directory.glob("*.yml"))
    if not files:
        raise BankError(str(directory), None, _("没有找到 *.yaml 题库文件"))
    banks = [load_bank_file(p, anchors) for p in files]
    owner: dict[str, str] = {}
    for bank in banks:
        for q in bank.questions:
            if q.id in owner:
                raise BankError(bank.path.name, q.id, ID_TAKEN % {"file": owner[q.id]})
            owner[q.id] = bank.path.name
    return banks


def _parse_question(
    name: str,
    index: int,
    raw: object,
    lecture: int,
    anchors: set[str] | None,
    require_tag: bool = True,
) -> QuestionSpec:
    """One question, or ``BankErrors`` with every problem found. A check whose input is already
    wrong is skipped (no § check against a malformed section), so each cause is said once."""
    if not isinstance(raw, dict):
        raise BankError(name, f"#{index + 1}", _("每道题必须是一个映射"))
    qid = raw.get("id")
    problems = _Problems(name, qid if isinstance(qid, str) else f"#{index + 1}")
    if not isinstance(qid, str) or not ID_RE.match(qid):
        problems.add(_("id 必须匹配 [a-z0-9][a-z0-9-]*（最长 64 个字符）"), key="id")
    qtype = raw.get("type")
    if qtype not in QUESTION_TYPES:
        types = ", ".join(QUESTION_TYPES)
        problems.add(_("type 必须是以下之一：%(types)s") % {"types": types}, key="type")
    _check_keys(problems, raw, qtype)
    section = _parse_section(problems, raw.get("section"), anchors)
    stem = _text(problems, raw, "stem")
    explanation = _text(problems, raw, "explanation")
    number = section.removeprefix("sec-").replace("-", ".")
    if section and explanation and f"§{number}" not in explanation:
        message = _("解析必须注明所属章节（§%(number)s）") % {"number": number}
        problems.add(message, key="explanation")
    points = _points(problems, raw.get("points", 1))
    parser = {
        "single": _parse_choices,
        "multiple": _parse_choices,
        "truefalse": _parse_truefalse,
        "numeric": _parse_numeric,
        "param": _parse_param,
    }.get(qtype if qtype in QUESTION_TYPES else "")  # a list there (type: [x]) is unhashable
    typed = parser(problems, qtype, raw, stem) if parser else {}
    extra = _parse_tag_and_english(problems, raw, typed, require_tag)
    problems.raise_any()
    base = {"id": qid, "lecture": lecture, "section": section, "type": qtype}
    base |= {"stem": stem, "explanation": explanation, "points": points}
    return QuestionSpec(**base, **typed, **extra)


def _check_keys(problems: _Problems, raw: dict, qtype: object) -> None:
    """Keys that are not text, and keys the question's type does not know. YAML reads an unquoted
    yes, no, on or off as a bool and 12 as a number; such a key, sorted or joined beside the
    text ones, made import_quizzes stop with a TypeError."""
    if odd := [str(key) for key in raw if not isinstance(key, str)]:
        message = _(
            "不是文字的键：%(keys)s（YAML 把不加引号的 yes、no、on、off 读作 true 或 false，"
            "把数字读作数）"
        )
        problems.add(message % {"keys": ", ".join(odd)})
    if qtype not in QUESTION_TYPES:
        return
    if unknown := {key for key in raw if isinstance(key, str)} - COMMON_KEYS - TYPE_KEYS[qtype]:
        keys = ", ".join(sorted(unknown))
        problems.add(_("%(type)s 题不认识的键：%(keys)s") % {"type": qtype, "keys": keys})


def _parse_tag_and_english(
    problems: _Problems, raw: dict, typed: dict, tag_required: bool = True
) -> dict:
    """The question's level (recall / understand / compute) and its English text.

    The tag is required in bank files (a question written on the staff pages may leave it out).
    English is all or nothing: a question that has any English text must have all of it (stem,
    explanation, every choice), so an English page never shows half a question; one without
    any is shown in Chinese. The course's own bank is checked complete by test_bank_counts."""
    tag = raw.get("tag", "")
    if (tag_required or tag) and tag not in QUESTION_TAGS:
        tags = ", ".join(QUESTION_TAGS)
        problems.add(_("tag 必须是以下之一：%(tags)s") % {"tags": tags}, key="tag")
    choices = typed.get("choices", ())
    if not ({"stem_en", "explanation_en"} & set(raw) or any(c.text_en for c in choices)):
        return {"tag": tag}
    stem_en = _text(problems, raw, "stem_en")
    explanation_en = _text(problems, raw, "explanation_en")
    if explanation_en and "§" not in explanation_en:
        message = _("英文解析（explanation_en）必须像中文解析一样注明章节（§）")
        problems.add(message, key="explanation_en")
    if typed.get("generator") and stem_en:
        _check_placeholders(problems, typed["generator"], stem_en, "stem_en")
    if missing := [n for n, choice in enumerate(choices, start=1) if not choice.text_en]:
        # One message naming them all: four choices without English were four lines.
        message = ngettext(
            "选项 %(numbers)s 没有英文（en）", "选项 %(numbers)s 没有英文（en）", len(missing)
        )
        numbers = _("、").join(str(n) for n in missing)
        problems.add(message % {"numbers": numbers}, key="choices.en")
    return {"tag": tag, "stem_en": stem_en, "explanation_en": explanation_en}


def _parse_section(problems: _Problems, section: object, anchors: set[str] | None) -> str:
    """The section anchor, or "" when it is not one (its problem added)."""
    if not isinstance(section, str) or not ANCHOR_RE.match(section):
        problems.add(_("section 必须形如 sec-N-M（讲义编号 N.M）"), key="section")
        return ""
    if anchors is not None and section not in anchors:
        message = _("讲义中没有章节锚点 %(section)s") % {"section": section}
        problems.add(message, key="section")
        return ""
    return section


def _text(problems: _Problems, raw: dict, key: str) -> str:
    """The key's text, stripped, or "" when it has none (its problem added)."""
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        problems.add(bank_empty_message(key), key=key)
        return ""
    return value.strip()


def _points(problems: _Problems, value: object) -> Decimal:
    number = _decimal(value)
    if number is None or number <= 0:
        problems.add(_("points 必须是正数"), key="points")
        return Decimal("1")
    _fits(problems, number, "points", key="points")
    return number


def _fits(problems: _Problems, number: Decimal, column: str, key: str) -> None:
    """Adds a problem when the number does not fit the Question column that stores it (the
    column's own digits and decimal places). Beyond them PostgreSQL refused the row ("numeric
    field overflow": a 500 on the staff form for an answer of 1e30), and a finer number was
    rounded without a word (an answer of 1e-9 stored as 0)."""
    stored = Question._meta.get_field(column)
    limit = Decimal(10) ** (stored.max_digits - stored.decimal_places)
    step = Decimal(10) ** -stored.decimal_places
    names = {"what": stored.verbose_name, "limit": limit, "step": f"{step:f}"}
    # copy_abs, not abs(): abs() rounds in the decimal context, and an exponent past its bounds
    # ("1e99999999999999" typed on the staff form) raised decimal.Overflow: a server error.
    if number.copy_abs() >= limit:
        problems.add(_("%(what)s的绝对值必须小于 %(limit)s") % names, key=key)
    elif number.quantize(step) != number:
        problems.add(_("%(what)s最多精确到 %(step)s") % names, key=key)


def _decimal(value: object) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def _parse_choices(problems: _Problems, qtype: str, raw: dict, stem: str) -> dict:
    """The choices, each checked; the rules over all of them (distinct, how many are right) only
    when every one is well formed, as a choice left out would change their count, and the count
    only when no two are the same."""
    choices = raw.get("choices")
    if not isinstance(choices, list) or len(choices) < 2:
        problems.add(str(TOO_FEW_CHOICES), key="choices")
        return {"choices": ()}
    if len(choices) > len(string.ascii_lowercase):
        most = len(string.ascii_lowercase)
        problems.add(_("选项过多（最多 %(max)d 个）") % {"max": most}, key="choices")
        return {"choices": ()}
    parsed = [_parse_choice(problems, n, choice) for n, choice in enumerate(choices, start=1)]
    if None in parsed:
        return {"choices": ()}
    if len({c.text for c in parsed}) != len(parsed):
        # Not counted either: "*甲, *甲, 乙" has one right answer written twice, not two.
        problems.add(_("有两个选项内容相同"), key="choices")
        return {"choices": tuple(parsed)}
    if len({c.key for c in parsed}) != len(parsed):
        problems.add(_("有两个选项的键相同（哈希冲突），请改写其中一个"), key="choices")
    n_correct = sum(c.correct for c in parsed)
    if qtype == "single" and n_correct != 1:
        message = _("单选题必须恰有一个正确选项（现有 %(n)d 个）") % {"n": n_correct}
        problems.add(message, key="choices")
    if qtype == "multiple" and n_correct < 1:
        problems.add(_("多选题至少要有一个正确选项"), key="choices")
    return {"choices": tuple(parsed)}


def _parse_choice(problems: _Problems, n: int, choice: object) -> ChoiceSpec | None:
    """Choice number ``n``, or None when anything in it is wrong (its problems added): a misspelt
    key may be "correct", so the count of right choices would not be the author's."""
    if not isinstance(choice, dict) or not isinstance(choice.get("text"), str):
        problems.add(_("选项 %(n)d 必须是含 text 字符串的映射") % {"n": n}, key="choices")
        return None
    before = len(problems.found)
    if set(choice) - {"text", "en", "correct"}:
        message = _("选项 %(n)d 含不认识的键（只允许 text、en、correct）") % {"n": n}
        problems.add(message, key="choices")
    text, correct, text_en = (
        choice["text"].strip(),
        choice.get("correct", False),
        choice.get("en", ""),
    )
    if not isinstance(correct, bool):
        problems.add(_("选项 %(n)d：correct 必须是 true 或 false") % {"n": n}, key="choices")
    if not text:
        problems.add(_("选项 %(n)d 的内容为空") % {"n": n}, key="choices")
    if not isinstance(text_en, str):
        problems.add(_("选项 %(n)d：en 必须是字符串") % {"n": n}, key="choices.en")
    if len(problems.found) > before:
        return None
    return ChoiceSpec(key=choice_key(text), text=text, correct=correct, text_en=text_en.strip())


def _parse_truefalse(problems: _Problems, qtype: str, raw: dict, stem: str) -> dict:
    answer = raw.get("answer")
    if not isinstance(answer, bool):
        problems.add(_("判断题需要 answer: true 或 answer: false"), key="answer")
    return {"answer": answer}


def _parse_numeric(problems: _Problems, qtype: str, raw: dict, stem: str) -> dict:
    answer = _decimal(raw.get("answer"))
    if answer is None:
        problems.add(str(NOT_A_NUMBER), key="answer")
    else:
        _fits(problems, answer, "answer_number", key="answer")
    tolerance = raw.get("tolerance")
    abs_tol = rel_tol = Decimal("0")
    if not isinstance(tolerance, dict) or not tolerance or set(tolerance) - {"abs", "rel"}:
        problems.add(_("tolerance 必须是含 abs 和/或 rel 的映射"), key="tolerance")
    else:
        abs_tol, rel_tol = _decimal(tolerance.get("abs", 0)), _decimal(tolerance.get("rel", 0))
        if abs_tol is None or rel_tol is None or abs_tol < 0 or rel_tol < 0:
            problems.add(_("允许误差必须是非负数"), key="tolerance")
        else:
            _fits(problems, abs_tol, "abs_tol", key="tolerance")
            _fits(problems, rel_tol, "rel_tol", key="tolerance")
    unit, unit_en = raw.get("unit", ""), raw.get("unit_en", raw.get("unit", ""))
    if not isinstance(unit, str) or not isinstance(unit_en, str):
        problems.add(_("unit 与 unit_en 必须是字符串"), key="unit")
    return {
        "answer": answer,
        "abs_tol": abs_tol,
        "rel_tol": rel_tol,
        "unit": unit,
        "unit_en": unit_en,
    }


def _parse_param(problems: _Problems, qtype: str, raw: dict, stem: str) -> dict:
    generator = raw.get("generator")
    if not isinstance(generator, str) or generator not in GENERATORS:
        message = _("未知的生成器 %(generator)s") % {"generator": repr(generator)}
        problems.add(message, key="generator")
        return {"generator": ""}
    if stem:
        _check_placeholders(problems, generator, stem, "stem")
    return {"generator": generator}


def _check_placeholders(problems: _Problems, generator: str, stem: str, key: str) -> None:
    params = generate(generator, 0).params
    try:
        fields = {f for _, f, _, _ in string.Formatter().parse(stem) if f}
    except ValueError:  # a lone { or }: it stopped import_quizzes with a traceback
        message = _("%(key)s 中有不成对的花括号（{ 或 }）；要显示花括号本身，请写成 {{ 或 }}")
        problems.add(message % {"key": key}, key=key)
        return
    if missing := fields - set(params):
        message = _("题干中的占位符不由 %(generator)s 生成：%(names)s")
        names = ", ".join(sorted(missing))
        problems.add(message % {"generator": generator, "names": names})
        return
    for seed in range(FILL_CHECK_SEEDS):  # as the quiz page fills it (selectors), never a 500 there
        try:
            stem.format_map(generate(generator, seed).params)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            message = _("%(key)s 的占位符无法填入生成的数值：%(error)s")
            problems.add(message % {"key": key, "error": exc}, key=key)
            return


FILL_CHECK_SEEDS = 8  # generated variants a stem is filled with when the bank is read


def parse_question(
    name: str, index: int, raw: object, lecture: int, anchors: set[str] | None
) -> QuestionSpec:
    """The staff pages validate a question written in the browser like a bank file's question,
    except that its tag is optional there."""
    return _parse_question(name, index, raw, lecture, anchors, require_tag=False)


def _yaml_number(value: Decimal) -> int | float | str:
    """A Decimal as the plain YAML number an author would type (3, 0.5), exact when possible."""
    normal = value.normalize()
    if normal == normal.to_integral_value():
        return int(normal)
    text = f"{normal:f}"
    return float(text) if Decimal(repr(float(text))) == normal else text


def question_mapping(question: Any) -> dict[str, Any]:
    """One Question row in the bank-file format (keys in the order an author writes them)."""
    raw: dict[str, Any] = {"id": question.bank_id, "section": question.section}
    raw["type"] = question.qtype
    if question.tag:
        raw["tag"] = question.tag
    raw["stem"] = question.stem
    if question.stem_en:
        raw["stem_en"] = question.stem_en
    if question.qtype in ("single", "multiple"):
        raw["choices"] = [
            {"text": c.text, **({"en": c.text_en} if c.text_en else {}),
             **({"correct": True} if c.correct else {})}
            for c in question.choices.all()
        ]  # fmt: skip
    elif question.qtype == "truefalse":
        raw["answer"] = bool(question.answer_bool)
    elif question.qtype == "numeric":
        raw["answer"] = _yaml_number(question.answer_number)
        raw["tolerance"] = {"abs": _yaml_number(question.abs_tol)}
        if question.rel_tol:
            raw["tolerance"]["rel"] = _yaml_number(question.rel_tol)
        if question.unit:
            raw["unit"] = question.unit
    elif question.qtype == "param":
        raw["generator"] = question.generator
    raw["explanation"] = question.explanation
    if question.explanation_en:
        raw["explanation_en"] = question.explanation_en
    if question.points != Decimal("1"):
        raw["points"] = _yaml_number(question.points)
    return raw


def dump_bank_file(lecture: int, title: str, questions: list[Any]) -> str:
    """A bank file (the format ``load_bank_file`` reads) holding the given Question rows."""
    data = {
        "lecture": lecture,
        "title": title,
        "questions": [question_mapping(q) for q in questions],
    }
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)
