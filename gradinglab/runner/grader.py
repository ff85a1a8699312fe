"""grade(): the trusted side of one grading job (inputs, reference, sandbox, verdict, document)."""

from __future__ import annotations

import hashlib
import os
import secrets
import signal
import time
import traceback
from collections.abc import Callable
from typing import Any

import torch

from . import canary, cuda_build, gpu_timing, measure, pool, scoring, slots, timing_check
from .compare import check_tensor_type, compare, inputs_unchanged
from .messages import Msg, from_wire
from .problems import Problem, ProblemInvalid, load_problem
from .protocol import MAX_RESULT_BYTES, Conversation, Unreadable, read_returned
from .result import finish, new_document
from .sandbox import Limits, Outcome, Sandbox, SandboxStartError, gpu_memory_mb, tensor_bytes
from .source import MAX_SOURCE_BYTES, SourceProblem, source_problem

PUBLIC_SEED = 0
BENCH_BYTES_BUDGET = 2 * 1024**3  # bytes of benchmark input sets shipped per job (GPU path)
DTYPES = {
    "float32": torch.float32,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float64": torch.float64,
    "int32": torch.int32,
    "int64": torch.int64,
    "uint8": torch.uint8,
}


def grade(
    *,
    slug: str,
    source: str,
    backend: str,
    seed: int | None = None,
    device: str | None = None,
    on_phase: Callable[[str], None] | None = None,
    public_only: bool = False,
    cpu_timing: bool = False,
) -> dict[str, Any]:
    """Grade one submission. Raises ProblemNotFound / ValueError for caller mistakes only.

    cpu_timing: run the timing protocol on the CPU path too, with the parent's clock as the
    stand-in for the device clock (tests and exploit suites; it grades nothing)."""
    problem = load_problem(slug)
    if backend not in problem.backends:
        raise ValueError(f"problem {slug!r} offers backends {problem.backends}, not {backend!r}")
    dev = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
    doc = new_document(slug=slug, backend=backend, path="gpu" if dev.type == "cuda" else "cpu")
    started = time.monotonic()
    try:
        _grade(doc, problem, source, backend, seed, dev, on_phase, public_only, cpu_timing)
    except SandboxStartError as exc:
        finish(doc, status="infrastructure_error", message=Msg("sandbox_start", error=exc))
    except Exception as exc:
        doc["log"] = traceback.format_exc()[-4000:]
        finish(doc, status="infrastructure_error", message=Msg("internal_error", error=repr(exc)))
    scoring.apply(doc, problem)
    doc["elapsed_s"] = round(time.monotonic() - started, 3)
    return doc


def gpu_readiness(gpu_index: int) -> canary.Readiness:
    """The canary a GPU pool runs before its first job, graded through this module."""
    return canary.run(gpu_index, grade)


_REFUSALS = {
    SourceProblem.NOT_TEXT: Msg("refused_not_text"),
    SourceProblem.TOO_LARGE: Msg("refused_too_large", kib=MAX_SOURCE_BYTES // 1024),
    SourceProblem.NUL: Msg("refused_nul"),
    SourceProblem.EMPTY: Msg("refused_empty"),
}


def _grade(
    doc: dict[str, Any],
    problem: Problem,
    source: str,
    backend: str,
    seed: int | None,
    dev: torch.device,
    on_phase: Any,
    public_only: bool,
    cpu_timing: bool = False,
) -> None:
    if problem_found := source_problem(source):
        finish(doc, status="rejected", message=_REFUSALS[problem_found])
        return
    seed = PUBLIC_SEED if public_only else (seed if seed is not None else secrets.randbits(63))
    gpu_index = (dev.index or 0) if dev.type == "cuda" else None
    warm = pool.get_pool(
        gpu_index, light=backend == "cuda" and dev.type != "cuda", canary=gpu_readiness
    )
    # A worker whose canary failed refuses here, before building the job's inputs on the device
    # (up to BENCH_BYTES_BUDGET of benchmark sets, seconds per job on the first H200 runs).
    warm.check_ready()
    if dev.type == "cuda":
        doc["device"] = timing_check.device_info(dev)
    limits = Limits().merged(problem.limits)
    ref = problem.reference_module()
    cases, job_cases = build_cases(problem, ref, backend, seed, dev)
    timed = (dev.type == "cuda" or cpu_timing) and not public_only and bool(problem.benchmarks)
    benches = build_benches(problem, ref, backend, seed, dev) if timed else []
    if benches:
        mib = sum(b["mib"] for b in benches)
        limits = limits.merged({"file_size_mb": max(limits.file_size_mb, mib * 3 + 64)})
    if dev.type == "cuda":  # the cgroup cap fits this job's tensors (transpose ships GiBs)
        io_bytes = tensor_bytes(job_cases) + sum(tensor_bytes(b["sets"]) for b in benches)
        limits = limits.merged({"memory_mb": gpu_memory_mb(limits.memory_mb, io_bytes)})
    sandbox = warm.acquire(limits)
    conv: Conversation | None = None
    try:
        conv = _converse(sandbox, problem, source, backend, dev, limits, job_cases, benches)
        conv.on_phase = on_phase
        try:
            _run(doc, conv, problem, cases, benches, sandbox, limits, dev)
        except _DATA_ERRORS as exc:
            if not conv.sealed:
                raise
            _checking_failed(doc, exc)
    finally:
        if conv is not None:
            conv.close()
        sandbox.cleanup()
        warm.release()


# Errors of reading what the sandbox wrote. After the seal what it wrote is the student's: such
# an error in a check that missed a shape is the student's runtime_error, flagged for a TA, never
# infrastructure_error (which is re-dispatched and counts no attempt: a kernel could raise one
# whenever its time came out badly). A device or host failure (RuntimeError, OSError, the
# worker's time limit) stays infrastructure_error.
_DATA_ERRORS = (
    TypeError,
    ValueError,
    KeyError,
    IndexError,
    AttributeError,
    RecursionError,
    OverflowError,
    ZeroDivisionError,
)


def _checking_failed(doc: dict[str, Any], exc: Exception) -> None:
    doc["log"] = traceback.format_exc()[-4000:]
    doc["flags"].append("the grader failed while checking this submission's output: review")
    finish(doc, status="runtime_error", message=Msg("checking_failed", error=repr(exc)[:300]))


def _converse(
    sandbox: Sandbox,
    problem: Problem,
    source: str,
    backend: str,
    dev: torch.device,
    limits: Limits,
    job_cases: list[dict[str, Any]],
    benches: list[dict[str, Any]],
) -> Conversation:
    name = "submission.py" if backend == "triton" else "submission.cu"
    (sandbox.job_dir / name).write_text(source, encoding="utf-8")
    torch.save({"cases": job_cases}, sandbox.job_dir / "tests.pt")
    for index, bench in enumerate(benches):
        torch.save({"sets": bench["sets"]}, sandbox.job_dir / f"bench-{index}.pt")
    slot_names = (
        [f"slots-{i}.bin" for i in range(len(benches))] if measure.parent_reads(dev) else []
    )
    job = {
        "backend": backend,
        "entry": problem.entry_name,
        "device": dev.type,
        "limits": limits.__dict__,
        "arg_types": job_cases[0]["arg_types"] if job_cases else [],
        "cuda_arch": timing_check.cuda_arch(dev) or cuda_build.compile_only_arch(),
        "benchmarks": len(benches),
        "flush_bytes": int(timing_check.TIMING_CFG["flush_bytes"]),
        "slot_files": slot_names,
    }
    conv = Conversation(sandbox, job, limits.wall_seconds, n_cases=len(job_cases))
    conv.mask_keys = [bench["mask_key"] for bench in benches]
    owner = sandbox.uid if os.geteuid() == 0 else None  # as root the sandbox has its own uid
    try:
        for name, bench in zip(slot_names, benches, strict=False):  # none on the GPU path
            layout = slots.layout_of(bench["sets"][0], len(bench["sets"]) - 1)
            conv.slot_files.append(slots.SlotFile(sandbox.job_dir / name, layout, owner))
    except BaseException:  # the caller never holds conv: let go of the files made so far
        conv.close()
        raise
    return conv


def _run(
    doc: dict[str, Any],
    conv: Conversation,
    problem: Problem,
    cases: list[dict[str, Any]],
    benches: list[dict[str, Any]],
    sandbox: Sandbox,
    limits: Limits,
    dev: torch.device,
) -> None:
    """Follow the protocol: prepare, calibrate, seal and test, time; then the verdict."""
    conv.start()
    timing: dict[str, Any] | None = None
    passed = False
    if conv.expect("prepared"):
        calibration = measure.calibrate(conv, benches) if benches else []
        if conv.command({"cmd": "grade"}) and conv.expect("sealed"):
            tested = conv.expect("tested")
            if tested is not None:
                passed = check_outputs(doc, cases, sandbox, tested)
                conv.complete = not passed  # a failed test ends the job: nothing more to read
            if passed and benches:
                timing = measure.time_benchmarks(conv, problem, benches, calibration, doc, dev)
            conv.complete = conv.complete or (passed and not conv.stopped)
    outcome = conv.finish()
    _verdict(doc, problem, cases, conv, outcome, limits, dev, passed, timing)


# How a job ends when a watcher thread stops it at a cap; see _verdict.
_WATCHED_CAPS = ("output_limit", "disk_limit")
# Every way a job ends at a cap, bar memory (Outcome.oom_killed); see classify.
_CAPS = ("timeout", "cpu_limit", *_WATCHED_CAPS)


def _verdict(
    doc: dict[str, Any],
    problem: Problem,
    cases: list[dict[str, Any]],
    conv: Conversation,
    outcome: Outcome,
    limits: Limits,
    dev: torch.device,
    passed: bool,
    timing: dict[str, Any] | None,
) -> None:
    doc["log"] = outcome.log
    if dev.type == "cuda" and not conv.sandbox.memory_capped:
        doc["log"] = (
            "[runner] no writable cgroup v2 here: this GPU job ran without a memory cap\n"
            + doc["log"]
        )
    result = outcome.result or {}
    if isinstance(result.get("compile"), dict):
        comp = result["compile"]
        doc["compile"] = {
            "ok": bool(comp.get("ok")),
            "log": str(comp.get("log", "")),
            "ptxas": cuda_build.parse_ptxas(str(comp.get("log", ""))),
        }
    # check_outputs already decided, unless the job went past a cap that a watcher thread keeps
    # (printed bytes, the job dir's size): the watcher may stop it before its outputs are read or
    # after, and the verdict must not depend on which.
    if doc["status"] == "wrong_answer" and doc["message"] and outcome.ended not in _WATCHED_CAPS:
        finish(doc, status="wrong_answer", message=doc["message"])  # caps the log too
        return
    verdict = classify(outcome, limits, conv)
    if not verdict and doc["backend"] == "cuda" and dev.type != "cuda":
        # Whatever the sandbox claims, CUDA code never ran here: compiled is all it can be.
        verdict = ("needs_gpu", Msg("cuda_needs_gpu"))
    if verdict:
        _mark_failed_case(doc, cases, result)
        finish(doc, status=verdict[0], message=verdict[1])
        return
    if timing is not None:
        doc["timing"] = timing.get("document")
        doc["flags"].extend(timing.get("flags", []))
        if timing.get("verdict"):
            finish(doc, status=timing["verdict"][0], message=timing["verdict"][1])
            return
    said = "all_passed" if dev.type == "cuda" else "all_passed_cpu"
    finish(doc, status="accepted", message=Msg(said, n=len(cases)))


def case_seed(seed: int, index: int, dtype: str) -> int:
    """Per-case seed derived from the secret job seed (one-way, so cases cannot be related)."""
    digest = hashlib.sha256(f"{seed}:{index}:{dtype}".encode()).digest()
    return int.from_bytes(digest[:8], "little") & ((1 << 63) - 1)


def _dtypes(problem: Problem, backend: str) -> list[str]:
    return [problem.cuda_dtype()] if backend == "cuda" else list(problem.dtypes)


def _call_args(ref: Any, backend: str) -> Any:
    return getattr(ref, "call_args_cuda", ref.call_args) if backend == "cuda" else ref.call_args


def make_case(
    problem: Problem,
    ref: Any,
    backend: str,
    shape: dict[str, int],
    dtype: str,
    seed: int,
    dev: torch.device,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One test case: (trusted record with expected outputs, the job-side record without them)."""
    tdtype = DTYPES[dtype]
    gen = torch.Generator(device="cpu").manual_seed(seed)
    inputs = ref.make_inputs(shape, tdtype, gen, "cpu")
    outputs = ref.make_outputs(shape, tdtype, "cpu")
    private = {k: v.to(dev).clone() for k, v in inputs.items()}  # the reference's own copy
    expected = {k: v.detach() for k, v in ref.reference(private, shape).items()}
    args, types = encode_args(_call_args(ref, backend)(inputs, outputs, shape), inputs, outputs)
    trusted = {
        "shape": dict(shape),
        "dtype": dtype,
        "inputs": inputs,
        "expected": expected,
        "tol": problem.tolerance(dtype),
    }
    job = {"inputs": inputs, "outputs": outputs, "args": args, "arg_types": types}
    return trusted, job


def build_cases(
    problem: Problem, ref: Any, backend: str, seed: int, dev: torch.device
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    trusted, job = [], []
    for index, test in enumerate(problem.tests):
        for dtype in _dtypes(problem, backend):
            t, j = make_case(
                problem, ref, backend, test.shape, dtype, case_seed(seed, index, dtype), dev
            )
            t["name"] = test.name if len(_dtypes(problem, backend)) == 1 else f"{test.name}/{dtype}"
            trusted.append(t)
            job.append(j)
    return trusted, job


def build_benches(
    problem: Problem, ref: Any, backend: str, seed: int, dev: torch.device
) -> list[dict[str, Any]]:
    """Every benchmark shape x dtype the backend is graded in: K timed sets + 1 warm-up set each."""
    pairs = [(b, d) for b in problem.benchmarks for d in _dtypes(problem, backend)]
    budget = BENCH_BYTES_BUDGET // max(1, len(pairs))  # bytes of sets per benchmark
    benches = []
    for index, (bench, dtype) in enumerate(pairs):
        base = 10_000 * (index + 1)

        def make(k: int, shape: dict[str, int] = bench.shape, dt: str = dtype, at: int = base):
            return make_case(problem, ref, backend, shape, dt, case_seed(seed, at + k, dt), dev)

        first_t, first_j = make(0)
        set_bytes = tensor_bytes([first_j])  # inputs and outputs: both are shipped per set
        n_sets = max(2, min(8, budget // max(1, set_bytes)))
        trusted, sets = [first_t], [first_j]
        for k in range(1, n_sets + 1):  # the last one is the warm-up set (never timed)
            t, j = make(k)
            trusted.append(t)
            sets.append(j)
        key = secrets.randbits(63)
        benches.append(
            {
                "name": bench.name,  # with "dtype": one entry per benchmark shape x dtype
                "shape": bench.shape,
                "dtype": dtype,
                "trusted": trusted[:-1],
                "sets": [*(_masked_set(s, key, k, dev) for k, s in enumerate(sets[:-1])), sets[-1]],
                "mask_key": key,
                "mib": (set_bytes * (n_sets + 1)) // (1024 * 1024) + 1,
                "ref": ref,
                "backend": backend,
            }
        )
    return benches


def _masked_set(job_set: dict[str, Any], key: int, k: int, dev: torch.device) -> dict[str, Any]:
    """A timed set as it is shipped: its inputs masked (gpu_timing.masked) with the keystream
    of the sandbox's device; the trusted record keeps the plain inputs."""
    inputs = {
        name: gpu_timing.masked(t.to(dev), gpu_timing.mask_seed(key, k, name)).cpu()
        for name, t in job_set["inputs"].items()
    }
    return {**job_set, "inputs": inputs}


def encode_args(
    args: list[Any], inputs: dict[str, Any], outputs: dict[str, Any]
) -> tuple[list, list]:
    """Tensors become references to the job's input/output dicts: the sandbox rebuilds them."""
    by_id = {id(v): ("in", k) for k, v in inputs.items()}
    by_id.update({id(v): ("out", k) for k, v in outputs.items()})
    encoded, types = [], []
    for arg in args:
        if isinstance(arg, torch.Tensor):
            if id(arg) not in by_id:
                raise ProblemInvalid("call_args returned a tensor that is not an input or output")
            encoded.append(list(by_id[id(arg)]))
            types.append("ptr")
        elif isinstance(arg, bool) or not isinstance(arg, int | float):
            raise ProblemInvalid(f"call_args returned unsupported {type(arg).__name__}")
        elif isinstance(arg, int):
            encoded.append(["int", arg])
            types.append("int")
        else:
            encoded.append(["float", arg])
            types.append("float")
    return encoded, types


_SIGNAL_NAMES = {
    signal.SIGSEGV: "SIGSEGV (segmentation fault)",
    signal.SIGBUS: "SIGBUS (bus error)",
    signal.SIGFPE: "SIGFPE (arithmetic error)",
    signal.SIGABRT: "SIGABRT (aborted)",
    signal.SIGILL: "SIGILL (illegal instruction)",
    signal.SIGKILL: "SIGKILL",
}


def classify(
    outcome: Outcome, limits: Limits, conv: Conversation | None = None
) -> tuple[str, str] | None:
    """Verdict from how the sandbox ended, or None when outputs decide."""
    result = outcome.result or {}
    sealed = conv is None or conv.sealed
    if conv is not None and conv.violation:
        if not sealed:
            return "infrastructure_error", Msg("protocol_before_seal", detail=conv.violation)
        return "runtime_error", Msg("protocol_after_seal", detail=conv.violation)
    if not sealed and result.get("status") == "infrastructure_error":
        phase = result.get("phase") or "prepare"
        return "infrastructure_error", Msg(
            "harness_phase_failure", phase=phase, detail=result.get("message", "")
        )
    if not sealed and (outcome.ended in _CAPS or outcome.oom_killed):
        # No student code exists before the seal: a cap reached while the harness loads data or
        # calibrates is the host's or the package's (a loaded host, a too-tight limit).
        return "infrastructure_error", Msg("cap_before_seal")
    if outcome.ended == "timeout":
        return "timeout", Msg("timeout_wall", seconds=f"{limits.wall_seconds:g}")
    if outcome.ended == "cpu_limit":
        return "timeout", Msg("timeout_cpu", seconds=f"{limits.cpu_seconds:g}")
    if outcome.ended == "output_limit":
        return "runtime_error", Msg("output_limit", kib=limits.output_bytes // 1024)
    if outcome.ended == "disk_limit":
        return "runtime_error", Msg("disk_limit", mib=limits.job_dir_mb)
    if outcome.oom_killed:
        return "memory_limit", Msg("memory_limit", mib=limits.memory_mb)
    if not sealed:  # the harness died before any student code existed: the grader's failure
        return "infrastructure_error", Msg(
            "harness_died", code=outcome.exit_code, signal=outcome.signal
        )
    if outcome.ended == "signalled":
        name = _SIGNAL_NAMES.get(outcome.signal or 0, f"signal {outcome.signal}")
        return "runtime_error", Msg("crashed", signal=name)
    if outcome.ended != "done":
        return "runtime_error", Msg("exited_early", code=outcome.exit_code)
    status = result.get("status")
    message = _said(result)
    if not result:  # the parent read everything it asked for
        return None
    if status == "memory_limit":
        message = Msg("memory_limit_because", mib=limits.memory_mb) + message
    return status, message


def _said(result: dict[str, Any]) -> str:
    """The harness's message, with its translatable parts when they are well formed."""
    return from_wire(str(result.get("message", "")), result.get("message_parts"))


def _mark_failed_case(
    doc: dict[str, Any], cases: list[dict[str, Any]], result: dict[str, Any]
) -> None:
    index = result.get("failed_case")
    if isinstance(index, int) and 0 <= index < len(cases):
        doc["tests"].append(_test_entry(cases[index], False, None, _said(result)))


def _test_entry(case: dict[str, Any], passed: bool, cmp: Any, message: str) -> dict[str, Any]:
    return {
        "name": case["name"],
        "shape": case["shape"],
        "dtype": case["dtype"],
        "passed": passed,
        "max_abs_error": cmp.max_abs_error if cmp else None,
        "max_rel_error": cmp.max_rel_error if cmp else None,
        "mismatch_count": cmp.mismatch_count if cmp else None,
        "numel": cmp.numel if cmp else None,
        "first_mismatch_index": cmp.first_mismatch_index if cmp else None,
        "message": message,
    }


def check_outputs(
    doc: dict[str, Any], cases: list[dict[str, Any]], sandbox: Sandbox, tested: dict[str, Any]
) -> bool:
    """Compare every case on the trusted side; on a failure the document is finished here."""
    try:
        returned = read_returned(sandbox.job_dir / "result.pt", MAX_RESULT_BYTES)["cases"]
        if not isinstance(returned, list):
            raise Unreadable("result.pt holds no list of cases")
    except (Unreadable, KeyError, TypeError, IndexError) as exc:
        doc["tests"] = []
        finish(
            doc,
            status="wrong_answer",
            message=Msg("outputs_unreadable", detail=str(exc)[:300]),
        )
        return False
    returned_value = set(tested.get("returned_value") or [])
    first_fail = None
    for index, case in enumerate(cases):
        got = returned[index] if index < len(returned) else {}
        entry, why = _check_case(case, got, index in returned_value)
        doc["tests"].append(entry)
        if not entry["passed"] and first_fail is None:
            first_fail = Msg("test_failed", name=case["name"]) + why
    if first_fail:
        finish(doc, status="wrong_answer", message=first_fail)
        return False
    return True


def _check_case(
    case: dict[str, Any], got: dict[str, Any], returned_value: bool
) -> tuple[dict, str]:
    outputs = got.get("outputs") if isinstance(got, dict) else None
    if not isinstance(outputs, dict):
        return _test_entry(case, False, None, Msg("no_outputs")), Msg("no_outputs")
    moved = got.get("repointed") if isinstance(got.get("repointed"), list) else []
    first_cmp = None
    for key, expected in case["expected"].items():
        tensor = outputs.get(key)
        # Snapshots are copies of the harness's own buffers, always brought back to the CPU.
        bad = check_tensor_type(key, tensor, expected, torch.device("cpu"))
        if bad:
            return _test_entry(case, False, None, bad.message), bad.message
        atol, rtol = case["tol"]
        cmp = compare(key, tensor, expected, atol, rtol)
        first_cmp = first_cmp or cmp
        if not cmp.passed:
            msg = cmp.message
            if returned_value:
                msg += Msg("hint_returned_value")
            if key in moved:
                msg += Msg("hint_repointed", output=repr(key))
            return _test_entry(case, False, cmp, msg), msg
    mutated = inputs_unchanged(case["inputs"], got.get("inputs") or {})
    if mutated:
        return _test_entry(case, False, first_cmp, mutated), mutated
    return _test_entry(case, True, first_cmp, ""), ""
