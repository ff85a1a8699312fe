"""Issue 12, must hold 1: the GPU-host fixes that can be checked without a GPU.

No GPU here: the driver's /proc/driver/nvidia tree and /dev nodes are fake files under tmp_path,
and the torch.cuda / driver boundary (`devices.gpu_uuid`, `canary.driver_version`, the canary's grading
call) is replaced by fakes; everything between those boundaries is the real code.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest
import torch

from gradinglab.runner import canary, cgroups, devices, pool, sandbox
from gradinglab.runner.sandbox import Limits, Sandbox, SandboxStartError

H200_UUID = "GPU-8c0e5a2b-1f3d-4e5a-9b7c-0d1e2f3a4b5c"
OTHER_UUID = "GPU-11111111-2222-3333-4444-555555555555"


def fake_driver_tree(root: Path) -> Path:
    """Two GPUs as the driver lists them: the H200 is CUDA device 0 but /dev/nvidia3."""
    gpus = root / "proc" / "gpus"
    for bus, model, uuid, minor in [
        ("0000:19:00.0", "NVIDIA H100 80GB HBM3", OTHER_UUID, 1),
        ("0000:3b:00.0", "NVIDIA H200", H200_UUID, 3),
    ]:
        d = gpus / bus
        d.mkdir(parents=True)
        (d / "information").write_text(
            f"Model: \t\t {model}\nIRQ:   \t\t 42\nGPU UUID: \t {uuid}\n"
            f"Video BIOS: \t 96.00.99.00.01\nBus Type: \t PCIe\nBus Location: \t {bus}\n"
            f"Device Minor: \t {minor}\nGPU Excluded:\t No\n"
        )
    (gpus / "0000:99:00.0").mkdir()  # an entry without information is skipped, not a crash
    dev = root / "dev"
    dev.mkdir()
    for name in ["nvidia1", "nvidia3", "nvidiactl", "nvidia-uvm", "nvidia-uvm-tools"]:
        (dev / name).write_text("")
    return gpus


def test_uuid_maps_to_the_device_minor_not_the_ordinal(tmp_path: Path) -> None:
    gpus = fake_driver_tree(tmp_path)
    node = devices.gpu_node(H200_UUID, str(gpus))
    assert (node.minor, node.model) == (3, "NVIDIA H200")
    assert devices.gpu_node(H200_UUID.removeprefix("GPU-").upper(), str(gpus)).minor == 3
    with pytest.raises(LookupError, match="driver lists: GPU-1111"):
        devices.gpu_node("GPU-00000000-0000-0000-0000-000000000000", str(gpus))


def test_sandbox_binds_only_its_gpu_node_and_names_it_by_uuid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gpus = fake_driver_tree(tmp_path)
    monkeypatch.setenv("PDC_NVIDIA_PROC", str(gpus))
    monkeypatch.setattr(sandbox, "DEV_ROOT", str(tmp_path / "dev"))
    monkeypatch.setattr(devices, "gpu_uuid", lambda index: {0: H200_UUID}[index])  # torch.cuda
    driver_libs = tmp_path / "nvidia-lib64"
    driver_libs.mkdir()
    (driver_libs / "libcuda.so.1").write_text("")
    monkeypatch.setattr(sandbox, "LIBCUDA_DIRS", ["/nonexistent", str(driver_libs)])
    box = Sandbox(limits=Limits(), gpu_index=0, base_dir=tmp_path)
    argv = box.command(status_fd=9)  # what start() runs
    binds = [argv[i + 1 : i + 3] for i, a in enumerate(argv) if a == "--dev-bind"]
    assert [str(tmp_path / "dev" / "nvidia3"), "/dev/nvidia3"] in binds
    assert not any(b[1] == "/dev/nvidia1" or b[1] == "/dev/nvidia0" for b in binds)
    assert {b[1] for b in binds} == {
        "/dev/nvidia3",
        "/dev/nvidiactl",
        "/dev/nvidia-uvm",
        "/dev/nvidia-uvm-tools",
    }
    env = dict(argv[i + 1 : i + 3] for i, a in enumerate(argv) if a == "--setenv")
    assert env["CUDA_VISIBLE_DEVICES"] == H200_UUID and "TRITON_INTERPRET" not in env
    assert env["TRITON_LIBCUDA_PATH"] == str(driver_libs)  # no /sbin/ldconfig in the sandbox
    # The GPU view has the toolchain (Triton builds its launcher with gcc), never the host root.
    ro = [argv[i + 1] for i, a in enumerate(argv) if a == "--ro-bind"]
    assert "/usr/bin" in ro and "/" not in ro and "/etc" not in ro
    assert str(driver_libs) in ro
    monkeypatch.setattr(devices, "gpu_uuid", lambda index: OTHER_UUID.replace("1", "7"))
    with pytest.raises(SandboxStartError, match="is not in"):
        box.command(status_fd=9)
    box.cleanup()


@pytest.mark.parametrize(
    ("name", "gbps"),
    [
        ("NVIDIA H200", 4800),
        ("NVIDIA H200 NVL", 4800),
        ("NVIDIA H100 80GB HBM3", 3350),
        ("NVIDIA H100 PCIe", 2000),
        ("NVIDIA H100 NVL", 3900),
        ("NVIDIA A100-SXM4-40GB", 1555),
        ("NVIDIA A100 80GB PCIe", 1935),
        ("NVIDIA L40S", 864),
        ("NVIDIA L40", 864),
        ("NVIDIA L4", 300),
        ("NVIDIA A10", 600),
        ("Tesla T4", 320),
        ("NVIDIA GeForce RTX 4090", 1008),
        ("NVIDIA B200", 8000),
    ],
)
def test_device_names_match_exactly(name: str, gbps: float) -> None:
    peak = devices.lookup(name)
    assert peak is not None and peak.gbps == gbps


def test_names_that_only_contain_a_known_name_are_unknown() -> None:
    """Substring matching gave the L40 the L4's peaks; unknown devices get a measurement."""
    assert devices.lookup("NVIDIA L40").fp32 != devices.lookup("NVIDIA L4").fp32
    assert devices.lookup("NVIDIA H200 NVL").fp32 != devices.lookup("NVIDIA H200").fp32
    for name in ["NVIDIA A100X", "NVIDIA A10G", "NVIDIA H100 80GB HBM3e-Custom", "NVIDIA L4X"]:
        assert devices.lookup(name) is None, name


def test_memory_budget_covers_what_the_job_ships() -> None:
    """transpose's square-8k sets (in + out, 512 MiB each) must fit the job's cgroup cap; before,
    8 sets (4 GiB: only inputs were counted against the 2 GiB budget) met a fixed 2 GiB cap."""
    from gradinglab.runner import grader

    n = 8192
    one_set = {
        "inputs": {"x": torch.empty(n, n, device="meta")},
        "outputs": {"out": torch.empty(n, n, device="meta")},
    }
    set_bytes = sandbox.tensor_bytes([one_set])
    assert set_bytes == 2 * n * n * 4
    n_sets = max(2, min(8, grader.BENCH_BYTES_BUDGET // set_bytes))
    assert n_sets == 4  # the 2 GiB shipping budget counts outputs too
    budget = sandbox.gpu_memory_mb(2048, sandbox.tensor_bytes([one_set] * n_sets))
    assert budget == 2048 + 2 * 2048
    assert sandbox.gpu_memory_mb(2048, 1) == 2050  # rounded up to whole MiB


def test_cgroup_limit_is_set_per_job(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pooled GPU sandbox starts at the ceiling; acquire sets THIS job's memory.max."""
    group = tmp_path / "job-cg"
    group.mkdir()
    (group / "memory.max").write_text(str(4096 * 1024 * 1024))
    spare = Sandbox(limits=pool.CEILING, gpu_index=0, base_dir=tmp_path)
    spare.cgroup, spare.memory_capped = cgroups.JobCgroup(group), True

    class Alive:
        pid = 1

        def poll(self) -> None:
            return None

    spare.proc = Alive()  # type: ignore[assignment]
    warm = pool.WarmPool(size=1, gpu_index=0)
    warm.readiness = canary.Readiness(True, "fake canary")
    warm._idle.append(spare)
    job = Limits(memory_mb=10_240)  # above the spawn ceiling: fine on the GPU path
    assert warm._fits(job)
    got = warm.acquire(job)
    assert got is spare and (group / "memory.max").read_text() == str(10_240 * 1024 * 1024)
    spare.proc = None
    spare.cgroup = None
    spare.cleanup()


def test_canary_decision() -> None:
    ok = canary.decide(driver=13000, nvcc=(13, 0), canary_status="accepted")
    assert ok.ok and "canary accepted" in ok.reason
    old = canary.decide(driver=12040, nvcc=(13, 0), canary_status=None)
    assert not old.ok and "CUDA 12.4" in old.reason and "13.0" in old.reason
    minor = canary.decide(driver=13000, nvcc=(13, 1), canary_status="accepted")
    assert minor.ok  # minor-version compatibility within one major
    wrong = canary.decide(
        driver=13000, nvcc=(13, 0), canary_status="wrong_answer", canary_message="x"
    )
    assert not wrong.ok and "wrong_answer" in wrong.reason
    assert not canary.decide(driver=None, nvcc=(13, 0), canary_status=None).ok
    assert not canary.decide(driver=13000, nvcc=None, canary_status=None).ok


def _fake_libcuda(folder: Path, body: str) -> Path:
    """A stand-in driver library exporting cuDriverGetVersion, built with the host's gcc."""
    src = folder / "fake_libcuda.c"
    src.write_text(f"int cuDriverGetVersion(int *v) {{ {body} }}\n")
    lib = folder / "libcuda.so.1"
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    return lib


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc to build a stand-in libcuda")
def test_driver_version_comes_from_the_driver_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first run on an H200 refused every job with "no CUDA driver answered": the version was
    asked of a private torch function that torch 2.11 does not have. It is now asked of libcuda,
    found where the sandbox finds it (LIBCUDA_DIRS) when the loader does not know it."""
    _fake_libcuda(tmp_path, "*v = 13000; return 0;")
    monkeypatch.setattr(sandbox, "LIBCUDA_DIRS", [str(tmp_path)])
    assert canary.driver_version() == 13000
    broken = tmp_path / "broken"
    broken.mkdir()
    lib = _fake_libcuda(broken, "*v = 0; return 100;")  # CUDA_ERROR_NO_DEVICE
    assert canary.driver_version(str(lib)) is None
    assert canary.driver_version(str(tmp_path / "absent.so")) is None


def test_canary_run_grades_on_the_gpu_and_checks_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    from gradinglab.runner import grader

    calls = []

    def fake_grade(**kw):
        calls.append(kw)
        return {"status": "wrong_answer", "message": "test tiny: out: got nan"}

    monkeypatch.setattr(grader, "grade", fake_grade)
    monkeypatch.setattr(canary, "nvcc_version", lambda: (13, 0))
    monkeypatch.setattr(canary, "driver_version", lambda: 13000)  # torch.cuda boundary
    got = grader.gpu_readiness(2)
    assert not got.ok and "got nan" in got.reason
    assert calls[0]["device"] == "cuda:2" and calls[0]["backend"] == "cuda"
    assert calls[0]["public_only"] is True
    monkeypatch.setattr(canary, "driver_version", lambda: 12080)
    assert (
        "CUDA 12.8" in grader.gpu_readiness(2).reason and len(calls) == 1
    )  # no job on a stale driver


def test_worker_with_a_failed_canary_refuses_jobs_and_says_why() -> None:
    runs = []

    def fake_run(index: int) -> canary.Readiness:
        runs.append(index)
        return canary.Readiness(False, "the driver supports CUDA 12.4 but nvcc builds for 13.0")

    warm = pool.WarmPool(size=0, gpu_index=1, canary=fake_run)
    for _ in range(2):
        with pytest.raises(SandboxStartError, match="refuses jobs: the driver supports CUDA 12.4"):
            warm.acquire(Limits())
    assert runs == [1]  # checked once per pool, then the finding is kept
    cpu = pool.WarmPool(size=0, gpu_index=None, canary=fake_run)
    cpu.check_ready()  # the CPU path has no canary
    assert runs == [1]
    unchecked = pool.WarmPool(size=0, gpu_index=0)  # fail closed: no check, no jobs
    with pytest.raises(SandboxStartError, match="no canary check"):
        unchecked.acquire(Limits())


def test_concurrent_jobs_wait_for_the_canary_and_it_runs_once() -> None:
    """Threads sharing a GPU pool (bench/gpu_check grades 8 at once): none may pass the check
    while the canary is still running, and the canary runs once. A pool-wide 'in canary' flag
    let every other thread through unchecked while the first one ran it."""
    runs: list[int] = []
    seen: list[bool] = []  # per thread: was the finding known when its check passed?

    def slow_canary(index: int) -> canary.Readiness:
        runs.append(index)
        warm.check_ready()  # the canary's own grading goes through the same check
        time.sleep(0.3)  # seconds: long enough for the other threads to arrive
        return canary.Readiness(True, "canary accepted")

    warm = pool.WarmPool(size=0, gpu_index=0, canary=slow_canary)

    def job() -> None:
        warm.check_ready()
        seen.append(warm.readiness is not None)

    threads = [threading.Thread(target=job) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert runs == [0]
    assert seen == [True] * 8


def test_a_refusing_gpu_worker_refuses_before_any_device_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """GPU boundary stubbed: this host has no CUDA, and a GPU pool whose canary failed is put in
    place. The job must be refused with the canary's reason before the grader touches the
    device (on the H200, refused jobs first built their GiBs of benchmark sets: 3-14 s each)."""
    from gradinglab.runner import grade
    from gradinglab.runner.testing import solution

    def failed(index: int) -> canary.Readiness:
        return canary.Readiness(False, "the canary kernel was not accepted (compile_error)")

    monkeypatch.setattr(pool, "_pools", {})
    warm = pool.get_pool(0, canary=failed)
    touched: list[str] = []
    monkeypatch.setattr(
        "gradinglab.runner.timing_check.device_info", lambda dev: touched.append("device_info")
    )
    doc = grade(
        slug="vector-add",
        source=solution("vector-add", "triton", "correct.py"),
        backend="triton",
        device="cuda:0",
    )
    assert doc["status"] == "infrastructure_error"
    assert "refuses jobs: the canary kernel was not accepted" in doc["message"], doc["message"]
    assert touched == [] and warm.readiness is not None
