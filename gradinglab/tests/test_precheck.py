"""Issue 11: the static pre-check before a job is queued. Rules with the line named to the student
(both languages), per-problem policy (refuse / flag / allow), KernelGuard, fail closed; through the
students' HTTP API: a refused source is a 400 and nothing is stored or queued."""

from __future__ import annotations

import textwrap

import pytest
from django.utils import translation

from gradinglab import precheck
from gradinglab.models import Submission
from gradinglab.runner import list_problems
from gradinglab.tests.labkit import correct_source, purge, submit_and_take, take_messages

REFUSE_ALL = dict.fromkeys(precheck.RULES, "refuse")
KERNEL = correct_source()


def _lines(verdict: precheck.Verdict, rule: str) -> list[int | None]:
    return [f.line for f in verdict.refused + verdict.flagged if f.rule == rule]


def _with(extra: str, where: str = "    n = out.numel()\n") -> str:
    """The correct vector-add solution with `extra` lines inserted in its launcher."""
    assert where in KERNEL
    body = textwrap.indent(textwrap.dedent(extra), "    ")
    return KERNEL.replace(where, body + where, 1)


def _line_of(source: str, needle: str) -> int:
    return next(i for i, line in enumerate(source.splitlines(), 1) if needle in line)


@pytest.mark.parametrize(
    ("rule", "snippet", "needle"),
    [
        ("timers", "torch.cuda.Event.elapsed_time = lambda s, e: 0.06\n", "elapsed_time"),
        ("timers", "import time\nt0 = time.perf_counter()\n", "perf_counter"),
        ("streams", "s = torch.cuda.Stream()\n", "Stream()"),
        ("cuda_graphs", "g = torch.cuda.CUDAGraph()\n", "CUDAGraph"),
        ("torch_compute", "out.copy_(x + y)\n", "copy_"),
        ("torch_compute", "out[:] = torch.add(x, y)\n", "torch.add"),
        ("torch_compute", "z = x @ y\n", "x @ y"),
        ("escapes", "import ctypes\n", "ctypes"),
        ("escapes", "import subprocess\n", "subprocess"),
        ("escapes", "from os import system\n", "from os"),
        ("escapes", "import threading\n", "threading"),
        ("escapes", "exec('pass')\n", "exec("),
        ("escapes", "data = open('/run/job/tests.pt', 'rb').read()\n", "open("),
        ("escapes", "torch.allclose = lambda *a, **k: True\n", "torch.allclose"),
    ],
)
def test_triton_rule_names_the_line(rule: str, snippet: str, needle: str) -> None:
    source = _with(snippet)
    verdict = precheck.check(source, "triton", REFUSE_ALL)
    assert _line_of(source, needle) in _lines(verdict, rule), verdict


def test_shipped_solutions_and_starters_pass_their_problems_policy() -> None:
    """Every correct solution and every starter of every package is queued, unflagged."""
    checked = 0
    for problem in list_problems():
        policy = precheck.policy_for(problem.slug)
        sols = problem.path / "solutions"
        files = [*sols.glob("triton/correct*.py"), *sols.glob("cuda/correct*.cu")]
        files += [problem.starter_path(b) for b in problem.backends]
        for path in files:
            backend = "triton" if path.suffix == ".py" else "cuda"
            verdict = precheck.check(path.read_text(encoding="utf-8"), backend, policy)
            assert not verdict.refused and not verdict.flagged, (path, verdict)
            checked += 1
    assert checked >= 27


def test_triton_without_a_launched_jit_kernel_is_refused() -> None:
    no_kernel = "import torch\n\ndef vector_add(x, y, out):\n    out.copy_(x + y)\n"
    assert _lines(precheck.check(no_kernel, "triton", REFUSE_ALL), "no_kernel") == [None]
    launch = "add_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK=BLOCK)"
    never_launched = KERNEL.replace(launch, "pass", 1)
    assert never_launched != KERNEL
    verdict = precheck.check(never_launched, "triton", dict.fromkeys(precheck.RULES, "allow"))
    assert [f.rule for f in verdict.refused] == ["no_kernel"]
    autotuned = KERNEL.replace("@triton.jit", "@triton.autotune(configs=[], key=[])\n@triton.jit")
    assert not precheck.check(autotuned, "triton", REFUSE_ALL).refused


CUDA = """#include <cuda_runtime.h>
__global__ void add(const float* x, const float* y, float* o, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = x[i] + y[i];
}
extern "C" void vector_add(const float* x, const float* y, float* o, int n) {
    // cudaStreamCreate in a comment is not a stream
    add<<<(n + 255) / 256, 256>>>(x, y, o, n);
}
"""


@pytest.mark.parametrize(
    ("rule", "line"),
    [
        ("streams", "cudaStream_t s; cudaStreamCreate(&s);"),
        ("cuda_graphs", "cudaGraph_t g; cudaGraphCreate(&g, 0);"),
        ("timers", "cudaEvent_t e; cudaEventCreate(&e);"),
        ("escapes", 'system("cat /etc/passwd");'),
        ("escapes", 'void* h = dlopen("libc.so.6", 1);'),
        ("l2_persistence", "cudaStreamAttrValue v; cudaStreamSetAttribute(0, x, &v);"),
        ("torch_compute", "cublasSgemm(h, 0, 0, n, n, n, 0, x, n, y, n, 0, o, n);"),
    ],
)
def test_cuda_rule_names_the_line(rule: str, line: str) -> None:
    source = CUDA.replace("    add<<<", f"    {line}\n    add<<<")
    verdict = precheck.check(source, "cuda", REFUSE_ALL)
    assert set(_lines(verdict, rule)) == {8}, verdict
    assert not precheck.check(CUDA, "cuda", REFUSE_ALL).refused


def test_cuda_static_constructor_and_missing_launch_are_refused() -> None:
    ctor = CUDA + "__attribute__((constructor)) static void early() {}\n"
    assert _lines(precheck.check(ctor, "cuda", REFUSE_ALL), "escapes") == [10]
    host_only = 'extern "C" void vector_add(const float* x, const float* y, float* o, int n) {}'
    assert [f.rule for f in precheck.check(host_only, "cuda", REFUSE_ALL).refused] == ["no_kernel"]


def test_policy_refuse_flag_allow() -> None:
    source = _with("s = torch.cuda.Stream()\n")
    assert precheck.check(source, "triton", REFUSE_ALL).refused
    flagged = precheck.check(source, "triton", {**REFUSE_ALL, "streams": "flag"})
    assert not flagged.refused and flagged.flagged and "precheck:" in flagged.flag_reason()
    allowed = precheck.check(source, "triton", {**REFUSE_ALL, "streams": "allow"})
    assert not allowed.refused and not allowed.flagged


def test_kernelguard_verdict_is_used() -> None:
    """KernelGuard (pinned) catches a timer patch spelled so that our rules do not see it."""
    source = _with("setattr(getattr(torch, 'cuda'), 'Event', type('E', (), {}))\n")
    kg = precheck.check_kernelguard(source)
    assert [f.rule for f in kg] == ["kernelguard"] and "TIMER_MONKEYPATCH" in kg[0].what


def test_message_is_translated_and_names_the_line() -> None:
    source = _with("import ctypes\n")
    line = _line_of(source, "import ctypes")
    verdict = precheck.check(source, "triton", REFUSE_ALL)
    with translation.override("en"):
        message = precheck.check(source, "triton", REFUSE_ALL).refusal_message()
    assert f"line {line}" in message and "ctypes" in message and "第" not in message
    assert f"第 {line} 行" in verdict.refusal_message()


# --- through the students' API ---------------------------------------------------------------


def _refused_and_nothing_kept(response) -> str:
    """A refused submission: a 400, no Submission row and no job on the grade queue (waited for
    1 s); returns the refusal's text."""
    assert response.status_code == 400, response.content
    assert not Submission.objects.exists()
    assert take_messages("grade-cpu", expect=1, timeout_s=1) == []
    return str(response.json()["detail"])


@pytest.mark.django_db
def test_refused_source_is_400_and_nothing_is_stored_or_queued(
    client_a, assignment, django_capture_on_commit_callbacks
) -> None:
    purge()
    source = _with("torch.cuda.Event.elapsed_time = lambda s, e: 0.06\n")
    response, _ = submit_and_take(client_a, django_capture_on_commit_callbacks, source=source)
    line = _line_of(source, "elapsed_time")
    assert f"第 {line} 行" in _refused_and_nothing_kept(response)


@pytest.mark.django_db
def test_checker_failure_refuses_fail_closed(
    client_a, assignment, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    import kernelguard

    def broken(*args, **kwargs):
        raise RuntimeError("rule table missing")

    monkeypatch.setattr(kernelguard, "analyze_code", broken)
    purge()
    response, _ = submit_and_take(client_a, django_capture_on_commit_callbacks)
    assert "提交前检查无法运行" in _refused_and_nothing_kept(response)


@pytest.mark.django_db
def test_source_nested_too_deeply_to_check_is_refused_not_a_crash(
    client_a, assignment, django_capture_on_commit_callbacks
) -> None:
    """A long chain of additions (160 KB, under the size limit) is valid Python that overflows the
    recursion limit while it is parsed: the submission is refused (400), not a 500."""
    purge()
    source = KERNEL + "\nx = 1" + " + 1" * 40_000 + "\n"
    response, _ = submit_and_take(client_a, django_capture_on_commit_callbacks, source=source)
    assert "提交前检查无法运行" in _refused_and_nothing_kept(response)


@pytest.mark.django_db
def test_flag_policy_queues_and_flags(
    client_a, assignment, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    monkeypatch.setattr(precheck, "policy_for", lambda slug: {**REFUSE_ALL, "streams": "flag"})
    purge()
    source = _with("s = torch.cuda.Stream()\n")
    response, job = submit_and_take(client_a, django_capture_on_commit_callbacks, source=source)
    assert response.status_code == 201, response.content
    sub = Submission.objects.get()
    assert sub.flagged and "torch.cuda.Stream" in sub.flag_reason
    assert job is not None and job["submission_id"] == sub.pk


def test_a_syntax_error_quotes_the_python_compilers_own_words() -> None:
    """The student reads whose words these are: the compiler's English, quoted, in either language
    (it read "第 1 行：语法错误：invalid syntax", Chinese and English run together)."""
    source = "x = = 1\n"
    refused = precheck.check(source, "triton", REFUSE_ALL).refused
    assert refused[0].describe() == "第 1 行：Python 编译器报告语法错误：“invalid syntax”"
    with translation.override("en"):
        refused = precheck.check(source, "triton", REFUSE_ALL).refused
        said = refused[0].describe()
    assert said == "line 1: the Python compiler reports a syntax error: “invalid syntax”"
