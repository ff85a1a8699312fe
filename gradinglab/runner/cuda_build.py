"""nvcc: compile the submission into a shared library (inside the sandbox), parse ptxas -v.

`compile_in_sandbox` and `make_caller` run inside the sandbox (the source is student-controlled
input: nvcc's preprocessor alone can read files or hang). `parse_ptxas` runs on the trusted side
over the returned log.
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
from typing import Any

from .messages import Msg

# The host's nvcc. Read in the sandbox too, whose environment is cleared: sandbox_env passes the
# parent's value on, so the view, the canary and the compile all use the same one.
NVCC = os.environ.get("PDC_NVCC", "/usr/local/cuda/bin/nvcc")
DEFAULT_ARCH = "sm_80"  # A100 class: a host without a GPU compiles for it unless PDC_CUDA_ARCH says
ARCH = re.compile(r"sm_\d{2,3}a?")
LOG_CAP = 64 * 1024  # bytes of compiler output kept


def compile_only_arch() -> str:
    """The target a host without a GPU compiles CUDA jobs for (no device to ask): PDC_CUDA_ARCH,
    strictly. Trusted side only: the sandbox gets the target in the job, never the variable."""
    import pdcenv  # not in the sandbox's view, and only the trusted side reads settings

    arch = pdcenv.env_str("PDC_CUDA_ARCH", DEFAULT_ARCH)
    if not ARCH.fullmatch(arch):
        raise pdcenv.EnvError(f"PDC_CUDA_ARCH={arch!r} is not a target like sm_80 or sm_90a")
    return arch


def nvcc_available() -> bool:
    return os.path.exists(NVCC) and os.access(NVCC, os.X_OK)


# Compute capabilities whose newest instructions (Hopper's wgmma and TMA, Blackwell's tcgen05)
# exist only in the arch-specific target: sm_90 alone rules them out. The 'a' binary runs on that
# exact capability only, which is the device it is compiled for.
ARCH_SPECIFIC = frozenset({"sm_90", "sm_100", "sm_103", "sm_110", "sm_120", "sm_121"})


def nvcc_arch(arch: str | None) -> str:
    """The -arch value for a device's "sm_XY" (from its compute capability)."""
    if not arch or not ARCH.fullmatch(arch):
        return DEFAULT_ARCH
    return f"{arch}a" if arch in ARCH_SPECIFIC else arch


def arch_flags(arch: str) -> list[str]:
    """nvcc flags that build machine code for `arch`. An arch-specific target ("sm_90a") needs
    the -gencode form: `-arch=sm_90a` also runs a plain compute_90 pass whose ptxas rejects wgmma
    ("not supported on .target 'sm_90'", nvcc 13.0), the very instructions the target is for."""
    if arch.endswith("a"):
        return [f"-gencode=arch=compute_{arch[3:]},code={arch}"]
    return [f"-arch={arch}"]


def compile_in_sandbox(job: dict[str, Any]) -> dict[str, Any]:
    arch = nvcc_arch(job.get("cuda_arch"))
    cmd = [
        NVCC,
        "-shared",
        "-Xcompiler",
        "-fPIC",
        "-O3",
        "-lineinfo",
        *arch_flags(arch),
        "-Xptxas",
        "-v",
        "-o",
        "submission.so",
        "submission.cu",
    ]
    try:
        proc = subprocess.run(
            cmd,
            cwd="/run/job",
            capture_output=True,
            close_fds=True,
            timeout=float(job["limits"]["compile_seconds"]),
        )
    except subprocess.TimeoutExpired:
        return {
            "status": "timeout",
            "message": Msg("nvcc_timeout", seconds=job["limits"]["compile_seconds"]),
            "compile": {"ok": False, "log": "", "ptxas": None},
        }
    except FileNotFoundError:
        return {"status": "infrastructure_error", "message": f"nvcc not found at {NVCC}"}
    log = clean_log((proc.stdout + proc.stderr)[:LOG_CAP].decode("utf-8", "replace"))
    info = {"ok": proc.returncode == 0, "log": log, "arch": arch}
    if proc.returncode != 0:
        return {"status": "compile_error", "message": first_errors(log), "compile": info}
    symbols = exported_functions("/run/job/submission.so")
    if symbols is None:
        return {
            "status": "compile_error",
            "compile": info,
            "message": Msg("not_shared_object"),
        }
    if job["entry"] not in symbols:
        return {
            "status": "compile_error",
            "compile": info,
            "message": Msg("no_c_entry", name=repr(job["entry"])),
        }
    if job["device"] != "cuda":
        # Never loaded here: loading would run the submission's static constructors.
        return {
            "status": "needs_gpu",
            "compile": info,
            "message": Msg("cuda_needs_gpu"),
        }
    try:  # GPU path only: the submission's constructors run here, where its kernel runs anyway
        lib = ctypes.CDLL("/run/job/submission.so")
    except OSError as exc:
        return {
            "status": "compile_error",
            "message": Msg("cannot_load_library", error=exc),
            "compile": info,
        }
    return {"status": "ok", "compile": info, "library": lib}


NM = shutil.which("nm") or "/usr/bin/nm"  # binutils: nvcc needs them (as, ld) anyway


def exported_functions(path: str) -> set[str] | None:
    """Names of the functions a shared object defines, read from its ELF symbol table by `nm`
    (the file is parsed, never loaded: loading runs code). None when it is not readable ELF."""
    try:
        proc = subprocess.run(
            [NM, "-D", "--defined-only", path], capture_output=True, timeout=30, close_fds=True
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    names = set()
    for line in proc.stdout.decode("utf-8", "replace").splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in ("T", "W", "i"):  # text, weak, indirect functions
            names.add(parts[2])
    return names


def clean_log(log: str) -> str:
    """Student-facing paths: /run/job/submission.cu -> submission.cu; nvcc temp files -> <tmp>."""
    log = log.replace("/run/job/", "")
    return re.sub(r"/tmp/tmpxft_[0-9a-f_]+[\w.-]*", "<tmp>", log)


def first_errors(log: str, limit: int = 20) -> str:
    lines = [ln for ln in log.splitlines() if "error" in ln.lower()]
    return "\n".join(lines[:limit]) or log[-2000:]


def make_caller(lib: Any, entry: str, arg_types: list[str]) -> Any:
    fn = getattr(lib, entry)
    table = {"ptr": ctypes.c_void_p, "int": ctypes.c_int, "float": ctypes.c_float}
    fn.argtypes = [table[t] for t in arg_types]
    fn.restype = None

    def call(*args: Any) -> None:
        conv = [ctypes.c_void_p(a.data_ptr()) if hasattr(a, "data_ptr") else a for a in args]
        fn(*conv)

    return call


# --- trusted side: ptxas -v report -------------------------------------------------------------

_ENTRY = re.compile(r"Compiling entry function '([^']+)' for '(sm_\w+)'")
_PROPS = re.compile(r"Function properties for (\S+)")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"Used (\d+) registers")
_SMEM = re.compile(r"(\d+) bytes smem")


def parse_ptxas(log: str) -> dict[str, Any] | None:
    kernels: dict[str, dict[str, Any]] = {}
    arch = None
    current = None
    for line in log.splitlines():
        if m := _ENTRY.search(line):
            current, arch = m.group(1), m.group(2)
            kernels.setdefault(current, _empty(current))
        elif m := _PROPS.search(line):
            current = m.group(1)
        elif current and (m := _FRAME.search(line)) and current in kernels:
            k = kernels[current]
            k["stack_bytes"], k["spill_stores_bytes"], k["spill_loads_bytes"] = map(int, m.groups())
        elif current and (m := _USED.search(line)) and current in kernels:
            kernels[current]["registers"] = int(m.group(1))
            smem = _SMEM.search(line)
            kernels[current]["shared_mem_bytes"] = int(smem.group(1)) if smem else 0
    if not kernels:
        return None
    names = demangle(list(kernels))
    out = []
    for mangled, k in kernels.items():
        k["name"] = names.get(mangled, mangled)
        out.append(k)
    return {"arch": arch, "kernels": out}


def _empty(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "registers": None,
        "shared_mem_bytes": None,
        "spill_stores_bytes": None,
        "spill_loads_bytes": None,
        "stack_bytes": None,
    }


def demangle(names: list[str]) -> dict[str, str]:
    tool = shutil.which("c++filt")
    if not tool or not names:
        return {}
    try:
        proc = subprocess.run(
            [tool], input="\n".join(names), capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.TimeoutExpired):
        return {}
    out = proc.stdout.splitlines()
    return dict(zip(names, out, strict=False)) if len(out) == len(names) else {}
