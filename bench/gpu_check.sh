#!/usr/bin/env bash
# GPU-path acceptance run of the grading runner (issue 12): every solution and exploit graded on the
# GPU, 10 repeats of one solution (CV), do_bench comparison, an add kernel's GB/s against the
# device peak; writes OUTDIR/gpu_check.json and OUTDIR/gpu_check.md (bench/gpu_check.py says how).
# Then the GPU-only pytest module and one recorded grade (bench/timing_noise.py). Designed to
# finish under 8 minutes on one H200.
#   bench/gpu_check.sh [OUTDIR]            on a CUDA host
#   bench/gpu_check.sh --dry-run [OUTDIR]  anywhere: the plan, the time budget and the reports only
# PY (default .venv/bin/python) is the interpreter; GPU_CHECK_TOTAL_S (default 420) the seconds the
# grading part should take, which sets the timed loop per benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
DRY=()
if [ "${1:-}" = "--dry-run" ]; then DRY=(--dry-run); shift; fi
OUTDIR=${1:-${OUT:-var/gpu_check}}
mkdir -p "$OUTDIR"
export PYTHONUNBUFFERED=1
if [ ${#DRY[@]} -eq 0 ]; then
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
fi
status=0
"$PY" bench/gpu_check.py "${DRY[@]}" --out "$OUTDIR" --total-budget-s "${GPU_CHECK_TOTAL_S:-420}" || status=$?
if [ ${#DRY[@]} -eq 0 ]; then
  "$PY" -m pytest gradinglab/runner/tests/test_runner_gpu.py -q -rs || status=$?
  # The harness's own round (no-op rounds) against the graded time: docs/benchmarks.md, "Harness noise".
  "$PY" bench/timing_noise.py --json "$OUTDIR/timing_noise.json" || status=$?
fi
exit "$status"
