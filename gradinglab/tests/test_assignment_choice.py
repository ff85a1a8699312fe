"""One problem set twice (on the CPU path and on a GPU): a student reaches each assignment's page,
submits to the one on screen, and a bad or foreign assignment id is a 404, never another assignment."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from gradinglab.models import Submission
from gradinglab.tests import labkit

pytestmark = pytest.mark.django_db
PAGE = "/lab/problems/vector-add/"


@pytest.fixture
def cpu_and_gpu():
    """The CPU assignment is due later, so the bare problem page shows it."""
    now = timezone.now()
    gpu = labkit.make_assignment(gpu_kind="h100", due_at=now + timedelta(days=3))
    cpu = labkit.make_assignment(due_at=now + timedelta(days=7))
    return cpu, gpu


def _hidden_assignment(html: str) -> str:
    return re.search(r'name="assignment" value="(\d+)"', html)[1]


def test_each_assignment_has_its_own_page_and_the_form_names_it(client_a, cpu_and_gpu) -> None:
    cpu, gpu = cpu_and_gpu
    bare = client_a.get(PAGE).content.decode()
    assert _hidden_assignment(bare) == str(cpu.pk)  # latest due
    page = client_a.get(gpu.get_absolute_url())
    html = page.content.decode()
    assert page.status_code == 200 and _hidden_assignment(html) == str(gpu.pk)
    assert "GPU H100" in html.split('id="submit-form"')[0]  # the meta line is the GPU one's
    switch = html.split('id="assignment-switch"')[1].split("</nav>")[0]
    assert f'href="{cpu.get_absolute_url()}"' in switch
    assert f'href="{gpu.get_absolute_url()}" aria-current="page"' in switch


def test_submit_goes_to_the_assignment_on_screen(client_a, cpu_and_gpu) -> None:
    cpu, gpu = cpu_and_gpu
    form = {"backend": "triton", "source": labkit.correct_source()}
    response = client_a.post(f"{PAGE}submit/", {**form, "assignment": str(gpu.pk)})
    assert response.status_code == 302
    assert Submission.objects.get().assignment == gpu
    client_a.post(f"{PAGE}submit/", {**form, "source": form["source"] + "# 2\n"})
    assert Submission.objects.latest("pk").assignment == cpu  # no id: the latest due, as before


@pytest.mark.parametrize("raw", ["abc", "²", "-1", "9" * 30, "0"])
def test_a_bad_assignment_id_is_a_404_and_stores_nothing(client_a, cpu_and_gpu, raw) -> None:
    assert client_a.get(PAGE, {"assignment": raw}).status_code == 404
    form = {"backend": "triton", "source": labkit.correct_source(), "assignment": raw}
    assert client_a.post(f"{PAGE}submit/", form).status_code == 404
    assert not Submission.objects.exists()


def test_an_assignment_of_another_problem_or_unpublished_is_a_404(client_a, cpu_and_gpu) -> None:
    hidden = labkit.make_assignment(published=False)
    assert client_a.get(PAGE, {"assignment": hidden.pk}).status_code == 404
    other = labkit.make_assignment()
    other.problem = type(other.problem).objects.exclude(slug="vector-add").first()
    other.save()
    assert client_a.get(PAGE, {"assignment": other.pk}).status_code == 404


def test_index_submission_page_and_dashboard_link_to_the_assignment(
    client_a, student_a, cpu_and_gpu
) -> None:
    cpu, gpu = cpu_and_gpu
    index = client_a.get("/lab/").content.decode()
    assert f'href="{cpu.get_absolute_url()}"' in index
    assert f'href="{gpu.get_absolute_url()}"' in index
    client_a.post(
        f"{PAGE}submit/",
        {"backend": "triton", "source": labkit.correct_source(), "assignment": str(gpu.pk)},
    )
    sub = Submission.objects.get()
    back = client_a.get(f"/lab/submissions/{sub.pk}/").content.decode()
    assert f'href="{gpu.get_absolute_url()}"' in back
    home = client_a.get("/").content.decode()
    assert f'href="{gpu.get_absolute_url()}"' in home and f'href="{cpu.get_absolute_url()}"' in home
    assert "向量加法（h100）" in home  # the two rows of "due next" are told apart by name


def test_staff_see_a_draft_assignment_in_the_switcher_marked_unpublished(
    client_ta, cpu_and_gpu
) -> None:
    draft = labkit.make_assignment(published=False, title="下周的作业")
    switch = client_ta.get(PAGE).content.decode().split('id="assignment-switch"')[1]
    switch = switch.split("</nav>")[0]
    after = switch.split(f'href="{draft.get_absolute_url()}"')[1]
    assert "下周的作业" in after and '<span class="badge">未发布</span>' in after.split("·")[0]


def test_an_assignment_without_a_due_date_counts_as_due_last(client_a) -> None:
    """The same on PostgreSQL and on SQLite (`make run`), which sort a NULL due date apart."""
    dated = labkit.make_assignment(due_at=timezone.now() + timedelta(days=7))
    open_ended = labkit.make_assignment(due_at=None)
    assert _hidden_assignment(client_a.get(PAGE).content.decode()) == str(open_ended.pk)
    switch = client_a.get(PAGE).content.decode().split('id="assignment-switch"')[1]
    assert switch.index(open_ended.get_absolute_url()) < switch.index(dated.get_absolute_url())
