"""Each flag kind is said as a sentence in the page's language with its figures; no raw English
flag text reaches a student's sentence. Pure (no database): the strings are the ones the runner,
the web re-check, the pre-check and the admin write (see flagreview/evidence.py)."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from flagreview import evidence

FLAGS = {
    "floor": "median 0.0100 ms is below the physical floor 0.0601 ms for NVIDIA H100 80GB HBM3: "
    "flagged for TA review",
    "speedup": "25.0x faster than the PyTorch reference: review",
    "cache": "large: 12.5x faster on inputs it had seen before (caching?): the first-use time is "
    "graded; review",
    "timer": "large: device timer says 0.0010 ms but the trusted clock measured 0.2000 ms per call "
    "(timer tampering or hidden work?); the trusted time is graded",
    "precheck": "precheck: 第 3 行：使用了 CUDA 流",
    "staff": "TA",
    "other": "something new the runner says",
}
FIGURES = {
    "floor": ["0.0100", "0.0601", "NVIDIA H100 80GB HBM3"],
    "speedup": ["25.0", "10"],
    "cache": ["large", "12.5"],
    "timer": ["large", "0.0010", "0.2000"],
}
_RAW_WORDS = re.compile(
    r"flagged for TA review|x faster than the PyTorch reference: review|\(caching\?\)|timer tampering"
)


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_every_kind_has_its_sentence_with_its_figures(lang: str) -> None:
    with translation.override(lang):
        for kind, raw in FLAGS.items():
            item = evidence.parse_flag(raw)
            assert item.kind == kind and item.raw == raw
            sentence = item.sentence()
            assert not _RAW_WORDS.search(sentence), sentence
            for figure in FIGURES.get(kind, []):
                assert figure in sentence, (kind, sentence)
            has_cjk = bool(re.search(r"[\u4e00-\u9fff]", sentence))
            assert has_cjk == (lang == "zh-hans"), sentence


def test_outputs_that_changed_during_timed_calls() -> None:
    msg = (
        "wrong result during timed calls (large, float32): out: 12 of 1024 elements differ; "
        "first at index 5: got 1, expected 2 (atol 1e-05, rtol 1e-05)"
    )
    item = evidence.parse_message("wrong_answer", msg)
    assert item is not None and item.kind == "timed_output"
    with translation.override("en"):
        sentence = item.sentence()
    assert all(x in sentence for x in ("large, float32", "out", "12", "1024", "5")), sentence
    changed = evidence.parse_message(
        "wrong_answer",
        "wrong result during timed calls (large, float32): input 'x' was modified by the "
        "submission (inputs are read-only)",
    )
    assert changed is not None and changed.params["input"] == "x"
    assert evidence.parse_message("wrong_answer", "out: 3 of 8 elements differ") is None


def test_figures_come_from_the_timing_else_from_the_floor_flag() -> None:
    timing = {"median_ms": 0.01, "floor_ms": 0.0601, "reference_median_ms": 0.25,
              "speedup_vs_reference": 25.0}  # fmt: skip
    doc = {"status": "rejected", "flags": [FLAGS["floor"]], "timing": timing, "message": ""}
    items = evidence.items_for(doc, "")
    figures = evidence.figures_for(doc, items)
    assert (figures.median_ms, figures.floor_ms, figures.reference_ms, figures.speedup) == (
        0.01, 0.0601, 0.25, 25.0,
    )  # fmt: skip
    bare = {**doc, "timing": None}
    figures = evidence.figures_for(bare, evidence.items_for(bare, ""))
    assert (figures.median_ms, figures.floor_ms, figures.reference_ms) == (0.01, 0.0601, None)


def test_a_rejection_without_flags_still_says_why() -> None:
    doc = {
        "status": "rejected",
        "flags": [],
        "message": "measured time is faster than the hardware allows (0.0100 ms < floor "
        "0.0601 ms); a TA will review it",
    }
    [item] = evidence.items_for(doc, "")
    assert item.kind == "floor_message" and item.params == {"median": "0.0100", "floor": "0.0601"}
