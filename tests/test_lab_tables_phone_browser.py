"""In real Chromium at 390x844, in Chinese and English: the lab's tables stay inside the page.

The ptxas table of a CUDA submission and the leaderboard (its empty-state sentence too) made an
English page about 440 px wide; the ptxas table now scrolls inside the shared `.table-wrap` and
long names wrap, and the leaderboard is a card per place. A wrapper that scrolls shows a shadow
inside the edge with more columns behind it (the lab list hid four columns with no sign), and only
then. Screenshots go to $PDC_SHOTS when set."""

from __future__ import annotations

import hashlib
import os
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import timezone

from conftest import browser_login
from gradinglab.models import Submission, SubmissionResult
from gradinglab.tests.labkit import correct_cuda_source, gpu_doc, make_assignment
from tests.phonecards import DESKTOP, PHONE, cells_on_a_phone, misplaced_on_a_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGS = ("zh-hans", "en")
# As ptxas prints them: mangled C++ names, a template instance among them (no break opportunity).
KERNELS = [
    "_Z17vector_add_kernelPKfS0_Pfi",
    "_ZN7cutlass6KernelINS_4gemm6kernel4GemmINS1_11threadblock12MmaPipelinedEEEEEvNT_6ParamsE",
]
LEADERBOARD = "/lab/problems/vector-add/leaderboard/"

# The strength (0 or 1) of the shadow inside the ptxas table wrapper's left and right edges
# (site.css).
PTXAS = ".table-wrap:has(> table td.long-name)"
SHADES_JS = f"""() => {{
  const s = getComputedStyle(document.querySelector('{PTXAS}'));
  return [s.getPropertyValue('--shade-start').trim(), s.getPropertyValue('--shade-end').trim()];
}}"""


def _cuda_submission(student, assignment) -> Submission:
    """A graded CUDA submission whose document carries a ptxas report (no GPU here: gpu_doc)."""
    doc = gpu_doc(median_ms=0.4)
    doc["backend"] = "cuda"
    doc["compile"] = {
        "ok": True,
        "log": "ptxas info    : Used 16 registers",
        "ptxas": {"arch": "sm_90", "kernels": [{
            "name": name, "registers": 16 + 40 * i, "shared_mem_bytes": 49152 * i,
            "spill_stores_bytes": 0, "spill_loads_bytes": 0, "stack_bytes": 0,
        } for i, name in enumerate(KERNELS)]},
    }  # fmt: skip
    source = correct_cuda_source()
    now = timezone.now()
    sub = Submission.objects.create(
        assignment=assignment, student=student, backend="cuda", source=source,
        sha256=hashlib.sha256(source.encode()).hexdigest(), created_at=now, finished_at=now,
        queue=assignment.queue_name, status=doc["status"], score=Decimal("100"),
        median_ms=doc["timing"]["median_ms"], speedup=doc["timing"]["speedup_vs_reference"],
        roofline_fraction=doc["timing"]["roofline_fraction"], device_name=doc["device"]["name"],
    )  # fmt: skip
    SubmissionResult.objects.create(submission=sub, round=1, document=doc, received_at=now)
    return sub


def _phone(browser, live_server, lang: str):
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page = context.new_page()
    browser_login(page, live_server, "student_a")
    return context, page


def _width(page, live_server, path: str, shot: str) -> list[int]:
    """[page scrollWidth, innerWidth] of `path` as the page now is (viewport, language)."""
    assert page.goto(live_server.url + path).status == 200, path
    _shoot(page, shot)
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


def test_lab_tables_fit_a_phone_in_both_languages(live_server, _browser, student_a) -> None:
    widths: dict[str, list[int]] = {}
    sentences: dict[str, bool] = {}
    make_assignment()  # CPU only: the leaderboard explains why it is empty
    for lang in LANGS:
        context, page = _phone(_browser, live_server, lang)
        widths[f"{lang} 390 empty leaderboard"] = _width(
            page, live_server, LEADERBOARD, f"leaderboard-empty-{lang}-390"
        )
        # A sentence in the page's column, not a table cell as wide as six headers.
        sentences[lang] = page.locator("#leaderboard-empty").is_visible()
        sentences[lang] &= page.locator("table").count() == 0
        context.close()

    gpu = make_assignment(gpu_kind="h100", points=Decimal("100"))
    sub = _cuda_submission(student_a, gpu)
    student_a.profile.pseudonym = "a-rather-long-leaderboard-nickname"
    student_a.profile.save()
    pages = {
        "submission-ptxas": f"/lab/submissions/{sub.pk}/",
        "leaderboard": f"{LEADERBOARD}?kind=h100",
    }
    for lang in LANGS:
        context, page = _phone(_browser, live_server, lang)
        for viewport in (PHONE, DESKTOP):
            page.set_viewport_size(viewport)
            for name, path in pages.items():
                shot = f"{name}-{lang}-{viewport['width']}"
                widths[f"{lang} {viewport['width']} {name}"] = _width(page, live_server, path, shot)
        context.close()
    wide = {where: w for where, w in widths.items() if w[0] > w[1]}
    assert not wide, f"wider than the window [scrollWidth, innerWidth]: {wide}"
    assert sentences == {lang: True for lang in LANGS}, sentences


def test_a_table_that_scrolls_sideways_shows_it(live_server, _browser, student_a) -> None:
    """The ptxas table's four columns at 390 px (the lab list and then the leaderboard, the examples
    before, are now cards)."""
    sub = _cuda_submission(student_a, make_assignment(gpu_kind="h100", points=Decimal("100")))
    context, page = _phone(_browser, live_server, "en")
    width = _width(page, live_server, f"/lab/submissions/{sub.pk}/", "ptxas-en-390")
    assert width[0] <= width[1], width  # the table scrolls inside its wrapper, not the page
    wrap = page.locator(PTXAS)
    assert wrap.evaluate("w => w.scrollWidth > w.clientWidth")  # columns are off to the right
    assert page.evaluate(SHADES_JS) == ["0", "1"]  # at the start: a shadow on the right only
    wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
    page.wait_for_function(f"() => ({SHADES_JS})()[1] === '0'")
    assert page.evaluate(SHADES_JS) == ["1", "0"]  # at the end: on the left only
    page.set_viewport_size(DESKTOP)
    page.reload()  # the whole table fits: no shadow
    assert wrap.evaluate("w => w.scrollWidth <= w.clientWidth")
    assert page.evaluate(SHADES_JS) == ["0", "0"]
    _shoot(page, "ptxas-en-1280")
    context.close()


def _cards(browser, live_server, path: str, shot: str, per_language: int) -> dict[str, list]:
    """The cells of the page's one table at 390 px in each language (student_a), once the page is
    seen to fit the window and no card's value (or part of it) to start under its name. Each
    language shows `per_language` cells, every one with its column's name and inside the window."""
    cells: dict[str, list[dict]] = {}
    for lang in LANGS:
        context, page = _phone(browser, live_server, lang)
        width = _width(page, live_server, path, f"{shot}-{lang}-390")
        assert width[0] <= width[1], (lang, width)
        assert misplaced_on_a_phone(page, "main table") == [], lang
        cells[lang] = cells_on_a_phone(page, "main table")
        context.close()
    for lang, tds in cells.items():
        assert len(tds) == per_language, (lang, tds)
        assert all(td["label"] and td["right"] <= td["window"] for td in tds), (lang, tds)
    return cells


def test_the_leaderboard_is_a_card_per_place_on_a_phone(live_server, _browser, student_a) -> None:
    """Speedup, roofline and GPU were three columns off-screen to the right at 390 px: now each
    place is a card whose every line says its column's name, inside the window."""
    _cuda_submission(student_a, make_assignment(gpu_kind="h100", points=Decimal("100")))
    student_a.profile.pseudonym = "a-rather-long-leaderboard-nickname"
    student_a.profile.save()
    # One place, six labelled lines.
    cells = _cards(_browser, live_server, f"{LEADERBOARD}?kind=h100", "leaderboard-cards", 6)
    assert [td["label"] for td in cells["en"]][:2] == ["Rank", "Nickname"], cells["en"]


def test_the_lab_list_is_a_card_per_lab_on_a_phone(live_server, _browser, student_a) -> None:
    """My status and best score were four columns off-screen to the right at 390 px."""
    _cuda_submission(student_a, make_assignment())  # my status: "Accepted · 1 submission"
    # One lab, seven labelled lines; "Accepted · 1 submission": both parts after the name, not the
    # second under it.
    _cards(_browser, live_server, "/lab/", "lab-list", 7)


def test_due_dates_stay_on_one_line_on_a_phone(live_server, _browser, student_a) -> None:
    """At 390 px the lab list's due column was one date wide: "2026-12-20" above "23:59"."""
    due = timezone.now() + timedelta(days=9)
    make_assignment(due_at=due, late_until=due + timedelta(days=2), late_policy="penalty")
    lines: dict[str, list[int]] = {}
    for lang in LANGS:
        context, page = _phone(_browser, live_server, lang)
        _width(page, live_server, "/lab/", f"lab-list-due-{lang}-390")
        # "Late until <date>: late penalty …" is one value: the date was a grid item of its own.
        assert misplaced_on_a_phone(page, "main table") == [], lang
        page.set_viewport_size(PHONE)
        # An inline element that wraps has one client rect per line box.
        lines[lang] = page.locator("td time.when").evaluate_all(
            "ts => ts.map(t => t.getClientRects().length)"
        )
        context.close()
    assert lines == {lang: [1, 1] for lang in LANGS}, lines  # the due date, the late window's end


def _shoot(page, name: str) -> None:
    """What the reader sees with the page's last table in view (the page is taller than that)."""
    if os.environ.get("PDC_SHOTS"):
        shots = Path(os.environ["PDC_SHOTS"])
        shots.mkdir(parents=True, exist_ok=True)
        tables = page.locator("table")
        if tables.count():
            tables.last.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"{name}.png"))
