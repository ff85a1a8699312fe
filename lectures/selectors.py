"""Reads for the lectures app."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import Count, FilteredRelation, Q, QuerySet

from accounts.language import in_page_language
from lectures.anchors import section_url
from lectures.models import CoursePage, Lecture, Section, SectionRead


@dataclass
class LectureProgress:
    lecture: Lecture
    total: int
    read: int

    @property
    def percent(self) -> int:
        return round(100 * self.read / self.total) if self.total else 0


def _own_reads(user) -> FilteredRelation:
    # Joins only this user's marks (ON ... AND user_id = X, served by the unique index), not
    # every student's marks filtered afterwards.
    return FilteredRelation("sections__reads", condition=Q(sections__reads__user=user))


def lecture_list_with_progress(*, user) -> list[LectureProgress]:
    lectures = (
        Lecture.objects.visible_to(user)
        .alias(own_reads=_own_reads(user))
        .annotate(
            total=Count("sections", filter=Q(sections__level=2), distinct=True),
            read=Count("own_reads", distinct=True),
        )
    )
    return [LectureProgress(lecture=lec, total=lec.total, read=lec.read) for lec in lectures]


def progress_from(
    *, lecture: Lecture, sections: list[Section], read_ids: set[int]
) -> LectureProgress:
    tops = [s.pk for s in sections if s.level == 2]
    return LectureProgress(lecture=lecture, total=len(tops), read=len(read_ids.intersection(tops)))


def lecture_progress(*, user, lecture: Lecture) -> LectureProgress:
    total = lecture.sections.filter(level=2).count()
    read = SectionRead.objects.filter(user=user, section__lecture=lecture, section__level=2).count()
    return LectureProgress(lecture=lecture, total=total, read=read)


SECTION_OUTLINE_FIELDS = ("id", "lecture_id", "parent_id", "number", "slug", "level", "order")


def lecture_sections(*, lecture: Lecture, outline: bool = False) -> QuerySet[Section]:
    """All sections in page order; ``outline`` loads only what a cached page needs per request."""
    sections = lecture.sections.order_by("order")
    if outline:
        sections = sections.only(*SECTION_OUTLINE_FIELDS)
    return sections


@dataclass(frozen=True)
class LectureStub:
    """What a cached lecture page needs per request, read in one query for all lectures.

    ``reads`` and ``last_read`` (count and latest time of the user's marks) change whenever a
    mark is added or removed, so together they version the user's marks on that lecture.
    """

    pk: int
    number: int
    title: str
    title_en: str
    revision: int
    reads: int
    last_read: datetime | None

    @property
    def shown_title(self) -> str:
        return in_page_language(self.title, self.title_en)


def _lecture_index_sql() -> str:
    lecture, section, read = (
        Lecture._meta.db_table,
        Section._meta.db_table,
        SectionRead._meta.db_table,
    )
    # Hand-written because this runs on every lecture page view: compiling the equivalent ORM query
    # (FilteredRelation + two aggregates) cost more CPU than running it. Only this user's marks are
    # joined (ON … AND user_id = %s, served by the unique (user, section) index).
    return (
        f"SELECT l.id, l.number, l.title, l.title_en, l.revision, COUNT(r.id), MAX(r.read_at) "
        f"FROM {lecture} l LEFT JOIN {section} s ON s.lecture_id = l.id "
        f"LEFT JOIN {read} r ON r.section_id = s.id AND r.user_id = %s "
        f"GROUP BY l.id, l.number, l.title, l.title_en, l.revision ORDER BY l.number"
    )


def lecture_index(*, user) -> list[LectureStub]:
    """Every lecture the user may read, with a version of the user's marks on each.

    ``last_read`` is only used as part of a cache key, so its database-native form is fine.
    """
    # The SQL reads every lecture: it runs only where Lecture's access rule gives the user all of
    # them (every signed-in user today); anyone else gets none rather than a wider read.
    if not Lecture.objects.sees_all(user):
        return []
    with connection.cursor() as cursor:
        cursor.execute(_lecture_index_sql(), [user.pk])
        return [LectureStub(*row) for row in cursor.fetchall()]


def lecture_for_render(*, lecture_id: int) -> Lecture:
    """The full lecture row, needed only when a page is rendered (cache miss)."""
    return Lecture.objects.get(pk=lecture_id)


def read_section_ids_for(*, user, lecture_id: int) -> set[int]:
    rows = SectionRead.objects.filter(user=user, section__lecture_id=lecture_id)
    return set(rows.values_list("section_id", flat=True))


def section_get_readable(*, user, pk: int) -> Section | None:
    """A level-2 section the user may mark as read (only level-2 sections carry marks)."""
    lectures = Lecture.objects.visible_to(user)
    return Section.objects.filter(pk=pk, level=2, lecture__in=lectures).first()


def course_page_get(*, slug: str) -> CoursePage | None:
    return CoursePage.objects.filter(slug=slug).first()


# A section's anchor as the notes write it: sec-<lecture>-<n>, or sec-<lecture>-<n>-<k> (level 3).
_ANCHOR = re.compile(r"sec-(\d+(?:-\d+)+)")


@dataclass(frozen=True)
class SectionLink:
    anchor: str  # sec-5-13
    label: str  # §5.13
    title: str  # in the page's language; "" when no such section was imported
    url: str


def section_links(*, anchors: Sequence[str]) -> list[SectionLink]:
    """Links to the sections named by anchor, in the given order, titled in the page's language
    (one query, whatever the number of anchors); an anchor that is not sec-N-M is skipped."""
    rows = Section.objects.filter(slug__in=set(anchors)).only("slug", "title", "title_en")
    titles = {row.slug: row.shown_title for row in rows}
    links = []
    for anchor in anchors:
        match = _ANCHOR.fullmatch(anchor)
        if match:
            number = match[1].replace("-", ".")
            links.append(
                SectionLink(anchor, f"§{number}", titles.get(anchor, ""), section_url(number))
            )
    return links
