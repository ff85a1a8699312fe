"""The lectures' diagrams (编者补充): SVG written by code, so they are reproducible and reviewable.

The notes lost every slide image. Each figure here redraws one standard textbook picture of the
course (memory hierarchy, coalescing, reduction tree, roofline, ring all-reduce, ...) from a few
lines of Python, once per page language (every label is ``say(chinese, english)``);
``python -m lectures.figures`` writes them to ``content/figures/<slug>.svg`` (Chinese) and
``<slug>.en.svg`` (English), and ``lectures/tests/test_figures.py`` checks that running it again
gives the committed files byte for byte. ``lectures.convert_notes`` puts a ``!figure <slug>`` line
right after the heading of the section a figure explains; ``lectures.rendering`` stores a slot for
it at import time, and the page fills the slot with the figure and caption in the reader's
language (``in_language``), so a page shows one language at a time.

Drawn for both light and dark pages: lines and text use ``currentColor`` (the page's text colour,
since the SVG is inline) and fills are translucent, so no colour is ever assumed for the
background. No ``style`` attributes or elements (the site's CSP forbids inline styles), no
scripts, no external fonts or images.

The parts: ``draw`` (the Figure record, the SVG primitives, one figure's document),
``drawings`` (one function a figure), ``catalog`` (every figure's words and size),
``pages`` (the files on disk, the stored slot, the <figure> a page shows).
"""

from lectures.figures.catalog import BY_SECTION, BY_SLUG, FIGURES
from lectures.figures.draw import LANGS, Figure, Say, svg
from lectures.figures.pages import (
    FIGURE_DIR,
    SLOT_RE,
    figure_html,
    figure_path,
    figure_slot,
    in_language,
    write_all,
)

__all__ = [
    "BY_SECTION",
    "BY_SLUG",
    "FIGURES",
    "FIGURE_DIR",
    "LANGS",
    "SLOT_RE",
    "Figure",
    "Say",
    "figure_html",
    "figure_path",
    "figure_slot",
    "in_language",
    "svg",
    "write_all",
]
