"""Reads for the lectures app."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from lectures.models import CoursePage, Lecture, Section, SectionRead


@dataclass
class LectureProgress:
    lecture: Lecture
    total: int
    read: int

    @property
    def percent(self) -> int:
        return round(100 * self.read / self.total) if self.total else 0


def lecture_list_with_progress(*, user) -> list[LectureProgress]:
    lectures = Lecture.objects.visible_to(user).annotate(
        total=Count("sections", filter=Q(sections__level=2), distinct=True),
        read=Count(
            "sections__reads",
            filter=Q(sections__level=2, sections__reads__user=user),
            distinct=True,
        ),
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


def lecture_get(*, user, number: int) -> Lecture | None:
    return Lecture.objects.visible_to(user).filter(number=number).first()


SECTION_OUTLINE_FIELDS = ("id", "lecture_id", "parent_id", "number", "slug", "level", "order")
SECTION_VERSION_FIELDS = ("import_hash", "edited_at")


def lecture_sections(*, lecture: Lecture, outline: bool = False) -> QuerySet[Section]:
    """All sections in page order; ``outline`` loads only what a cached page needs per request."""
    sections = lecture.sections.order_by("order")
    if outline:
        sections = sections.only(*SECTION_OUTLINE_FIELDS, *SECTION_VERSION_FIELDS)
    return sections


def lecture_neighbours(*, lecture: Lecture) -> tuple[Lecture | None, Lecture | None]:
    """Previous and next lecture by number in one small query (there are gaps: no lecture 6)."""
    numbers = list(Lecture.objects.order_by("number").only("id", "number", "title"))
    index = next(i for i, lec in enumerate(numbers) if lec.pk == lecture.pk)
    prev = numbers[index - 1] if index > 0 else None
    nxt = numbers[index + 1] if index + 1 < len(numbers) else None
    return prev, nxt


def read_section_ids(*, user, lecture: Lecture) -> set[int]:
    return set(
        SectionRead.objects.filter(user=user, section__lecture=lecture).values_list(
            "section_id", flat=True
        )
    )


def section_get_readable(*, user, pk: int) -> Section | None:
    """A level-2 section the user may mark as read (only level-2 sections carry marks)."""
    lectures = Lecture.objects.visible_to(user)
    return Section.objects.filter(pk=pk, level=2, lecture__in=lectures).first()


def course_page_get(*, slug: str) -> CoursePage | None:
    return CoursePage.objects.filter(slug=slug).first()
