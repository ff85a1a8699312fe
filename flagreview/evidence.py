"""The evidence of a flagged or rejected result in plain words.

The runner and the web re-check write their flags in English, with the figures in them
(`runner/timing_check.py`, `runner/measure.py`, `result_check.py`, `precheck.py`); those strings are
the record, kept as they are for staff. Here each known kind is recognised by its pattern and said
again as a sentence in the page's language, with its figures; a flag of no known kind becomes a
general sentence (never the raw text) so that a new flag kind cannot leak English onto a Chinese
page. Pure functions: no database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from gradinglab.result_check import SPEEDUP_REVIEW

_NUM = r"([0-9]+(?:\.[0-9]+)?)"
FLOOR = re.compile(
    rf"median {_NUM} ms is below the physical floor {_NUM} ms for (.+?): flagged for TA review"
)
SPEEDUP = re.compile(rf"^{_NUM}x faster than the PyTorch reference: review")
CACHE = re.compile(r"^(\S+): (?:([0-9.]+)x|immeasurably) faster on inputs it had seen before")
TIMER = re.compile(
    rf"^(\S+): device timer says {_NUM} ms but the trusted clock measured {_NUM} ms per call"
)
# The rejection message of a below-floor run (runner/timing_check.py), for documents whose flags
# were cut (at most 16 are kept).
FLOOR_MESSAGE = re.compile(rf"faster than the hardware allows \({_NUM} ms < floor {_NUM} ms\)")
TIMED_OUTPUT = re.compile(r"^wrong result during timed calls \(([^,)]+)(?:, ([^)]+))?\): (.*)$")
ELEMENTS = re.compile(
    r"^(\S+): ([0-9]+) of ([0-9]+) elements differ; first at index ([0-9]+): "
    r"got (\S+), expected (\S+)"
)
INPUT_CHANGED = re.compile(r"input '([^']+)' was modified by the submission")


@dataclass(frozen=True)
class Item:
    """One piece of evidence: its kind, the raw text it came from (staff only), its figures."""

    kind: str
    raw: str
    params: dict[str, str] = field(default_factory=dict)

    def sentence(self) -> str:
        return str(_SENTENCES[_variant(self.kind, self.params)]) % self.params


@dataclass(frozen=True)
class Figures:
    """The measured numbers beside the sentences (None: not measured or not known)."""

    median_ms: float | None = None
    floor_ms: float | None = None
    reference_ms: float | None = None
    speedup: float | None = None
    device: str = ""

    @property
    def any(self) -> bool:
        return any(v is not None for v in (self.median_ms, self.floor_ms, self.reference_ms))


# One sentence per kind, and per variant where the figures differ (`_variant` picks it); every
# one is filled from the item's figures, so a sentence without placeholders ignores them.
_SENTENCES: dict[str, Promise] = {
    "floor": gettext_lazy(
        "你的中位时间是 %(median)s ms，低于这台设备（%(device)s）的物理下限 %(floor)s ms。"
        "物理下限是按设备的显存带宽和峰值算力算出的最短时间，正确的实现不可能比它更快，"
        "所以这次结果被拒绝，等助教查看。"
    ),
    "floor_message": gettext_lazy(
        "你的中位时间是 %(median)s ms，低于设备的物理下限 %(floor)s ms。"
        "正确的实现不可能比物理下限更快，所以这次结果被拒绝，等助教查看。"
    ),
    "speedup": gettext_lazy(
        "你的核函数比 PyTorch 参考实现快 %(x)s 倍；超过 %(limit)s 倍的结果都要由助教看过才能上排行榜。"
    ),
    "cache:ratio": gettext_lazy(
        "在计时规模 %(bench)s 上，已经见过的输入比第一次见到时快 %(ratio)s 倍"
        "（像是缓存了结果），所以按第一次使用的时间计分。"
    ),
    "cache": gettext_lazy(
        "在计时规模 %(bench)s 上，已经见过的输入几乎不花时间（像是缓存了结果），"
        "所以按第一次使用的时间计分。"
    ),
    "timer": gettext_lazy(
        "在计时规模 %(bench)s 上，设备计时器报告 %(events)s ms，而可信时钟测得每次调用 "
        "%(trusted)s ms；两者相差太多（计时器被改动，或有不计时的工作？），按可信时钟计分。"
    ),
    "timed_output:output": gettext_lazy(
        "计时调用中（计时规模 %(bench)s），输出 %(output)s 有 %(bad)s / %(total)s 个元素"
        "与正确结果不同；第一个在下标 %(index)s：得到 %(got)s，应为 %(expected)s。"
        "公开测试通过的代码，在计时时结果变了。"
    ),
    "timed_output:input": gettext_lazy(
        "计时调用中（计时规模 %(bench)s），你的代码修改了输入 %(input)s；输入是只读的。"
    ),
    "timed_output": gettext_lazy("计时调用中（计时规模 %(bench)s），输出与正确结果不同。"),
    "precheck": gettext_lazy("提交前的静态检查标记了你的代码（代码照常评测，但要由助教看过）。"),
    "staff": gettext_lazy("助教标记了这次提交，需要复查。"),
    "staff:reason": gettext_lazy("助教标记了这次提交：%(reason)s"),
    "other": gettext_lazy("评测系统标记了这次结果，需要助教查看。"),
}


def _variant(kind: str, p: dict[str, str]) -> str:
    """The key of the sentence that says what the figures present can say."""
    variants = {"cache": ("ratio",), "timed_output": ("output", "input"), "staff": ("reason",)}
    for figure in variants.get(kind, ()):
        if p.get(figure):
            return f"{kind}:{figure}"
    return kind if kind in _SENTENCES else "other"


def _ms(text: str) -> str:
    return f"{float(text):.4f}"


def parse_flag(raw: str) -> Item:
    """The kind and figures of one flag string (runner, web re-check, pre-check or a TA)."""
    if m := FLOOR.search(raw):
        return Item("floor", raw, {"median": _ms(m[1]), "floor": _ms(m[2]), "device": m[3]})
    if m := SPEEDUP.search(raw):
        return Item("speedup", raw, {"x": m[1], "limit": f"{SPEEDUP_REVIEW:g}"})
    if m := CACHE.search(raw):
        return Item("cache", raw, {"bench": m[1], "ratio": m[2] or ""})
    if m := TIMER.search(raw):
        return Item("timer", raw, {"bench": m[1], "events": _ms(m[2]), "trusted": _ms(m[3])})
    if raw.startswith("precheck:"):
        return Item("precheck", raw)
    if raw.strip() == "TA":  # the admin's "flag selected" action (no reason given)
        return Item("staff", raw)
    return Item("other", raw)


def staff_flag(reason: str) -> Item:
    """A TA's flag: their own words, said as they wrote them (never parsed as a grader's flag)."""
    reason = reason.strip()
    return Item("staff", reason, {"reason": "" if reason == "TA" else reason})


def parse_message(status: str, message: str) -> Item | None:
    """Evidence carried by the verdict message itself (a rejection, or outputs that changed)."""
    if status == "rejected" and (m := FLOOR_MESSAGE.search(message)):
        return Item("floor_message", message, {"median": _ms(m[1]), "floor": _ms(m[2])})
    if status == "wrong_answer" and (m := TIMED_OUTPUT.match(message)):
        params = {"bench": ", ".join(x for x in (m[1], m[2]) if x)}
        if e := ELEMENTS.match(m[3]):
            params.update(output=e[1], bad=e[2], total=e[3], index=e[4], got=e[5], expected=e[6])
        elif i := INPUT_CHANGED.search(m[3]):
            params["input"] = i[1]
        return Item("timed_output", message, params)
    return None


def is_timed_output_failure(status: str, message: str) -> bool:
    return status == "wrong_answer" and TIMED_OUTPUT.match(message) is not None


def items_for(
    doc: dict[str, Any] | None, flag_reason: str, *, by_staff: bool = False
) -> list[Item]:
    """Every piece of evidence of one result: its flags, its message, the submission's own flag
    (`by_staff`: a TA set it, so its reason is theirs, whatever the document says)."""
    doc = doc or {}
    items = [parse_flag(str(f)) for f in doc.get("flags") or []]
    kinds = {i.kind for i in items}
    from_message = parse_message(str(doc.get("status", "")), str(doc.get("message") or ""))
    if from_message and not (from_message.kind == "floor_message" and "floor" in kinds):
        items.append(from_message)
    if by_staff:
        items.append(staff_flag(flag_reason))
    elif flag_reason and not doc.get("flags"):  # the pre-check's flag, not the document's
        items.append(parse_flag(flag_reason))
    if not items and doc.get("status") == "rejected":
        items.append(Item("other", str(doc.get("message") or "")))
    return items


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def figures_for(doc: dict[str, Any] | None, items: list[Item]) -> Figures:
    """Time, floor, reference and speed-up: from the stored timing, else from the floor flag."""
    doc = doc or {}
    timing = doc.get("timing") or {}
    device = str((doc.get("device") or {}).get("name") or "")
    floor = next((i for i in items if i.kind in ("floor", "floor_message")), None)
    median, floor_ms = _number(timing.get("median_ms")), _number(timing.get("floor_ms"))
    if floor is not None and median is None:
        median, floor_ms = float(floor.params["median"]), float(floor.params["floor"])
    return Figures(
        median_ms=median,
        floor_ms=floor_ms,
        reference_ms=_number(timing.get("reference_median_ms")),
        speedup=_number(timing.get("speedup_vs_reference")),
        device=device,
    )
