"""A student's own CSV carries what 我的成绩 shows: each item's category and the student's own
deadline (extended or not), and the page's notes (an extension, the dropped lowest item, a staff
override with its reason), in the reader's language."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from gradebook.models import Category
from gradebook.services import extension_grant, grade_override


def _my_csv(client, lang: str) -> dict[str, dict[str, str]]:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    body = client.get("/grades/mine.csv").content.decode("utf-8").removeprefix("\ufeff")
    rows = list(csv.reader(io.StringIO(body)))
    header = rows[0]
    assert len({len(row) for row in rows}) == 1  # the total row is as wide as the others
    return {row[0]: dict(zip(header, row, strict=True)) for row in rows[1:-1]}


@pytest.fixture
def course(student_a, ta, make_item, post, past_due) -> None:
    # A transaction=True test earlier in this xdist worker may have flushed migration 0002's rows.
    for position, (key, title, weight) in enumerate(Category.DEFAULTS):
        Category.objects.get_or_create(
            key=key, defaults={"title": title, "weight": weight, "position": position}
        )
    Category.objects.filter(key="quiz").update(drop_lowest=1)
    post(student_a, make_item("quiz:1", due_at=past_due), 2, source="quiz")  # dropped
    quiz2 = make_item("quiz:2", due_at=past_due)
    post(student_a, quiz2, 5, source="quiz")
    grade_override(student=student_a, item=quiz2, points=9, actor=ta, reason="纸质答卷补登")
    lab = make_item("lab:1", max_points=100, due_at=past_due)
    extension_grant(student=student_a, item=lab, actor=ta, extra_days=5)
    post(student_a, lab, 80, submitted_at=past_due + timedelta(days=1))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "cols", "words"),
    [
        (
            "zh-hans",
            ("类别", "截止时间", "说明"),
            {"quiz": "测验", "lab": "实验", "dropped": "已去掉最低", "ext": "已延期"},
        ),
        (
            "en",
            ("Category", "Due", "Note"),
            {"quiz": "Quizzes", "lab": "Labs", "dropped": "Dropped (lowest)", "ext": "Extended"},
        ),
    ],
)
def test_category_due_and_notes_as_on_the_page(client_a, course, past_due, lang, cols, words):
    rows = _my_csv(client_a, lang)
    category, due, note = cols
    assert rows["quiz:1"][category] == words["quiz"]
    assert rows["lab:1"][category] == words["lab"]
    # The student's own deadline, in the site's time zone as the page shows it.
    extended = timezone.localtime(past_due + timedelta(days=5)).strftime("%Y-%m-%d %H:%M")
    assert rows["lab:1"][due] == extended
    assert rows["quiz:1"][note] == words["dropped"]
    assert rows["lab:1"][note] == words["ext"]
    assert rows["quiz:2"][note].endswith("纸质答卷补登")  # the staff member's words as written
    assert rows["quiz:2"][note] != "纸质答卷补登"  # ...after the page's "changed by staff" label


@pytest.mark.django_db
def test_the_pages_notes_column_is_named_note_in_english(client_a, course) -> None:
    # "说明" is also a regrade request's message ("Message"); this column holds notes.
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client_a.get("/grades/").content.decode()
    assert "<th>Note</th>" in page and 'data-label="Note"' in page
