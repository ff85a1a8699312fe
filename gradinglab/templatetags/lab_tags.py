"""Labels for the lab's stored codes (statuses, phases, backends), so no page shows a raw code."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _

from gradinglab import result_text
from gradinglab.models import Submission

register = template.Library()

_STATUS = dict(Submission.Status.choices)
_PHASE = {"compiling": _("编译"), "testing": _("测试"), "timing": _("计时")}
_BACKEND = {"triton": "Triton", "cuda": "CUDA"}


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
def backends_label(codes: list[str]) -> str:
    return ", ".join(_BACKEND.get(c, c) for c in codes)


@register.filter
def lab_title(assignment) -> str:
    """The assignment's own title, else the problem's title in the page's language."""
    from django.utils.translation import get_language

    lang = "en" if (get_language() or "").startswith("en") else "zh"
    return assignment.title or assignment.problem.title_for(lang)


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
def result_message(said: dict | None) -> str:
    """The grader's words in the page's language (gradinglab/result_text.py): a result document's
    verdict, or one of its tests' notes (both carry message and message_parts)."""
    said = said or {}
    return result_text.render(said.get("message"), said.get("message_parts"))
