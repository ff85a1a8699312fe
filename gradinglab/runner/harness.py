"""The code that runs INSIDE the sandbox: waits for one job, runs the submission, reports back.

Everything here is in the submission's reach once it is imported, so nothing here decides a
verdict about correctness: it only returns outputs (compared on the trusted side) and says how the
run ended. Limits are applied before the submission is loaded.
"""

from __future__ import annotations

import ctypes
import importlib.util
import json
import os
import resource
import sys
import traceback
from typing import Any

JOB = "/run/job"  # sandbox.JOB_MOUNT
_status_fd = -1


def send(event: str, **fields: Any) -> None:
    data = (json.dumps({"event": event, **fields}, default=str) + "\n").encode()
    os.write(_status_fd, data)


def main(status_fd: int) -> None:
    global _status_fd
    _status_fd = status_fd
    os.set_inheritable(status_fd, False)  # nvcc and other children never see the channel
    gpu = os.environ.get("TRITON_INTERPRET") != "1"
    # Light harness: CUDA on a CPU host only compiles, so it skips the ~1.5 CPU-s torch import.
    if os.environ.get("PDC_HARNESS_LIGHT") != "1":
        import numpy  # noqa: F401  (warm import: this is what the pool pre-pays)
        import torch

        torch.set_num_threads(1)
        try:
            import triton  # noqa: F401
        except ImportError:
            pass
        if not gpu:
            from . import triton_guard

            triton_guard.install()
    send("ready", pid=os.getpid())
    line = sys.stdin.readline()
    if not line:
        os._exit(0)  # the pool shut down before a job came
    job = json.loads(line)
    apply_limits(job["limits"], gpu=gpu)
    try:
        result = run_job(job)
    except MemoryError:
        result = {"status": "memory_limit", "message": "out of memory (the job's memory limit)"}
    send("done", **result)
    sys.stdout.flush()
    os._exit(0)  # skip interpreter teardown: the student may have left threads or atexit hooks


def apply_limits(limits: dict[str, Any], *, gpu: bool) -> None:
    used = resource.getrusage(resource.RUSAGE_SELF)
    cpu_now = int(used.ru_utime + used.ru_stime) + 1
    cpu = cpu_now + int(limits["cpu_seconds"])
    # soft limit sends SIGXCPU (reported as timeout); hard limit 2 s later is SIGKILL.
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))
    mib = 1024 * 1024
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["file_size_mb"] * mib,) * 2)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits["open_files"],) * 2)
    resource.setrlimit(resource.RLIMIT_NPROC, (limits["processes"],) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if not gpu:
        resource.setrlimit(resource.RLIMIT_AS, (limits["memory_mb"] * mib,) * 2)


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    send("phase", phase="compiling")
    if job["backend"] == "cuda":
        from . import cuda_build

        compiled = cuda_build.compile_in_sandbox(job)
        if compiled["status"] != "ok" or job["device"] != "cuda":
            return compiled
        entry = cuda_build.make_caller(compiled.pop("library"), job["entry"], job["arg_types"])
        compile_info = compiled["compile"]
    else:
        loaded = load_triton_module(job["entry"])
        if "status" in loaded:
            return loaded
        entry, compile_info = loaded["entry"], None
    import torch

    device = torch.device(job["device"])
    tests = torch.load(f"{JOB}/tests.pt", weights_only=True)
    send("phase", phase="testing")
    out = run_cases(entry, tests["cases"], device)
    out["compile"] = compile_info
    if out["status"] == "ok" and job.get("time"):
        from . import gpu_timing

        send("phase", phase="timing")
        out["timing"] = gpu_timing.time_submission(entry, job["timing"], device)
    return out


def load_triton_module(entry_name: str) -> dict[str, Any]:
    path = f"{JOB}/submission.py"
    spec = importlib.util.spec_from_file_location("submission", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["submission"] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        where = f"submission.py, line {exc.lineno}" + (
            f", column {exc.offset}" if exc.offset else ""
        )
        return {
            "status": "compile_error",
            "message": f"{where}: {exc.msg}\n{(exc.text or '').rstrip()}",
        }
    except MemoryError:
        raise
    except BaseException as exc:
        if gpu_only := _needs_gpu(exc):
            return gpu_only
        return {
            "status": "compile_error",
            "message": "error while importing your module:\n" + student_traceback(exc),
        }
    entry = getattr(module, entry_name, None)
    if not callable(entry):
        return {
            "status": "compile_error",
            "message": f"your module does not define a function named {entry_name!r}",
        }
    return {"entry": entry}


def build_args(
    case: dict[str, Any], device: Any
) -> tuple[list[Any], dict[str, Any], dict[str, Any]]:
    inputs = {k: v.to(device) for k, v in case["inputs"].items()}
    outputs = {k: v.to(device) for k, v in case["outputs"].items()}
    args: list[Any] = []
    for kind, value in case["args"]:
        if kind == "in":
            args.append(inputs[value])
        elif kind == "out":
            args.append(outputs[value])
        elif kind == "int":
            args.append(int(value))
        else:
            args.append(float(value))
    return args, inputs, outputs


def run_cases(entry: Any, cases: list[dict[str, Any]], device: Any) -> dict[str, Any]:
    import torch

    returned: list[int] = []
    results = []
    for index, case in enumerate(cases):
        args, inputs, outputs = build_args(case, device)
        failure, value = call_entry(entry, args, device)
        if failure:
            failure["failed_case"] = index
            return failure
        results.append({"inputs": inputs, "outputs": outputs})
        if value is not None:  # a returned tensor is ignored: outputs are written in place
            returned.append(index)
    torch.save({"cases": results}, f"{JOB}/result.pt")
    return {"status": "ok", "message": "", "returned_value": returned}


def call_entry(entry: Any, args: list[Any], device: Any) -> tuple[dict[str, Any] | None, Any]:
    """Call the submission once: (None, returned value) or (failure document, None)."""
    import torch

    try:
        value = entry(*args)
        if device.type == "cuda":
            torch.cuda.synchronize()
        return None, value
    except MemoryError:
        return {"status": "memory_limit", "message": "out of memory (the job's memory limit)"}, None
    except BaseException as exc:
        return classify_exception(exc), None


_OOM_MARKERS = (
    "can't allocate memory",
    "not enough memory",
    "out of memory",
    "Cannot allocate memory",
)


def classify_exception(exc: BaseException) -> dict[str, Any]:
    from . import triton_guard

    violation = triton_guard.pop_violation()
    if violation is not None:  # the interpreter wraps it in InterpreterError(repr(e)); unwrap
        return {
            "status": "runtime_error",
            "message": str(violation),
            "kernel": getattr(violation, "kernel", None),
        }
    if gpu_only := _needs_gpu(exc):
        return gpu_only
    text = f"{type(exc).__name__}: {exc}"
    if any(m in text for m in _OOM_MARKERS):
        return {"status": "memory_limit", "message": "out of memory: " + text[:500]}
    kind = type(exc).__name__
    status = (
        "compile_error"
        if kind in ("CompilationError", "CompileTimeAssertionFailure")
        else "runtime_error"
    )
    return {"status": status, "message": student_traceback(exc)}


def _needs_gpu(exc: BaseException) -> dict[str, Any] | None:
    """CPU path: code that truly needs a CUDA device is needs_gpu, not the student's error."""
    if os.environ.get("TRITON_INTERPRET") != "1":
        return None
    from . import triton_standin

    reason = triton_standin.needs_gpu_reason(exc)
    if reason is None:
        return None
    return {
        "status": "needs_gpu",
        "message": "this code needs a GPU (the CPU path runs the Triton interpreter on CPU "
        f'tensors; use the inputs\' device, not "cuda"): {reason}',
    }


def student_traceback(exc: BaseException, limit_chars: int = 3000) -> str:
    """The frames in submission.py plus the exception line: what the student can act on."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.startswith(JOB)]
    lines = [
        f"  submission, line {f.lineno}, in {f.name}: {(f.line or '').strip()}" for f in frames[-6:]
    ]
    tail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return ("\n".join(lines) + ("\n" if lines else "") + tail)[:limit_chars]


def c_types_for(arg_types: list[str]) -> list[Any]:
    table = {"ptr": ctypes.c_void_p, "int": ctypes.c_int, "float": ctypes.c_float}
    return [table[t] for t in arg_types]


if __name__ == "__main__":  # pragma: no cover - started through sandbox._HARNESS_BOOT
    main(int(sys.argv[1]))
