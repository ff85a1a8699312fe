"""A student answers the evidence of a rejected result once; a second answer is refused clearly."""

from __future__ import annotations

import pytest

from flagreview import services
from flagreview.models import FlagResponse


def test_second_response_is_refused_with_a_message(rejected, client_a, student_a) -> None:
    url = f"/flags/submissions/{rejected.pk}/respond/"
    first = client_a.post(url, {"text": "My kernel fuses the loads; please re-time it."})
    assert first.status_code == 302
    second = client_a.post(url, {"text": "One more thing."}, follow=True)
    assert second.status_code == 409
    assert "你已经回应过这次结果" in second.content.decode()
    assert list(FlagResponse.objects.values_list("text", flat=True)) == [
        "My kernel fuses the loads; please re-time it."
    ]
    with pytest.raises(services.FlagError, match="只能回应一次"):
        services.flag_response_create(submission=rejected, student=student_a, text="again")
    page = client_a.get(f"/flags/submissions/{rejected.pk}/").content.decode()
    assert 'id="response-form"' not in page and "please re-time it" in page


def test_a_new_round_is_a_new_case(rejected, student_a, ta) -> None:
    """A re-run grades again: the answer given to round 1 does not answer round 2."""
    services.flag_response_create(submission=rejected, student=student_a, text="round one")
    rejected.round += 1
    rejected.save(update_fields=["round"])
    services.flag_response_create(submission=rejected, student=student_a, text="round two")
    assert FlagResponse.objects.filter(submission=rejected).count() == 2
