"""bench/gpu_check.sh without a GPU (issue 12 must-hold 3): `--dry-run` exercises the plan (every
solution and every exploit of every package), the time budget that keeps the run under 8 minutes,
the verdict logic and both report writers. The GPU figures themselves need a GPU host: a stand-in
grade returns the expected status here, so nothing about a GPU is proved by this test."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
PROBLEMS = ROOT / "gradinglab" / "problems"


def _module():
    spec = importlib.util.spec_from_file_location("gpu_check", ROOT / "bench" / "gpu_check.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["gpu_check"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _declared() -> set[str]:
    files = set()
    for pkg in PROBLEMS.iterdir():
        if not (pkg / "problem.yaml").is_file():
            continue
        expected = yaml.safe_load((pkg / "solutions" / "expected.yaml").read_text())
        for backend in ("triton", "cuda"):
            files |= {f"{pkg.name}/solutions/{backend}/{n}" for n in expected.get(backend) or {}}
        manifest = yaml.safe_load((pkg / "exploits" / "manifest.yaml").read_text())
        files |= {f"{pkg.name}/exploits/{n}" for n in manifest["exploits"]}
    return files


def test_dry_run_plans_every_solution_and_exploit_and_writes_both_reports(tmp_path) -> None:
    result = subprocess.run(
        ["bash", "bench/gpu_check.sh", "--dry-run", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    report = json.loads((tmp_path / "gpu_check.json").read_text())
    planned = {f"{r['job']['problem']}/{r['job']['file']}" for r in report["rows"]}
    assert planned == _declared()
    assert report["dry_run"] and report["estimate_s"] <= 480  # the 8-minute target on one H200
    assert len(report["repeat"]["medians_ms"]) == 10
    md = (tmp_path / "gpu_check.md").read_text()
    assert "DRY RUN" in md and md.count("\n| ") == len(planned) + 1  # header + one row per job
    assert "do_bench" in md and "Add kernel" in md


def test_budget_shrinks_with_the_plan_and_stays_in_bounds() -> None:
    gc = _module()
    jobs = gc.plan()
    budget, estimate = gc.timing_budget(jobs)
    assert gc.MIN_BUDGET_S <= budget <= gc.MAX_BUDGET_S and estimate <= gc.TOTAL_BUDGET_S + 1
    more, _ = gc.timing_budget(jobs + [j for j in jobs if j.timed_benchmarks])
    assert more < budget
    few, _ = gc.timing_budget(jobs[:3])
    assert few == gc.MAX_BUDGET_S


def test_verdicts_mismatch_fails_and_pending_is_reported(tmp_path, monkeypatch) -> None:
    gc = _module()
    job = gc.Job("vector-add", "triton", "exploits/alias_output.py", "exploit", "wrong_answer")
    assert gc.judge(job, "wrong_answer") == "ok" and gc.judge(job, "accepted") == "mismatch"
    job.pending = "lab-trust: snapshots"
    assert gc.judge(job, "accepted") == "not_defended"
    assert gc.judge(gc.Job("p", "triton", "f", "solution", None), "accepted") == "reported"

    real = gc.standin_grade

    def liar(job):
        doc = real(job)
        return {**doc, "status": "accepted"} if job.want == "compile_error" else doc

    monkeypatch.setattr(gc, "standin_grade", liar)
    assert gc.main(["--dry-run", "--out", str(tmp_path)]) == 1
    assert json.loads((tmp_path / "gpu_check.json").read_text())["mismatches"] > 0


def test_repeat_spread_is_the_cv_of_the_medians() -> None:
    gc = _module()
    spread = gc.repeat_spread([1.0, 1.1, 0.9, 1.0])
    assert abs(spread["cv"] - 0.0816) < 1e-3 and abs(spread["spread_pct"] - 20.0) < 1e-9
    assert gc.repeat_spread([None, 1.0])["cv"] is None
