"""Device peaks for the roofline, and a measured-bandwidth fallback for unknown GPUs.

Figures are vendor dense (no sparsity) peaks: HBM/GDDR bandwidth in GB/s (1e9 B/s), compute in
TFLOP/s (1e12 flop/s). `fp32` is CUDA-core FP32, `tf32`/`bf16` tensor-core dense.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Peak:
    gbps: float
    fp32: float
    tf32: float
    bf16: float


# Keyed by the device name with the vendor prefix dropped (`normalize_name`), matched EXACTLY:
# a substring match would give an "NVIDIA L40" the L4's peaks and an H200 NVL the H200's.
# torch.cuda.get_device_name() spellings; an unlisted device gets a measured bandwidth instead.
PEAKS: list[tuple[str, Peak]] = [
    ("h200", Peak(gbps=4800, fp32=67, tf32=494, bf16=989)),
    ("h200 nvl", Peak(gbps=4800, fp32=60, tf32=418, bf16=835)),
    ("h100 80gb hbm3", Peak(gbps=3350, fp32=67, tf32=494, bf16=989)),  # SXM
    ("h100 pcie", Peak(gbps=2000, fp32=51, tf32=378, bf16=756)),
    ("h100 nvl", Peak(gbps=3900, fp32=60, tf32=418, bf16=835)),
    ("b200", Peak(gbps=8000, fp32=75, tf32=1125, bf16=2250)),
    ("a100-sxm4-40gb", Peak(gbps=1555, fp32=19.5, tf32=156, bf16=312)),
    ("a100-sxm4-80gb", Peak(gbps=2039, fp32=19.5, tf32=156, bf16=312)),
    ("a100-pcie-40gb", Peak(gbps=1555, fp32=19.5, tf32=156, bf16=312)),
    ("a100 80gb pcie", Peak(gbps=1935, fp32=19.5, tf32=156, bf16=312)),
    ("l40s", Peak(gbps=864, fp32=91.6, tf32=183, bf16=362)),
    ("l40", Peak(gbps=864, fp32=90.5, tf32=90.5, bf16=181)),
    ("l4", Peak(gbps=300, fp32=30.3, tf32=60, bf16=121)),
    ("a10", Peak(gbps=600, fp32=31.2, tf32=62.5, bf16=125)),
    ("rtx 5090", Peak(gbps=1792, fp32=104.8, tf32=104.8, bf16=209.5)),
    ("rtx 4090", Peak(gbps=1008, fp32=82.6, tf32=82.6, bf16=165.2)),
    ("rtx 3090", Peak(gbps=936, fp32=35.6, tf32=35.6, bf16=71)),
    ("t4", Peak(gbps=320, fp32=8.1, tf32=8.1, bf16=65)),
]
_VENDOR_WORDS = ("nvidia", "tesla", "geforce")


def normalize_name(name: str) -> str:
    """Fold case, spacing and the vendor words: "NVIDIA GeForce RTX 4090" -> "rtx 4090"."""
    words = name.lower().split()
    while words and words[0] in _VENDOR_WORDS:
        words.pop(0)
    return " ".join(words)


_BY_NAME = dict(PEAKS)


def lookup(name: str) -> Peak | None:
    return _BY_NAME.get(normalize_name(name))


def compute_peak(peak: Peak, dtype: str) -> float:
    """The highest compute rate a legitimate kernel could reach for this dtype (TFLOP/s).

    float32 takes the TF32 tensor-core rate: tl.dot uses TF32 by default, and the physical floor
    must never reject a legitimate kernel.
    """
    if dtype in ("float16", "bfloat16"):
        return peak.bf16
    if dtype == "float32":
        return max(peak.fp32, peak.tf32)
    return peak.fp32


def measure_bandwidth_gbps(device: object = None, nbytes: int = 1 << 30) -> float:
    """Device-to-device copy bandwidth (reads + writes), best of 5, for unknown devices."""
    import torch

    src = torch.empty(nbytes // 4, dtype=torch.float32, device=device or "cuda")
    dst = torch.empty_like(src)
    best = float("inf")
    for _ in range(5):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        dst.copy_(src)
        end.record()
        torch.cuda.synchronize()
        best = min(best, start.elapsed_time(end) / 1e3)
    return 2 * nbytes / best / 1e9


# --- which /dev node is which GPU ----------------------------------------------------------------

NVIDIA_PROC = "/proc/driver/nvidia/gpus"  # one directory per GPU (PCI bus id), with `information`


@dataclass(frozen=True)
class GpuNode:
    uuid: str  # "GPU-8c0e…": what CUDA_VISIBLE_DEVICES accepts, stable across renumbering
    minor: int  # /dev/nvidia<minor>; not the CUDA ordinal (enumeration order is by PCI or speed)
    model: str


def gpu_nodes(root: str | None = None) -> list[GpuNode]:
    """Every GPU the driver lists (parsed from its `information` files: "Key: value" lines)."""
    base = Path(root or os.environ.get("PDC_NVIDIA_PROC", NVIDIA_PROC))
    nodes = []
    for info in sorted(base.glob("*/information")):
        fields = {}
        try:
            for line in info.read_text(errors="replace").splitlines():
                key, sep, value = line.partition(":")
                if sep:
                    fields[key.strip()] = value.strip()
            nodes.append(
                GpuNode(
                    uuid=fields["GPU UUID"],
                    minor=int(fields["Device Minor"]),
                    model=fields.get("Model", ""),
                )
            )
        except (OSError, KeyError, ValueError):
            continue  # an unreadable entry is not a GPU we can hand out
    return nodes


def gpu_node(uuid: str, root: str | None = None) -> GpuNode:
    """The node of the GPU with this UUID; LookupError (with the UUIDs seen) when absent."""
    want = uuid if uuid.startswith("GPU-") else f"GPU-{uuid}"
    nodes = gpu_nodes(root)
    for node in nodes:
        if node.uuid.lower() == want.lower():
            return node
    seen = ", ".join(n.uuid for n in nodes) or "none"
    raise LookupError(f"GPU {want} is not in {root or NVIDIA_PROC} (driver lists: {seen})")


def gpu_uuid(index: int) -> str:
    """UUID of the trusted process's CUDA device `index` (torch.cuda boundary)."""
    import torch

    return f"GPU-{torch.cuda.get_device_properties(index).uuid}"
