"""The grader's messages in the page's language: the runner writes English plus message ids
(runner/messages.py), the web says each id in Chinese or English (result_text.py) and shows
anything it cannot check as English, marked lang="en"."""

from __future__ import annotations

import copy
import pickle
import re
import string

import jsonschema
import pytest
from django.utils import translation

from gradinglab import result_text
from gradinglab.runner import grade
from gradinglab.runner.messages import ENGLISH, SANDBOX_IDS, Msg, fields, from_wire, parts_of
from gradinglab.runner.result import CAP_MESSAGE, finish, new_document, validate
from gradinglab.runner.testing import solution

LATIN_WORDS = re.compile(r"\b(?:elements|differ|expected|tests?|passed|your|module|line)\b")


# Names the Chinese text keeps as they are (parameters, tools, file and phase names).
TECHNICAL = {"atol", "rtol", "dtype", "torch", "Tensor", "nvcc", "extern", "cuda", "CUDA", "Triton"}
TECHNICAL |= {"submission", "prepare", "device_assert", "set_"}


def _english_words(template: str) -> set[str]:
    """The words of a template's own text (not its fields), bar the names kept as they are."""
    literal = "".join(text for text, *_ in string.Formatter().parse(template))
    return set(re.findall(r"[A-Za-z_]{4,}", literal)) - TECHNICAL


def _zh(message: str, parts=None) -> str:
    """As the page shows it; parts None: those of a Msg, none (a stored legacy text) for a str."""
    parts = parts if parts is not None else (parts_of(message) or None)
    with translation.override("zh-hans"):
        return str(result_text.render(message, parts))


def _en(message: str) -> str:
    with translation.override("en"):
        return str(result_text.render(message, parts_of(message)))


def test_every_runner_message_has_a_translation_with_the_same_fields() -> None:
    assert set(result_text.SAID) == set(ENGLISH)
    for message_id, english in ENGLISH.items():
        with translation.override("zh-hans"):
            zh = str(result_text.SAID[message_id])
        with translation.override("en"):
            en = str(result_text.SAID[message_id])
        assert fields(zh) == fields(english), message_id
        assert not _english_words(zh) & _english_words(english), message_id
        assert en != zh, f"{message_id}: no English translation"
        # The English page says what the runner says (a sentence may start with a capital).
        assert en[:1].lower() + en[1:] == english, message_id


@pytest.mark.parametrize(("count", "said"), [(1, "1 element outside"), (3, "3 elements outside")])
def test_an_out_of_bounds_count_reads_as_english_counts_things(count: int, said: str) -> None:
    """Not "1 element(s)": a count of one has its own message id."""
    from gradinglab.runner.triton_guard import OutOfBoundsAccess

    message = OutOfBoundsAccess("add_kernel", "load", 0x1232, 4, count).said
    assert said in message and said in _en(message)
    assert "(s)" not in message + _en(message)
    assert f"{count} 个元素" in _zh(message)


def test_a_result_stored_before_a_template_changed_still_reads_in_chinese() -> None:
    """Documents stored before "element(s)" became "elements" spell the old English; they were
    shown as English on Chinese pages."""
    from gradinglab.runner.triton_guard import OutOfBoundsAccess

    message = OutOfBoundsAccess("add_kernel", "load", 0x1232, 4, 3).said
    stored = str(message).replace("3 elements", "3 element(s)")
    assert stored != message
    assert "3 个元素" in _zh(stored, parts_of(message))


def test_a_failed_test_reads_in_chinese_and_in_english() -> None:
    why = Msg(
        "elements_differ", output="out", mismatches=3, numel=1024, index=[7], got="0", expected="1",
        atol="1e-05", rtol="1e-05",
    ) + Msg("hint_returned_value")  # fmt: skip
    message = Msg("test_failed", name="small/float32") + why
    assert message == (
        "test small/float32: out: 3 of 1024 elements differ; first at index [7]: got 0, "
        "expected 1 (atol 1e-05, rtol 1e-05) (your function returned a value: write results "
        "into the output tensors in place)"
    )
    zh = _zh(message)
    assert zh.startswith("测试 small/float32：out：1024 个元素中有 3 个不一致")
    assert "请把结果原地写入输出张量" in zh and not LATIN_WORDS.search(zh), zh
    assert _en(message).startswith("Test small/float32: out: 3 of 1024 elements differ")


def test_what_cannot_be_checked_is_shown_as_english() -> None:
    plain = "something the runner wrote without an id"
    assert _zh(plain) == f'<span lang="en">{plain}</span>'
    # Parts that do not spell the text (a forged or stale document) are not believed.
    forged = [{"id": "all_passed", "args": {"n": "5"}}]
    assert _zh("runtime error: boom", forged) == '<span lang="en">runtime error: boom</span>'
    assert _zh("x", [{"id": "no_such_id", "args": {}}]) == '<span lang="en">x</span>'
    # Plain-text parts (a traceback) stay English inside a translated frame; arguments escaped.
    mixed = Msg("import_error", traceback="<b>NameError</b>") + " and more"
    assert _zh(mixed) == (
        '导入你的模块时出错：\n&lt;b&gt;NameError&lt;/b&gt;<span lang="en"> and more</span>'
    )


def test_a_message_survives_copy_and_pickle() -> None:
    message = Msg("test_failed", name="t") + Msg("no_outputs")
    for again in (copy.deepcopy(message), pickle.loads(pickle.dumps(message))):
        assert again == message and again.parts == message.parts


def test_legacy_results_without_ids_keep_their_translation() -> None:
    assert _zh("all 4 tests passed (CPU path: correctness only)", None) == (
        "全部 4 个测试通过（CPU 路径：只检查正确性）"
    )


def test_the_harness_cannot_claim_a_verdict_the_trusted_side_decides() -> None:
    """Parts from inside the sandbox are kept only for the ids the harness may say."""
    passed = Msg("all_passed", n=5)
    assert "all_passed" not in SANDBOX_IDS
    assert not isinstance(from_wire(str(passed), parts_of(passed)), Msg)
    oom = Msg("out_of_memory_job")
    assert from_wire(str(oom), parts_of(oom)).parts == oom.parts
    assert not isinstance(from_wire("other text", parts_of(oom)), Msg)  # parts must spell it
    bad_args = [{"id": "no_entry", "args": {"name": 5}}]
    assert not isinstance(from_wire("your module ...", bad_args), Msg)


def test_the_document_keeps_parts_only_when_they_fit_and_the_schema_checks_them() -> None:
    doc = new_document(slug="vector-add", backend="triton", path="cpu")
    finish(doc, status="compile_error", message=Msg("no_entry", name="'vector_add'"))
    validate(doc)
    assert doc["message_parts"] == [{"id": "no_entry", "args": {"name": "'vector_add'"}}]
    finish(doc, status="compile_error", message=doc["message"])  # finishing again keeps them
    assert doc["message_parts"]
    traceback = "t" * 1500  # an argument is never cut on its own: the text says all of it
    finish(doc, status="compile_error", message=Msg("import_error", traceback=traceback))
    assert doc["message"].endswith(traceback) and doc["message_parts"]
    too_long = Msg("import_error", traceback="x" * 900) + "y" * CAP_MESSAGE
    finish(doc, status="runtime_error", message=too_long)
    assert "message_parts" not in doc  # capped text: the parts would not spell it
    assert doc["schema_version"] == 3
    validate({**doc, "schema_version": 2})  # a worker not yet updated: the web still takes it
    doc["message_parts"] = [{"id": "Not An Id", "args": {}}]
    with pytest.raises(jsonschema.ValidationError):
        validate(doc)
    doc["message_parts"] = [{"id": "no_entry", "args": {"name": ["list"]}}]
    with pytest.raises(jsonschema.ValidationError):
        validate(doc)


# vector-add solution -> (status, id of the verdict's first part); the suffix names the backend.
GRADED = {
    "correct.py": ("accepted", "all_passed_cpu"),
    "off_by_one.py": ("wrong_answer", "test_failed"),
    "returns_new.py": ("wrong_answer", "test_failed"),
    "mutates_input.py": ("wrong_answer", "test_failed"),
    "device_assert.py": ("runtime_error", "device_assert_failed"),
    "no_mask.py": ("runtime_error", "out_of_bounds"),
    "syntax.py": ("compile_error", "syntax_error_at"),
    "missing_entry.cu": ("compile_error", "no_c_entry"),
}


@pytest.mark.parametrize("name", GRADED)
def test_real_grades_carry_ids_that_read_in_chinese(name: str) -> None:
    """Graded in the real sandbox on the CPU path: the verdict and the failed test's note both
    arrive with ids, and the Chinese page shows no English words of the runner's templates."""
    backend = "cuda" if name.endswith(".cu") else "triton"
    source = solution("vector-add", backend, name)
    doc = grade(slug="vector-add", source=source, backend=backend, device="cpu")
    validate(doc)
    status, first_id = GRADED[name]
    assert doc["status"] == status, doc["message"]
    assert doc["message_parts"][0]["id"] == first_id, doc["message_parts"]
    zh = _zh(doc["message"], doc["message_parts"])
    assert 'lang="en"' not in zh, zh  # every part an id: the words are all translated
    for test in doc["tests"]:
        if not test["passed"]:
            note = _zh(test["message"], test["message_parts"])
            assert 'lang="en"' not in note, note
