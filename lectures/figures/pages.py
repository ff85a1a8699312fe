"""Figures on pages and on disk: the committed SVG files, the slot stored lecture HTML holds, and
the <figure> a page shows in the reader's language."""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path

from lectures.figures.catalog import BY_SLUG, FIGURES
from lectures.figures.draw import LANGS, svg

REPO_ROOT = Path(__file__).resolve().parents[2]
FIGURE_DIR = REPO_ROOT / "content" / "figures"


def figure_path(slug: str, lang: str = "zh") -> Path:
    """``<slug>.svg`` in Chinese (the site's language), ``<slug>.en.svg`` in English."""
    return FIGURE_DIR / (f"{slug}.svg" if lang == "zh" else f"{slug}.{lang}.svg")


# Stored lecture HTML holds this slot, not the figure: the words in a figure follow the reader's
# language, and the stored HTML is one copy for both (fragments caches a body per language).
SLOT_RE = re.compile(r"<!--pdc-figure:(?P<slug>[a-z0-9-]+)-->")


def figure_slot(slug: str) -> str:
    return f"<!--pdc-figure:{slug}-->"


def in_language(stored_html: str, lang: str) -> str:
    """``stored_html`` with every figure slot filled by that figure in ``lang``; a slot whose
    figure no longer exists (renamed since the import) shows nothing rather than failing the page."""
    return SLOT_RE.sub(
        lambda m: figure_html(m["slug"], lang) if m["slug"] in BY_SLUG else "", stored_html
    )


@functools.cache
def _svg_text(slug: str, lang: str) -> str:
    return figure_path(slug, lang).read_text(encoding="utf-8").strip()


FIGURE_TAG = {"zh": "编者补充（示意图）", "en": "Editor's figure"}


def figure_html(slug: str, lang: str = "zh") -> str:
    """The <figure> a lecture page shows, all in ``lang``: the committed SVG inline (so
    currentColor follows the page's colours) and its caption, marked as the editor's addition."""
    figure, pick = BY_SLUG[slug], LANGS.index(lang)
    caption = (
        f'<figcaption><span class="figure-tag">{html.escape(FIGURE_TAG[lang])}</span>'
        f"{html.escape(figure.caption[pick])}</figcaption>"
    )
    # The lecture text around it is the notes' Chinese even on English pages: say which this is.
    lang_attr = "zh-CN" if lang == "zh" else "en"
    return (
        f'<figure class="lecture-figure" id="fig-{slug}" lang="{lang_attr}">'
        f"{_svg_text(slug, lang)}{caption}</figure>"
    )


def write_all(directory: Path = FIGURE_DIR) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for figure in FIGURES:
        for lang in LANGS:
            path = directory / figure_path(figure.slug, lang).name
            path.write_text(svg(figure, lang), encoding="utf-8")
            written.append(path)
    return written
