"""Real Chromium: a student logs in, sees the Chinese home page, and switches to English."""

import pytest

from accounts.services import user_create_with_role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_student_logs_in_sees_chinese_and_switches_to_english(
    live_server, browser_page, login
) -> None:
    user_create_with_role(username="student1", password="pw-test-12345", role="student")
    page = browser_page
    login(page, "student1")
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    assert page.locator(".nav-links").inner_text().split() == ["讲义", "测验", "实验", "成绩"]
    assert "欢迎来到 PDC Lab" in page.locator("main").inner_text()
    page.select_option("#lang-select", "en")
    page.wait_for_load_state("load")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert "Welcome to PDC Lab" in page.locator("main").inner_text()
    nav = page.locator("nav").inner_text()
    assert "Lectures" in nav and "Quizzes" in nav and "Grades" in nav and "讲义" not in nav
    page.reload()
    assert page.locator("html").get_attribute("lang") == "en"  # the choice sticks (cookie)
