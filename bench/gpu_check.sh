#!/usr/bin/env bash
# GPU-path verification of the grading runner (run on a CUDA host; nothing here runs on CPU CI).
#   bench/gpu_check.sh [OUTDIR]
# 1. grades every solution of every problem on the GPU path and compares with expected.yaml
#    (the `gpu:` map where a package gives one, else accepted for correct.*, not accepted otherwise);
# 2. grades vector-add/cuda/correct.cu 10 times and reports the spread of the median times;
# 3. times the Triton vector-add solution with triton.testing.do_bench in a plain process and
#    prints it beside the runner's median for the same shape.
# Also runs the GPU-only pytest module. Results: stdout and OUTDIR/gpu_check.json.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
OUTDIR=${1:-${OUT:-var/gpu_check}}
mkdir -p "$OUTDIR"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
export PYTHONUNBUFFERED=1
"$PY" - "$OUTDIR" <<'PYEOF'
import json, statistics, sys, time
from pathlib import Path
import torch, yaml
from gradinglab.runner import grade, list_problems
from gradinglab.runner.result import validate

assert torch.cuda.is_available(), "gpu_check.sh needs a CUDA GPU"
out = Path(sys.argv[1]); report = {"device": torch.cuda.get_device_name(0), "solutions": [], "repeat": {}}
bad = 0
for p in list_problems():
    sol = p.path / "solutions"
    exp = yaml.safe_load((sol / "expected.yaml").read_text()) if (sol / "expected.yaml").is_file() else {}
    gpu_exp = (exp.get("gpu") or {})
    for backend in p.backends:
        for name, cpu_status in (exp.get(backend) or {}).items():
            want = (gpu_exp.get(backend) or {}).get(name)
            if want is None:
                want = "accepted" if cpu_status in ("accepted", "needs_gpu") and name.startswith("correct") else (
                    cpu_status if cpu_status in ("compile_error", "wrong_answer") else None)  # OOB on a GPU may go unnoticed: reported, not judged
            t = time.time()
            doc = grade(slug=p.slug, source=(sol / backend / name).read_text(), backend=backend)
            validate(doc)
            ok = want is None or doc["status"] == want
            bad += not ok
            tm = doc.get("timing") or {}
            row = {"problem": p.slug, "backend": backend, "file": name, "status": doc["status"],
                   "want": want, "ok": ok, "median_ms": tm.get("median_ms"), "gbps": tm.get("gbps"),
                   "tflops": tm.get("tflops"), "roofline": tm.get("roofline_fraction"),
                   "speedup": tm.get("speedup_vs_reference"), "runs": tm.get("runs"), "cv": tm.get("cv"),
                   "flags": doc["flags"], "message": doc["message"][:200], "s": round(time.time() - t, 1)}
            report["solutions"].append(row)
            print(("OK  " if ok else "BAD ") + json.dumps(row, ensure_ascii=False))
src = (Path("gradinglab/problems/vector-add/solutions/cuda/correct.cu")).read_text()
medians = []
for _ in range(10):
    d = grade(slug="vector-add", source=src, backend="cuda")
    medians.append(d["timing"]["median_ms"] if d["timing"] else float("nan"))
report["repeat"] = {"medians_ms": medians, "spread_pct": 100 * (max(medians) - min(medians)) / statistics.median(medians)}
print("repeat vector-add/cuda 10x medians (ms):", ["%.4f" % m for m in medians],
      "spread %.2f%%" % report["repeat"]["spread_pct"])
# do_bench comparison (plain process, no sandbox) for the Triton solution on the benchmark shape.
import importlib.util, triton.testing
spec = importlib.util.spec_from_file_location("va", "gradinglab/problems/vector-add/solutions/triton/correct.py")
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
n = 16777216
x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda"); o = torch.empty_like(x)
db = triton.testing.do_bench(lambda: m.vector_add(x, y, o), return_mode="median")
d = grade(slug="vector-add", source=Path(spec.origin).read_text(), backend="triton")
report["do_bench"] = {"do_bench_median_ms": db, "runner_median_ms": (d["timing"] or {}).get("median_ms")}
print("triton vector-add n=2^24: do_bench median %.4f ms, runner median %s ms" % (db, report["do_bench"]["runner_median_ms"]))
(out / "gpu_check.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
print("mismatches:", bad)
sys.exit(1 if bad else 0)
PYEOF
"$PY" -m pytest gradinglab/tests/test_runner_gpu.py -q -rs
