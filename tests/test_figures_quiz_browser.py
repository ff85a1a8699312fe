"""A student reads a lecture with diagrams and takes a practice quiz with a code-reading question
in real Chromium, on a desktop and on a 390 px phone, in Chinese and in English: the figure is
drawn inside its section and fits the screen, the kernel is highlighted and the quiz page never
scrolls sideways (the lecture page's own width is issue 15's phone-layout test). Screenshots go to var/screenshots/ for a human to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

CONTENT = Path(settings.BASE_DIR) / "content"
SHOTS = Path(settings.BASE_DIR) / "var" / "screenshots"
VIEWS = [("zh", 1280), ("en", 390), ("zh", 390), ("en", 1280)]  # language, viewport width (px)


def _no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.evaluate("window.innerWidth"), width


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_lecture_figures_and_practice_quiz_on_desktop_and_phone(
    _browser, live_server, student_a
) -> None:
    from conftest import browser_login
    from lectures.services import content_import

    report = content_import(lectures_dir=CONTENT / "lectures", pages_dir=CONTENT / "course")
    assert not report.errors
    call_command("import_quizzes", verbosity=0)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for language, width in VIEWS:
        context = _browser.new_context(viewport={"width": width, "height": 900})
        context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
        context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        )
        page = context.new_page()
        browser_login(page, live_server, "student_a")
        _walk(page, live_server.url, language, width)
        context.close()


def _labels_inside(svg) -> None:
    """Every label of the drawing lies within its viewBox (the font's real widths, not guesses)."""
    outside = svg.evaluate(
        """svg => { const v = svg.viewBox.baseVal; return [...svg.querySelectorAll('text')]
        .map(t => [t.textContent, t.getBBox()]).filter(([, b]) => b.x < v.x - 0.5 ||
        b.y < v.y - 0.5 || b.x + b.width > v.x + v.width + 0.5 || b.y + b.height > v.y + v.height
        + 0.5).map(([s]) => s); }"""
    )
    assert outside == []


def _walk(page, url: str, language: str, width: int) -> None:
    page.goto(f"{url}/lectures/9/#sec-9-3-2")
    figure = page.locator("#sec-9-3-2 #fig-pipeline-bubble")
    figure.scroll_into_view_if_needed()
    assert figure.is_visible()
    for part in (figure, figure.locator("svg"), figure.locator("figcaption")):
        box = part.bounding_box()
        assert box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    # One language at a time: the caption and the drawing's labels are the page's.
    caption = figure.locator("figcaption").inner_text()
    labels = " ".join(figure.locator("svg text").all_text_contents())
    if language == "zh":
        assert "编者补充" in caption and "Editor" not in caption
        assert "空格即气泡" in labels and "bubble" not in labels
    else:
        assert "Editor's figure" in caption and "编者补充" not in caption
        assert "empty cells = bubble" in labels and "气泡" not in labels
    _labels_inside(figure.locator("svg"))
    figure.screenshot(path=str(SHOTS / f"figure-pipeline-bubble-{language}-{width}.png"))

    page.goto(f"{url}/quizzes/practice-l2/")
    page.locator("#start-attempt, a.button[href*='/quizzes/attempt/']").first.click()  # or resume
    page.wait_for_url("**/quizzes/attempt/**")
    code = page.locator("section.quiz-question .codehilite[data-lang=cuda]").first
    code.scroll_into_view_if_needed()
    assert code.is_visible() and "__global__" in code.inner_text()
    assert code.bounding_box()["width"] <= width
    stems = page.locator("section.quiz-question .stem").all_inner_texts()
    if language == "en":
        assert not any("\u4e00" <= ch <= "\u9fff" for stem in stems for ch in stem)
    _no_sideways_scroll(page)
    question = code.locator("xpath=ancestor::section[1]")
    question.screenshot(path=str(SHOTS / f"quiz-code-question-{language}-{width}.png"))
    page.screenshot(path=str(SHOTS / f"quiz-practice-l2-{language}-{width}.png"))
