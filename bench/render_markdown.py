"""render_markdown on pathological Markdown: how the time grows from 1× to 4× the input, with
python-markdown's own processors (what the renderer did before) and with the linear ones of
lectures/markdown_linear.py, side by side in one run. A ratio near 4 is linear, 16 quadratic,
64 cubic. Each render runs in a child process killed after LIMIT_S seconds (shown as "> 30").

    .venv/bin/python bench/render_markdown.py                # print the table
    .venv/bin/python bench/render_markdown.py --write-doc    # also append it to docs/benchmarks.md

Pure Python, no database, no services.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SIZES = (2_000, 8_000)  # characters: 1× and 4×
LIMIT_S = 30  # seconds one render may take before it is killed
PATTERNS = {
    "unclosed links `[x](`": "[x](",
    "unclosed `[`": "[",
    "code spans `` `a ``": "`a",
    "backticks `` ` ``": "`",
    "headings `# a\\n`": "# a\n",
    "formulas `$x$ `": "$x$ ",
    "escapes `\\\\`": "\\\\",
    "emphasis `*a`": "*a",
}


def _render(way: str, text: str, out: multiprocessing.Queue) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pdcsite.settings")
    import django

    django.setup()
    from markdown.extensions.toc import TocExtension

    from lectures import rendering

    if way == "stock":
        rendering.use_linear = lambda md: None
        rendering.LinearTocExtension = TocExtension
    start = time.perf_counter()
    rendering.render_markdown(text)
    out.put(time.perf_counter() - start)


def timed(way: str, text: str) -> float | None:
    """Seconds for one render in a fresh process, or None past LIMIT_S."""
    out: multiprocessing.Queue = multiprocessing.Queue()
    child = multiprocessing.Process(target=_render, args=(way, text, out))
    child.start()
    child.join(LIMIT_S + 15)  # + Django's start-up
    if child.is_alive():
        child.kill()
        child.join()
        return None
    seconds = out.get()
    return seconds if seconds <= LIMIT_S else None


def _cell(seconds: float | None) -> str:
    return f"> {LIMIT_S}" if seconds is None else f"{seconds:.3f}"


def _ratio(small: float | None, big: float | None) -> str:
    if small is None or big is None:
        return "–"
    return f"{big / max(small, 1e-6):.1f}×"


def table() -> list[str]:
    one, four = (f"{n // 1000}K" for n in SIZES)
    lines = [
        f"| input | before {one} s | before {four} s | before ratio "
        f"| after {one} s | after {four} s | after ratio |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, unit in PATTERNS.items():
        cells = []
        for way in ("stock", "linear"):
            small, big = (timed(way, (unit * n)[:n]) for n in SIZES)
            cells += [_cell(small), _cell(big), _ratio(small, big)]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write-doc", action="store_true", help="append to docs/benchmarks.md")
    args = parser.parse_args()
    from bench.common import doc_section

    lines = table()
    if args.write_doc:
        section = doc_section(
            "render_markdown on pathological input", "bench/render_markdown.py", lines
        )
        with (ROOT / "docs" / "benchmarks.md").open("a", encoding="utf-8") as fh:
            fh.write(section)


if __name__ == "__main__":
    main()
