"""Must hold 6: a per-item CSV export imports back unchanged for an external item; a bad CSV imports
nothing and names each bad row."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from gradebook.models import Grade, GradeEvent, GradeItem

IMPORT = "/grades/staff/import/"


def _upload(client, text: str, **fields):
    data = {"file": SimpleUploadedFile("scores.csv", text.encode(), content_type="text/csv")}
    return client.post(IMPORT, data | fields)


def _rows(body: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(body.removeprefix("\ufeff"))))


@pytest.mark.django_db
def test_new_item_import_then_export_round_trips(
    client_instructor, client_ta, student_a, student_b
) -> None:
    text = "student_id,points,comment\nstudent_a,88.5,ok\nstudent_b,,absent\n"
    response = _upload(
        client_instructor,  # creating an item needs gradebook.add_gradeitem; the TA imports into it
        text,
        new_key="exam:final",
        new_title="期末考试",
        new_max_points="100",
        new_category="exam",
    )
    item = GradeItem.objects.get(key="exam:final")
    assert response.status_code == 302 and response["Location"] == f"/grades/staff/items/{item.pk}/"
    assert (item.kind, item.category, item.max_points) == ("exam", "exam", Decimal("100.00"))
    assert list(Grade.objects.values_list("student__username", "points", "source")) == [
        ("student_a", Decimal("88.50"), "import")
    ]

    exported = client_ta.get(f"/grades/staff/items/{item.pk}/export.csv")
    assert exported["Content-Type"].startswith("text/csv")
    body = exported.content.decode()
    rows = {r["username"]: r for r in _rows(body)}
    assert (rows["student_a"]["points"], rows["student_b"]["points"]) == ("88.50", "")
    assert rows["student_a"]["status"] == "已评分"  # a label, not the code "graded"

    events_before = GradeEvent.objects.count()
    again = _upload(client_ta, body, item=item.pk)
    assert again.status_code == 302
    assert GradeEvent.objects.count() == events_before  # nothing changed, nothing audited
    assert client_ta.get(f"/grades/staff/items/{item.pk}/export.csv").content.decode() == body

    edited = body.replace("88.50", "91.00")
    assert _upload(client_ta, edited, item=item.pk).status_code == 302
    assert Grade.objects.get(student=student_a).points == Decimal("91.00")


@pytest.mark.django_db
def test_round_trip_keeps_an_override_untouched(client_ta, student_a, ta, make_item, post) -> None:
    from gradebook.services import grade_override

    item = make_item("exam:mid", max_points=100, kind="exam")
    post(student_a, item, 50, source="import")
    grade_override(student=student_a, item=item, points=70, actor=ta, reason="阅卷漏加分")
    body = client_ta.get(f"/grades/staff/items/{item.pk}/export.csv").content.decode()
    row = _rows(body)[0]
    assert (row["points"], row["override_points"], row["counted"]) == ("50.00", "70.00", "70.00")
    events = GradeEvent.objects.count()
    assert _upload(client_ta, body, item=item.pk).status_code == 302
    assert GradeEvent.objects.count() == events
    grade = Grade.objects.get()
    assert (grade.auto_points, grade.points) == (Decimal("50.00"), Decimal("70.00"))


@pytest.mark.django_db
def test_bad_csv_imports_nothing_and_names_the_rows(
    client_ta, student_a, student_b, make_item, post
) -> None:
    item = make_item("exam:mid", max_points=50, kind="exam")
    post(student_a, item, 10, source="import")
    text = (
        "student_id,points\n"
        "student_a,40\n"  # fine, but must not be written
        "nobody,12\n"  # line 3
        "student_b,51\n"  # line 4: above max
        "student_b,abc\n"  # line 5
        "student_a,30\n"  # line 6: duplicate
    )
    response = _upload(client_ta, text, item=item.pk)
    page = response.content.decode()
    assert response.status_code == 400
    for line, reason in [(3, "名单中没有学生"), (4, "超出 0…"), (5, "不是数字"), (6, "再次出现")]:
        assert f"第 {line} 行：" in page and reason in page
    assert "第 2 行：" not in page  # line 2 is fine (the duplicate on line 6 names it)
    assert list(Grade.objects.values_list("student__username", "points")) == [
        ("student_a", Decimal("10.00"))
    ]


@pytest.mark.django_db
def test_failed_import_does_not_leave_a_new_item(client_instructor, student_a) -> None:
    response = _upload(
        client_instructor,
        "student_id,points\nghost,1\n",
        new_key="exam:x",
        new_title="X",
        new_max_points="10",
    )
    assert response.status_code == 400 and "ghost" in response.content.decode()
    assert not GradeItem.objects.filter(key="exam:x").exists()


@pytest.mark.django_db
def test_a_new_item_takes_one_of_the_courses_categories(client_instructor, student_a) -> None:
    """A free-text category let a typo ("Exam") make an item that no category weighs."""
    csv_a5 = "student_id,points\nstudent_a,5\n"
    page = client_instructor.get(IMPORT).content.decode()
    assert '<option value="exam" selected>考试</option>' in page  # by its name, exams first
    fields = {"new_key": "exam:mid", "new_title": "期中", "new_max_points": "10"}
    typo = _upload(client_instructor, csv_a5, new_category="Exam", **fields)
    assert typo.status_code == 400 and not GradeItem.objects.filter(key="exam:mid").exists()
    ok = _upload(client_instructor, csv_a5, new_category="quiz", **fields)
    assert ok.status_code == 302
    assert GradeItem.objects.get(key="exam:mid").category == "quiz"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text,needle",
    [("name,score\na,1\n", "表头需要 points"), ("student_id,points\n", None)],
)
def test_header_errors(client_ta, make_item, text, needle) -> None:
    item = make_item("exam:mid", kind="exam")
    response = _upload(client_ta, text, item=item.pk)
    if needle:
        assert response.status_code == 400 and needle in response.content.decode()
    else:  # an empty file is a valid no-op
        assert response.status_code == 302 and Grade.objects.count() == 0


@pytest.mark.django_db
def test_platform_graded_items_take_no_import(client_ta, student_a, make_item) -> None:
    quiz = make_item("quiz:1", kind="quiz")
    response = _upload(client_ta, "student_id,points\nstudent_a,5\n", item=quiz.pk)
    assert response.status_code == 400 and Grade.objects.count() == 0


@pytest.mark.django_db
def test_import_and_export_are_staff_only(client_a, student_a, make_item) -> None:
    item = make_item("exam:mid", kind="exam")
    assert _upload(client_a, "student_id,points\nstudent_a,10\n", item=item.pk).status_code == 403
    assert client_a.get(f"/grades/staff/items/{item.pk}/export.csv").status_code == 403
    assert client_a.get("/grades/staff/export.csv").status_code == 403
    assert Grade.objects.count() == 0


@pytest.mark.django_db
def test_whole_gradebook_export_has_items_categories_and_total(
    client_ta, student_a, student_b, make_item, post
) -> None:
    """Must hold 6 (issue 14): item names as headers, UTF-8 with a BOM, read back with csv."""
    quiz = make_item("quiz:1", max_points=10, title="第 1 讲测验")
    lab = make_item("lab:1", max_points=100, title="实验：向量加法")
    make_item("lab:2", max_points=100, title="实验：向量加法")  # same name twice stays readable
    post(student_a, quiz, 8)
    post(student_a, lab, 60)
    raw = client_ta.get("/grades/staff/export.csv").content
    assert raw.startswith(b"\xef\xbb\xbf")  # the UTF-8 BOM: Excel then reads the Chinese right
    reader = csv.DictReader(io.StringIO(raw.decode("utf-8-sig")))
    assert reader.fieldnames[:4] == ["student_id", "username", "name", "section"]
    assert "第 1 讲测验" in reader.fieldnames and "实验：向量加法 (2)" in reader.fieldnames
    assert not any(
        ":" in name and name.split(":")[0] in ("quiz", "lab") for name in reader.fieldnames
    )
    rows = {r["username"]: r for r in reader}
    assert set(rows) == {"student_a", "student_b"}
    a = rows["student_a"]
    assert (a["第 1 讲测验"], a["实验：向量加法"], a["测验 %"], a["实验 %"]) == (
        "8.00",
        "60.00",
        "80.00",
        "60.00",
    )
    assert a["总评百分比（仅计已评分的项）"] == "67.50"  # (30·80 + 50·60) / 80
    # Projected: lab:2 and the exam category count 0: (30·80 + 50·30 + 20·0) / 100
    assert a["预计总评百分比（未评的项按 0 分）"] == "39.00"
    assert rows["student_b"]["第 1 讲测验"] == ""  # not due, not submitted: no value


@pytest.mark.django_db
def test_whole_gradebook_export_names_items_and_categories_in_the_readers_language(
    client_ta, student_a, make_item, post
) -> None:
    """An English TA read Chinese titles and 测验 % beside the English page."""
    quiz = make_item("quiz:1", max_points=10, title="第 1 讲测验")
    GradeItem.objects.filter(pk=quiz.pk).update(title_en="Lecture 1 quiz")
    post(student_a, quiz, 8)
    client_ta.cookies["django_language"] = "en"
    raw = client_ta.get("/grades/staff/export.csv").content.decode("utf-8-sig")
    header = next(csv.reader(io.StringIO(raw)))
    assert "Lecture 1 quiz" in header and "Quizzes %" in header, header
    assert not any("测验" in name for name in header), header


@pytest.mark.django_db
def test_export_defuses_spreadsheet_formulas(client_ta, student_a, ta, make_item, post) -> None:
    from accounts.models import Profile
    from gradebook.services import grade_override

    Profile.objects.filter(user=student_a).update(display_name='=HYPERLINK("http://x")')
    item = make_item("exam:mid", kind="exam")
    grade_override(student=student_a, item=item, points=5, actor=ta, reason="+1 for style")
    body = client_ta.get(f"/grades/staff/items/{item.pk}/export.csv").content.decode()
    row = _rows(body)[0]
    assert row["name"].startswith("'=") and row["override_reason"] == "'+1 for style"
    grid = client_ta.get("/grades/staff/export.csv").content.decode()
    assert _rows(grid)[0]["name"].startswith("'=")


@pytest.mark.django_db
def test_a_file_with_a_nul_is_refused_at_upload(client_ta, student_a, make_item) -> None:
    """PostgreSQL stores no NUL character; no CSV cell holds one (pdcsite.uploads.csv_text)."""
    item = make_item("exam:mid", kind="exam")
    response = _upload(client_ta, "student_id,points,comment\nstudent_a,5,a\x00b\n", item=item.pk)
    assert response.status_code == 400
    assert "文件含有空字符（NUL），不是文本 CSV。" in response.content.decode()
    assert not Grade.objects.exists()


@pytest.mark.django_db
def test_item_export_says_each_status_in_the_readers_language(
    client_ta, student_a, make_item, post
):
    """It wrote the codes (graded, not_started) in both languages."""
    item = make_item("exam:mid", max_points=100, kind="exam")
    post(student_a, item, 50, source="import")
    client_ta.cookies["django_language"] = "en"
    rows = _rows(client_ta.get(f"/grades/staff/items/{item.pk}/export.csv").content.decode())
    assert {r["status"] for r in rows} <= {"Graded", "Not started", "Missing"}
    assert "Graded" in {r["status"] for r in rows}
