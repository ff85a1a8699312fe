import pytest
from django.core.management import call_command

from gradebook.models import GradeItem
from gradinglab.models import Assignment, Problem


@pytest.mark.django_db
def test_demo_labs_publish_one_assignment_per_problem_once(client_a) -> None:
    call_command("sync_problems")
    call_command("publish_demo_labs")
    problems = Problem.objects.filter(active=True).count()
    assert problems >= 9
    assert Assignment.objects.filter(published=True, gpu_kind="").count() == problems
    assert GradeItem.objects.filter(kind="lab").count() == problems
    call_command("publish_demo_labs")  # idempotent
    assert Assignment.objects.count() == problems
    page = client_a.get("/lab/").content.decode()
    assert "vector-add" in page or "向量加法" in page
