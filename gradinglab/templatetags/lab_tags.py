"""Labels for the lab's stored codes (statuses, phases, backends), so no page shows a raw code."""

from __future__ import annotations

import re

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

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


_ALL_PASSED = re.compile(r"^all (\d+) tests passed( \(CPU path: correctness only\))?$")
# runner/timing_check.judge's rejection of a median below the physical floor.
_BELOW_FLOOR = re.compile(
    r"^measured time is faster than the hardware allows "
    r"\(([0-9.]+) ms < floor ([0-9.]+) ms\); a TA will review it$"
)


@register.filter
def result_message(doc: dict) -> str:
    """The grader's one-line verdict in the page's language. The grader writes English; the common
    verdicts are translated here, anything else is grader output and is shown marked as English."""
    message = str((doc or {}).get("message") or "")
    match = _ALL_PASSED.match(message)
    if match:
        n = int(match.group(1))
        if match.group(2):
            return gettext("全部 %(n)d 个测试通过（CPU 路径：只检查正确性）") % {"n": n}
        return gettext("全部 %(n)d 个测试通过") % {"n": n}
    if match := _BELOW_FLOOR.match(message):
        return gettext("测得的时间比硬件允许的还快（%(m)s ms < 下限 %(f)s ms）；助教会查看。") % {
            "m": match.group(1),
            "f": match.group(2),
        }
    if not message:
        return ""
    return format_html('<span lang="en">{}</span>', message)
