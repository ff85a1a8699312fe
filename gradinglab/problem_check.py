"""The publishing gate of a problem package (issue 11): its solutions and its exploit suite must all
get their expected verdicts on the CPU path.

- `solutions/expected.yaml`: the CPU-path status of every solution (as test_solutions checks);
  a correct solution must also pass the static pre-check.
- `exploits/manifest.yaml` (written by scripts/make_exploits.py): per exploit file the runner
  status it must get (`expect`) and what the pre-check must do with it (`precheck`: refuse, flag,
  pass). An entry with `pending` names a defence that is not on main yet: a mismatch there is
  reported as "not yet defended" and does not block; a match says the `pending` can go.
  `needs: timing` entries only trigger on repeated calls of one shape: they are graded with the
  CPU stand-in for the device clock when the runner offers it (`grade(..., cpu_timing=True)`),
  else reported as not exercised (also not blocking, also reported).

Runs real grading jobs (the sandbox, the warm pool), two at a time (2 cores). Django-side only for
the pre-check's translated messages; no database access here (services records the outcome).
"""

from __future__ import annotations

import contextlib
import inspect
import tempfile
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from gradinglab import precheck
from gradinglab.runner.yamlkeys import DuplicateKeyError, load_unique

PARALLEL_JOBS = 2  # the CI machine has 2 cores
SUFFIX_BACKEND = {".py": "triton", ".cu": "cuda"}


@dataclass
class Row:
    kind: str  # solution | exploit
    file: str  # path inside the package, e.g. exploits/alias_output.py
    backend: str
    expect: str
    got: str = ""
    precheck_expect: str = ""
    precheck_got: str = ""
    pending: str = ""
    needs: str = ""
    message: str = ""
    outcome: str = ""  # ok | mismatch | not_defended | not_exercised | defended_now

    @property
    def blocks(self) -> bool:
        return self.outcome == "mismatch"


@dataclass
class Report:
    slug: str
    rows: list[Row] = field(default_factory=list)
    error: str = ""

    @property
    def passed(self) -> bool:
        return not self.error and bool(self.rows) and not any(r.blocks for r in self.rows)

    def as_json(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "passed": self.passed,
            "error": self.error,
            "rows": [asdict(r) for r in self.rows],
        }


class PackageInvalid(ValueError):
    pass


def _load_yaml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise PackageInvalid(f"{path.name} is missing")
    try:  # an exploit listed twice was checked once, against its second expectation only
        data = load_unique(path.read_text(encoding="utf-8")) or {}
    except DuplicateKeyError as exc:
        raise PackageInvalid(f"{path.name}: {exc}") from exc
    if not isinstance(data, dict):
        raise PackageInvalid(f"{path.name} is not a mapping")
    return data


def planned_rows(pkg: Path, only: Iterable[str] | None = None) -> list[Row]:
    """Every solution and exploit the package declares, with its expectations."""
    rows = []
    expected = _load_yaml(pkg / "solutions" / "expected.yaml")
    for backend in ("triton", "cuda"):
        for name, status in (expected.get(backend) or {}).items():
            good = status in ("accepted", "needs_gpu") and name.startswith("correct")
            rows.append(
                Row(
                    "solution",
                    f"solutions/{backend}/{name}",
                    backend,
                    status,
                    precheck_expect="pass" if good else "",
                )
            )
    manifest = _load_yaml(pkg / "exploits" / "manifest.yaml").get("exploits") or {}
    if not manifest:
        raise PackageInvalid("exploits/manifest.yaml lists no exploits")
    for name, meta in manifest.items():
        backend = meta.get("backend") or SUFFIX_BACKEND.get(Path(name).suffix, "")
        if backend not in SUFFIX_BACKEND.values() or "expect" not in meta:
            raise PackageInvalid(f"exploit {name}: needs a backend and an expect")
        if meta.get("precheck", "refuse") not in ("refuse", "flag", "pass"):
            raise PackageInvalid(f"exploit {name}: precheck must be refuse, flag or pass")
        rows.append(
            Row(
                "exploit",
                f"exploits/{name}",
                backend,
                str(meta["expect"]),
                precheck_expect=str(meta.get("precheck", "refuse")),
                pending=str(meta.get("pending") or ""),
                needs=str(meta.get("needs") or ""),
            )
        )
    if only is not None:
        wanted = set(only)
        rows = [r for r in rows if r.file in wanted or Path(r.file).name in wanted]
    for row in rows:
        if not (pkg / row.file).is_file():
            raise PackageInvalid(f"{row.file} is listed but missing")
    return rows


def _precheck_outcome(source: str, backend: str, policy: dict[str, str]) -> str:
    try:
        verdict = precheck.check(source, backend, policy)
    except precheck.CheckerFailed as exc:
        return f"checker failed: {exc}"
    return "refuse" if verdict.refused else "flag" if verdict.flagged else "pass"


def cpu_timing_supported() -> bool:
    from gradinglab.runner import grade

    return "cpu_timing" in inspect.signature(grade).parameters


def _grade(slug: str, row: Row, source: str) -> dict[str, Any]:
    from gradinglab.runner import grade

    kwargs: dict[str, Any] = {"cpu_timing": True} if row.needs == "timing" else {}
    return grade(slug=slug, source=source, backend=row.backend, device="cpu", **kwargs)


@contextlib.contextmanager
def _small_benchmarks(slug: str) -> Iterator[None]:
    """The package with its benchmarks replaced by one of its test shapes, for the CPU stand-in
    clock (the GPU shapes would take hours under the interpreter). Points PDC_PROBLEMS_DIR at the
    copy, which is process-wide: the timed rows run alone, after the parallel ones."""
    from gradinglab.runner import load_problem
    from gradinglab.runner.testing import problem_copy, problems_dir_override

    problem = load_problem(slug)
    test = problem.tests[1] if len(problem.tests) > 1 else problem.tests[0]
    bench = [{"name": f"cpu-standin-{test.name}", "shape": dict(test.shape)}]
    with tempfile.TemporaryDirectory(prefix="pdc-check-") as tmp:
        with problems_dir_override(problem_copy(Path(tmp), slug, benchmarks=bench)):
            yield


def _judge(row: Row) -> str:
    grade_ok = row.got == row.expect
    pre_ok = not row.precheck_expect or row.precheck_got == row.precheck_expect
    if row.needs == "timing" and not cpu_timing_supported():
        return "not_exercised"
    if grade_ok and pre_ok:
        return "defended_now" if row.pending else "ok"
    return "not_defended" if row.pending and pre_ok else "mismatch"


def run(slug: str, pkg: Path, only: Iterable[str] | None = None) -> Report:
    """Grade every declared file of the package on the CPU path and judge each against its
    expectation. Never raises for the package's content: problems come back in the report."""
    report = Report(slug)
    try:
        rows = planned_rows(pkg, only)
        policy = precheck.policy_for(slug)
    except (PackageInvalid, precheck.CheckerFailed, yaml.YAMLError) as exc:
        report.error = str(exc)
        return report

    def one(row: Row) -> Row:
        source = (pkg / row.file).read_text(encoding="utf-8")
        row.precheck_got = _precheck_outcome(source, row.backend, policy)
        if row.needs == "timing" and not cpu_timing_supported():
            row.outcome = "not_exercised"  # grading it here would prove nothing
            return row
        doc = _grade(slug, row, source)
        row.got, row.message = doc["status"], doc["message"][:300]
        row.outcome = _judge(row)
        return row

    timed = [r for r in rows if r.needs == "timing"]
    with ThreadPoolExecutor(max_workers=PARALLEL_JOBS) as ex:
        done = list(ex.map(one, [r for r in rows if r.needs != "timing"]))
    if timed and cpu_timing_supported():
        with _small_benchmarks(slug):
            done += [one(r) for r in timed]
    else:
        done += [one(r) for r in timed]
    order = {id(r): i for i, r in enumerate(rows)}
    report.rows = sorted(done, key=lambda r: order[id(r)])
    return report


def format_report(report: Report) -> str:
    marks = {
        "ok": "ok",
        "mismatch": "MISMATCH",
        "not_defended": "NOT YET DEFENDED",
        "not_exercised": "NOT EXERCISED",
        "defended_now": "ok (defended now: drop `pending`)",
    }
    lines = [f"{report.slug}: {'PASSED' if report.passed else 'REFUSED'}"]
    if report.error:
        lines.append(f"  package error: {report.error}")
    for r in report.rows:
        pre = (
            f", pre-check {r.precheck_got} (want {r.precheck_expect})" if r.precheck_expect else ""
        )
        line = f"  {marks.get(r.outcome, r.outcome):34s} {r.file}: {r.got} (want {r.expect}){pre}"
        if r.pending and r.outcome in ("not_defended", "defended_now"):
            line += f" — pending: {r.pending}"
        if r.outcome == "not_exercised":
            line += " — needs the CPU stand-in clock (grade(cpu_timing=True)), not in this runner"
        if r.outcome == "mismatch":
            line += f"\n      {r.message}"
        lines.append(line)
    return "\n".join(lines)
