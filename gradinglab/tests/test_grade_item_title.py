"""A lab assignment's gradebook column: untitled assignments of one problem on the CPU path and on a
GPU get different names, so staff can tell the two columns apart."""

from __future__ import annotations

import pytest

from gradinglab.services.results import assignment_grade_item
from gradinglab.tests.labkit import make_assignment

pytestmark = pytest.mark.django_db


def test_untitled_cpu_and_gpu_assignments_of_one_problem_get_different_columns() -> None:
    cpu = assignment_grade_item(make_assignment())
    gpu = assignment_grade_item(make_assignment(gpu_kind="h100"))
    assert (cpu.title, cpu.title_en) == ("实验：向量加法", "Lab: Vector addition")
    assert (gpu.title, gpu.title_en) == ("实验：向量加法（h100）", "Lab: Vector addition (h100)")


def test_a_titled_assignment_keeps_staff_title_as_written() -> None:
    item = assignment_grade_item(make_assignment(gpu_kind="h100", title="期末实验"))
    assert (item.title, item.title_en) == ("实验：期末实验", "Lab: 期末实验")
