from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from accounts.models import Profile
from accounts.roles import role_of

User = get_user_model()

GOOD = """student_id,name,email,role,section
2026001,张三,zhangsan@example.edu,student,A
2026002,李四,lisi@example.edu,student,B
ta01,王助教,wang@example.edu,ta,
prof,罗老师,luo@example.edu,instructor,
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "roster.csv"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.django_db
def test_good_file_creates_users_with_roles(tmp_path: Path, capsys) -> None:
    call_command("import_roster", _write(tmp_path, GOOD))
    assert "4 created" in capsys.readouterr().out
    zhang = User.objects.get(username="2026001")
    assert zhang.first_name == "张三" and zhang.email == "zhangsan@example.edu"
    assert role_of(zhang) == "student" and not zhang.is_staff
    assert Profile.objects.get(user=zhang).section == "A"
    assert role_of(User.objects.get(username="ta01")) == "ta"
    assert User.objects.get(username="prof").is_staff


@pytest.mark.django_db
def test_rerun_updates_and_never_duplicates(tmp_path: Path, capsys) -> None:
    call_command("import_roster", _write(tmp_path, GOOD))
    call_command("import_roster", _write(tmp_path, GOOD))
    assert "0 created, 0 updated, 4 unchanged" in capsys.readouterr().out
    changed = GOOD.replace("李四,lisi@example.edu,student", "李四,lisi2@example.edu,ta")
    call_command("import_roster", _write(tmp_path, changed))
    assert "0 created, 1 updated, 3 unchanged" in capsys.readouterr().out
    assert User.objects.count() == 4 and Profile.objects.count() == 4
    lisi = User.objects.get(username="2026002")
    assert lisi.email == "lisi2@example.edu" and role_of(lisi) == "ta" and lisi.is_staff
    assert list(lisi.groups.values_list("name", flat=True)) == ["ta"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("bad_line", "reason"),
    [
        ("2026003,赵六,not-an-email,student,", "is not a valid address"),
        ("2026003,赵六,zhao@example.edu,professor,", "role 'professor' must be one of"),
        (",赵六,zhao@example.edu,student,", "student_id is empty"),
        ("2026003,,zhao@example.edu,student,", "name is empty"),
        ("2026001,重复,dup@example.edu,student,", "already on line 2"),
        ("2026003,赵六,zhao@example.edu,student,,extra", "too many columns"),
        ("bad id!,赵六,zhao@example.edu,student,", "must be ≤ 32 letters"),
    ],
)
def test_bad_row_reports_line_and_imports_nothing(
    tmp_path: Path, bad_line: str, reason: str
) -> None:
    text = GOOD + bad_line + "\n"
    with pytest.raises(CommandError) as info:
        call_command("import_roster", _write(tmp_path, text))
    message = str(info.value)
    assert "nothing imported" in message
    assert "line 6: " in message and reason in message
    assert User.objects.count() == 0 and Profile.objects.count() == 0


@pytest.mark.django_db
def test_missing_header_column_and_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="header lacks column"):
        call_command("import_roster", _write(tmp_path, "student_id,name,email\n1,a,a@b.cn\n"))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_roster", tmp_path / "absent.csv")
    (tmp_path / "latin.csv").write_bytes(b"student_id,name,email,role\n1,\xff\xfe,a@b.cn,student\n")
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_roster", tmp_path / "latin.csv")
    # PostgreSQL stores no NUL: the row used to fail at the database (pdcsite.uploads.csv_text).
    (tmp_path / "nul.csv").write_text("student_id,name,email,role\n1,a\x00b,a@b.cn,student\n")
    with pytest.raises(CommandError, match="cannot read .*contains a NUL character"):
        call_command("import_roster", tmp_path / "nul.csv")
    assert User.objects.count() == 0


@pytest.mark.django_db
def test_bad_rows_are_all_listed_and_existing_users_untouched(tmp_path: Path) -> None:
    call_command("import_roster", _write(tmp_path, GOOD))
    text = GOOD.replace("张三", "张三改") + "x1,a,bad,student,\nx2,b,b@example.edu,boss,\n"
    with pytest.raises(CommandError) as info:
        call_command("import_roster", _write(tmp_path, text))
    assert "line 6:" in str(info.value) and "line 7:" in str(info.value)
    assert User.objects.get(username="2026001").first_name == "张三"
