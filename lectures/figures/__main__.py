"""``python -m lectures.figures [DIR]``: write every figure's SVG in both languages (default:
content/figures)."""

import sys
from pathlib import Path

from lectures.figures.pages import FIGURE_DIR, write_all

if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else FIGURE_DIR
    for written_path in write_all(target):
        print(written_path)
