"""Issue 11 must-hold 3: the web side re-checks every posted document. Through the HTTP API with
real worker credentials, real PostgreSQL and the real broker: a forged `accepted` document with a
sub-floor time, or a document from a worker of another kind, is refused with 4xx and logged, and
the gradebook and the leaderboard do not change.

This machine has no GPU: the GPU documents are a real CPU-path document with a made-up timing
(labkit.gpu_doc); what is under test is the web side, which never runs a kernel."""

from __future__ import annotations

from decimal import Decimal

import pytest

from accounts.models import Profile
from gradebook.models import Grade, GradeEvent
from gradinglab.models import Assignment, Problem, Submission, SubmissionResult
from gradinglab.selectors import leaderboard
from gradinglab.services.workers import worker_token_create
from gradinglab.tests.labkit import (
    SOLUTIONS,
    VECTOR_ADD_BYTES,
    gpu_doc,
    load_doc,
    make_assignment,
    post_result,
    purge,
    submit,
    take_jobs,
    worker_headers,
)

pytestmark = pytest.mark.django_db

H100_SXM_FLOOR_MS = VECTOR_ADD_BYTES / 3350e9 * 1e3  # 0.0601 ms for the `large` benchmark


@pytest.fixture
def gpu_job(client_a, student_a, django_capture_on_commit_callbacks):
    """A real submission to an h100-graded assignment, and its job as the h100 worker gets it."""
    make_assignment(gpu_kind="h100", points=Decimal("100"))
    Profile.objects.update_or_create(
        user=student_a, defaults={"student_id": "A1", "display_name": "A", "pseudonym": "fast"}
    )
    purge("grade-gpu-h100")
    with django_capture_on_commit_callbacks(execute=True):
        assert submit(client_a).status_code == 201
    [payload] = take_jobs("grade-gpu-h100")
    return payload


def _nothing_changed(job: dict) -> None:
    sub = Submission.objects.get(pk=job["submission_id"])
    assert sub.status == "queued" and sub.score is None
    assert not SubmissionResult.objects.exists()
    assert not Grade.objects.exists() and not GradeEvent.objects.exists()
    assert leaderboard(Problem.objects.get(slug="vector-add"), "h100") == []


def test_honest_gpu_result_is_stored_scored_and_on_the_board(
    client, gpu_job, gpu_worker_token
) -> None:
    response = post_result(client, gpu_worker_token, gpu_job["job_token"], gpu_doc(roofline=0.35))
    assert response.status_code == 201, response.content
    sub = Submission.objects.get(pk=gpu_job["submission_id"])
    assert sub.status == "accepted" and sub.score == Decimal("80.00") and not sub.flagged
    assert Grade.objects.get().points == Decimal("80.00")
    assert [row["pseudonym"] for row in leaderboard(sub.assignment.problem, "h100")] == ["fast"]


def test_forged_sub_floor_accepted_is_refused_and_logged(
    client, gpu_job, gpu_worker_token, caplog
) -> None:
    doc = gpu_doc(median_ms=H100_SXM_FLOOR_MS / 50)  # 50x faster than the HBM allows
    doc["timing"]["floor_ms"] = 0.0  # the forger's own floor is not believed
    with caplog.at_level("WARNING", logger="gradinglab.api"):
        response = post_result(client, gpu_worker_token, gpu_job["job_token"], doc)
    assert response.status_code == 400
    assert "below the physical floor" in response.json()["detail"]
    assert "worker API refused (400) from h100-test" in caplog.text
    _nothing_changed(gpu_job)


def test_floor_comes_from_the_credential_not_the_device_the_document_names(client, gpu_job) -> None:
    """A PCIe H100 (2000 GB/s) claiming to be an H200 (4800 GB/s): its floor is the PCIe one."""
    token = worker_token_create(name="h100-pcie", kind="h100", device="NVIDIA H100 PCIe")
    doc = gpu_doc(median_ms=VECTOR_ADD_BYTES / 3000e9 * 1e3)  # 3000 GB/s: fine on H200, not here
    doc["device"] = {**doc["device"], "name": "NVIDIA H200", "peak_gbps": 4800.0}
    response = post_result(client, token, gpu_job["job_token"], doc)
    assert response.status_code == 400 and "below the physical floor" in response.json()["detail"]
    _nothing_changed(gpu_job)


@pytest.mark.parametrize(
    ("kind", "device"), [("cpu", ""), ("h200", "NVIDIA H200")], ids=["cpu-token", "h200-token"]
)
def test_worker_of_another_kind_is_refused_403_and_logged(
    client, gpu_job, kind, device, caplog
) -> None:
    token = worker_token_create(name=f"other-{kind}", kind=kind, device=device)
    with caplog.at_level("WARNING", logger="gradinglab.api"):
        response = post_result(client, token, gpu_job["job_token"], gpu_doc(roofline=0.35))
        phase = client.post(
            "/api/v1/worker/phase",
            data={"job_token": gpu_job["job_token"], "phase": "timing"},
            content_type="application/json",
            **worker_headers(token),
        )
    assert (response.status_code, phase.status_code) == (403, 403)
    assert f"worker API refused (403) from other-{kind}" in caplog.text
    _nothing_changed(gpu_job)


def test_cpu_token_cannot_post_a_cpu_shaped_accepted_for_a_gpu_job(client, gpu_job) -> None:
    token = worker_token_create(name="cpu-other", kind="cpu")
    response = post_result(client, token, gpu_job["job_token"], load_doc("accepted"))
    assert response.status_code == 403
    _nothing_changed(gpu_job)


def test_score_and_roofline_are_recomputed_not_taken(client, gpu_job, gpu_worker_token) -> None:
    doc = gpu_doc(roofline=0.07)  # 10 % of the 0.7 target: 60 + 4 points
    doc["timing"]["roofline_fraction"] = 1.0
    doc["timing"]["gbps"] = 3350.0
    doc["score"] = {**doc["score"], "total": 100.0, "performance": 40.0}
    assert post_result(client, gpu_worker_token, gpu_job["job_token"], doc).status_code == 201
    sub = Submission.objects.get(pk=gpu_job["submission_id"])
    assert sub.score == Decimal("64.00")
    stored = sub.results.get().document["timing"]
    assert stored["roofline_fraction"] == pytest.approx(0.07)
    assert stored["gbps"] == pytest.approx(0.07 * 3350)
    assert stored["floor_ms"] == pytest.approx(H100_SXM_FLOOR_MS)


@pytest.mark.parametrize(
    "forge",
    [
        lambda d: d["tests"].pop(),  # fewer tests than the problem has
        lambda d: d["tests"][0].update(shape={"n": 2}),  # a test at another shape
        lambda d: d["tests"][0].update(passed=False),  # accepted with a failure
        lambda d: d.update(timing=None),  # accepted on the GPU path without timing
        lambda d: d["timing"]["benchmarks"][0].update(name="tiny-bench"),  # of no benchmark
        lambda d: d["timing"]["benchmarks"][0].update(shape={"n": 1024}),  # at a small shape
        lambda d: d["timing"]["benchmarks"][0].update(dtype="float16"),  # a dtype not graded
        lambda d: d["timing"]["benchmarks"].append(dict(d["timing"]["benchmarks"][0])),  # twice
        lambda d: d.update(path="cpu"),  # a GPU worker reporting a CPU-path run
        lambda d: d["device"].update(kind="cpu"),  # a GPU-path run on no CUDA device
        lambda d: d.update(gradable=False),  # a free retry for a run that ran
        lambda d: d.update(backend="cuda"),  # the job is a Triton submission's
    ],
    ids=[
        "missing-test",
        "test-shape",
        "failed-test",
        "no-timing",
        "unknown-benchmark",
        "benchmark-shape",
        "benchmark-dtype",
        "benchmark-twice",
        "cpu-path",
        "cpu-device",
        "not-gradable",
        "other-backend",
    ],
)
def test_inconsistent_accepted_documents_are_refused(
    client, gpu_job, gpu_worker_token, forge
) -> None:
    doc = gpu_doc(roofline=0.35)
    forge(doc)
    response = post_result(client, gpu_worker_token, gpu_job["job_token"], doc)
    assert response.status_code == 400, response.content
    _nothing_changed(gpu_job)


def test_flagged_document_flags_the_submission_and_hides_it(
    client, gpu_job, gpu_worker_token
) -> None:
    doc = gpu_doc(roofline=0.35)
    doc["flags"] = ["outputs changed between timed calls on identical inputs (sets [1]): review"]
    assert post_result(client, gpu_worker_token, gpu_job["job_token"], doc).status_code == 201
    sub = Submission.objects.get(pk=gpu_job["submission_id"])
    assert sub.flagged and "outputs changed" in sub.flag_reason
    assert leaderboard(sub.assignment.problem, "h100") == []


def test_speedup_over_ten_is_flagged_by_the_web_side(client, gpu_job, gpu_worker_token) -> None:
    doc = gpu_doc(roofline=0.35)
    doc["timing"]["benchmarks"][0]["reference_median_ms"] = 5.0  # 29x the kernel's median
    assert post_result(client, gpu_worker_token, gpu_job["job_token"], doc).status_code == 201
    sub = Submission.objects.get(pk=gpu_job["submission_id"])
    assert sub.flagged and "faster than the PyTorch reference" in sub.flag_reason


def test_a_document_of_another_problem_is_refused(
    client, client_a, assignment, worker_token, django_capture_on_commit_callbacks
) -> None:
    """An honest vector-add `accepted` posted with a matmul job's token: it passes every check of
    the vector-add package, so only its naming another problem keeps it from scoring matmul."""
    Assignment.objects.create(
        problem=Problem.objects.get(slug="matmul"), points=Decimal("10"), published=True
    )
    matmul = SOLUTIONS.parents[1] / "matmul" / "solutions" / "triton" / "correct.py"
    purge()
    with django_capture_on_commit_callbacks(execute=True):
        response = submit(client_a, slug="matmul", source=matmul.read_text(encoding="utf-8"))
    assert response.status_code == 201, response.content
    [job] = take_jobs()
    response = post_result(client, worker_token, job["job_token"], load_doc("accepted"))
    assert response.status_code == 400, response.content
    assert "another problem" in response.json()["detail"]
    sub = Submission.objects.get(pk=job["submission_id"])
    assert sub.status == "queued" and sub.score is None
    assert not SubmissionResult.objects.exists() and not Grade.objects.exists()


def test_cpu_worker_cannot_post_a_timed_document_for_a_cpu_job(
    client, client_a, assignment, worker_token, django_capture_on_commit_callbacks
) -> None:
    purge()
    with django_capture_on_commit_callbacks(execute=True):
        assert submit(client_a).status_code == 201
    [job] = take_jobs()
    response = post_result(client, worker_token, job["job_token"], gpu_doc(roofline=0.35))
    assert response.status_code == 400
    assert Submission.objects.get(pk=job["submission_id"]).status == "queued"


def _v2_doc(medians: dict[tuple[str, str], float]) -> dict:
    """A matmul GPU document: timing.benchmarks[] has one entry per shape x dtype (schema v2)."""
    doc = gpu_doc(roofline=0.35)
    doc["problem"] = "matmul"
    template = doc["timing"]["benchmarks"][0]
    entries = []
    for (name, dtype), median in medians.items():
        shape = {"square-4k": {"m": 4096, "n": 4096, "k": 4096}, "wide-8k": {"m": 8192, "n": 8192, "k": 1024}}[name]  # fmt: skip
        entries.append(
            {**template, "name": name, "shape": shape, "dtype": dtype, "median_ms": median}
        )
    doc["timing"] = {**doc["timing"], "benchmarks": entries}
    doc["timing"]["benchmark"], doc["timing"]["shape"] = "square-4k", entries[0]["shape"]
    return doc


def test_schema_v2_every_benchmark_and_dtype_checked_against_its_floor() -> None:
    from gradinglab.models import WorkerNode
    from gradinglab.result_check import ResultRefused, _check_timing
    from gradinglab.runner import load_problem

    matmul = load_problem("matmul")
    worker = WorkerNode(name="h100-test", kind="h100", device="NVIDIA H100 80GB HBM3")
    flops = {"square-4k": 2 * 4096**3, "wide-8k": 2 * 8192 * 8192 * 1024}
    honest = {
        (b, d): flops[b] / 400e12 * 1e3 for b in flops for d in ("float32", "float16")
    }  # 400 TFLOP/s: fine on H100 tensor cores for both dtypes
    doc = _v2_doc(honest)
    _check_timing(doc, matmul, worker, [])
    fractions = [e["roofline_fraction"] for e in doc["timing"]["benchmarks"]]
    assert all(f is not None for f in fractions)
    assert doc["timing"]["roofline_fraction"] == pytest.approx(sum(fractions) / len(fractions))
    assert doc["timing"]["median_ms"] == pytest.approx(sum(honest.values()))
    forged = dict(honest)
    forged[("wide-8k", "float16")] = flops["wide-8k"] / 5000e12 * 1e3  # 5 PFLOP/s: impossible
    with pytest.raises(ResultRefused, match="physical floor"):
        _check_timing(_v2_doc(forged), matmul, worker, [])
    missing = {k: v for k, v in honest.items() if k != ("wide-8k", "float16")}
    with pytest.raises(ResultRefused, match="every benchmark"):
        _check_timing(_v2_doc(missing), matmul, worker, [])


def test_top_level_figures_come_from_the_checked_entries(client, gpu_job, gpu_worker_token) -> None:
    """The leaderboard reads the top-level median: a forged one next to honest entries is
    replaced by the sum of the entries, never stored."""
    doc = gpu_doc(roofline=0.35)
    honest = doc["timing"]["benchmarks"][0]["median_ms"]
    doc["timing"].update(median_ms=0.0001, roofline_fraction=1.0, speedup_vs_reference=1.0)
    assert post_result(client, gpu_worker_token, gpu_job["job_token"], doc).status_code == 201
    sub = Submission.objects.get(pk=gpu_job["submission_id"])
    assert sub.median_ms == pytest.approx(honest) and sub.score == Decimal("80.00")
