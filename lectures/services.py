"""Writes for the lectures app: content import, staff edits, reading marks."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from lectures import fastpath
from lectures.anchors import section_url
from lectures.content import (
    ContentError,
    ParsedLecture,
    ParsedPage,
    ParsedSection,
    lecture_header_hash,
    parse_lecture,
    parse_page,
    plain_text,
    section_hash,
)
from lectures.models import CoursePage, Lecture, Section, SectionRead
from lectures.rendering import render_inline, render_markdown


@dataclass
class ImportReport:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def merge(self, other: ImportReport) -> None:
        for name in ("created", "updated", "unchanged", "deleted", "conflicts", "errors"):
            getattr(self, name).extend(getattr(other, name))


def _fill_section(row: Section, parsed: ParsedSection, order: int) -> None:
    row.title, row.title_en = parsed.title, parsed.title_en
    row.body_md = parsed.body_md
    row.level = parsed.level
    row.order = order
    _render_section(row, parsed.headings)
    row.import_hash = parsed.content_hash


def _render_section(row: Section, headings: list[str] | None = None) -> None:
    _store_html(row)
    row.search_title = plain_text(f"{row.number} {row.title}")
    row.search_title_en = plain_text(row.title_en)
    if headings is None:
        headings = [ln.lstrip("#").strip() for ln in row.body_md.splitlines() if ln.startswith("#")]
    row.search_headings = plain_text("\n".join(headings))
    row.search_body = plain_text(row.body_md)


def _html(md: str, ids: str = "") -> str:
    """The page HTML stored for a piece of the notes' Markdown (section links resolved)."""
    return render_markdown(md, link=section_url, ids=ids).html


def _heading_ids(row: Section | Lecture | CoursePage) -> str:
    """What the ids of the headings inside ``row``'s text start with: a lecture page shows its
    introduction and every section together, so each gets its own; a course page stands alone."""
    if isinstance(row, Section):
        return f"{row.slug}--"  # "--": never the "-N" of a subsection's own anchor
    return "intro--" if isinstance(row, Lecture) else ""


def _fresh_html(row: Section | Lecture | CoursePage) -> dict[str, str]:
    """Every stored HTML field of `row`, by name, as the current renderer makes it from its text."""
    if isinstance(row, Section):
        return {
            "title_html": render_inline(row.title),
            "title_en_html": render_inline(row.title_en) if row.title_en else "",
            "body_html": _html(row.body_md, _heading_ids(row)),
        }
    if isinstance(row, Lecture):
        return {
            "overview_html": render_inline(row.overview_md),
            "intro_html": _html(row.intro_md, _heading_ids(row)),
        }
    return {"body_html": _html(row.body_md, _heading_ids(row))}


def _store_html(row: Section | Lecture | CoursePage) -> None:
    for name, html in _fresh_html(row).items():
        setattr(row, name, html)


def _rerendered(row: Section | Lecture | CoursePage) -> bool:
    """Store the current renderer's HTML of a row the import leaves alone; True if it changed.
    A renderer fix (raw HTML escaped since 72e5ddc, say) then reaches every title, overview and
    body at the next import (deploys run one), not only the rows whose text changed."""
    stale = {k: v for k, v in _fresh_html(row).items() if getattr(row, k) != v}
    if not stale:
        return False
    for name, html in stale.items():
        setattr(row, name, html)
    type(row).objects.filter(pk=row.pk).update(**stale)
    return True


def _is_staff_edited(row: Section) -> bool:
    return _row_hash(row) != row.import_hash


def _row_hash(row: Section) -> str:
    return section_hash(row.title, row.body_md, row.title_en)


def _file_header_hash(parsed: ParsedLecture) -> str:
    return lecture_header_hash(
        parsed.title,
        parsed.module,
        parsed.overview,
        parsed.intro_md,
        (parsed.title_en, parsed.module_en),
    )


def _header_kept(
    lecture: Lecture, parsed: ParsedLecture, force: bool, report: ImportReport
) -> bool:
    """True when staff edited the lecture's own fields since the import and the file now says
    something else: the edit is kept and reported, as for sections, unless ``force``."""
    current = lecture_header_hash(
        lecture.title,
        lecture.module,
        lecture.overview_md,
        lecture.intro_md,
        (lecture.title_en, lecture.module_en),
    )
    edited = bool(lecture.header_hash) and current != lecture.header_hash
    if not edited or force or current == _file_header_hash(parsed):
        return False
    report.conflicts.append(
        f"{parsed.path.name}: lecture {parsed.number} title/module/overview/introduction "
        "edited in admin; kept (use --force)"
    )
    return True


@transaction.atomic
def lecture_import(*, parsed: ParsedLecture, force: bool = False) -> ImportReport:
    """Create or update one lecture from a parsed file; staff edits win unless ``force``."""
    report = ImportReport()
    lecture, created = Lecture.objects.select_for_update().get_or_create(
        number=parsed.number, defaults={"title": parsed.title}
    )
    lecture_changed = created or lecture.content_hash != parsed.content_hash
    if lecture_changed and _header_kept(lecture, parsed, force, report):
        lecture_changed = False  # staff's title/overview/intro stay; the sections still import
    elif lecture_changed:
        lecture.title, lecture.module = parsed.title, parsed.module
        lecture.title_en, lecture.module_en = parsed.title_en, parsed.module_en
        lecture.overview_md, lecture.intro_md = parsed.overview, parsed.intro_md
        _store_html(lecture)
        lecture.source_path = parsed.path.name
        lecture.content_hash = parsed.content_hash
        lecture.header_hash = _file_header_hash(parsed)
        lecture.imported_at = timezone.now()
        lecture.save()
    if not lecture_changed:
        lecture_changed = _rerendered(lecture)
    existing = {s.slug: s for s in lecture.sections.select_for_update()}
    by_number: dict[str, Section] = {}
    rerendered = False
    for order, sec in enumerate(parsed.sections):
        row = existing.pop(sec.slug, None)
        label = f"{parsed.path.name}: {sec.number}"
        if row is None:
            row = Section(lecture=lecture, number=sec.number, slug=sec.slug)
            report.created.append(label)
        elif _is_staff_edited(row) and _row_hash(row) != sec.content_hash:
            if not force:
                report.conflicts.append(
                    f"{label} (line {sec.line}) edited in admin; kept (use --force)"
                )
                rerendered |= _rerendered(row)
                by_number[sec.number] = row
                continue
            report.updated.append(label)
        elif row.import_hash == sec.content_hash and row.order == order:
            report.unchanged.append(label)
            rerendered |= _rerendered(row)
            by_number[sec.number] = row
            continue
        else:
            report.updated.append(label)
        _fill_section(row, sec, order)
        row.parent = by_number.get(sec.parent_number) if sec.parent_number else None
        row.edited_at, row.edited_by = None, None
        row.save()
        by_number[sec.number] = row
    for row in existing.values():
        if _is_staff_edited(row) and not force:
            report.conflicts.append(
                f"{parsed.path.name}: {row.number} removed from file but edited in admin; kept"
            )
            rerendered |= _rerendered(row)
            continue
        report.deleted.append(f"{parsed.path.name}: {row.number}")
        row.delete()
    changed = report.created or report.updated or report.deleted or rerendered
    if created or changed or lecture_changed:
        lecture_bump_revision(lecture_id=lecture.pk)
    return report


def lecture_bump_revision(*, lecture_id: int) -> None:
    Lecture.objects.filter(pk=lecture_id).update(revision=F("revision") + 1)
    fastpath.bump_content()


@transaction.atomic
def course_page_import(*, parsed: ParsedPage) -> ImportReport:
    report = ImportReport()
    known = set(Section.objects.values_list("number", flat=True))
    for number, line in parsed.links.items():
        if number not in known:
            raise ContentError(parsed.path, line, f"link to section {number}, which does not exist")
    page = CoursePage.objects.filter(slug=parsed.slug).first()
    if page is not None and page.content_hash == parsed.content_hash:
        report.unchanged.append(parsed.path.name)
        _rerendered(page)
        return report
    page = page or CoursePage(slug=parsed.slug)
    (report.updated if page.pk else report.created).append(parsed.path.name)
    page.title, page.body_md, page.content_hash = parsed.title, parsed.body_md, parsed.content_hash
    _store_html(page)
    page.save()
    return report


def content_import(
    *, lectures_dir: Path, pages_dir: Path | None, force: bool = False
) -> ImportReport:
    """Import every ``*.md`` of ``lectures_dir`` (then ``pages_dir``); one transaction per file.

    A file that fails to parse or validate is reported in ``errors`` and nothing of it is written.
    """
    report = ImportReport()
    for path in sorted(lectures_dir.glob("*.md")):
        try:
            report.merge(lecture_import(parsed=parse_lecture(path), force=force))
        except ContentError as exc:
            report.errors.append(str(exc))
    for path in sorted(pages_dir.glob("*.md")) if pages_dir else []:
        try:
            report.merge(course_page_import(parsed=parse_page(path)))
        except ContentError as exc:
            report.errors.append(str(exc))
    return report


def section_save_staff_edit(*, section: Section, user) -> Section:
    """Re-render a section after a staff edit in the admin; the import then sees the edit."""
    _render_section(section)
    section.edited_at, section.edited_by = timezone.now(), user
    section.save()
    lecture_bump_revision(lecture_id=section.lecture_id)
    return section


def lecture_save_staff_edit(*, lecture: Lecture) -> Lecture:
    """Re-render a lecture's overview and introduction after an admin edit."""
    _store_html(lecture)
    lecture.save()
    lecture_bump_revision(lecture_id=lecture.pk)
    return lecture


def course_page_save_staff_edit(*, page: CoursePage) -> CoursePage:
    """Re-render a course page after an admin edit."""
    _store_html(page)
    page.save()
    return page


def section_read_set(*, user, section: Section, read: bool) -> bool:
    """Mark or unmark a level-2 section as read by ``user``; returns the new state."""
    if read:
        SectionRead.objects.get_or_create(user=user, section=section)
    else:
        SectionRead.objects.filter(user=user, section=section).delete()
    fastpath.bump_user(user.pk)
    return read
