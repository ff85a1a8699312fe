"""Device peaks for the roofline, and a measured-bandwidth fallback for unknown GPUs.

Figures are vendor dense (no sparsity) peaks: HBM/GDDR bandwidth in GB/s (1e9 B/s), compute in
TFLOP/s (1e12 flop/s). `fp32` is CUDA-core FP32, `tf32`/`bf16` tensor-core dense.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Peak:
    gbps: float
    fp32: float
    tf32: float
    bf16: float


# Matched by substring of torch.cuda.get_device_name(), most specific first.
PEAKS: list[tuple[str, Peak]] = [
    ("H200", Peak(gbps=4800, fp32=67, tf32=494, bf16=989)),
    ("H100 PCIe", Peak(gbps=2000, fp32=51, tf32=378, bf16=756)),
    ("H100 NVL", Peak(gbps=3900, fp32=60, tf32=418, bf16=835)),
    ("H100", Peak(gbps=3350, fp32=67, tf32=494, bf16=989)),
    ("A100-SXM4-40GB", Peak(gbps=1555, fp32=19.5, tf32=156, bf16=312)),
    ("A100-PCIE-40GB", Peak(gbps=1555, fp32=19.5, tf32=156, bf16=312)),
    ("A100 80GB PCIe", Peak(gbps=1935, fp32=19.5, tf32=156, bf16=312)),
    ("A100", Peak(gbps=2039, fp32=19.5, tf32=156, bf16=312)),
    ("L40S", Peak(gbps=864, fp32=91.6, tf32=183, bf16=362)),
    ("L4", Peak(gbps=300, fp32=30.3, tf32=60, bf16=121)),
    ("A10", Peak(gbps=600, fp32=31.2, tf32=62.5, bf16=125)),
    ("RTX 5090", Peak(gbps=1792, fp32=104.8, tf32=104.8, bf16=209.5)),
    ("RTX 4090", Peak(gbps=1008, fp32=82.6, tf32=82.6, bf16=165.2)),
    ("RTX 3090", Peak(gbps=936, fp32=35.6, tf32=35.6, bf16=71)),
    ("T4", Peak(gbps=320, fp32=8.1, tf32=8.1, bf16=65)),
]


def lookup(name: str) -> Peak | None:
    for key, peak in PEAKS:
        if key.lower() in name.lower():
            return peak
    return None


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
