"""Issue 11, must hold 5: a CUDA source on a CPU host is never `accepted`, whatever its static
constructors do; issue 12: the arch flag keeps Hopper/Blackwell arch-specific instructions.

The hostile source's constructor runs Python inside whatever process loads the library: it
computes the right answer with torch, writes result.pt and sends the harness's own `done ok`
message, then exits. The entry-symbol check reads the ELF symbol table with `nm` instead of
loading the library, so the constructor never runs on a CPU host (its marker never shows in the
log) and the verdict is `needs_gpu`. Checked: with `ctypes.CDLL` restored in cuda_build and the
grader's CPU-host clamp removed, this source is graded `accepted`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gradinglab.runner import canary, cuda_build, grade
from gradinglab.runner.result import validate

ROOT = Path(__file__).resolve().parents[3]

FORGE = (
    "import os, torch; print('CTOR-RAN', flush=True); "
    "t = torch.load('/run/job/tests.pt', weights_only=True); res = []\\n"
    "for c in t['cases']:\\n"
    "    c['outputs']['out'].copy_(c['inputs']['x'] + c['inputs']['y'])\\n"
    "    res.append({'inputs': c['inputs'], 'outputs': c['outputs']})\\n"
    "torch.save({'cases': res}, '/run/job/result.pt')\\n"
    "from gradinglab.runner import harness\\n"
    "harness.send('done', status='ok', message='', returned_value=[])\\n"
    "os._exit(0)\\n"
)
CONSTRUCTOR_SOURCE = f"""
extern "C" int PyRun_SimpleString(const char* code);
extern "C" int Py_IsInitialized(void);

__attribute__((constructor)) static void forge(void) {{
    if (Py_IsInitialized()) PyRun_SimpleString("{FORGE}");
}}

struct Init {{ Init() {{ forge(); }} }};
static Init on_load;  // a C++ static initializer does the same

extern "C" void vector_add(const float* x, const float* y, float* out, int n) {{}}
"""


def test_constructor_that_forges_results_is_needs_gpu_on_a_cpu_host() -> None:
    doc = grade(slug="vector-add", source=CONSTRUCTOR_SOURCE, backend="cuda", device="cpu")
    validate(doc)
    assert doc["status"] == "needs_gpu", (doc["status"], doc["message"], doc["log"][-1500:])
    assert doc["compile"]["ok"] is True
    assert "CTOR-RAN" not in doc["log"]  # the library was never loaded
    assert doc["score"] is None


def test_entry_symbol_is_read_without_loading(tmp_path) -> None:
    src = tmp_path / "lib.c"
    src.write_text(
        "int helper(void) { return 1; }\nvoid vector_add(void) {}\nstatic void hidden(void) {}\n"
    )
    so = tmp_path / "lib.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(so), str(src)], check=True)
    names = cuda_build.exported_functions(str(so))
    assert names is not None and {"helper", "vector_add"} <= names and "hidden" not in names
    (tmp_path / "junk.so").write_bytes(b"not an ELF file")
    assert cuda_build.exported_functions(str(tmp_path / "junk.so")) is None


def test_arch_flag_keeps_arch_specific_features() -> None:
    assert cuda_build.nvcc_arch("sm_90") == "sm_90a"  # H100 / H200: wgmma, TMA
    assert cuda_build.nvcc_arch("sm_100") == "sm_100a"  # B200: tcgen05
    assert cuda_build.nvcc_arch("sm_120") == "sm_120a"
    assert cuda_build.nvcc_arch("sm_80") == "sm_80"  # A100: no arch-specific target
    assert cuda_build.nvcc_arch("sm_89") == "sm_89"
    assert cuda_build.nvcc_arch("sm_90a") == "sm_90a"
    assert cuda_build.nvcc_arch(None) == cuda_build.DEFAULT_ARCH
    assert cuda_build.nvcc_arch("-Xcompiler;rm") == cuda_build.DEFAULT_ARCH


WGMMA_KERNEL = r"""
__global__ void k(float* x) {
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    x[threadIdx.x] = 1.0f;
}
"""


@pytest.mark.skipif(not cuda_build.nvcc_available(), reason="needs nvcc (compile only)")
def test_an_arch_specific_target_compiles_hopper_instructions(tmp_path) -> None:
    """The flags for sm_90a must assemble wgmma; `-arch=sm_90a` did not (a plain sm_90 pass too)."""
    assert cuda_build.arch_flags("sm_80") == ["-arch=sm_80"]
    assert cuda_build.arch_flags("sm_100a") == ["-gencode=arch=compute_100a,code=sm_100a"]
    (tmp_path / "k.cu").write_text(WGMMA_KERNEL)
    done = subprocess.run(
        [cuda_build.NVCC, "-c", *cuda_build.arch_flags("sm_90a"), "-o", "k.o", "k.cu"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,  # seconds: nvcc on a busy 2-core machine
    )
    assert done.returncode == 0, done.stderr[-2000:]


def test_nvcc_cannot_include_host_files() -> None:
    """nvcc's preprocessor reads what the source names; the compile sandbox has no host /etc,
    no repository (the problem's reference) and no home. Under the old whole-root view the
    first line of /etc/passwd came back inside nvcc's error message."""
    from gradinglab.runner.problems import PROBLEMS_DIR

    reference = PROBLEMS_DIR / "vector-add" / "reference.py"
    for target in ("/etc/passwd", str(reference)):
        doc = grade(
            slug="vector-add", source=f'#include "{target}"\n', backend="cuda", device="cpu"
        )
        assert doc["status"] == "compile_error", doc["message"]
        log = doc["compile"]["log"]
        assert "No such file or directory" in log or "cannot open source file" in log, log
        assert "root:" not in log and "make_inputs" not in log


# The canary's vector-add, compiled only by the nvcc PDC_NVCC names (the wrapper defines
# PDC_WRAPPED) and for the target PDC_CUDA_ARCH names (sm_89: __CUDA_ARCH__ 890 in the device pass).
NAMED_TOOLCHAIN_SOURCE = (
    r"""
#ifndef PDC_WRAPPED
#error "compiled by the default nvcc, not the one PDC_NVCC names"
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ != 890
#error "compiled for another target than PDC_CUDA_ARCH"
#endif
"""
    + canary.CANARY_SOURCE
)
GRADE_FROM_STDIN = (
    "import json, sys; from gradinglab.runner import grade; "
    "d = grade(slug='vector-add', source=sys.stdin.read(), backend='cuda', device='cpu'); "
    "print(json.dumps({k: d[k] for k in ('status', 'message', 'log')}))"
)


def _grade_with_env(env: dict[str, str]) -> dict[str, str]:
    run = subprocess.run(
        [sys.executable, "-c", GRADE_FROM_STDIN], input=NAMED_TOOLCHAIN_SOURCE, cwd=ROOT,
        env=os.environ | {"PDC_RUNNER_POOL": "0"} | env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.splitlines()[-1])


@pytest.mark.skipif(not cuda_build.nvcc_available(), reason="needs nvcc (compile only)")
def test_the_sandbox_compiles_with_the_nvcc_and_target_the_host_names(tmp_path: Path) -> None:
    """PDC_NVCC and PDC_CUDA_ARCH are the host's settings, but nvcc runs inside the sandbox,
    whose environment is cleared: the child used /usr/local/cuda's nvcc and sm_80 whatever the
    host said (the GPU image names its nvcc under /usr/local/cuda-13.0)."""
    wrapper = tmp_path / "cuda" / "bin" / "nvcc"
    wrapper.parent.mkdir(parents=True)
    wrapper.write_text(f'#!/bin/sh\nexec {cuda_build.NVCC} -DPDC_WRAPPED=1 "$@"\n')
    wrapper.chmod(0o755)
    doc = _grade_with_env({"PDC_NVCC": str(wrapper), "PDC_CUDA_ARCH": "sm_89"})
    assert doc["status"] == "needs_gpu", (doc["status"], doc["message"], doc["log"][-2000:])


def test_a_bad_compile_target_names_the_variable() -> None:
    doc = _grade_with_env({"PDC_CUDA_ARCH": "sm80; rm -rf"})
    assert doc["status"] == "infrastructure_error"
    assert "PDC_CUDA_ARCH='sm80; rm -rf'" in doc["message"], doc["message"]
