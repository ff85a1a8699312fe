"""The roofline chart on a GPU-timed submission page, drawn by Chart.js in Chromium: its log axes
are labelled at the decades only (0.01, 0.1, 1, 10, 100), so no two labels overlap at desktop or
phone width and no label reads "200.00".

The GPU-timed result is a mocked document (no GPU here: labkit.gpu_doc) posted by an h100 worker
credential to the real worker API; the page, the chart code and the vendored Chart.js are real."""

from __future__ import annotations

import contextlib
import math

import pytest
from django.test import Client

from gradinglab.tests import labkit
from gradinglab.tests.labkit import gpu_worker_token  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXES_JS = """() => {
  const chart = Chart.getChart('roofline-chart');
  const axis = (s) => ({ values: s.ticks.map(t => t.value), labels: s.ticks.map(t => t.label),
                         px: s.ticks.map(t => s.getPixelForValue(t.value)) });
  return { x: axis(chart.scales.x), y: axis(chart.scales.y) };
}"""
LABEL_GAP_PX = (
    30  # the widest decade label ("10,000") is about 40 px; centres must be this far apart
)


def _no_capture(execute: bool = True):
    return contextlib.nullcontext()  # live server: on_commit runs at each real commit


def test_roofline_axes_are_labelled_at_decades_only(
    live_server,
    _browser,
    login,
    student_a,
    gpu_worker_token,  # noqa: F811
) -> None:
    student = Client()
    student.force_login(student_a)
    pk = labkit.graded_on_h100(
        student, Client(), gpu_worker_token, _no_capture, labkit.gpu_doc(roofline=0.15)
    )
    context = _browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    login(page, "student_a")
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_server.url}/lab/submissions/{pk}/")
        page.wait_for_function("() => window.Chart && Chart.getChart('roofline-chart')")
        axes = page.evaluate(AXES_JS)
        for name, axis in axes.items():
            assert len(axis["values"]) >= 2, (name, width, axis)
            for value in axis["values"]:
                assert math.log10(value) == pytest.approx(round(math.log10(value))), (name, axis)
            assert not any(label.endswith(".00") for label in axis["labels"]), (name, axis)
            gaps = [abs(a - b) for a, b in zip(axis["px"], axis["px"][1:], strict=False)]
            assert min(gaps) >= LABEL_GAP_PX, (name, width, axis)
        assert "0.1" in axes["x"]["labels"] and "1,000" in axes["y"]["labels"]
    context.close()
