"""The reasons the system writes into the audit trail, said in the reader's language.

A staff member's own words are stored and shown as written. A reason the code writes ("the best
submission", "CSV import, line 4") is a `Reason`: a `str` holding its English text (the `reason`
column, for exports and for rows written before this existed) that also remembers its id and
arguments (`GradeEvent.reason_parts`). Pages say it again in the active language
(`GradeEvent.shown_reason`), with status and method codes shown by their labels. Each app names
its codes' choices as "app_label.Model.ChoicesClass", so the gradebook imports no other app.
"""

from __future__ import annotations

import re
from typing import Any

from django.apps import apps
from django.utils import translation
from django.utils.translation import gettext_lazy as _

# id -> (template with %(field)s placeholders, {field: "app_label.Model.ChoicesClass"})
REASONS: dict[str, tuple[Any, dict[str, str]]] = {
    "submission_best": (
        _("提交 #%(submission)s（%(status)s）"),
        {"status": "gradinglab.Submission.Status"},
    ),
    "submission_override": (_("提交 #%(submission)s：%(old)s → %(new)s；%(note)s"), {}),
    "submission_set_by_staff": (_("提交 #%(submission)s 的分数由助教设定"), {}),
    "regrade_run": (_("重新评测 #%(run)s，由 %(user)s 发起"), {}),
    "due_changed": (_("迟交规则变更（截止时间或扣分政策），重新选取计分的作答"), {}),
    "due_changed_lab": (_("迟交规则变更（截止时间或扣分政策），重新选取计分的提交"), {}),
    "quiz_rescore": (_("测验设置更改后按已存原始分重新计算，由 %(user)s 发起"), {}),
    "attempt_graded": (
        _("第 %(number)s 次作答已评分（%(method)s）"),
        {"method": "quizzes.Quiz.Grading"},
    ),
    "regrade_response": (_("复核申请 #%(request)s：%(response)s"), {}),
    "csv_import": (_("CSV 导入，第 %(line)s 行"), {}),
    "similarity_pair": (
        _("相似度 #%(a)s ~ #%(b)s（%(fraction)s）：%(decision)s"),
        {"decision": "similarity.SimilarityDecision.Decision"},
    ),
    "similarity_archive": (
        _("相似度 #%(a)s ~ 归档 %(archived)s（%(fraction)s）：%(decision)s"),
        {"decision": "similarity.SimilarityDecision.Decision"},
    ),
    "flag_verdict": (
        _("提交 #%(submission)s 第 %(round)s 轮的处理结论：%(decision)s"),
        {"decision": "flagreview.FlagVerdict.Decision"},
    ),
    "extension_due": (_("截止时间延至 %(due)s"), {}),
    "extension": (_("已延期"), {}),
    # An item's curve (calc.Curve's text, "+5" or "×1.1"), followed by staff's words (with_note).
    "curve_set": (_("曲线设为 %(curve)s"), {}),
    "curve_change": (_("曲线由 %(old)s 改为 %(new)s"), {}),
    "curve_reason": (_("曲线 %(curve)s 不变，更新原因"), {}),
    "curve_remove": (_("撤销曲线 %(old)s"), {}),
    # A system reason (nested parts) followed by staff's words.
    "with_note": (_("%(reason)s；%(note)s"), {}),
    # An automatic score posted under a staff override: the override still decides the score.
    "override_in_force": (_("%(reason)s（人工改分仍有效；自动得分 %(value)s）"), {}),
    "override_in_force_bare": (_("人工改分仍有效；自动得分 %(value)s"), {}),
    # Staff's words for an item score set from one submission's admin page.
    "from_submission": (_("%(note)s（来自提交 #%(submission)s）"), {}),
}


class Reason(str):
    """English text that remembers the reason id and arguments it was made of."""

    parts: dict[str, Any]

    def __new__(cls, reason_id: str, **args: Any) -> Reason:
        args = {k: v.parts if isinstance(v, Reason) else str(v) for k, v in args.items()}
        parts = {"id": reason_id, "args": args}
        with translation.override("en"):
            self = super().__new__(cls, render(parts))
        self.parts = parts
        return self


def cleaned(reason: str) -> str:
    """Staff's words trimmed; a system reason kept whole (str methods would drop its parts)."""
    return reason if isinstance(reason, Reason) else reason.strip()


def parts_of(reason: str) -> dict[str, Any]:
    """What GradeEvent.reason_parts stores: {} for a staff member's own words."""
    return dict(reason.parts) if isinstance(reason, Reason) else {}


# The English f-strings the code wrote before reasons had parts (rows of an upgraded database),
# read back into parts so that those rows are said in the page's language too.
_LEGACY: list[tuple[str, re.Pattern[str]]] = [
    # First: the reason inside may itself end in text another pattern's ".*" would swallow.
    (
        "override_in_force_bare",
        re.compile(r"\(override in force; automatic score (?P<value>\S+)\)"),
    ),
    (
        "override_in_force",
        re.compile(r"(?P<reason>.+) \(override in force; automatic score (?P<value>\S+)\)", re.S),
    ),
    ("from_submission", re.compile(r"(?P<note>.+) \(from submission #(?P<submission>\d+)\)", re.S)),
    ("submission_best", re.compile(r"submission #(?P<submission>\d+) \((?P<status>[a-z_]+)\)")),
    (
        "submission_override",
        re.compile(
            r"submission #(?P<submission>\d+): (?P<old>\S+) -> (?P<new>\S+); (?P<note>.*)", re.S
        ),
    ),
    ("submission_set_by_staff", re.compile(r"submission #(?P<submission>\d+) score set by staff")),
    ("regrade_run", re.compile(r"regrade run #(?P<run>\d+) by (?P<user>\S+)")),
    ("attempt_graded", re.compile(r"attempt (?P<number>\d+) graded \((?P<method>[a-z_]+)\)")),
    ("regrade_response", re.compile(r"regrade #(?P<request>\d+): (?P<response>.*)", re.S)),
    ("csv_import", re.compile(r"CSV import, line (?P<line>\d+)")),
    (
        "similarity_pair",
        re.compile(
            r"similarity #(?P<a>\d+) ~ #(?P<b>\d+) \((?P<fraction>\d+%)\): (?P<decision>[a-z_]+)"
        ),
    ),
    (
        "similarity_archive",
        re.compile(
            r"similarity #(?P<a>\d+) ~ archive (?P<archived>.+?) \((?P<fraction>\d+%)\): "
            r"(?P<decision>[a-z_]+)"
        ),
    ),
    (
        "flag_verdict",
        re.compile(
            r"flag verdict on submission #(?P<submission>\d+) round (?P<round>\d+): "
            r"(?P<decision>[a-z_]+)"
        ),
    ),
    ("extension_due", re.compile(r"due (?P<due>\d{4}-\d\d-\d\d \d\d:\d\d)")),
    ("extension", re.compile(r"extended")),
]


def legacy_parts(text: str) -> dict[str, Any]:
    """The parts of a reason written as one of the old English f-strings; {} for anything else.
    "<old reason>; <staff's words>" is read as a `with_note`."""
    parts = _legacy_one(text)
    if not parts:
        head, sep, note = text.partition("; ")
        if sep and (reason := _legacy_one(head)):
            parts = {"id": "with_note", "args": {"reason": reason, "note": note}}
    return parts


def _legacy_one(text: str) -> dict[str, Any]:
    for reason_id, pattern in _LEGACY:
        if match := pattern.fullmatch(text):
            args = match.groupdict()
            # A lab override whose note was itself a system reason (a flag verdict's restore).
            if reason_id == "submission_override" and (note := legacy_parts(args["note"])):
                args["note"] = note
            # The reason the override outlived may itself be a system reason.
            if reason_id == "override_in_force" and (inner := legacy_parts(args["reason"])):
                args["reason"] = inner
            return {"id": reason_id, "args": args}
    return {}


def shown(text: str, parts: dict[str, Any] | None = None) -> str:
    """A stored reason in the active language when the system wrote it, else as written."""
    return render(parts or legacy_parts(text)) or text


def render(parts: dict[str, Any]) -> str:
    """The reason in the active language; '' when the parts are not a known reason."""
    known = REASONS.get(parts.get("id", "")) if isinstance(parts, dict) else None
    args = parts.get("args") if known else None
    if not known or not isinstance(args, dict):
        return ""
    template, labelled = known
    said = {}
    for key, value in args.items():
        if isinstance(value, dict):  # a nested reason
            value = render(value)
            if not value:
                return ""
        said[key] = _label(labelled[key], value) if key in labelled else value
    try:
        return str(template) % said
    except (KeyError, TypeError, ValueError):
        return ""


def _label(choices_path: str, value: str) -> str:
    """A stored code by its label ("accepted" -> 通过 / Accepted); the code if unknown."""
    app_label, model, attr = choices_path.split(".")
    choices = getattr(apps.get_model(app_label, model), attr)
    try:
        return str(choices(value).label)
    except ValueError:
        return value
