"""The admin for grading hosts and problems.

A worker added in the admin got no token (an empty hash: it could not authenticate, and a second
one was a 500 on the unique hash), so adding a grading host needed a shell. Adding one now issues
its token and shows it once on the answering page; rotating works from the list; a kind no queue
serves or a device with no known peaks is refused at its field, as `worker_token` refuses it.

A problem's definition (scoring, tolerances, tests) comes from its package: edited in the admin it
changed grades with no package change while the publishing check, a hash of the package, still
passed. The admin shows a problem and never writes one."""

from __future__ import annotations

import re

import pytest
from django.core.management import CommandError, call_command

from conftest import admin_action
from gradinglab.models import WorkerNode, token_hash
from gradinglab.tests import labkit

pytestmark = pytest.mark.django_db
WORKERS = "/admin/gradinglab/workernode/"
PROBLEMS = "/admin/gradinglab/problem/"


@pytest.fixture
def root(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", password="x"))
    return client


def _token(page: str) -> str:
    return re.search(r"readonly spellcheck=\"false\">(wrk_[^<]+)</textarea>", page).group(1)


def test_adding_a_worker_shows_its_token_once_and_the_token_works(root, client) -> None:
    response = root.post(f"{WORKERS}add/", {"name": "gpu-a", "kind": "h100", "device": ""})
    assert response.status_code == 200 and "PDC_WORKER_TOKEN" in response.content.decode()
    raw = _token(response.content.decode())
    node = WorkerNode.objects.get(name="gpu-a")
    assert node.token_hash == token_hash(raw) and node.kind == "h100" and node.active
    assert raw not in response.cookies.output() and raw not in root.get(WORKERS).content.decode()
    second = root.post(f"{WORKERS}add/", {"name": "gpu-b", "kind": "cpu", "device": ""})
    assert second.status_code == 200 and WorkerNode.objects.count() == 2  # was a 500
    heartbeat = client.post(
        "/api/v1/workers/heartbeat", {}, content_type="application/json",
        headers={"authorization": f"Worker {raw}"},
    )  # fmt: skip
    assert heartbeat.status_code == 200


def test_rotating_replaces_the_token(root) -> None:
    response = root.post(f"{WORKERS}add/", {"name": "gpu-a", "kind": "h100", "device": ""})
    old = _token(response.content.decode())
    node = WorkerNode.objects.get(name="gpu-a")
    rotated = root.post(WORKERS, {"action": "rotate_tokens", "_selected_action": [node.pk]})
    new = _token(rotated.content.decode())
    node.refresh_from_db()
    assert new != old and node.token_hash == token_hash(new)


@pytest.mark.parametrize(
    ("data", "field", "says"),
    [
        ({"kind": "tpu", "device": ""}, "kind", "tpu"),
        ({"kind": "h100", "device": "NVIDIA Imaginary 9000"}, "device", "NVIDIA Imaginary 9000"),
    ],
)
def test_a_worker_that_could_not_grade_is_refused_at_its_field(root, data, field, says) -> None:
    response = root.post(f"{WORKERS}add/", {"name": "gpu-x", **data})
    errors = response.context["adminform"].form.errors
    assert response.status_code == 200 and says in " ".join(errors[field])
    assert not WorkerNode.objects.exists()
    with pytest.raises(CommandError, match=re.escape(says)):
        call_command("worker_token", "create", "gpu-x", "--kind", data["kind"],
                     "--device", data["device"])  # fmt: skip


def test_a_problem_is_shown_in_the_admin_and_never_edited(root) -> None:
    problem = labkit.make_assignment().problem
    before = (problem.scoring, problem.tolerances, problem.title_zh)
    url = f"/admin/gradinglab/problem/{problem.pk}/change/"
    page = root.get(url).content.decode()
    assert 'name="scoring"' not in page and 'name="tolerances"' not in page
    assert "target_fraction_of_roofline" in page  # the scoring rule, shown
    root.post(url, {"scoring": '{"correctness": 1, "performance": 0}', "title_zh": "改"})
    problem.refresh_from_db()
    assert (problem.scoring, problem.tolerances, problem.title_zh) == before
    assert root.get("/admin/gradinglab/problem/add/").status_code == 403


def test_only_instructors_may_start_the_publishing_check(
    client_ta, client_instructor, django_capture_on_commit_callbacks
) -> None:
    """A TA (view_problem only) could start the check, minutes of every solution and exploit on
    the default queue; the action is now offered to and run for change_problem holders only."""
    problem = labkit.make_assignment().problem
    labkit.purge("default")
    with django_capture_on_commit_callbacks(execute=True):
        admin_action(client_ta, PROBLEMS, "run_publishing_check", problem)
    assert labkit.take_messages("default") == []
    assert "run_publishing_check" not in client_ta.get(PROBLEMS).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        admin_action(client_instructor, PROBLEMS, "run_publishing_check", problem)
    queued = ("gradinglab.check_problem", {"slug": problem.slug})
    assert labkit.take_messages("default") == [queued]


def test_the_problem_list_names_what_bounds_each_problem(root) -> None:
    """The list showed the package's code ("memory") where the page's language names it."""
    labkit.make_assignment()  # the packages are synced: memory- and compute-bound ones

    def cells(lang: str) -> set[str]:
        root.cookies["django_language"] = lang
        page = root.get("/admin/gradinglab/problem/").content.decode()
        return set(re.findall(r'<td class="field-bound">([^<]*)</td>', page))

    assert cells("en") == {"Memory-bound", "Compute-bound"}
    assert cells("zh-hans") == {"访存受限", "计算受限"}


def test_the_models_name_every_bound_and_backend_a_package_may_declare() -> None:
    from gradinglab.models import Backend, Problem
    from gradinglab.runner.problems import BACKENDS, BOUNDS

    assert tuple(Problem.Bound.values) == BOUNDS
    assert tuple(Backend.values) == BACKENDS


def test_the_submission_list_names_each_backend(root, student_a) -> None:
    """The list showed the stored code ("triton") where the lab's pages say "Triton"."""
    from django.utils import timezone

    from gradinglab.models import Submission

    assignment = labkit.make_assignment()
    Submission.objects.create(
        assignment=assignment, student=student_a, backend="triton", source="x", sha256="0" * 64,
        queue=assignment.queue_name, status="accepted", created_at=timezone.now(),
    )  # fmt: skip
    page = root.get("/admin/gradinglab/submission/").content.decode()
    assert re.findall(r'<td class="field-backend">([^<]*)</td>', page) == ["Triton"]


def test_the_worker_list_names_each_kind(root) -> None:
    """The list showed the stored kind ("cpu", "h100"), as the status pages did."""
    WorkerNode.objects.create(name="gpu-1", kind="h100", token_hash="g" * 64)
    WorkerNode.objects.create(name="cpu-1", kind="cpu", token_hash="c" * 64)
    root.cookies["django_language"] = "en"
    cells = re.findall(
        r'<td class="field-kind_shown">([^<]*)</td>', root.get(WORKERS).content.decode()
    )
    assert sorted(cells) == ["CPU", "GPU H100"], cells
