"""Labels for the lab's stored codes (statuses, phases, backends), so no page shows a raw code."""

from __future__ import annotations

import math

from django import template
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from gradinglab import result_text
from gradinglab.models import Backend, Submission, queue_label, worker_kind_label
from pdcsite.moments import local_text

register = template.Library()

_STATUS = dict(Submission.Status.choices)
# 测试 alone is also the public tests' column ("Test"): the phase has its own context.
_PHASE = {
    "compiling": _("编译"),
    "testing": pgettext_lazy("grading phase", "测试"),
    "timing": _("计时"),
}
_BACKEND = dict(Backend.choices)


@register.filter
def submission_status(code: str | None) -> str:
    return str(_STATUS.get(code, code or "—"))


@register.filter
def phase_label(code: str | None) -> str:
    return str(_PHASE.get(code, code or "—"))


@register.filter
def backend_label(code: str) -> str:
    return _BACKEND.get(code, code)


@register.filter
def worker_kind(kind: str) -> str:
    return worker_kind_label(kind)


@register.filter(name="queue_label")
def queue_label_filter(name: str) -> str:
    return queue_label(name)


@register.filter
def backends_label(codes: list[str]) -> str:
    return ", ".join(_BACKEND.get(c, c) for c in codes)


@register.filter
def lab_title(assignment) -> str:
    """The assignment's own title, else the problem's title in the page's language (its __str__)."""
    return str(assignment)


@register.filter
def assignment_label(assignment) -> str:
    """Title, grading hardware and due date: tells apart the assignments of one problem."""
    hardware = worker_kind_label(assignment.gpu_kind) if assignment.gpu_kind else _("CPU 评测")
    names = {"title": lab_title(assignment), "hardware": hardware}
    if assignment.due_at is None:
        return _("%(title)s（%(hardware)s）") % names
    return _("%(title)s（%(hardware)s，截止 %(due)s）") % {
        **names,
        "due": local_text(assignment.due_at),
    }


@register.filter
def sci(value: float | None) -> str:
    """An error magnitude a person can read: 3 significant digits (0.1314 -> 1.31e-01)."""
    if value is None or value == "":
        return "—"
    try:
        return f"{float(value):.2e}"
    except (TypeError, ValueError):
        return str(value)


@register.filter
def sig(value: float | None, digits: int = 3) -> str:
    """A measured figure to `digits` significant digits, without an exponent or trailing zeros
    (0.085853 -> 0.0859, 2.0 -> 2); the integer part is never cut (2874.1234 -> 2874, not 2870).
    A timing document holds full floats."""
    if value is None or value == "":
        return "—"
    try:
        x = float(value)
    except (TypeError, ValueError):
        return str(value)
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    places = max(0, int(digits) - 1 - math.floor(math.log10(abs(x))))
    text = f"{x:.{places}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


@register.filter
def result_message(said: dict | None) -> str:
    """The grader's words in the page's language (gradinglab/result_text.py): a result document's
    verdict, or one of its tests' notes (both carry message and message_parts)."""
    said = said or {}
    return result_text.render(said.get("message"), said.get("message_parts"))
