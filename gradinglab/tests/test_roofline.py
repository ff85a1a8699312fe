"""The roofline chart of a GPU-timed submission. No GPU here: the GPU part of the result document is
the labkit's fake (gpu_doc, on a real CPU-path document); the arithmetic is what is tested."""

from __future__ import annotations

import json
import re

import pytest

from gradinglab.models import Submission, SubmissionResult
from gradinglab.roofline import roofline_chart
from gradinglab.tests.labkit import correct_source, gpu_doc, load_doc, make_assignment

pytestmark = pytest.mark.django_db


def _sub(assignment, student, doc, **fields) -> Submission:
    from django.utils import timezone

    sub = Submission.objects.create(
        assignment=assignment, student=student, backend="triton", source=correct_source(),
        sha256="0" * 64, created_at=timezone.now(), queue="grade-gpu-h100", status=doc["status"],
        median_ms=(doc.get("timing") or {}).get("median_ms"), **fields,
    )  # fmt: skip
    SubmissionResult.objects.create(
        submission=sub, round=1, document=doc, received_at=sub.created_at
    )
    return sub


def test_point_and_roofs_from_the_problem_cost(student_a) -> None:
    a = make_assignment(gpu_kind="h100")
    earlier = _sub(a, student_a, gpu_doc(median_ms=1.0))
    sub = _sub(a, student_a, gpu_doc(median_ms=0.5))
    chart = roofline_chart(sub, [earlier, sub])
    n = 16777216  # the vector-add benchmark shape in gpu_doc
    assert chart["point"]["ai"] == pytest.approx(n / (3 * n * 4))  # flops n, bytes 3 * n * 4
    assert chart["point"]["gflops"] == pytest.approx(n / 0.5e-3 / 1e9)
    assert chart["ridge"] == pytest.approx(67.0e3 / 3350.0)
    assert [p["label"] for p in chart["history"]] == [f"#{earlier.pk}"]  # not itself


def test_no_chart_on_the_cpu_path(student_a) -> None:
    sub = _sub(make_assignment(), student_a, load_doc("accepted"))
    assert roofline_chart(sub, []) is None


def test_submission_page_carries_the_chart_data(client_a, student_a) -> None:
    sub = _sub(make_assignment(gpu_kind="h100"), student_a, gpu_doc(median_ms=0.4))
    html = client_a.get(f"/lab/submissions/{sub.pk}/").content.decode()
    data = json.loads(re.search(r'id="roofline-data"[^>]*>(.*?)</script>', html).group(1))
    assert data["peak_gbps"] == 3350.0 and "chart.umd.js" in html and 'id="roofline-chart"' in html
