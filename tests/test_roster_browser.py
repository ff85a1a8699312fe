"""Must hold 2 (issue 14), in real Chromium: an instructor uploads a roster with a malformed line;
the preview names the line and nothing is imported; the fixed file imports after a confirm; the
invited student sets a password through the e-mailed link and logs in. A file that would lower
the instructor's own role is refused at the upload, naming the row; a TA's demotion is named in the
preview and imports only once its confirmation is ticked."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Profile
from accounts.roles import role_of
from accounts.services import user_create_with_role
from tests.phonecards import cells_on_a_phone, misplaced_on_a_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
User = get_user_model()

HEADER = "student_id,name,email,role,section\n"
GOOD = "2026101,王五,wangwu@example.edu,student,A\n2026102,赵六,zhaoliu@example.edu,student,B\n"
BAD = "2026101,王五,wangwu@example.edu,student,A\n2026102,赵六,not-an-address,student,B\n"


def _upload(page, text: str) -> None:
    page.set_input_files(
        "#roster-upload input[type=file]",
        files=[{"name": "roster.csv", "mimeType": "text/csv", "buffer": text.encode("utf-8")}],
    )
    page.click("#roster-upload button[type=submit]")


def test_roster_upload_preview_confirm_and_invitation(
    live_server, browser_page, login, mailoutbox
) -> None:
    user_create_with_role(username="prof", password="pw-test-12345", role="instructor")
    users_before = User.objects.count()
    page = browser_page
    login(page, "prof")
    page.goto(f"{live_server.url}/accounts/staff/roster/")

    _upload(page, HEADER + BAD)
    errors = page.inner_text("#roster-errors")
    assert "第 3 行" in errors and "not-an-address" in errors and "没有导入任何内容" in errors
    assert User.objects.count() == users_before and not mailoutbox  # nothing imported

    _upload(page, HEADER + GOOD)
    page.wait_for_selector("#roster-preview")
    preview = page.inner_text("#roster-preview")
    assert "2026101" in preview and "2026102" in preview and "新增" in preview
    assert User.objects.count() == users_before  # a preview writes nothing
    # On a phone, a card per row of the file, every line named and inside the window.
    cells = cells_on_a_phone(page, "#roster-preview")
    assert len(cells) % 7 == 0 and cells, cells
    assert [c for c in cells if not c["label"] or c["right"] > c["window"]] == []
    assert misplaced_on_a_phone(page, "#roster-preview") == []
    page.click("#roster-confirm button[type=submit]")
    page.wait_for_url("**/accounts/staff/roster/")
    assert "名单已导入：新增 2" in page.inner_text("main")
    assert Profile.objects.get(student_id="2026102").section == "B"
    assert page.locator("#roster tr[data-student-id='2026101']").count() == 1

    invite = next(m for m in mailoutbox if "wangwu@example.edu" in m.to)
    path = re.search(r"https?://[^\s/]+(/accounts/password/reset/\S+)", invite.body).group(1)
    student = browser_page.context.browser.new_context(locale="zh-CN")
    student.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
    spage = student.new_page()
    spage.goto(f"{live_server.url}{path}")
    spage.fill("input[name=new_password1]", "Wang-wu-2026-pw")
    spage.fill("input[name=new_password2]", "Wang-wu-2026-pw")
    spage.click("main button[type=submit]")
    spage.wait_for_url("**/password/reset/complete/")
    spage.goto(f"{live_server.url}/accounts/login/")
    spage.fill("#id_username", "2026101")
    spage.fill("#id_password", "Wang-wu-2026-pw")
    spage.click("button[type=submit]")
    spage.wait_for_url(f"{live_server.url}/")
    assert User.objects.get(username="2026101").has_usable_password()
    student.close()

    # The roster lists them with links to the page that gathers everything about a person.
    page.goto(f"{live_server.url}/accounts/staff/roster/?section=A")
    page.click("#roster tr[data-student-id='2026101'] a")
    page.wait_for_selector("#person-facts")
    assert "已设置密码" in page.inner_text("#person-facts")
    assert page.locator("#link-grades").count() == 1


def test_a_demotion_is_named_and_needs_the_tick(
    live_server, browser_page, login, instructor, ta
) -> None:
    page = browser_page
    login(page, "instructor")
    page.goto(f"{live_server.url}/accounts/staff/roster/")

    _upload(page, HEADER + "instructor,I,i@example.edu,student,\n")
    errors = page.inner_text("#roster-errors")
    assert "第 2 行" in errors and "不能降低你自己的角色" in errors
    assert role_of(User.objects.get(username="instructor")) == "instructor"

    _upload(page, HEADER + "ta,T,t@example.edu,student,\n")
    page.wait_for_selector("#roster-preview")
    assert "降级：助教 → 学生" in page.inner_text("#roster-preview")
    assert "降低员工的角色" in page.inner_text("#roster-demotions")
    page.click("#roster-confirm button[type=submit]")  # not ticked
    page.wait_for_selector("#roster-confirm .errorlist")
    assert "请勾选确认" in page.inner_text("#roster-confirm")
    assert role_of(User.objects.get(username="ta")) == "ta"

    page.check("#roster-demotions input[type=checkbox]")
    page.click("#roster-confirm button[type=submit]")
    page.wait_for_url("**/accounts/staff/roster/")
    assert "名单已导入" in page.inner_text("main")
    assert role_of(User.objects.get(username="ta")) == "student"


def test_invitations_sent_later_from_the_roster(
    live_server, browser_page, login, instructor, mailoutbox
) -> None:
    """Imported with the invitation unticked: the roster says "not invited", and its buttons send
    the e-mail to one person, then to everyone not invited yet."""
    page = browser_page
    login(page, "instructor")
    page.goto(f"{live_server.url}/accounts/staff/roster/")
    _upload(page, HEADER + GOOD)
    page.wait_for_selector("#roster-preview")
    page.uncheck("#roster-confirm input[name=invite]")
    page.click("#roster-confirm button[type=submit]")
    page.wait_for_url("**/accounts/staff/roster/")
    row = "#roster tr[data-student-id='2026101']"
    assert "待设置（未邀请）" in page.inner_text(row) and not mailoutbox

    with page.expect_navigation():  # the roster again, with the message
        page.click(f"{row} form.invite button")
    assert "邀请邮件：已发送 1" in page.inner_text(".messages")
    assert "已邀请" in page.inner_text(row) and "重新发送邀请" in page.inner_text(row)
    assert [m.to for m in mailoutbox] == [["wangwu@example.edu"]]

    with page.expect_navigation():
        page.click("#roster-invite-all button")
    assert "邀请邮件：已发送 1" in page.inner_text(".messages")
    assert [m.to for m in mailoutbox[1:]] == [["zhaoliu@example.edu"]]
    assert page.locator("#roster-invite-all").count() == 0
    # On a phone the invited date stays in its value's column (it overlapped the label's).
    assert misplaced_on_a_phone(page, "#roster") == []
