"""Must-hold 3: import is idempotent; a malformed file is reported by file and line and nothing
of it is written; staff edits are kept unless --force."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from lectures.models import CoursePage, Lecture, Section, SectionRead
from lectures.services import content_import, section_save_staff_edit
from lectures.tests.conftest import CONTENT
from lectures.tests.conftest import import_lectures as _import

pytestmark = pytest.mark.django_db


def _counts() -> tuple[int, int, int]:
    return Lecture.objects.count(), Section.objects.count(), CoursePage.objects.count()


def test_importing_the_real_content_twice_changes_nothing(student_a) -> None:
    first = content_import(lectures_dir=CONTENT / "lectures", pages_dir=CONTENT / "course")
    counts = _counts()
    pks = dict(Section.objects.values_list("slug", "pk").filter(lecture__number=3))
    SectionRead.objects.create(user=student_a, section=Section.objects.get(slug="sec-3-4"))
    second = content_import(lectures_dir=CONTENT / "lectures", pages_dir=CONTENT / "course")
    assert first.errors == second.errors == []
    assert counts == _counts() and counts[0] == 9 and counts[2] == 2
    assert second.created == second.updated == second.deleted == []
    assert len(second.unchanged) == len(first.created)
    assert dict(Section.objects.values_list("slug", "pk").filter(lecture__number=3)) == pks
    assert SectionRead.objects.filter(user=student_a).count() == 1  # progress survives


def test_reimport_refreshes_stored_html_of_unchanged_sections() -> None:
    """A renderer fix reaches pages whose text did not change: the next import stores the current
    renderer's HTML (here: HTML left over from an older renderer) and bumps the revision."""
    content_import(lectures_dir=CONTENT / "lectures", pages_dir=CONTENT / "course")
    section = Section.objects.get(slug="sec-3-4")
    current, revision = section.body_html, section.lecture.revision
    Section.objects.filter(pk=section.pk).update(body_html="<p>old renderer</p>")
    report = content_import(lectures_dir=CONTENT / "lectures", pages_dir=CONTENT / "course")
    assert report.updated == [] and report.errors == []
    section.refresh_from_db()
    assert section.body_html == current
    assert section.lecture.revision == revision + 1  # cached pages go stale
    content_import(lectures_dir=CONTENT / "lectures", pages_dir=CONTENT / "course")
    section.refresh_from_db()
    assert section.lecture.revision == revision + 1  # nothing to refresh: no bump


@pytest.mark.parametrize(
    ("model", "field"),
    [
        (Section, "title_html"),
        (Section, "title_en_html"),
        (Lecture, "overview_html"),
        (Lecture, "intro_html"),
        (CoursePage, "body_html"),
    ],
)
def test_reimport_refreshes_every_stored_html_field(model, field) -> None:
    """Titles and overviews too: HTML stored before raw HTML was escaped (72e5ddc) held a live
    <script> until its text changed."""
    content_import(lectures_dir=CONTENT / "lectures", pages_dir=CONTENT / "course")
    row = model.objects.exclude(**{field: ""}).order_by("pk").first()  # one with that text
    current = getattr(row, field)
    model.objects.filter(pk=row.pk).update(**{field: "<script>alert(1)</script>"})
    report = content_import(lectures_dir=CONTENT / "lectures", pages_dir=CONTENT / "course")
    assert report.updated == [] and report.errors == []
    row.refresh_from_db()
    assert getattr(row, field) == current


def test_a_kept_section_the_file_dropped_is_rerendered_too(content_dir: Path, instructor) -> None:
    _import(content_dir)
    section = Section.objects.get(slug="sec-3-4")
    section.body_md = "助教改过的正文。\n"
    section_save_staff_edit(section=section, user=instructor)
    Section.objects.filter(pk=section.pk).update(body_html="<script>alert(1)</script>")
    path = content_dir / "lecture-03.md"
    lines = path.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("## 3.4 "))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("## "))
    kept = [line for line in lines[:start] + lines[end:] if not line.startswith("  '3.4': ")]
    path.write_text("\n".join(kept), encoding="utf-8")  # the section and its English title gone
    report = _import(content_dir)
    assert report.errors == [] and report.conflicts == [
        "lecture-03.md: 3.4 removed from file but edited in admin; kept"
    ]
    section.refresh_from_db()
    assert section.body_html == "<p>助教改过的正文。</p>"


def test_command_twice_gives_same_row_counts(content_dir: Path) -> None:
    out = StringIO()
    call_command("import_lectures", str(content_dir), stdout=out)
    counts = _counts()
    call_command("import_lectures", str(content_dir), stdout=out)
    assert _counts() == counts and counts[:2] == (2, Section.objects.count())
    assert "0 created, 0 updated" in out.getvalue().splitlines()[-1]


def test_reimport_updates_a_changed_section_in_place(content_dir: Path) -> None:
    _import(content_dir)
    before = Section.objects.get(slug="sec-3-4")
    path = content_dir / "lecture-03.md"
    path.write_text(path.read_text().replace("冲突被彻底消除", "冲突被完全消除"), encoding="utf-8")
    report = _import(content_dir)
    after = Section.objects.get(slug="sec-3-4")
    assert report.updated == ["lecture-03.md: 3.4"]
    assert after.pk == before.pk and "冲突被完全消除" in after.body_html


def _break(path: Path, needle: str, replacement: str) -> int:
    """Replace the first line containing needle; return its 1-based line number."""
    lines = path.read_text(encoding="utf-8").split("\n")
    index = next(i for i, line in enumerate(lines) if needle in line)
    lines[index] = replacement
    path.write_text("\n".join(lines), encoding="utf-8")
    return index + 1


@pytest.mark.parametrize(
    ("needle", "replacement", "message"),
    [
        ("## 3.5 ", "## 3.4 重复的小节 {#sec-3-4}", "section 3.4 already at line"),
        ("## 3.5 ", "## 4.5 别的讲 {#sec-4-5}", "does not belong to lecture 3"),
        ("## 3.5 ", "## 没有编号的小节", "must be a section"),
        ("title: ", "title: [未闭合", "not valid YAML"),
        ("number: ", "number: three", "needs 'number'"),
        ("module: ", "title: 又一个标题", "key 'title' is written again (first on line 3)"),
    ],
)
def test_malformed_file_names_file_and_line_and_imports_nothing_of_it(
    content_dir: Path, needle: str, replacement: str, message: str
) -> None:
    line = _break(content_dir / "lecture-03.md", needle, replacement)
    report = _import(content_dir)
    assert len(report.errors) == 1
    error = report.errors[0]
    assert error.startswith(f"{content_dir / 'lecture-03.md'}:") and message in error
    assert f"lecture-03.md:{line}:" in error or "YAML" in message
    assert not Lecture.objects.filter(number=3).exists()
    assert not Section.objects.filter(lecture__number=3).exists()
    assert Lecture.objects.filter(number=4).exists()  # the good file still imports


def test_unclosed_code_fence_points_at_its_opening_line(content_dir: Path) -> None:
    path = content_dir / "lecture-03.md"
    text = path.read_text(encoding="utf-8")
    cut = text.index("```cuda")
    closing = text.index("\n```\n", cut)
    path.write_text(text[:closing] + "\n" + text[closing + 5 :], encoding="utf-8")
    fence_line = text[:cut].count("\n") + 1
    report = _import(content_dir)
    assert report.errors == [f"{path}:{fence_line}: code block opened with ``` is never closed"]
    assert not Section.objects.filter(lecture__number=3).exists()


def test_bad_update_leaves_the_previous_import_untouched(content_dir: Path) -> None:
    _import(content_dir)
    before = list(Section.objects.filter(lecture__number=3).values_list("slug", "body_html"))
    path = content_dir / "lecture-03.md"
    path.write_text(path.read_text().replace("冲突被彻底消除", "改了但文件坏了"), encoding="utf-8")
    _break(path, "## 3.6 ", "## 3.2 重复 {#sec-3-2}")
    report = _import(content_dir)
    assert len(report.errors) == 1
    after = list(Section.objects.filter(lecture__number=3).values_list("slug", "body_html"))
    assert after == before


def test_command_fails_loudly_on_a_malformed_file(content_dir: Path) -> None:
    line = _break(content_dir / "lecture-04.md", "## 4.2 ", "## 4.2 标题 {#sec-9-9}")
    err = StringIO()
    with pytest.raises(CommandError, match="1 file"):
        call_command("import_lectures", str(content_dir), stdout=StringIO(), stderr=err)
    assert f"lecture-04.md:{line}: anchor {{#sec-9-9}} must be {{#sec-4-2}}" in err.getvalue()


def test_staff_edit_is_kept_and_reported_unless_forced(content_dir: Path, instructor) -> None:
    _import(content_dir)
    section = Section.objects.get(slug="sec-3-4")
    section.body_md = "助教改过的正文。\n"
    section_save_staff_edit(section=section, user=instructor)
    path = content_dir / "lecture-03.md"
    path.write_text(path.read_text().replace("冲突被彻底消除", "文件里的新说法"), encoding="utf-8")

    report = _import(content_dir)
    assert len(report.conflicts) == 1 and "3.4" in report.conflicts[0]
    assert Section.objects.get(slug="sec-3-4").body_md == "助教改过的正文。\n"

    forced = _import(content_dir, force=True)
    section = Section.objects.get(slug="sec-3-4")
    assert forced.conflicts == [] and "文件里的新说法" in section.body_html
    assert section.edited_at is None


def test_staff_edit_of_a_lecture_overview_is_kept_and_reported_unless_forced(
    content_dir: Path,
) -> None:
    from lectures.services import lecture_save_staff_edit

    _import(content_dir)
    lecture = Lecture.objects.get(number=4)
    lecture.overview_md = "助教重写的本讲概述。"
    lecture_save_staff_edit(lecture=lecture)
    assert _import(content_dir).conflicts == []  # file unchanged: nothing to decide, edit kept
    assert Lecture.objects.get(number=4).overview_md == "助教重写的本讲概述。"

    path = content_dir / "lecture-04.md"
    text = path.read_text(encoding="utf-8")
    old_title = Lecture.objects.get(number=4).title
    path.write_text(text.replace(old_title, old_title + "（修订）", 1), encoding="utf-8")
    report = _import(content_dir)
    assert len(report.conflicts) == 1 and "lecture 4" in report.conflicts[0]
    kept = Lecture.objects.get(number=4)
    assert kept.overview_md == "助教重写的本讲概述。" and kept.title == old_title
    assert len(_import(content_dir).conflicts) == 1  # reported again until decided

    forced = _import(content_dir, force=True)
    lecture = Lecture.objects.get(number=4)
    assert forced.conflicts == [] and lecture.title == old_title + "（修订）"
    assert lecture.overview_md != "助教重写的本讲概述。"
    assert _import(content_dir).conflicts == []
