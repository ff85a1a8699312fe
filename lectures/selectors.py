"""Reads for the lectures app."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, FilteredRelation, Max, Q, QuerySet

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
    revision: int
    reads: int
    last_read: datetime | None


def lecture_index(*, user) -> list[LectureStub]:
    rows = (
        Lecture.objects.visible_to(user)
        .alias(own_reads=_own_reads(user))
        .annotate(reads=Count("own_reads"), last_read=Max("own_reads__read_at"))
        .order_by("number")
    )
    fields = ("pk", "number", "title", "revision", "reads", "last_read")
    return [LectureStub(*row) for row in rows.values_list(*fields)]


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
