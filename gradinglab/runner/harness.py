"""The code that runs INSIDE the sandbox: waits for one job, runs the submission, reports back.

Everything here is in the submission's reach once it is loaded: it can patch any function, write
to any fd, rewrite any file in the job directory. So nothing here decides a time or a verdict. The
harness sends `sealed` right before any student code can run; from then on the trusted parent
treats every message as an untrusted claim (protocol.py), reads only the files it asked for, and
keeps its own clock. Work that can fail for infrastructure reasons (loading test and benchmark
data, allocating buffers, calibrating the timing loop) happens before the seal, where an exception
is reported as the grader's with its phase, and so is a cap reached there (the wall clock, which
runs from the job's start, RLIMIT_CPU, output, disk, memory): grader.classify makes it
infrastructure_error.
"""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import sys
import time
from typing import Any

from .failures import classify_exception, needs_gpu, student_traceback
from .messages import Msg, parts_of
from .sandbox import JOB_MOUNT as JOB

_status_fd = -1


def send(event: str, **fields: Any) -> None:
    if parts := parts_of(fields.get("message", "")):  # the ids the web translates (messages.py)
        fields["message_parts"] = parts
    data = (json.dumps({"event": event, **fields}, default=str) + "\n").encode()
    while data:  # a pipe write of <= PIPE_BUF is atomic; longer ones may be partial
        data = data[os.write(_status_fd, data) :]


def command() -> dict[str, Any]:
    line = sys.stdin.readline()
    if not line:
        os._exit(0)  # the parent is gone or finished with us
    return json.loads(line)


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
        state = prepare(job)
    except BaseException as exc:  # nothing of the student's has run yet: the grader's failure
        send("done", status="infrastructure_error", phase="prepare", message=repr(exc)[:1000])
        os._exit(0)
    send("prepared", sets=[len(b.sets) for b in state["benches"]])
    serve(job, state)
    sys.stdout.flush()
    os._exit(0)  # skip interpreter teardown: the student may have left threads or atexit hooks


def apply_limits(limits: dict[str, Any], *, gpu: bool) -> None:
    used = resource.getrusage(resource.RUSAGE_SELF)
    cpu_now = int(used.ru_utime + used.ru_stime) + 1
    cpu = cpu_now + int(limits["cpu_seconds"])
    # soft limit: SIGXCPU (reported as timeout); the hard limit, 2 s of CPU time later: SIGKILL.
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))
    mib = 1024 * 1024
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["file_size_mb"] * mib,) * 2)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits["open_files"],) * 2)
    resource.setrlimit(resource.RLIMIT_NPROC, (limits["processes"],) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if not gpu:
        resource.setrlimit(resource.RLIMIT_AS, (limits["memory_mb"] * mib,) * 2)


# --- before the seal: trusted data in, buffers allocated ----------------------------------------


def prepare(job: dict[str, Any]) -> dict[str, Any]:
    if job["backend"] == "cuda" and os.environ.get("PDC_HARNESS_LIGHT") == "1":
        return {"cases": None, "benches": [], "device": None}
    import torch

    from . import gpu_timing

    device = torch.device(job["device"])
    tests = torch.load(f"{JOB}/tests.pt", weights_only=True, map_location="cpu")
    benches = []
    slot_files = job.get("slot_files") or []  # the CPU path: the parent reads the slots (slots.py)
    for index in range(int(job.get("benchmarks", 0))):
        sets = torch.load(
            f"{JOB}/bench-{index}.pt", weights_only=True, map_location="cpu", mmap=True
        )["sets"]
        slot_file = f"{JOB}/{slot_files[index]}" if slot_files else None
        benches.append(gpu_timing.BenchBuffers(sets, device, int(job["flush_bytes"]), slot_file))
    return {"cases": tests["cases"], "benches": benches, "device": device}


def serve(job: dict[str, Any], state: dict[str, Any]) -> None:
    """Answer the parent's commands until `stop`; `grade` seals and runs the student's code."""
    entry: Any = None
    while True:
        cmd = command()
        kind = cmd.get("cmd")
        if kind == "stop":
            return
        if kind == "grade":
            send("sealed")
            entry = grade(job, state)
            if entry is None:
                return
            continue
        bench = state["benches"][int(cmd["bench"])] if "bench" in cmd else None
        if kind == "go":
            entry_now = None if cmd.get("noop") else entry
            calls = bench.run_round(cmd["order"], entry_now, int(cmd["key"]))
            if "failure" in calls:
                send("done", **calls["failure"])
                return
            send("end", bench=cmd["bench"], round=cmd["round"], device_ms=calls["device_ms"])
        elif kind == "sample":
            bench.save_sample(int(cmd["seed"]), int(cmd["count"]), f"{JOB}/{cmd['file']}")
            send("sampled", bench=cmd["bench"], round=cmd["round"])
        elif kind == "full":
            bench.save_full(f"{JOB}/{cmd['file']}")
            send("fulled", bench=cmd["bench"])
        elif kind == "warm":
            failure = bench.warm_up(entry, int(cmd["calls"]))
            if failure:
                send("done", **failure)
                return
            send("warm", bench=cmd["bench"])


# --- after the seal: the student's code runs ----------------------------------------------------


def grade(job: dict[str, Any], state: dict[str, Any]) -> Any:
    """Load and run the correctness cases; the entry point when they all ran, else None."""
    try:
        result = load_and_test(job, state)
    except MemoryError:
        result = {"status": "memory_limit", "message": Msg("out_of_memory_job")}
    except BaseException as exc:  # after the seal this cannot be told from interference
        result = {
            "status": "runtime_error",
            "message": Msg("grader_failed_after_load", error=repr(exc)[:950]),
        }
    if "entry" not in result:
        send("done", **result)
        return None
    send("tested", returned_value=result["returned_value"])
    return result["entry"]


def load_and_test(job: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    send("phase", phase="compiling")
    if job["backend"] == "cuda":
        from . import cuda_build

        compiled = cuda_build.compile_in_sandbox(job)
        if compiled["status"] != "ok" or job["device"] != "cuda":
            return compiled
        entry = cuda_build.make_caller(compiled.pop("library"), job["entry"], job["arg_types"])
    else:
        loaded = load_triton_module(job["entry"])
        if "status" in loaded:
            return loaded
        entry = loaded["entry"]
    send("phase", phase="testing")
    out = run_cases(entry, state["cases"], state["device"])
    if out["status"] != "ok":
        return out
    return {"entry": entry, "returned_value": out["returned_value"]}


def load_triton_module(entry_name: str) -> dict[str, Any]:
    path = f"{JOB}/submission.py"
    spec = importlib.util.spec_from_file_location("submission", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["submission"] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        said = {"line": exc.lineno, "error": exc.msg, "text": (exc.text or "").rstrip()}
        message = (
            Msg("syntax_error_at", column=exc.offset, **said)
            if exc.offset
            else Msg("syntax_error", **said)
        )
        return {"status": "compile_error", "message": message}
    except MemoryError:
        raise
    except BaseException as exc:
        if gpu_only := needs_gpu(exc):
            return gpu_only
        return {
            "status": "compile_error",
            "message": Msg("import_error", traceback=student_traceback(exc)),
        }
    entry = getattr(module, entry_name, None)
    if not callable(entry):
        return {
            "status": "compile_error",
            "message": Msg("no_entry", name=repr(entry_name)),
        }
    return {"entry": entry}


def run_cases(entry: Any, cases: list[dict[str, Any]], device: Any) -> dict[str, Any]:
    """Call the entry once per case; snapshot right after each call from the harness's buffers."""
    import torch

    from .gpu_timing import ArgBuffers

    returned: list[int] = []
    results = []
    for index, case in enumerate(cases):
        bufs = ArgBuffers(case, device)
        started = time.perf_counter()
        failure, value = call_entry(entry, bufs.fresh_args(), device)
        if failure:
            failure["failed_case"] = index
            return failure
        results.append({**bufs.snapshot(), "call_s": time.perf_counter() - started})
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
            torch.cuda.synchronize()  # device-wide: side-stream work finishes before the snapshot
        return None, value
    except MemoryError:
        return {"status": "memory_limit", "message": Msg("out_of_memory_job")}, None
    except BaseException as exc:
        return classify_exception(exc), None


if __name__ == "__main__":  # pragma: no cover - started through sandbox._HARNESS_BOOT
    main(int(sys.argv[1]))
