#!/usr/bin/env bash
# One GPU session's check of the grading runner, for a bare GPU machine that has the CUDA image's
# python3 (torch, triton, numpy, PyYAML, pytest) but not this project's venv: bench/gpu_device_prepare.sh
# made .dev/ beside it. Stages, each capped so that the whole stays under LIMIT seconds (default 420):
#   1. bubblewrap and wheels from .dev/ (bwrap unpacked under /opt/pdcdeps only when none is installed)
#   2. vector-add correct.py / correct.cu graded once each (status, log tail, timing figures), then
#      correct.py again with every round's time recorded (bench/timing_noise.py)
#   3. triton.testing.do_bench of vector-add and the add kernel's GB/s against the table peak
#   4. bench/gpu_check.py, timed jobs first, with the time that is left
#   5. gradinglab/runner/tests/test_runner_gpu.py
# Everything lands in OUT (default var/gpu_device); the end of call.log is the summary.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-var/gpu_device}; mkdir -p "$OUT"; export OUT
LIMIT=${LIMIT:-420}
exec > >(tee "$OUT/call.log") 2>&1
T0=$(date +%s)
el() { echo "[t+$(($(date +%s) - T0))s] $*"; }
left() { echo $((LIMIT - ($(date +%s) - T0))); }

el "== machine"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv,noheader
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
if [ -d .dev/whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/pdc-site .dev/whl/*.whl \
    && export PYTHONPATH=/tmp/pdc-site
fi
if ! command -v bwrap >/dev/null && [ -z "${PDC_BWRAP:-}" ]; then
  mkdir -p /opt/pdcdeps
  for f in .dev/deb/*.deb; do dpkg -x "$f" /opt/pdcdeps; done
  export PDC_BWRAP=/opt/pdcdeps/usr/bin/bwrap
fi
export PYTHONUNBUFFERED=1
python3 -c "from gradinglab.runner import canary; print('driver CUDA', canary.driver_version(), 'nvcc', canary.nvcc_version())"

smoke() { # name file
  el "== grade vector-add $1"
  timeout 90 python3 -m gradinglab.runner grade vector-add "$2" --json >"$OUT/smoke_$1.json"
  echo "exit $?"
  python3 - "$OUT/smoke_$1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(d["status"], d["path"], d["message"][:600])
print((d.get("log") or "")[-2500:])
print(json.dumps(d.get("timing"))[:3000])  # every figure, the per-benchmark device events too
print(d.get("elapsed_s"), d.get("flags"), json.dumps(d.get("score"))[:300])
PY
}
smoke triton gradinglab/problems/vector-add/solutions/triton/correct.py
smoke cuda gradinglab/problems/vector-add/solutions/cuda/correct.cu

el "== timing noise: vector-add correct.py with every round recorded"
timeout 90 python3 bench/timing_noise.py --json "$OUT/timing_noise.json"
echo "exit $?"

el "== do_bench and the add kernel"
timeout 60 python3 -c "
import sys; sys.argv = ['gpu_check']; sys.path.insert(0, 'bench'); import gpu_check
print(gpu_check.gpu_do_bench_and_add())"

L=$(left)
el "== gpu_check, timed jobs first, ${L} s left"
if [ "$L" -gt 90 ]; then
  timeout $((L - 60)) python3 bench/gpu_check.py --out "$OUT" --timed-first --repeats 5 \
    --total-budget-s $(((L - 80) / 2)) >"$OUT/gpu_check.log" 2>&1
  echo "gpu_check exit $? ($(grep -c . "$OUT/gpu_check_rows.jsonl") rows)"
  grep -v "^ok " "$OUT/gpu_check.log" | tail -n 60
fi

L=$(left)
el "== GPU pytest module, ${L} s left"
if [ "$L" -gt 20 ]; then
  PDC_RUNNER_TIMING_BUDGET_S=1 timeout $((L - 10)) python3 -m pytest \
    gradinglab/runner/tests/test_runner_gpu.py -q -rs -p no:cacheprovider \
    -W ignore::pytest.PytestConfigWarning >"$OUT/pytest_gpu.log" 2>&1
  echo "pytest exit $?"
  tail -c 2500 "$OUT/pytest_gpu.log"
fi
el "== done"
