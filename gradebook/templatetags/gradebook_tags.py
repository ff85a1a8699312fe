from __future__ import annotations

from decimal import Decimal

from django import template
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _now
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, ngettext, pgettext_lazy

from gradebook import calc, reasons, selectors
from gradebook.models import BUILT_IN_CATEGORY_NAMES, category_name
from gradebook.refs import ref_split

register = template.Library()

_STATUS = {
    "not_started": _("未开始"),
    "missing": _("缺交"),
    "submitted": _("已提交（成绩未发布）"),
    "graded": _("已评分"),
    "released": pgettext_lazy("grade release", "已发布"),
    "excused": _("免做"),
}


@register.filter
def status_label(status: str) -> str:
    return str(_STATUS.get(status, status))


@register.filter
def auto_points(grade, result) -> Decimal | None:
    """The automatic score of the work that counts (``grade``: a Grade or None; ``result``: its
    calc.ItemResult): under GRACE the standing may count another of the student's works than the
    one the app posted (then ``result`` has its raw score), and a row's points, penalty and
    counted must be of the same work. The staff student page and the item CSV both say it."""
    if grade is None:
        return None
    chosen_other = grade.override_points is None and result.ref and result.ref != grade.counted_ref
    return result.raw if chosen_other else grade.auto_points


@register.filter
def curve_text(item, result) -> str:
    """``item``'s curve where it moved ``result`` (calc.curve_text), else ""."""
    return calc.curve_text(item.curve, result) if result else ""


@register.filter
def curve_rule(curve: calc.Curve | None) -> str:
    """What the item's ``curve`` does, in one sentence: on the item's staff page, and as the title
    of its badge in the staff grid's header; "" for no curve."""
    if curve is None:
        return ""
    return _now(
        "本项所有已评分学生的计入分数按曲线 %(curve)s 调整（在迟交扣分之后，上限为满分，不低于 0；"
        "人工改分同样调整；缺交与免做不变）。"
    ) % {"curve": curve}


@register.filter
def pts(value: Decimal | int | str | None) -> str:
    """Points without trailing zeros (7.50 -> 7.5); a dash when there is no value.

    Templates hand over "" for a missing attribute (e.g. no Grade row), so that is a dash too.
    """
    if value is None or value == "":
        return "—"
    text = f"{Decimal(value):f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


@register.filter
def points_text(value: Decimal | int | str) -> str:
    """Points with their unit, in the reader's number: "1 point", "2.5 points" (zh: "1 分")."""
    number = Decimal(value)
    # gettext's plural rules take integers; a fraction reads as plural in English ("1.5 points").
    count = int(number) if number == number.to_integral_value() else 2
    return ngettext("%(n)s 分", "%(n)s 分", count) % {"n": pts(number)}


@register.filter
def get_item(mapping: dict, key: str):
    return mapping.get(key)


# ref kind -> (URL name of the page that shows it, label msgid, translated when shown)
_REF_VIEWS = {
    "submission": ("gradinglab:submission", gettext_noop("提交 #%(n)s")),
    "quiz-attempt": ("quizzes:review", gettext_noop("测验作答 #%(n)s")),
}


@register.simple_tag
def ref_link(ref: str) -> str:
    """The work a score came from, as a link ("提交 #12"); "—" when the score has no source."""
    kind, pk = ref_split(ref)
    if kind not in _REF_VIEWS or pk is None:
        return "—"
    label = ref_label(ref)
    try:
        url = reverse(_REF_VIEWS[kind][0], args=[pk])
    except NoReverseMatch:
        return label
    return format_html('<a href="{}">{}</a>', url, label)


@register.filter
def item_title(item) -> str:
    """The item's name in the page's language (GradeItem.__str__: its English title on English
    pages when it has one), marked as Chinese content when it is Chinese (a quiz title is course
    content)."""
    from accounts.templatetags.ui_tags import content

    return content(str(item))


@register.filter
def category_label(key: str, title: str = "") -> str:
    """category_name, with a staff-made title marked as content (it is in the language staff wrote
    it in); pass the title, else such a category shows its key."""
    from accounts.templatetags.ui_tags import content

    name = category_name(key, title)
    return name if key in BUILT_IN_CATEGORY_NAMES else content(name)


@register.filter
def ref_label(ref: str) -> str:
    """A regrade request's object ("submission:12") as a person reads it ("提交 #12")."""
    kind, pk = ref_split(ref)
    if kind in _REF_VIEWS and pk is not None:  # "submission:12", "quiz-attempt:5"
        return _now(_REF_VIEWS[kind][1]) % {"n": pk}
    return ref


@register.filter
def reason_text(text: str) -> str:
    """A stored score-change reason in the page's language when the system wrote it (a regrade's
    answer, …), else a staff member's words as written."""
    return reasons.shown(text or "")


@register.inclusion_tag("gradebook/partials/grade_note.html")
def grade_note(viewer, student, item_key: str, ref_kind: str, ref_id: int, shown) -> dict:
    """`{% grade_note user student item_key "submission" sub.pk score %}`, beside the score on the
    page of one work (a lab submission, a quiz attempt's review): what the gradebook counts for the
    item when that differs, a staff override or another work (`selectors.grade_note`), with a link
    to the student's grades. ``viewer`` sees it when they may (the student, staff)."""
    note = selectors.grade_note(viewer, student, item_key, f"{ref_kind}:{ref_id}", shown)
    return {"note": note, "own": viewer.pk == student.pk, "student_id": student.pk}
