"""Lab pages: index, problem page (statement, contract, tests, starter, CPU-path note), submission
status fragment, leaderboard (opt-in pseudonyms, flagged hidden), worker panel, sync idempotence."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.conf import settings
from django.utils import timezone
from django.utils.timezone import localtime

from accounts.models import Profile
from gradinglab.models import Problem, Submission
from gradinglab.services.problem_sync import problems_sync
from gradinglab.tests import labkit

pytestmark = pytest.mark.django_db


def test_sync_problems_is_idempotent() -> None:
    first = problems_sync()
    assert first["created"] >= 1 and not first["errors"]
    second = problems_sync()
    assert second["created"] == second["updated"] == 0
    assert second["unchanged"] == first["created"]
    problem = Problem.objects.get(slug="vector-add")
    assert "<math" in problem.statement_zh_html and problem.sections == ["sec-5-13"]
    assert "<li>Triton" in problem.statement_zh_html  # the contract list renders as a list


def test_sync_redraws_statements_of_unchanged_packages() -> None:
    """A renderer fix reaches rows synced before it: the package is unchanged, its stored
    statement (here, as the old renderer left layernorm's wrapped formula) is drawn again."""
    problems_sync()
    Problem.objects.filter(slug="layernorm").update(statement_en_html="<p>$$\\mu_i = …$$</p>")
    again = problems_sync()
    assert again["rerendered"] == 1 and again["updated"] == 0
    assert "$$" not in Problem.objects.get(slug="layernorm").statement_en_html
    assert problems_sync()["rerendered"] == 0


def test_index_lists_assignment_with_due_late_policy_backends_and_hardware(client_a) -> None:
    due = timezone.now() + timedelta(days=3)
    labkit.make_assignment(
        due_at=due,
        late_until=due + timedelta(days=2),
        gpu_kind="h100",
        late_penalty_per_day=Decimal("12.50"),
    )
    labkit.make_assignment(published=False, title="draft")
    html = client_a.get("/lab/").content.decode()
    assert "向量加法" in html and "draft" not in html
    assert "按天扣分" in html and "Triton, CUDA" in html and "GPU H100" in html
    assert "（每天 12.5%，最多 100%）" in html  # percentages as the gradebook writes them
    assert "评测机状态" in html


def test_problem_page_shows_statement_contract_tests_starter_and_cpu_note(client_a) -> None:
    labkit.make_assignment()
    response = client_a.get("/lab/problems/vector-add/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<math" in html  # the statement's math rendered like the lectures
    assert 'href="/lectures/5/#sec-5-13"' in html
    assert "vector_add(x, y, out) -&gt; None" in html
    assert "n=4096" in html and "<code>float32</code>: 0.00001 / 0.00001" in html
    assert "float16" not in html.split("容限")[1][:300]  # only the problem's own dtypes listed
    assert "§5.13" in html and "入口约定" in html and html.count("入口约定") == 1
    assert "@triton.jit" in html  # starter loaded into the editor
    assert "vendor/codemirror/codemirror.js" in html and "cdn" not in html.lower()
    assert "CPU 路径能告诉你的" in html
    starter = client_a.get("/lab/problems/vector-add/starter/cuda/")
    assert starter.status_code == 200 and b'extern "C"' in starter.content
    assert "attachment" in starter["Content-Disposition"]


def test_vendor_assets_are_served_by_us(client) -> None:
    from django.contrib.staticfiles import finders

    for path in (
        "vendor/codemirror/codemirror.js",
        "vendor/codemirror/LICENSE",
        "vendor/chartjs/chart.umd.js",
        "vendor/chartjs/LICENSE.md",
        "gradinglab/lab.js",
    ):
        assert finders.find(path), path


def test_status_fragment_polls_while_pending_and_stops_when_done(
    client, client_a, worker_token, django_capture_on_commit_callbacks
) -> None:
    from gradinglab.tests.labkit import load_doc, submit_and_take

    labkit.make_assignment()
    labkit.purge()
    response, job = submit_and_take(client_a, django_capture_on_commit_callbacks)
    sub_id = response.json()["id"]
    pending = client_a.get(f"/lab/submissions/{sub_id}/status/").content.decode()
    assert 'hx-trigger="every 1s"' in pending and "队列位置 1" in pending
    labkit.post_result(client, worker_token, job["job_token"], load_doc("wrong_answer"))
    done = client_a.get(f"/lab/submissions/{sub_id}/status/").content.decode()
    assert "hx-trigger" not in done and "答案错误" in done and "✘" in done


def test_leaderboard_shows_opted_in_unflagged_best_times(
    client,
    client_a,
    client_b,
    student_a,
    student_b,
    gpu_worker_token,
    django_capture_on_commit_callbacks,
) -> None:
    assignment = labkit.make_assignment(gpu_kind="h100", points=Decimal("100"))
    Profile.objects.update_or_create(
        user=student_a,
        defaults={"student_id": "A1", "display_name": "A", "pseudonym": "warp-speed"},
    )
    Profile.objects.update_or_create(
        user=student_b, defaults={"student_id": "B1", "display_name": "B", "pseudonym": ""}
    )
    labkit.purge("grade-gpu-h100")
    times = [(client_a, 0.40), (client_a, 0.30), (client_b, 0.10)]
    for student_client, median in times:
        with django_capture_on_commit_callbacks(execute=True):
            labkit.submit(student_client, source=labkit.correct_source() + f"# {median}\n")
        [job] = labkit.take_jobs("grade-gpu-h100")
        labkit.post_result(
            client, gpu_worker_token, job["job_token"], labkit.gpu_doc(median_ms=median)
        )
    html = client_a.get("/lab/problems/vector-add/leaderboard/?kind=h100").content.decode()
    assert "warp-speed" in html and "0.3000" in html and "0.4000" not in html
    assert "0.1000" not in html  # student_b did not opt in
    Submission.objects.filter(median_ms=0.30).update(flagged=True)
    html = client_a.get("/lab/problems/vector-add/leaderboard/?kind=h100").content.decode()
    assert "0.3000" not in html and "0.4000" in html
    page = client_a.get("/lab/problems/vector-add/").content.decode()
    assert "history-chart" in page and "chart.umd.js" in page
    assert assignment.grade_item_key


def test_worker_panel_shows_online_and_offline(client_a, worker_token) -> None:
    from gradinglab.models import WorkerNode

    WorkerNode.objects.filter(name="cpu-test").update(last_heartbeat_at=timezone.now())
    WorkerNode.objects.create(name="old-gpu", kind="h100", token_hash="x" * 64)
    html = client_a.get("/lab/workers/", HTTP_HX_REQUEST="true").content.decode()
    assert "<code>cpu-test</code> · CPU · 在线" in html
    assert "<code>old-gpu</code> · GPU H100 · 离线" in html
    assert "<html" not in html  # the polled fragment
    page = client_a.get("/lab/workers/").content.decode()
    assert "<html" in page and "site.css" in page and "old-gpu" in page  # opened directly
    assert page.count("<h1>") == 1 and "<h2>" not in page  # its title once, as a page's
    assert html.count("<h2>") == 1  # on the lab index, the panel is a section


def test_every_page_names_a_workers_kind_the_same_way(
    client_a, client_ta, client_instructor, worker_token
) -> None:
    """The status page and the staff desk wrote the stored kind ("cpu", "h100"), the lab's panel
    "GPU h100"; the status page also wrote its heartbeat in Django's default format."""
    from gradinglab.models import WorkerNode

    beat = timezone.now()
    WorkerNode.objects.filter(name="cpu-test").update(last_heartbeat_at=beat)
    WorkerNode.objects.create(name="old-gpu", kind="h100", token_hash="x" * 64)
    panel = client_a.get("/lab/workers/").content.decode()
    status = client_instructor.get("/status/").content.decode()
    desk = client_ta.get("/staff/").content.decode()
    for page in (panel, status, desk):
        assert "GPU H100" in page and ">h100<" not in page and "(h100)" not in page
    # A card per worker on a phone (stack-on-phone): each cell says its column's name.
    assert '<td data-label="类型">CPU</td>' in status and ">cpu</td>" not in status
    assert f'<time class="when" datetime="{localtime(beat).isoformat()}' in status
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "old-gpu</code> · GPU H100 · Offline" in client_a.get("/lab/workers/").content.decode()


def test_lab_index_in_english(client_a) -> None:
    labkit.make_assignment()
    client_a.post("/i18n/setlang/", {"language": "en", "next": "/lab/"})
    html = client_a.get("/lab/").content.decode()
    assert "Grading hardware" in html and "Best score" in html and "CPU (correctness only)" in html


def test_submission_page_shows_compile_log_ptxas_and_timing(
    client, client_a, gpu_worker_token, django_capture_on_commit_callbacks
) -> None:
    """GPU-path fields (ptxas report, timing, roofline): mocked GPU document, see labkit.gpu_doc."""

    doc = labkit.gpu_doc(roofline=0.7)
    doc["compile"] = {
        "ok": True,
        "log": "ptxas info    : Used 16 registers",
        "ptxas": {"arch": "sm_90", "kernels": [{
            "name": "vector_add_kernel", "registers": 16, "shared_mem_bytes": 0,
            "spill_stores_bytes": 0, "spill_loads_bytes": 0, "stack_bytes": 0,
        }]},
    }  # fmt: skip
    pk = labkit.graded_on_h100(
        client_a, client, gpu_worker_token, django_capture_on_commit_callbacks, doc
    )
    html = client_a.get(f"/lab/submissions/{pk}/").content.decode()
    assert "ptxas info    : Used 16 registers" in html and "vector_add_kernel" in html
    assert "70.0%" in html and "NVIDIA H100" in html and "100.00" in html


def test_the_testing_phase_reads_testing_not_the_column_test() -> None:
    """测试 alone is the public tests' column ("Test"); the grading phase had no English entry
    of its own and showed 测试 on English submission pages."""
    from django.utils import translation

    from gradinglab.templatetags.lab_tags import phase_label

    with translation.override("en"):
        assert [phase_label(p) for p in ("compiling", "testing", "timing")] == [
            "Compiling",
            "Testing",
            "Timing",
        ]
    with translation.override("zh-hans"):
        assert phase_label("testing") == "测试"


def test_a_queued_gpu_submission_names_its_hardware(client_a, django_capture_on_commit_callbacks):
    """The queued line wrote the queue's kind ("(GPU h100)", ASCII brackets in Chinese too)."""
    labkit.make_assignment(gpu_kind="h100")
    labkit.purge("grade-gpu-h100")
    with django_capture_on_commit_callbacks(execute=True):
        sub = labkit.submit(client_a).json()["id"]
    page = client_a.get(f"/lab/submissions/{sub}/").content.decode()
    assert "（GPU H100）" in page and "h100" not in page.split('data-phase="queued"')[1][:200]
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client_a.get(f"/lab/submissions/{sub}/").content.decode()
    assert " (GPU H100)" in page
    labkit.purge("grade-gpu-h100")


def test_the_admin_worker_form_names_each_kind(client, django_user_model) -> None:
    root = django_user_model.objects.create_superuser("root", "r@example.edu", "pw-12345678")
    client.force_login(root)
    page = client.get("/admin/gradinglab/workernode/add/").content.decode()
    assert '<option value="h100">GPU H100</option>' in page
    assert '<option value="cpu">CPU</option>' in page


def test_the_lab_list_writes_the_best_score_as_the_gradebook_does(client_a, student_a):
    """It read "10 / 10.00" where 我的成绩 and the regrade page read "10 / 10"."""
    from gradinglab.tests.test_override_scope import _graded

    _graded(labkit.make_assignment(), student_a, ("10.00", "5.00"))
    page = client_a.get("/lab/").content.decode()
    best = page.split('data-label="最好成绩">')[1].split("</td>")[0]
    assert best == "10 / 10", best


def test_the_status_page_names_each_queue_by_its_work(client_instructor) -> None:
    """The queue column showed only the broker's names (default, grade-cpu, grade-gpu-h100)."""
    page = client_instructor.get("/status/").content.decode()
    assert '后台任务 <code translate="no">default</code>' in page
    assert '评测：CPU <code translate="no">grade-cpu</code>' in page
    assert '评测：GPU H100 <code translate="no">grade-gpu-h100</code>' in page
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client_instructor.get("/status/").content.decode()
    assert 'Grading: GPU H100 <code translate="no">grade-gpu-h100</code>' in page
