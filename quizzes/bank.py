"""Question-bank files: parse and validate, with no database access.

One YAML file per lecture under ``content/quizzes/``. Every problem is reported as a
``BankError`` naming the file and the question id, so an author can fix it without guessing.
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

from quizzes.generators import GENERATORS, generate

QUESTION_TYPES = ("single", "multiple", "truefalse", "numeric", "param")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
ANCHOR_RE = re.compile(r"^sec-(\d+)-(\d+)$")
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


class BankError(ValueError):
    """A malformed bank file or question; the message names the file and question id."""

    def __init__(self, file: str, question_id: str | None, message: str) -> None:
        self.file = file
        self.question_id = question_id
        where = f"{file}: question {question_id}" if question_id else file
        super().__init__(f"{where}: {message}")


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
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise BankError(name, None, f"not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise BankError(name, None, "top level must be a mapping with lecture, title, questions")
    lecture = data.get("lecture")
    if not isinstance(lecture, int) or lecture < 1:
        raise BankError(name, None, "'lecture' must be a positive integer")
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        raise BankError(name, None, "'title' must be a non-empty string")
    raw_questions = data.get("questions")
    if not isinstance(raw_questions, list) or not raw_questions:
        raise BankError(name, None, "'questions' must be a non-empty list")
    bank = BankFile(path=path, lecture=lecture, title=title.strip())
    seen: set[str] = set()
    for index, raw in enumerate(raw_questions):
        spec = _parse_question(name, index, raw, lecture, anchors)
        if spec.id in seen:
            raise BankError(name, spec.id, "duplicate question id in this file")
        seen.add(spec.id)
        bank.questions.append(spec)
    return bank


def load_bank_dir(directory: Path, anchors: set[str] | None) -> list[BankFile]:
    """Validate every ``*.yaml`` file in ``directory``; ids must be unique across files."""
    files = sorted(directory.glob("*.yaml")) + sorted(directory.glob("*.yml"))
    if not files:
        raise BankError(str(directory), None, "no *.yaml question files found")
    banks = [load_bank_file(p, anchors) for p in files]
    owner: dict[str, str] = {}
    for bank in banks:
        for q in bank.questions:
            if q.id in owner:
                raise BankError(bank.path.name, q.id, f"id already used in {owner[q.id]}")
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
    if not isinstance(raw, dict):
        raise BankError(name, f"#{index + 1}", "each question must be a mapping")
    qid = raw.get("id")
    if not isinstance(qid, str) or not ID_RE.match(qid):
        label = f"#{index + 1}" if not isinstance(qid, str) else qid
        raise BankError(name, label, "'id' must match [a-z0-9][a-z0-9-]* (max 64 chars)")
    qtype = raw.get("type")
    if qtype not in QUESTION_TYPES:
        raise BankError(name, qid, f"'type' must be one of {', '.join(QUESTION_TYPES)}")
    unknown = set(raw) - COMMON_KEYS - TYPE_KEYS[qtype]
    if unknown:
        raise BankError(name, qid, f"unknown keys for {qtype}: {', '.join(sorted(unknown))}")
    section = _parse_section(name, qid, raw.get("section"), anchors)
    stem = _text(name, qid, raw, "stem")
    explanation = _text(name, qid, raw, "explanation")
    number = section.removeprefix("sec-").replace("-", ".")
    if f"§{number}" not in explanation:
        raise BankError(name, qid, f"explanation must name its section (§{number})")
    base = {
        "id": qid,
        "lecture": lecture,
        "section": section,
        "type": qtype,
        "stem": stem,
        "explanation": explanation,
        "points": _points(name, qid, raw.get("points", 1)),
    }
    parser = {
        "single": _parse_choices,
        "multiple": _parse_choices,
        "truefalse": _parse_truefalse,
        "numeric": _parse_numeric,
        "param": _parse_param,
    }[qtype]
    typed = parser(name, qid, qtype, raw, stem)
    extra = _parse_tag_and_english(name, qid, raw, typed, require_tag)
    return QuestionSpec(**base, **typed, **extra)


def _parse_tag_and_english(
    name: str, qid: str, raw: dict, typed: dict, tag_required: bool = True
) -> dict:
    """The question's level (recall / understand / compute) and its English text.

    The tag is required in bank files (a question written on the staff pages may leave it out).
    English is all or nothing: a question that has any English text must have all of it (stem,
    explanation, every choice), so an English page never shows half a question; one without
    any is shown in Chinese. The course's own bank is checked complete by test_bank_counts."""
    tag = raw.get("tag", "")
    if (tag_required or tag) and tag not in QUESTION_TAGS:
        raise BankError(name, qid, f"'tag' must be one of {', '.join(QUESTION_TAGS)}")
    choices = typed.get("choices", ())
    if not ({"stem_en", "explanation_en"} & set(raw) or any(c.text_en for c in choices)):
        return {"tag": tag}
    stem_en = _text(name, qid, raw, "stem_en")
    explanation_en = _text(name, qid, raw, "explanation_en")
    if "§" not in explanation_en:
        raise BankError(name, qid, "explanation_en must name its section like the Chinese one")
    if typed.get("generator"):
        _check_placeholders(name, qid, typed["generator"], stem_en)
    missing = [i + 1 for i, c in enumerate(choices) if not c.text_en]
    if missing:
        raise BankError(name, qid, f"choice {missing[0]} has no English text ('en')")
    return {"tag": tag, "stem_en": stem_en, "explanation_en": explanation_en}


def _parse_section(name: str, qid: str, section: object, anchors: set[str] | None) -> str:
    if not isinstance(section, str) or not ANCHOR_RE.match(section):
        raise BankError(name, qid, "'section' must look like sec-N-M (the notes' numbering N.M)")
    if anchors is not None and section not in anchors:
        raise BankError(name, qid, f"section anchor {section} does not exist in the notes")
    return section


def _text(name: str, qid: str, raw: dict, key: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise BankError(name, qid, f"'{key}' must be a non-empty string")
    return value.strip()


def _points(name: str, qid: str, value: object) -> Decimal:
    number = _decimal(value)
    if number is None or number <= 0:
        raise BankError(name, qid, "'points' must be a positive number")
    return number


def _decimal(value: object) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def _parse_choices(name: str, qid: str, qtype: str, raw: dict, stem: str) -> dict:
    choices = raw.get("choices")
    if not isinstance(choices, list) or len(choices) < 2:
        raise BankError(name, qid, "needs a 'choices' list with at least 2 choices")
    if len(choices) > len(string.ascii_lowercase):
        raise BankError(name, qid, "too many choices (max 26)")
    parsed = []
    for i, choice in enumerate(choices):
        if not isinstance(choice, dict) or not isinstance(choice.get("text"), str):
            raise BankError(name, qid, f"choice {i + 1} must be a mapping with a 'text' string")
        if set(choice) - {"text", "en", "correct"}:
            raise BankError(name, qid, f"choice {i + 1} has unknown keys (only text, en, correct)")
        correct = choice.get("correct", False)
        if not isinstance(correct, bool):
            raise BankError(name, qid, f"choice {i + 1}: 'correct' must be true or false")
        text = choice["text"].strip()
        if not text:
            raise BankError(name, qid, f"choice {i + 1} has empty text")
        text_en = choice.get("en", "")
        if not isinstance(text_en, str):
            raise BankError(name, qid, f"choice {i + 1}: 'en' must be a string")
        parsed.append(
            ChoiceSpec(key=choice_key(text), text=text, correct=correct, text_en=text_en.strip())
        )
    if len({c.text for c in parsed}) != len(parsed):
        raise BankError(name, qid, "two choices have the same text")
    if len({c.key for c in parsed}) != len(parsed):
        raise BankError(name, qid, "two choices hash to the same key; reword one of them")
    n_correct = sum(c.correct for c in parsed)
    if qtype == "single" and n_correct != 1:
        raise BankError(
            name, qid, f"single choice must have exactly one correct choice (has {n_correct})"
        )
    if qtype == "multiple" and n_correct < 1:
        raise BankError(name, qid, "multiple choice must have at least one correct choice")
    return {"choices": tuple(parsed)}


def _parse_truefalse(name: str, qid: str, qtype: str, raw: dict, stem: str) -> dict:
    answer = raw.get("answer")
    if not isinstance(answer, bool):
        raise BankError(name, qid, "true/false question needs 'answer: true' or 'answer: false'")
    return {"answer": answer}


def _parse_numeric(name: str, qid: str, qtype: str, raw: dict, stem: str) -> dict:
    answer = _decimal(raw.get("answer"))
    if answer is None:
        raise BankError(name, qid, "numeric question needs a numeric 'answer'")
    tolerance = raw.get("tolerance")
    if not isinstance(tolerance, dict) or not tolerance or set(tolerance) - {"abs", "rel"}:
        raise BankError(name, qid, "'tolerance' must be a mapping with 'abs' and/or 'rel'")
    abs_tol = _decimal(tolerance.get("abs", 0))
    rel_tol = _decimal(tolerance.get("rel", 0))
    if abs_tol is None or rel_tol is None or abs_tol < 0 or rel_tol < 0:
        raise BankError(name, qid, "tolerance values must be non-negative numbers")
    unit, unit_en = raw.get("unit", ""), raw.get("unit_en", raw.get("unit", ""))
    if not isinstance(unit, str) or not isinstance(unit_en, str):
        raise BankError(name, qid, "'unit' and 'unit_en' must be strings")
    return {
        "answer": answer,
        "abs_tol": abs_tol,
        "rel_tol": rel_tol,
        "unit": unit,
        "unit_en": unit_en,
    }


def _parse_param(name: str, qid: str, qtype: str, raw: dict, stem: str) -> dict:
    generator = raw.get("generator")
    if not isinstance(generator, str) or generator not in GENERATORS:
        raise BankError(name, qid, f"unknown generator {generator!r}")
    _check_placeholders(name, qid, generator, stem)
    return {"generator": generator}


def _check_placeholders(name: str, qid: str, generator: str, stem: str) -> None:
    params = generate(generator, 0).params
    fields = {f for _, f, _, _ in string.Formatter().parse(stem) if f}
    missing = fields - set(params)
    if missing:
        raise BankError(
            name,
            qid,
            f"stem placeholders not produced by {generator}: {', '.join(sorted(missing))}",
        )


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
