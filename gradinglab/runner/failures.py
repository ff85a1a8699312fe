"""What a failure of student code inside the sandbox is: a status and a message the student can
act on. Shared by the harness and the timing loop (gpu_timing), which both run the submission.
"""

from __future__ import annotations

import os
import traceback
from typing import Any

from .messages import Msg
from .sandbox import JOB_MOUNT

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
            "message": getattr(violation, "said", str(violation)),
            "kernel": getattr(violation, "kernel", None),
        }
    if gpu_only := needs_gpu(exc):
        return gpu_only
    text = f"{type(exc).__name__}: {exc}"
    if any(m in text for m in _OOM_MARKERS):
        return {"status": "memory_limit", "message": Msg("out_of_memory", detail=text[:500])}
    kind = type(exc).__name__
    status = (
        "compile_error"
        if kind in ("CompilationError", "CompileTimeAssertionFailure")
        else "runtime_error"
    )
    return {"status": status, "message": student_traceback(exc)}


def needs_gpu(exc: BaseException) -> dict[str, Any] | None:
    """CPU path: code that truly needs a CUDA device is needs_gpu, not the student's error."""
    if os.environ.get("TRITON_INTERPRET") != "1":
        return None
    from . import triton_standin

    reason = triton_standin.needs_gpu_reason(exc)
    if reason is None:
        return None
    return {
        "status": "needs_gpu",
        "message": Msg("needs_gpu", reason=reason),
    }


def student_traceback(exc: BaseException, limit_chars: int = 3000) -> str:
    """The frames in submission.py plus the exception line: what the student can act on."""
    frames = [
        f for f in traceback.extract_tb(exc.__traceback__) if f.filename.startswith(JOB_MOUNT)
    ]
    lines = [
        f"  submission, line {f.lineno}, in {f.name}: {(f.line or '').strip()}" for f in frames[-6:]
    ]
    tail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return ("\n".join(lines) + ("\n" if lines else "") + tail)[:limit_chars]
