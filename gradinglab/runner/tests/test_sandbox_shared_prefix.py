"""The sandbox's view on a host whose Python is the distribution's own (a venv over /usr/bin/python3,
as on the GPU image and on the first H200 host the runner ran on).

There every job failed before it started: the view bound the interpreter's prefix whole, which was
all of /usr, and then recreated /usr/local/cuda inside it ("bwrap: Can't make symlink at
/usr/local/cuda: File exists"); and the link it recreated pointed at /etc/alternatives/cuda,
which is not in the view. These tests start real bubblewrap children with such views.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from gradinglab.runner import grade, pool, sandbox
from gradinglab.runner.testing import solution

CUDA_LINK = "/usr/local/cuda"
needs_bwrap = pytest.mark.skipif(
    not sandbox.bwrap_available() or os.geteuid() != 0,
    reason="needs bubblewrap and root (the sandbox's privileged mode)",
)


def _run_in_view(paths: list[str], *command: str, toolchain: bool) -> subprocess.CompletedProcess:
    argv = [sandbox.BWRAP, "--unshare-pid", "--unshare-net", "--die-with-parent"]
    argv += sandbox._view_args(paths, toolchain=toolchain)
    argv += ["--proc", "/proc", "--dev", "/dev", "--", *command]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


def test_a_shared_prefix_contributes_only_the_interpreters_parts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    for toolchain in (False, True):
        paths = sandbox.view_paths(toolchain=toolchain)
        assert not {"/usr", "/usr/local", "/"} & set(paths), paths
    parts = sandbox._prefix_parts("/usr")
    assert sysconfig.get_paths()["stdlib"] in parts
    if sysconfig.get_config_var("Py_ENABLE_SHARED"):  # libpython, which the interpreter loads
        soname = sysconfig.get_config_var("INSTSONAME")
        assert os.path.join(sysconfig.get_config_var("LIBDIR"), soname) in parts
    assert sandbox._prefix_parts("/opt/python-3.11") == ["/opt/python-3.11"]


@needs_bwrap
def test_a_job_grades_when_the_interpreter_lives_in_a_shared_prefix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The python:3.11-slim image's layout: Python (a shared build) installed into /usr/local.
    Here the interpreter's prefix is said to be /usr/local, so the view holds only the files
    `_interpreter_files` names, not the prefix: the job must still start and be graded. (Where the
    system has a libpython of the same version in /usr/lib, the loader can take that one: the
    libpython entry itself is checked by the test above.)"""
    pool.get_pool(None).shutdown()
    monkeypatch.setattr(sys, "base_prefix", "/usr/local")
    try:
        installed = sysconfig.get_config_var("prefix")  # where this Python really is
        assert installed not in sandbox.view_paths(toolchain=False)  # so the narrow view is tested
        doc = grade(
            slug="vector-add",
            source=solution("vector-add", "triton", "correct.py"),
            backend="triton",
            device="cpu",
        )
    finally:
        monkeypatch.undo()
        pool.get_pool(None).shutdown()  # no sandbox with this view stays warm for other tests
    assert doc["status"] == "accepted", (doc["message"], doc["log"][-2000:])


@needs_bwrap
@pytest.mark.skipif(
    not (os.path.islink(CUDA_LINK) and os.path.exists(f"{CUDA_LINK}/bin/nvcc")),
    reason=f"needs nvcc under a {CUDA_LINK} symlink, as CUDA installs lay it out",
)
def test_a_toolchain_view_starts_with_a_system_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    done = _run_in_view(
        sandbox.view_paths(toolchain=True), f"{CUDA_LINK}/bin/nvcc", "--version", toolchain=True
    )
    assert done.returncode == 0, done.stderr
    assert "Cuda compilation tools" in done.stdout


@needs_bwrap
def test_a_link_chain_is_recreated_to_its_resolved_target(tmp_path: Path) -> None:
    """cuda -> alternatives/cuda -> cuda-13.0, with only cuda-13.0 in the view."""
    real = tmp_path / "cuda-13.0" / "bin"
    real.mkdir(parents=True)
    (real / "tool").write_text("found\n")
    (tmp_path / "alternatives").mkdir()
    (tmp_path / "alternatives" / "cuda").symlink_to(tmp_path / "cuda-13.0")
    (tmp_path / "cuda").symlink_to(tmp_path / "alternatives" / "cuda")
    paths = [str(tmp_path / "cuda" / "bin"), *sandbox.SYSTEM_LIBS, "/usr/bin"]
    args = sandbox._view_args(paths, toolchain=False)
    assert str(tmp_path / "alternatives") not in " ".join(args)
    done = _run_in_view(paths, "/usr/bin/cat", str(tmp_path / "cuda/bin/tool"), toolchain=False)
    assert (done.returncode, done.stdout) == (0, "found\n"), done.stderr


@needs_bwrap
def test_a_link_inside_a_bound_directory_is_not_made_twice(tmp_path: Path) -> None:
    (tmp_path / "venv" / "bin").mkdir(parents=True)
    (tmp_path / "venv" / "bin" / "python3").symlink_to("/usr/bin/cat")
    paths = [str(tmp_path / "venv"), str(tmp_path / "venv" / "bin" / "python3")]
    paths += [*sandbox.SYSTEM_LIBS, "/usr/bin/cat"]
    done = _run_in_view(paths, str(tmp_path / "venv/bin/python3"), "/dev/null", toolchain=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("driver", ["gcc", "g++"])
def test_the_toolchain_view_holds_every_program_the_compiler_runs(driver: str) -> None:
    """nvcc and Triton's launcher build call gcc/g++, which exec cc1, cc1plus and collect2 from
    where the distribution put them (Ubuntu: /usr/libexec/gcc). Asked of the compiler itself."""
    if shutil.which(driver) is None:
        pytest.skip(f"{driver} is not installed")
    view = [os.path.realpath(p) for p in sandbox.view_paths(toolchain=True)]
    for program in ("cc1", "cc1plus", "collect2", "as", "ld"):
        found = subprocess.run(
            [driver, f"-print-prog-name={program}"], capture_output=True, text=True, timeout=30
        ).stdout.strip()
        if not os.path.isabs(found):
            found = shutil.which(found) or found
        if not os.path.exists(found):
            continue  # e.g. no C++ front end installed: nothing for the view to hold
        real = os.path.realpath(found)
        assert any(sandbox._under(real, v) for v in view), (program, real)
