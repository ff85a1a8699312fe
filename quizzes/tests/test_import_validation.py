"""Must hold 1 (importer): each kind of malformed question is rejected with an error naming the
file and the question id; import is atomic per file and idempotent.

The messages are in the reader's language (the staff pages show them too); these tests read them
in English, and the last one checks the Chinese words of a few."""

import textwrap
from pathlib import Path

import pytest
import yaml
from django.core.management import CommandError, call_command
from django.utils import translation

from quizzes.bank import BankError, load_bank_file
from quizzes.models import Choice, Question, Quiz

ANCHORS = {"sec-1-17", "sec-2-26"}


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


GOOD = """
  - id: t-single
    section: sec-1-17
    type: single
    tag: understand
    stem: 问题一
    stem_en: Question one
    choices:
      - {text: 甲, en: A, correct: true}
      - {text: 乙, en: B}
    explanation: 因为如此（§1.17）。
    explanation_en: Because (§1.17).
  - id: t-tf
    section: sec-1-17
    type: truefalse
    tag: recall
    stem: 判断
    stem_en: True or false
    answer: false
    explanation: 见 §1.17。
    explanation_en: See §1.17.
"""


def _q(body: str) -> str:
    """A question block at the list's indentation (two spaces, like GOOD)."""
    return textwrap.indent(textwrap.dedent(body), "  ")


def _write(tmp_path: Path, questions: str, name: str = "lec.yaml", lecture: int = 1) -> Path:
    path = tmp_path / name
    path.write_text(
        f"lecture: {lecture}\ntitle: 测试\nquestions:\n" + textwrap.dedent(questions),
        encoding="utf-8",
    )
    return path


DROP = object()  # in a case's changes: remove the key

# One complete, valid question of each type (tagged, with its English text); every bad case below
# is one of them with one thing changed, so its error can only come from that change.
COMMON = {"id": "bad-q", "section": "sec-1-17", "tag": "recall", "stem": "s", "stem_en": "s"}
COMMON |= {"explanation": "§1.17", "explanation_en": "§1.17"}
TWO_CHOICES = [{"text": "a", "en": "a", "correct": True}, {"text": "b", "en": "b"}]
VALID = {
    "single": {**COMMON, "type": "single", "choices": TWO_CHOICES},
    "multiple": {**COMMON, "type": "multiple", "choices": TWO_CHOICES},
    "truefalse": {**COMMON, "type": "truefalse", "answer": True},
    "numeric": {**COMMON, "type": "numeric", "answer": 3, "tolerance": {"abs": 0}},
    "param": {
        **COMMON,
        "type": "param",
        "tag": "compute",
        "generator": "amdahl_speedup",
        "stem": "p = {p}, n = {n}",
        "stem_en": "p = {p}, n = {n}",
    },
}

# kind -> (the valid question it starts from, what it changes, the error it must get)
BAD_QUESTIONS = {
    "single_two_correct": (
        "single",
        {
            "choices": [
                {"text": "a", "en": "a", "correct": True},
                {"text": "b", "en": "b", "correct": True},
            ]
        },
        "exactly one correct choice (has 2)",
    ),
    "single_no_correct": (
        "single",
        {"choices": [{"text": "a", "en": "a"}, {"text": "b", "en": "b"}]},
        "exactly one correct choice (has 0)",
    ),
    "multiple_no_correct": (
        "multiple",
        {"choices": [{"text": "a", "en": "a"}, {"text": "b", "en": "b"}]},
        "at least one correct choice",
    ),
    "one_choice_only": (
        "single",
        {"choices": [{"text": "a", "en": "a", "correct": True}]},
        "at least 2 choices",
    ),
    "anchor_missing_from_notes": (
        "truefalse",
        {"section": "sec-9-99", "explanation": "§9.99", "explanation_en": "§9.99"},
        "sec-9-99 does not exist in the notes",
    ),
    "anchor_malformed": ("truefalse", {"section": 1.17}, "must look like sec-N-M"),
    "unknown_type": ("truefalse", {"type": "essay"}, "'type' must be one of"),
    "truefalse_without_bool": ("truefalse", {"answer": "yes please"}, "answer: true"),
    "numeric_without_tolerance": (
        "numeric",
        {"tolerance": DROP},
        "'tolerance' must be a mapping",
    ),
    "numeric_answer_not_a_number": ("numeric", {"answer": "three"}, "numeric 'answer'"),
    "unknown_generator": (
        "param",
        {"generator": "no_such_generator"},
        "unknown generator 'no_such_generator'",
    ),
    "placeholder_not_produced": (
        "param",
        {"stem": "p = {p}, n = {n}, q = {q}"},
        "stem placeholders not produced by amdahl_speedup: q",
    ),
    "misspelt_key": (
        "single",
        {"choices": [{"text": "a", "en": "a", "corect": True}, {"text": "b", "en": "b"}]},
        "choice 1 has unknown keys",
    ),
    "explanation_without_section": (
        "truefalse",
        {"explanation": "没有注明出处"},
        "explanation must name its section (§1.17)",
    ),
    "empty_stem": ("truefalse", {"stem": ""}, "'stem' must be a non-empty string"),
    "tag_missing": (
        "truefalse",
        {"tag": DROP},
        "'tag' must be one of recall, understand, compute",
    ),
    "tag_unknown": (
        "truefalse",
        {"tag": "memorize"},
        "'tag' must be one of recall, understand, compute",
    ),
    "english_stem_missing": (
        "truefalse",
        {"stem_en": DROP},
        "'stem_en' must be a non-empty string",
    ),
    "english_choice_missing": (
        "single",
        {"choices": [{"text": "a", "en": "a", "correct": True}, {"text": "b"}]},
        "choice 2 has no English text ('en')",
    ),
    "english_placeholder_not_produced": (
        "param",
        {"stem_en": "p = {p}, n = {n}, q = {q}"},
        "stem placeholders not produced by amdahl_speedup: q",
    ),
    "duplicate_choice_text": (
        "single",
        {"choices": [{"text": "a", "en": "a", "correct": True}, {"text": "a", "en": "b"}]},
        "two choices have the same text",
    ),
}


def _question(base: str, changes: dict, qid: str = "bad-q") -> str:
    """VALID[base] with ``changes`` applied, as a block of the questions list (like GOOD's)."""
    question = {**VALID[base], "id": qid, **changes}
    question = {k: v for k, v in question.items() if v is not DROP}
    return _q(yaml.safe_dump([question], allow_unicode=True, sort_keys=False))


@pytest.mark.parametrize("base", sorted(VALID))
def test_each_base_question_is_valid(tmp_path: Path, base: str) -> None:
    """What makes every bad case below fail is its change, not its base."""
    bank = load_bank_file(_write(tmp_path, GOOD + _question(base, {})), ANCHORS)
    assert [q.id for q in bank.questions] == ["t-single", "t-tf", "bad-q"]
    assert bank.questions[-1].type == base


@pytest.mark.parametrize("kind", sorted(BAD_QUESTIONS))
def test_malformed_question_is_rejected_naming_file_and_id(tmp_path: Path, kind: str) -> None:
    base, changes, expected = BAD_QUESTIONS[kind]
    path = _write(tmp_path, GOOD + _question(base, changes))
    with pytest.raises(BankError) as info:
        load_bank_file(path, ANCHORS)
    message = str(info.value)
    assert message.startswith("lec.yaml: question bad-q: "), message
    assert expected in message


def test_duplicate_id_in_one_file(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD + GOOD.replace("t-single", "t-other"))
    with pytest.raises(BankError, match=r"lec.yaml: question t-tf: duplicate question id"):
        load_bank_file(path, ANCHORS)


def test_bad_yaml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("lecture: 1\nquestions: [\n", encoding="utf-8")
    with pytest.raises(BankError, match=r"^broken.yaml: not valid YAML"):
        load_bank_file(path, ANCHORS)


@pytest.fixture
def bank(tmp_path: Path) -> Path:
    """A bank folder holding a.yaml (GOOD), beside a notes.txt that has GOOD's section."""
    (tmp_path / "notes.txt").write_text("1.17 两条定律\n", encoding="utf-8")
    folder = tmp_path / "bank"
    folder.mkdir()
    _write(folder, GOOD, name="a.yaml")
    return folder


def _import(bank: Path) -> None:
    """``import_quizzes`` of that folder alone (no default quizzes), against its notes."""
    call_command("import_quizzes", str(bank), notes=bank.parent / "notes.txt", no_defaults=True)


@pytest.mark.django_db
def test_import_is_atomic_per_file_and_reports_file_and_id(bank: Path) -> None:
    bad = GOOD.replace("t-single", "b-single").replace("t-tf", "b-tf")
    base, changes, _error = BAD_QUESTIONS["single_two_correct"]
    bad += _question(base, changes, qid="b-broken")
    _write(bank, bad, name="b.yaml")
    with pytest.raises(CommandError) as info:
        _import(bank)
    assert "b.yaml: question b-broken: single choice must have exactly one" in str(info.value)
    # a.yaml went in; nothing of b.yaml did, not even its valid questions
    assert set(Question.objects.values_list("bank_id", flat=True)) == {"t-single", "t-tf"}


@pytest.mark.django_db
def test_duplicate_id_across_files_is_rejected(bank: Path) -> None:
    _write(bank, GOOD.replace("t-tf", "t-tf2"), name="b.yaml")
    with pytest.raises(CommandError, match=r"b.yaml: question t-single: id already used in a.yaml"):
        _import(bank)
    assert not Question.objects.filter(bank_id="t-tf2").exists()


@pytest.mark.django_db
def test_real_bank_import_is_idempotent_and_creates_default_quizzes(capsys) -> None:
    call_command("import_quizzes")
    counts = (Question.objects.count(), Choice.objects.count(), Quiz.objects.count())
    stamps = dict(Question.objects.values_list("bank_id", "updated_at"))
    call_command("import_quizzes")
    out = capsys.readouterr().out
    assert "0 new, 0 updated" in out
    assert (Question.objects.count(), Choice.objects.count(), Quiz.objects.count()) == counts
    assert dict(Question.objects.values_list("bank_id", "updated_at")) == stamps
    assert counts[0] >= 120
    practice = Quiz.objects.filter(kind=Quiz.Kind.PRACTICE, published=True)
    assert sorted(practice.values_list("lecture", flat=True)) == [1, 2, 3, 4, 5, 7, 8, 9, 10]
    selftest = Quiz.objects.get(slug="selftest")
    assert selftest.published and selftest.pool.count() == counts[0]


@pytest.mark.django_db
def test_changed_question_is_updated_in_place(bank: Path) -> None:
    _import(bank)
    pk = Question.objects.get(bank_id="t-single").pk
    _write(bank, GOOD.replace("{text: 乙,", "{text: 丙,"), name="a.yaml")
    _import(bank)
    question = Question.objects.get(bank_id="t-single")
    assert question.pk == pk
    assert list(question.choices.values_list("text", flat=True)) == ["甲", "丙"]


@pytest.mark.parametrize(
    ("kind", "chinese"),
    [
        ("single_two_correct", "单选题必须恰有一个正确选项（现有 2 个）"),
        ("explanation_without_section", "解析必须注明所属章节（§1.17）"),
        ("english_choice_missing", "选项 2 没有英文（en）"),
    ],
)
def test_messages_are_in_the_readers_language(tmp_path: Path, kind: str, chinese: str) -> None:
    base, changes, english = BAD_QUESTIONS[kind]
    path = _write(tmp_path, GOOD + _question(base, changes))
    with translation.override("zh-hans"), pytest.raises(BankError) as info:
        load_bank_file(path, ANCHORS)
    assert str(info.value) == f"lec.yaml：题目 bad-q：{chinese}" and english not in str(info.value)
    assert info.value.message == chinese
