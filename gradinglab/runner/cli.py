"""Command line: `python -m gradinglab.runner grade|problems` (no Django) and the manage.py commands.

Exit codes: 0 accepted, 1 any other student verdict, 2 usage error, 3 infrastructure error.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

EXIT_ACCEPTED, EXIT_VERDICT, EXIT_USAGE, EXIT_INFRA = 0, 1, 2, 3


def exit_code(doc: dict[str, Any]) -> int:
    if doc["status"] == "accepted":
        return EXIT_ACCEPTED
    return EXIT_INFRA if doc["status"] == "infrastructure_error" else EXIT_VERDICT


def render_text(doc: dict[str, Any]) -> str:
    lines = [
        f"{doc['problem']} [{doc['backend']}, {doc['path']} path]: {doc['status'].upper()}",
        doc["message"],
    ]
    for t in doc["tests"]:
        mark = "PASS" if t["passed"] else "FAIL"
        err = f"  max abs err {t['max_abs_error']:.3g}" if t["max_abs_error"] is not None else ""
        lines.append(
            f"  {mark} {t['name']} {t['shape']} {t['dtype']}{err}  {t['message']}".rstrip()
        )
    comp = doc.get("compile")
    if comp and comp.get("ptxas"):
        for k in comp["ptxas"]["kernels"]:
            lines.append(
                f"  ptxas {k['name']}: {k['registers']} registers, {k['shared_mem_bytes']} B smem, "
                f"{k['spill_stores_bytes']} B spill stores, {k['spill_loads_bytes']} B spill loads"
            )
    if comp and not comp.get("ok") and comp.get("log"):
        lines += ["  compiler output:", *("    " + ln for ln in comp["log"].splitlines()[:40])]
    tm = doc.get("timing")
    if tm:
        lines.append(
            f"  timing: median {tm['median_ms']:.4f} ms over {tm['runs']} runs (cv {tm['cv']:.2%})"
            f", {tm['gbps'] or 0:.1f} GB/s, roofline {tm['roofline_fraction'] or 0:.1%}"
            f", speedup vs PyTorch {tm['speedup_vs_reference'] or 0:.2f}x"
        )
        for b in tm.get("benchmarks") or []:
            lo, hi = b["ci95_ms"]
            lines.append(
                f"    {b['name']}: median {b['median_ms']:.4f} ms (95% {lo:.4f}-{hi:.4f}), "
                f"{b['runs']} rounds, roofline {b['roofline_fraction'] or 0:.1%}"
            )
    if doc.get("score"):
        s = doc["score"]
        lines.append(f"  score: {s['total']:g} / {s['max']:g} ({s['note']})")
    lines += [f"  flag: {f}" for f in doc["flags"]]
    if doc["log"].strip():
        lines += ["  output:", *("    " + ln for ln in doc["log"].splitlines()[-20:])]
    lines.append(
        f"  device {doc['device']['name']}, runner {doc['runner_version']}, {doc['elapsed_s']} s"
    )
    return "\n".join(lines)


def run_grade(slug: str, file: str, backend: str | None, as_json: bool, out: TextIO) -> int:
    from . import ProblemNotFound, load_problem  # no torch until the arguments are checked

    try:
        problem = load_problem(slug)
    except ProblemNotFound as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    path = Path(file)
    if backend is None:
        backend = "cuda" if path.suffix in (".cu", ".cuh") else "triton"
    if backend not in problem.backends:
        print(f"error: {slug} offers {', '.join(problem.backends)}, not {backend}", file=sys.stderr)
        return EXIT_USAGE
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: cannot read {file}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    from . import pool
    from .grader import grade

    pool.configure(0)  # one job per CLI run: a warm spare would be started for nothing
    doc = grade(slug=slug, source=source, backend=backend)
    out.write(
        (json.dumps(doc, ensure_ascii=False, indent=2) if as_json else render_text(doc)) + "\n"
    )
    return exit_code(doc)


def run_problems(as_json: bool, out: TextIO) -> int:
    from . import list_problems

    problems = list_problems()
    if as_json:
        rows = [
            {"slug": p.slug, "title": p.title, "backends": p.backends, "sections": p.sections}
            for p in problems
        ]
        out.write(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
    else:
        for p in problems:
            out.write(
                f"{p.slug:<18} {'/'.join(p.backends):<12} {p.title.get('zh', '')} "
                f"({p.title.get('en', '')})  {' '.join(p.sections)}\n"
            )
    return EXIT_ACCEPTED


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gradinglab.runner")
    sub = parser.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("grade", help="grade one submission file")
    g.add_argument("slug")
    g.add_argument("file")
    g.add_argument("--backend", choices=["triton", "cuda"])
    g.add_argument("--json", action="store_true")
    p = sub.add_parser("problems", help="list problem packages")
    p.add_argument("--json", action="store_true")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return EXIT_USAGE if exc.code else EXIT_ACCEPTED
    if args.cmd == "grade":
        return run_grade(args.slug, args.file, args.backend, args.json, sys.stdout)
    return run_problems(args.json, sys.stdout)
