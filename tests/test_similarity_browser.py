"""Real Chromium (issue 17, must hold 3): a TA starts a similarity run, opens the top pair, sees the
shared regions highlighted and records a decision; the audit row exists; the copying student
sees nothing (no similarity data on their pages, 403 on the review URL). The review and results
pages fit a 390 px phone in both languages. Screenshots go to $PDC_SHOTS when set."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import browser_login
from gradebook.models import GradeEvent
from gradinglab.tests.labkit import purge, take_messages
from gradinglab.worker.queues import DEFAULT_QUEUE
from similarity.models import SimilarityDecision, SimilarityRun
from similarity.services import RUN_TASK, similarity_run_execute
from similarity.tests.corpus import COPIED_PAIRS
from similarity.tests.kit import class_of_twenty, softmax_assignment

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PW = "pw-test-12345"
NOTE = "循环结构与变量顺序几乎一致，转交教师"


def _signed_in(browser, live_server, username: str, *, lang: str = "zh-hans", width: int = 1280):
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page = context.new_page()
    browser_login(page, live_server, username, PW)
    return context, page


def _overflow(page) -> int:
    return page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


def test_ta_reviews_the_top_pair_and_the_student_sees_nothing(
    live_server, browser_page, ta
) -> None:
    assignment = softmax_assignment()
    subs = class_of_twenty(assignment, with_fix=False)
    name_of = {s.pk: name for name, s in subs.items()}
    browser = browser_page.context.browser
    url = live_server.url

    purge(DEFAULT_QUEUE)  # messages earlier tests in this process left there (a reaper run)
    context, page = _signed_in(browser, live_server, "ta")
    page.goto(f"{url}/staff/")
    page.click("a[href='/staff/similarity/']")
    page.click(f"a[href='/staff/similarity/assignments/{assignment.pk}/']")
    page.click("#run-form button[type=submit]")
    page.wait_for_selector(".msg-success")
    run = SimilarityRun.objects.get(assignment=assignment)
    # The default-queue worker's part, done here: take the message and run the task body.
    assert (RUN_TASK, {"run_id": run.pk}) in take_messages(DEFAULT_QUEUE)
    similarity_run_execute(run_id=run.pk)
    page.reload()
    assert page.locator("#similarity-pairs tbody tr.needs-review").count() == 3
    assert page.locator(".cluster-graph line.edge").count() == 3
    page.locator("#similarity-pairs tbody tr").first.get_by_role("link").click()
    page.wait_for_url(f"{url}/staff/similarity/pairs/**")
    pair = run.pairs.get(rank=1)
    assert {name_of[pair.submission_a_id], name_of[pair.submission_b_id]} in [
        set(p) for p in COPIED_PAIRS
    ]
    for side in ("#side-1", "#side-2"):
        marks = page.locator(f"{side} mark.shared")
        assert marks.count() >= 3
        assert "tl." in " ".join(marks.all_inner_texts())
    assert page.locator(".timeline li.first").count() == 2
    page.check("input[name=decision][value=refer]")
    page.fill("#id_note", NOTE)
    page.click("#decision-form button[type=submit]")
    page.wait_for_selector(".msg-success")
    assert NOTE in page.locator("#decisions").inner_text()
    context.close()

    decision = SimilarityDecision.objects.get(pair=pair)
    assert decision.decision == "refer" and decision.decided_by == ta
    events = GradeEvent.objects.filter(action=GradeEvent.Action.SIMILARITY, actor=ta)
    assert {e.student_id for e in events} == {
        pair.submission_a.student_id,
        pair.submission_b.student_id,
    }
    assert all(NOTE in e.reason for e in events)

    # The referred student: nothing about similarity anywhere they can go.
    student = pair.submission_b.student
    context, page = _signed_in(browser, live_server, student.username)
    own = pair.submission_b_id
    for path in ("/lab/", "/lab/problems/softmax/", f"/lab/submissions/{own}/", "/grades/"):
        assert page.goto(f"{url}{path}").status == 200, path
        body = page.content()
        assert "相似" not in body and "similarity" not in body.lower() and NOTE not in body, path
    assert page.goto(f"{url}/staff/similarity/pairs/{pair.pk}/").status == 403
    assert page.goto(f"{url}/staff/similarity/assignments/{assignment.pk}/").status == 403
    context.close()

    _phone_and_languages(browser, live_server, pair.pk, assignment.pk)


def _phone_and_languages(browser, live_server, pair_id: int, assignment_id: int) -> None:
    shots = Path(os.environ["PDC_SHOTS"]) if os.environ.get("PDC_SHOTS") else None
    pages = {
        "review": f"/staff/similarity/pairs/{pair_id}/",
        "results": f"/staff/similarity/assignments/{assignment_id}/",
    }
    # One TA session: the language cookie and the viewport change between pages (one login).
    context, page = _signed_in(browser, live_server, "ta")
    for lang in ("zh-hans", "en"):
        context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            for name, path in pages.items():
                assert page.goto(f"{live_server.url}{path}").status == 200
                assert _overflow(page) <= 1, (lang, width, path)
                heading = page.locator("h1").inner_text()
                assert ("相似" in heading) == (lang == "zh-hans"), heading
                if shots:
                    shots.mkdir(parents=True, exist_ok=True)
                    target = shots / f"similarity-{name}-{lang}-{width}.png"
                    page.screenshot(path=str(target), full_page=True)
    context.close()
