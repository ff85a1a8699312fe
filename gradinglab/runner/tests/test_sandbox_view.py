"""Issue 11, must hold 4: the sandbox sees only what grading needs, not the host's tree.

A submission walks `/` from inside a real bubblewrap sandbox and prints every path it can read
that is not part of the allowed set written out below (the interpreter, the venv, the harness
code, the system libraries they load, the job directory, /tmp, /proc and the basic /dev nodes).
The allowed set here is spelled out independently of sandbox.py's own list, so widening the
sandbox's view makes this test fail. A control run with the old view (`--ro-bind / /`) shows the
walk does find host files when they are there.
"""

from __future__ import annotations

import json
import os
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

from gradinglab.runner import grade, pool, sandbox
from gradinglab.runner.testing import problem_copy, problems_dir_override

MARK = "PDC-WALK "
DEV_NODES = {"null", "zero", "full", "random", "urandom", "tty", "console", "ptmx", "pts", "shm"}
DEV_LINKS = {"fd", "stdin", "stdout", "stderr", "core"}


def allowed_roots() -> list[str]:
    multiarch = sysconfig.get_config_var("MULTIARCH") or "x86_64-linux-gnu"
    roots = [
        os.path.realpath(sys.base_prefix),  # the interpreter
        os.path.realpath(sys.prefix),  # the venv (torch, triton, numpy)
        str(sandbox.RUNNER_DIR),  # the harness
        str(sandbox.APP_DIR / "__init__.py"),
        f"/usr/lib/{multiarch}",  # libc, libstdc++, libffi... that Python and torch load
        "/usr/lib64",  # the dynamic loader
        "/etc/ld.so.cache",
        sandbox.JOB_MOUNT,
        "/tmp",
        "/proc",  # the sandbox's own pid namespace
    ]
    roots += [f"/dev/{n}" for n in DEV_NODES | DEV_LINKS]
    if os.geteuid() == 0:
        roots.append(sandbox.SETPRIV)  # drops root before Python starts
    return roots


# The walker runs inside the sandbox. It does not descend into allowed roots (everything there
# is allowed) and never follows symlinks; a link counts as its target.
WALKER = """
import json, os
ALLOWED = {allowed!r}
def ok(p):
    return any(p == a or p.startswith(a.rstrip('/') + '/') for a in ALLOWED)
def ancestor(p):
    return any(a.startswith(p.rstrip('/') + '/') for a in ALLOWED)
bad = []
def walk(d):
    try:
        entries = list(os.scandir(d))
    except OSError:
        return
    for e in entries:
        if len(bad) > 400:  # enough to fail on; keeps the control run short
            return
        p = e.path
        if ok(p):
            continue
        if e.is_symlink():
            real = os.path.realpath(p)
            if (ok(real) or ancestor(real)) or not os.path.exists(p):
                continue
            bad.append(p + ' -> ' + real)
        elif e.is_dir(follow_symlinks=False):
            if not ancestor(p) and os.access(p, os.R_OK):
                bad.append(p + '/')
            walk(p)
        elif os.access(p, os.R_OK):
            bad.append(p)
walk('/')
print({mark!r} + json.dumps({{'count': len(bad), 'paths': [p[:120] for p in sorted(bad)[:150]]}}), flush=True)
"""


@pytest.fixture(scope="module")
def problems(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = problem_copy(tmp_path_factory.mktemp("problems"), "vector-add")
    with problems_dir_override(root):
        yield root


def walk_from_inside() -> dict:
    body = WALKER.format(allowed=allowed_roots(), mark=MARK)
    src = "def vector_add(x, y, out):\n" + "".join(f"    {ln}\n" for ln in body.splitlines())
    src += "    raise RuntimeError('walk done')\n"
    doc = grade(slug="vector-add", source=src, backend="triton", device="cpu")
    assert doc["status"] == "runtime_error" and "walk done" in doc["message"], doc["message"]
    line = next(ln for ln in doc["log"].splitlines() if ln.startswith(MARK))
    return json.loads(line[len(MARK) :])


def test_sandbox_reads_nothing_outside_the_allowed_set(problems: Path) -> None:
    seen = walk_from_inside()
    assert seen["count"] == 0, f"readable outside the allowed set: {seen['paths']}"


def test_the_walk_finds_host_files_under_the_old_whole_root_view(
    problems: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Control: with the pre-fix view (host root read-only) the same walk reports host files."""
    pool.get_pool(None).shutdown()
    old_view = ["--ro-bind", "/", "/", "--tmpfs", "/run"]  # /run: where the job dir is mounted
    monkeypatch.setattr(sandbox, "_view_args", lambda paths, toolchain: old_view)
    try:
        seen = walk_from_inside()
    finally:
        monkeypatch.undo()
        pool.get_pool(None).shutdown()
    assert seen["count"] > 100, seen
    assert any(p.startswith("/etc/") for p in seen["paths"]), seen["paths"][:20]


def test_toolchain_view_adds_only_the_compilers() -> None:
    """Compile sandboxes (nvcc, Triton's launcher build on GPU hosts) add the toolchain only."""
    plain = set(sandbox.view_paths(toolchain=False))
    tools = set(sandbox.view_paths(toolchain=True))
    extra = {p for p in tools - plain}
    assert extra <= {*sandbox.TOOLCHAIN, str(Path(sandbox.NVCC_PATH).parent.parent)}, extra
    assert "/" not in tools and "/etc" not in tools and "/home" not in tools
