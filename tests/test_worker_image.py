"""The GPU worker image (Dockerfile.gpu) stays buildable and runs what the rest of the project runs.

No container engine runs here (the base images cannot be fetched), so these read the Dockerfiles:
one Python image for web, CPU and GPU workers, the version pyproject.toml allows, a CUDA repository
for that image's Debian release, the compilers the runner calls, and the nvcc path the runner is told.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# NVIDIA's apt repositories by Debian codename (developer.download.nvidia.com/compute/cuda/repos/).
CUDA_REPO_BY_CODENAME = {"bookworm": "debian12", "trixie": "debian13"}


def _from(dockerfile: str) -> str:
    return re.search(r"^FROM (\S+)", (ROOT / dockerfile).read_text(), re.M).group(1)


def _gpu() -> str:
    return (ROOT / "Dockerfile.gpu").read_text()


def _apt_packages(text: str) -> set[str]:
    runs = re.findall(r"apt-get install -y --no-install-recommends ([^&\\]+)", text)
    return {word for run in runs for word in run.split()}


def test_gpu_worker_uses_the_web_images_python() -> None:
    """One interpreter for the project: the GPU image starts from the web/CPU image's base, and
    that base is the Python pyproject.toml allows (the old base, Ubuntu 24.04, has no 3.11)."""
    base = _from("Dockerfile")
    assert _from("Dockerfile.gpu") == base
    version = re.fullmatch(r"python:(\d+\.\d+)-slim-(\w+)", base).group(1)
    allowed = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert allowed == f">={version},<3.{int(version.split('.')[1]) + 1}"


def test_cuda_repository_matches_the_base_release() -> None:
    codename = re.fullmatch(r"python:[\d.]+-slim-(\w+)", _from("Dockerfile.gpu")).group(1)
    repo = re.search(r"/compute/cuda/repos/(\w+)/x86_64", _gpu()).group(1)
    assert repo == CUDA_REPO_BY_CODENAME[codename]


def test_gpu_image_has_the_runners_compilers_and_names_its_nvcc() -> None:
    """nvcc and its host compiler (g++, also Triton's launcher build); PDC_NVCC points into the
    CUDA release the image installs; the container toolkit is asked for compute."""
    text = _gpu()
    packages = _apt_packages(text)
    ((major, minor),) = {
        m.groups() for p in packages if (m := re.fullmatch(r"cuda-nvcc-(\d+)-(\d+)", p))
    }
    assert {"g++", "bubblewrap", f"cuda-cudart-dev-{major}-{minor}"} <= packages
    nvcc = re.search(r"PDC_NVCC=(\S+)", text).group(1)
    assert nvcc == f"/usr/local/cuda-{major}.{minor}/bin/nvcc"
    capabilities = re.search(r"NVIDIA_DRIVER_CAPABILITIES=(\S+)", text).group(1).split(",")
    assert "compute" in capabilities
