"""Timing figures on the lab pages read as measurements (3 significant digits), not as the full
floats of the result document (`2345.0000000000005 GB/s`, a CV of 0.0123456789)."""

from __future__ import annotations

import math

import pytest

from gradinglab.templatetags.lab_tags import sig
from gradinglab.tests import labkit


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (2345.0000000000005, "2345"),
        (503.31648, "503"),
        (0.0858534, "0.0859"),
        (0.002, "0.002"),
        (2.0, "2"),
        (9.996, "10"),
        (-1.23456, "-1.23"),
        (0, "0"),
        (None, "—"),
        (math.inf, "inf"),
    ],
)
def test_three_significant_digits_without_exponent(value, shown) -> None:
    assert sig(value) == shown


@pytest.mark.django_db
def test_submission_page_and_problem_list_show_rounded_timing(
    client, client_a, gpu_worker_token, django_capture_on_commit_callbacks
) -> None:
    """Mocked GPU document (labkit.gpu_doc: this machine has no GPU)."""
    doc = labkit.gpu_doc(roofline=0.7)
    doc["timing"]["cv"] = 0.0123456789
    doc["timing"]["speedup_vs_reference"] = 0.25 / doc["timing"]["median_ms"]
    pk = labkit.graded_on_h100(
        client_a, client, gpu_worker_token, django_capture_on_commit_callbacks, doc
    )
    page = client_a.get(f"/lab/submissions/{pk}/").content.decode()
    timing = page[page.index('data-status="accepted"') :]
    assert "0.0859 ms" in timing and "2345 GB/s" in timing, timing[:2000]
    assert "0.0123" in timing and "0.01234" not in timing
    assert "2.91" in timing and "2.912" not in timing
    assert "2345.0000" not in timing
    problem = client_a.get("/lab/problems/vector-add/").content.decode()
    start = problem.index('action="/lab/submissions/diff/"')  # the student's own submissions
    mine = problem[start : problem.index("</table>", start)]
    assert ">0.0859</td>" in mine and "0.08585" not in mine
