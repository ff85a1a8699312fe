"""CSV in and out. Import validates every row before writing any; export goes through selectors."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from accounts.roles import STUDENT
from gradebook import calc, reasons
from gradebook.models import Grade, GradeItem, category_name
from gradebook.templatetags.gradebook_tags import auto_points, status_label
from pdcsite.csvcells import plain
from pdcsite.errors import LineErrors
from pdcsite.moments import local_text
from pdcsite.uploads import csv_dict_reader

User = get_user_model()

BOM = "\ufeff"  # first character of every CSV we send, so spreadsheet programs read UTF-8
MAX_IMPORT_ROWS = 5000  # rows; far above a course roster, guards against a wrong file
ITEM_COLUMNS = (
    "student_id",
    "username",
    "name",
    "section",
    "points",
    "max_points",
    "status",
    "late_penalty_percent",
    "counted",
    "override_points",
    "override_reason",
    "curve",  # the item's curve ("+5", "×1.1") where it moved a graded score into counted
)


class ImportRowsError(LineErrors):
    """The file is not imported; `errors` names each bad line (1 = the header)."""


@dataclass(frozen=True)
class ImportRow:
    line: int
    student: AbstractBaseUser
    points: Decimal


def _students_by_key() -> dict[str, AbstractBaseUser]:
    """Students reachable by student id or username (a student id wins when both match)."""
    students = list(User.objects.filter(groups__name=STUDENT).select_related("profile"))
    found: dict[str, AbstractBaseUser] = {user.username: user for user in students}
    for user in students:
        profile = getattr(user, "profile", None)
        if profile is not None:
            found[profile.student_id] = user
    return found


def _row_points(raw: str, item: GradeItem) -> tuple[Decimal | None, str]:
    try:
        value = Decimal(raw)
    except InvalidOperation:
        return None, _("分数“%(points)s”不是数字。") % {"points": raw}
    if not value.is_finite() or value < 0 or value > item.max_points:
        return None, _("分数 %(points)s 超出 0…%(max)s 的范围。") % {
            "points": raw,
            "max": item.max_points,
        }
    if value != value.quantize(Decimal("0.01")):
        return None, _("分数 %(points)s 的小数超过两位。") % {"points": raw}
    return value, ""


def import_parse(text: str, *, item: GradeItem) -> list[ImportRow]:
    """Rows with a student (`student_id` or `username`) and `points`; blank points are skipped."""
    reader = csv_dict_reader(text)
    header = {name.strip() for name in reader.fieldnames or []}
    if "points" not in header or not header & {"student_id", "username"}:
        raise ImportRowsError([(1, _("表头需要 points 列，以及 student_id（或 username）列。"))])
    students, seen = _students_by_key(), {}
    rows: list[ImportRow] = []
    errors: list[tuple[int, str]] = []
    for number, record in enumerate(reader, start=2):
        if number > MAX_IMPORT_ROWS + 1:
            raise ImportRowsError([(number, _("超过 %(max)s 行。") % {"max": MAX_IMPORT_ROWS})])
        values = {(k or "").strip(): (v or "").strip() for k, v in record.items() if k}
        key = values.get("student_id") or values.get("username") or ""
        if not values.get("points"):
            continue  # no score for this student (absent, or a blank row)
        student = students.get(key)
        points, problem = _row_points(values["points"], item)
        if student is None:
            problem = (
                _("名单中没有学生“%(key)s”。") % {"key": key} if key else _("student_id 为空。")
            )
        elif student.pk in seen:
            problem = _("学生“%(key)s”再次出现（首次在第 %(line)s 行）。") % {
                "key": key,
                "line": seen[student.pk],
            }
        if problem:
            errors.append((number, problem))
            continue
        seen[student.pk] = number
        rows.append(ImportRow(number, student, points))
    if errors:
        raise ImportRowsError(errors)
    return rows


def _text(rows: Iterable[list]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow(["" if v is None else v for v in row])
    return out.getvalue()


def _profile_cells(student: AbstractBaseUser) -> list[str]:
    profile = getattr(student, "profile", None)
    return [
        profile.student_id if profile else "",
        student.username,
        plain((profile.display_name if profile else "") or student.get_full_name()),
        plain(profile.section if profile else ""),
    ]


def item_export(item: GradeItem, results, grades: dict[int, Grade]) -> str:
    """One item over the roster. `points` is the automatic (or imported) score of the work that
    counts (`auto_points`) and an override has
    its own column, so the file imports back without changing anything, overrides included. A
    reason the system wrote is said in the exporting person's language, as on the pages."""
    rows: list[list] = [list(ITEM_COLUMNS)]
    for student, res in results:
        grade = grades.get(student.pk)
        rows.append(
            [
                *_profile_cells(student),
                auto_points(grade, res),
                item.max_points,
                status_label(res.status),  # as the pages say it; the import does not read it
                res.penalty_percent if res.status == calc.GRADED else "",
                res.counted,
                grade.override_points if grade else None,
                plain(reasons.shown(grade.override_reason)) if grade else "",
                calc.curve_text(item.curve, res),
            ]
        )
    return _text(rows)


def _unique(names: list[str]) -> list[str]:
    """Header cells must be unique for csv.DictReader; a repeated title gets " (2)", " (3)"…"""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out


def gradebook_export(grid: dict) -> str:
    """One row per student, one column per item titled by its name (points that count), category
    percents and the total of what is graded so far, then the projected total."""
    items, course = grid["items"], grid["course"]
    cat_keys = [c.key for c in course.categories]
    header = ["student_id", "username", "name", "section"]
    header += _unique(
        # Named as the page names them, in the reader's language (an English TA read Chinese
        # titles and 测验 % beside English ones on the page).
        [plain(str(item)) for item in items]
        + [f"{category_name(key, course.category_title(key))} %" for key in cat_keys]
        + [_("总评百分比（仅计已评分的项）"), _("预计总评百分比（未评的项按 0 分）")]
    )
    rows: list[list] = [header]
    for row in grid["rows"]:
        cells = ["EX" if c.status == calc.EXCUSED else c.counted for c in row.cells]
        cats = [row.categories.get(key) for key in cat_keys]
        rows.append([*_profile_cells(row.student), *cells, *cats, row.total, row.projected])
    return _text(rows)


def mine_export(view: dict) -> str:
    """A student's own grades, with what the page shows: released scores only (unreleased rows
    carry no score at all), the student's own deadline, and the page's notes (an extension, a
    dropped lowest item, a staff override and its reason). The student reads this file, so headers,
    titles, statuses and notes are in the reader's language; the staff files keep the column names
    an import reads back."""
    header = [
        _("标识"),
        _("成绩项"),
        _("类别"),
        _("截止时间"),
        _("满分"),
        _("状态"),
        _("得分"),
        _("迟交扣分（%）"),
        _("计入"),
        pgettext("notes column", "说明"),
    ]
    rows: list[list] = [header]
    for row in view["rows"]:
        res = row.result
        rows.append(
            [
                row.item.key,
                plain(str(row.item)),
                plain(category_name(row.item.category, row.category_title)),
                local_text(row.due_at),
                row.item.max_points,
                status_label(row.status),
                res.raw if res else "",
                res.penalty_percent if res else "",
                res.counted if res else "",
                plain(_student_note(row)),
            ]
        )
    total = [_("总评百分比（仅计已评分的项）"), *[""] * (len(header) - 2)]
    rows.append([*total, view["standing"].total_percent])
    return _text(rows)


def _student_note(row) -> str:
    """The 说明 of the student's page, as text: what changed this row's deadline or score."""
    notes = []
    if row.extended:
        notes.append(_("已延期"))
    if row.result and row.result.dropped:
        notes.append(_("已去掉最低"))
    if row.result and row.override_reason:
        notes.append(_("助教改分") + _("：") + reasons.shown(row.override_reason))
    if row.result and (curve := calc.curve_text(row.item.curve, row.result)):
        notes.append(_("曲线 %(curve)s") % {"curve": curve})
    return _("；").join(notes)
