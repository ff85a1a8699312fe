"""A roster row that lowers a staff role (instructor -> TA or student, TA -> student) is a demotion:
the preview names it per row, and the import needs an explicit tick for it. Lowering one's own role,
or leaving the course with no instructor, is refused outright, naming the rows; nothing is written.

An instructor once uploaded a file listing themself and the only other instructor as students: the
preview said "更新", and after the confirm nobody could reach a staff page again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from accounts.roles import role_of
from accounts.services import user_create_with_role
from accounts.staff_views import _SALT

pytestmark = pytest.mark.django_db
User = get_user_model()

HEADER = "student_id,name,email,role\n"
UPLOAD, CONFIRM, ROSTER = (
    "/accounts/staff/roster/upload/",
    "/accounts/staff/roster/confirm/",
    "/accounts/staff/roster/",
)


def _upload(client, text: str):
    file = SimpleUploadedFile("list.csv", (HEADER + text).encode(), content_type="text/csv")
    return client.post(UPLOAD, {"file": file})


def _payload(response) -> str:
    return re.search(r'name="payload" value="([^"]+)"', response.content.decode())[1]


def _role(username: str) -> str | None:
    return role_of(User.objects.get(username=username))


@pytest.fixture
def instructor2(db):
    return user_create_with_role(username="instructor2", password="pw-x-12345", role="instructor")


def test_the_preview_names_each_demotion(client_instructor, instructor2, ta) -> None:
    text = (
        "instructor,I,i@example.edu,instructor\n"
        "instructor2,J,j@example.edu,ta\n"
        "ta,T,t@example.edu,student\n"
    )
    response = _upload(client_instructor, text)
    page = response.content.decode()
    assert response.status_code == 200
    assert "降级：教师 → 助教" in page and "降级：助教 → 学生" in page
    assert 'name="confirm_demotions"' in page and 'id="roster-demotions"' in page


def test_a_preview_without_demotions_asks_no_tick(client_instructor, student_a) -> None:
    response = _upload(client_instructor, "student_a,A,a@example.edu,student\n")
    assert response.status_code == 200
    assert "降级" not in response.content.decode()
    assert 'name="confirm_demotions"' not in response.content.decode()


def test_demoting_every_instructor_including_oneself_is_refused(
    client_instructor, instructor2
) -> None:
    """The auditor's file: the uploader and the other instructor, both as students."""
    text = "instructor,I,i@example.edu,student\ninstructor2,J,j@example.edu,student\n"
    response = _upload(client_instructor, text)
    page = response.content.decode()
    assert response.status_code == 400 and 'name="payload"' not in page  # nothing to confirm
    assert "第 2 行：不能降低你自己的角色（降级：教师 → 学生）。" in page
    assert "第 3 行：导入后课程将没有教师（降级：教师 → 学生）；至少保留一位教师。" in page
    # A payload signed earlier (or forged by hand) is refused at the confirm too, tick or not.
    payload = signing.dumps(HEADER + text, salt=_SALT, compress=True)
    done = client_instructor.post(CONFIRM, {"payload": payload, "confirm_demotions": "on"})
    assert done.status_code == 400 and "不能降低你自己的角色" in done.content.decode()
    assert _role("instructor") == "instructor" and _role("instructor2") == "instructor"
    assert client_instructor.get(ROSTER).status_code == 200


def test_demoting_oneself_is_refused_even_with_another_instructor(
    client_instructor, instructor2
) -> None:
    response = _upload(client_instructor, "instructor,I,i@example.edu,ta\n")
    assert response.status_code == 400
    assert "第 2 行：不能降低你自己的角色（降级：教师 → 助教）。" in response.content.decode()
    assert _role("instructor") == "instructor"


def test_demoting_the_only_instructor_is_refused(admin_client, instructor) -> None:
    """A superuser imports: the file would leave no instructor, so no one could undo it."""
    response = _upload(admin_client, "instructor,I,i@example.edu,ta\n")
    page = response.content.decode()
    assert response.status_code == 400
    assert "第 2 行：导入后课程将没有教师（降级：教师 → 助教）；至少保留一位教师。" in page
    assert _role("instructor") == "instructor"


def test_demoting_other_staff_needs_the_tick(client_instructor, instructor2, ta) -> None:
    text = "instructor2,J,j@example.edu,student\nta,T,t@example.edu,student\n"
    payload = _payload(_upload(client_instructor, text))
    unticked = client_instructor.post(CONFIRM, {"payload": payload, "invite": "on"})
    page = unticked.content.decode()
    assert unticked.status_code == 400 and "请勾选确认后再导入" in page
    assert "降级：教师 → 学生" in page and 'name="confirm_demotions"' in page
    assert _role("instructor2") == "instructor" and _role("ta") == "ta"  # nothing written

    ticked = client_instructor.post(CONFIRM, {"payload": payload, "confirm_demotions": "on"})
    assert ticked.status_code == 302
    assert _role("instructor2") == "student" and _role("ta") == "student"
    assert not User.objects.get(username="ta").is_staff


def test_the_command_refuses_demotions_unless_confirmed(tmp_path: Path, instructor, ta) -> None:
    path = tmp_path / "roster.csv"
    path.write_text(HEADER + "ta,T,t@example.edu,student\n", encoding="utf-8")
    with pytest.raises(CommandError, match="--confirm-demotions"):
        call_command("import_roster", path, "--no-invite")
    assert _role("ta") == "ta"
    call_command("import_roster", path, "--no-invite", "--confirm-demotions")
    assert _role("ta") == "student"


def test_the_command_never_leaves_the_course_without_an_instructor(
    tmp_path: Path, instructor
) -> None:
    path = tmp_path / "roster.csv"
    path.write_text(HEADER + "instructor,I,i@example.edu,ta\n", encoding="utf-8")
    with pytest.raises(CommandError, match="line 2: .*instructor"):
        call_command("import_roster", path, "--no-invite", "--confirm-demotions")
    assert _role("instructor") == "instructor"
