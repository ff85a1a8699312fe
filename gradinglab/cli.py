"""Students' command-line tool (no Django needed on the laptop):

    python -m gradinglab.cli test   <slug> <file>      # public tests locally (Triton interpreter)
    python -m gradinglab.cli submit <slug> <file>      # submit, wait, print the report
    python -m gradinglab.cli status <id>

Server and token: --url / --token, or PDC_URL / PDC_TOKEN (the token from your profile page).
`test` and `submit` print the same report (the runner's text format).
Exit codes: 0 accepted, 1 other verdict, 2 usage or server refusal, 3 infrastructure error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from gradinglab.runner.cli import EXIT_INFRA, EXIT_USAGE, exit_code, render_text

HTTP_TIMEOUT_S = 30  # seconds per request
POLL_INTERVAL_S = 1.0  # seconds between status polls while waiting
DEFAULT_WAIT_S = 900  # seconds; longer than the worker's hard limit (660 s) plus queueing


class CliError(RuntimeError):
    pass


def _backend_for(path: Path, backend: str | None) -> str:
    return backend or ("cuda" if path.suffix in (".cu", ".cuh") else "triton")


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {path}: {exc}") from exc


def _request(args: argparse.Namespace, method: str, path: str, body: dict | None = None) -> dict:
    if not args.token:
        raise CliError("no API token: pass --token or set PDC_TOKEN (see your profile page)")
    request = urllib.request.Request(
        f"{args.url.rstrip('/')}/api/v1/{path}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Authorization": f"Token {args.token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_S) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as exc:
        raise CliError(f"server refused ({exc.code}): {_error_text(exc)}") from exc
    except (urllib.error.URLError, OSError) as exc:
        raise CliError(f"cannot reach {args.url}: {exc}") from exc


def _render(doc: dict[str, Any]) -> str:
    """The runner's report without its package-scale breakdown ("60 / 100"): students see one
    scale, the assignment's points, printed beside it (gradinglab.scoring maps one to the other)."""
    return render_text({**doc, "score": None})


def _error_text(exc: urllib.error.HTTPError) -> str:
    """The server's reason in words: {"detail": ...} or {"field": ["..."]}, never a raw dict."""
    if exc.code == 404:
        return "not found (no such problem or submission, or it is not yours)"
    try:
        body = json.loads(exc.read())
    except ValueError:
        return str(exc.reason)
    if isinstance(body, dict) and "detail" in body:
        return str(body["detail"])
    if isinstance(body, dict):
        parts = []
        for field, errors in body.items():
            text = "; ".join(map(str, errors)) if isinstance(errors, list) else str(errors)
            parts.append(text if field == "non_field_errors" else f"{field}: {text}")
        return "; ".join(parts) or str(exc.reason)
    return str(body)


def report(sub: dict[str, Any]) -> str:
    lines = [f"submission #{sub['id']}: {sub['status']}  {sub['url']}"]
    if sub.get("result"):
        lines.append(_render(sub["result"]))
    if sub.get("score") is not None:
        lines.append(f"  points: {sub['score']} / {sub['max_points']}")
    if not sub.get("counts_as_attempt", True):
        lines.append("  (infrastructure error: this does not count as an attempt)")
    if sub.get("staff_comment"):
        lines.append(f"  TA comment: {sub['staff_comment']}")
    return "\n".join(lines)


def _exit_for(sub: dict[str, Any]) -> int:
    return exit_code(sub["result"]) if sub.get("result") else EXIT_INFRA


def wait(args: argparse.Namespace, sub: dict[str, Any]) -> dict[str, Any]:
    deadline = time.monotonic() + args.wait
    shown = None
    while sub["status"] in ("queued", "running") and time.monotonic() < deadline:
        state = sub["phase"] or (
            f"queued (position {sub['queue_position']})" if sub["queue_position"] else sub["status"]
        )
        if state != shown:
            print(f"  … {state}", file=sys.stderr)
            shown = state
        time.sleep(POLL_INTERVAL_S)
        sub = _request(args, "GET", f"submissions/{sub['id']}")
    return sub


def cmd_submit(args: argparse.Namespace) -> int:
    path = Path(args.file)
    body = {
        "problem": args.slug,
        "backend": _backend_for(path, args.backend),
        "source": _read(path),
    }
    sub = _request(args, "POST", "submissions", body)
    print(f"submitted #{sub['id']} ({sub['url']})", file=sys.stderr)
    if args.no_wait:
        print(json.dumps(sub) if args.json else report(sub))
        return 0
    sub = wait(args, sub)
    print(json.dumps(sub, ensure_ascii=False) if args.json else report(sub))
    return _exit_for(sub) if sub["status"] not in ("queued", "running") else EXIT_USAGE


def cmd_status(args: argparse.Namespace) -> int:
    sub = _request(args, "GET", f"submissions/{args.id}")
    print(json.dumps(sub, ensure_ascii=False) if args.json else report(sub))
    return _exit_for(sub) if sub["status"] not in ("queued", "running") else 0


def cmd_test(args: argparse.Namespace) -> int:
    from gradinglab.runner import ProblemNotFound, grade

    path = Path(args.file)
    try:
        doc = grade(
            slug=args.slug,
            source=_read(path),
            backend=_backend_for(path, args.backend),
            public_only=True,
        )
    except (ProblemNotFound, ValueError) as exc:
        raise CliError(str(exc)) from exc
    if args.json:
        print(json.dumps(doc, ensure_ascii=False))
    else:
        print(_render(doc))
        print(_points_line(args, args.slug, doc))
    return exit_code(doc)


def _points_line(args: argparse.Namespace, slug: str, doc: dict[str, Any]) -> str:
    """The points the web would give this run on the student's assignment (same mapping)."""
    from decimal import Decimal

    from gradinglab.runner import load_problem
    from gradinglab.scoring import document_points

    if not args.token:
        return "  points: set PDC_TOKEN (or --token) to see them as the web counts them"
    try:
        info = _request(args, "GET", f"problems/{slug}/points")
    except CliError as exc:
        return f"  points: unknown ({exc})"
    points = document_points(
        doc,
        load_problem(slug).scoring,
        points=Decimal(info["points"]),
        cpu_only=bool(info["cpu_only"]),
    )
    if points is None:
        return f"  points: none ({doc['status']}: this run says nothing about your work)"
    return f"  points: {points} / {info['points']} (public tests only; the web runs every test)"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m gradinglab.cli", description=__doc__.split("\n")[0])
    p.add_argument("--url", default=os.environ.get("PDC_URL", "http://127.0.0.1:8000"))
    p.add_argument("--token", default=os.environ.get("PDC_TOKEN", ""))
    sub = p.add_subparsers(dest="command", required=True)
    for name, func in (("submit", cmd_submit), ("test", cmd_test)):
        s = sub.add_parser(name)
        s.add_argument("slug")
        s.add_argument("file")
        s.add_argument("--backend", choices=["triton", "cuda"])
        s.add_argument("--json", action="store_true")
        s.set_defaults(func=func)
        if name == "submit":
            s.add_argument("--no-wait", action="store_true")
            s.add_argument("--wait", type=float, default=DEFAULT_WAIT_S, help="seconds")
    s = sub.add_parser("status")
    s.add_argument("id", type=int)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_status)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except CliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
