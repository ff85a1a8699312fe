"""A TA's decision on a pair: recorded, audited in the gradebook for both students; bad input is a
form error (400), never a 500 and never a half-written decision."""

from __future__ import annotations

import pytest

from gradebook.models import GradeEvent
from similarity.models import SimilarityDecision
from similarity.tests.test_access import pair_world  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def test_a_decision_is_recorded_and_audited_for_both_students(pair_world, client_ta, ta) -> None:  # noqa: F811
    _assignment, users, a, b, pair = pair_world
    url = f"/staff/similarity/pairs/{pair.pk}/"
    response = client_ta.post(url, {"decision": "discuss", "note": "ask both about the loop"})
    assert response.status_code == 302
    decision = SimilarityDecision.objects.get(pair=pair)
    assert (decision.decision, decision.decided_by) == ("discuss", ta)
    events = GradeEvent.objects.filter(action=GradeEvent.Action.SIMILARITY)
    assert {e.student for e in events} == {users["orig"], users["copy"]}
    assert all(e.actor == ta and "ask both about the loop" in e.reason for e in events)
    assert all(f"#{a.pk}" in e.reason and f"#{b.pk}" in e.reason for e in events)
    page = client_ta.get(url).content.decode()
    assert "ask both about the loop" in page and 'id="decisions"' in page


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"decision": "expel", "note": "x"},
        {"decision": "refer", "note": "   "},  # refer / discuss need a note
        {"decision": "discuss", "note": "x" * 2001},
    ],
)
def test_bad_decision_input_is_a_form_error(pair_world, client_ta, data) -> None:  # noqa: F811
    *_rest, pair = pair_world
    response = client_ta.post(f"/staff/similarity/pairs/{pair.pk}/", data)
    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()
    assert not SimilarityDecision.objects.exists()
    assert not GradeEvent.objects.filter(action=GradeEvent.Action.SIMILARITY).exists()


def test_the_review_page_highlights_shared_code_and_the_first_appearance(
    pair_world,  # noqa: F811
    client_ta,
) -> None:
    from similarity.tests.kit import submit

    assignment, users, a, b, pair = pair_world
    # An earlier, unrelated try by the copier: the timeline marks the later one as the first
    # appearance of the shared code.
    early = submit(assignment, users["copy"], "import torch\n", minutes_ago=60)
    body = client_ta.get(f"/staff/similarity/pairs/{pair.pk}/").content.decode()
    assert body.count('<mark class="shared">') >= 4
    assert "<script" not in body.split("</main>")[0].split('<main id="main"')[1]
    side = body.split('id="side-2"')[1]
    timeline = side.split('class="timeline"')[1].split("</ol>")[0]
    assert f"#{early.pk}" in timeline and f"#{b.pk}" in timeline
    first = timeline.split('class="first')[1]
    assert f"#{b.pk}" in first.split("</li>")[0]
