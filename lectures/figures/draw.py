"""What every drawing is made of: the Figure record, the SVG primitives, and the whole document of
one figure in one language (``svg``)."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass

# Translucent accents that read on white and on near-black alike (fill-opacity below).
BLUE, AMBER, GREEN, RED, PURPLE = "#3b82f6", "#f59e0b", "#10b981", "#ef4444", "#8b5cf6"
FONT = "sans-serif"


LANGS = ("zh", "en")  # accounts.language.page_lang(): a figure is drawn once per page language
Say = Callable[[str, str], str]  # say(chinese, english): the words of the language being drawn


def sayer(lang: str) -> Say:
    return (lambda zh, en: zh) if lang == "zh" else (lambda zh, en: en)


@dataclass(frozen=True)
class Figure:
    slug: str
    section: str  # the notes' number N.M or N.M.K of the section it explains
    title: tuple[str, str]  # <title>: (Chinese, English)
    desc: tuple[str, str]  # <desc>: what the picture shows, for screen readers
    caption: tuple[str, str]
    width: int
    height: int
    draw: Callable[[Say], list[str]]

    @property
    def caption_zh(self) -> str:
        return self.caption[0]

    @property
    def caption_en(self) -> str:
        return self.caption[1]


# ----------------------------------------------------------------------------- primitives
def num(value: float) -> str:
    """Numbers printed the same way on every run and platform."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def rect(x, y, w, h, fill=None, opacity=0.18, stroke=True, rx=3) -> str:
    fill_attr = f'fill="{fill}" fill-opacity="{opacity}"' if fill else 'fill="none"'
    stroke_attr = ' stroke="currentColor" stroke-width="1.2"' if stroke else ""
    return (
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="{rx}" '
        f"{fill_attr}{stroke_attr}/>"
    )


def text(x, y, label, size=12, anchor="middle", weight="normal") -> str:
    bold = ' font-weight="bold"' if weight == "bold" else ""
    return (
        f'<text x="{num(x)}" y="{num(y)}" font-size="{size}" text-anchor="{anchor}"{bold} '
        f'fill="currentColor">{html.escape(label)}</text>'
    )


def line(x1, y1, x2, y2, arrow=False, dash=False, width=1.2) -> str:
    extra = ' marker-end="url(#arrow)"' if arrow else ""
    extra += ' stroke-dasharray="4 3"' if dash else ""
    return (
        f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" '
        f'stroke="currentColor" stroke-width="{width}"{extra}/>'
    )


def polyline(points, width=1.6, color="currentColor", dash=False) -> str:
    pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
    extra = ' stroke-dasharray="5 4"' if dash else ""
    return f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="{width}"{extra}/>'


def circle(cx, cy, r, fill=None, opacity=0.2) -> str:
    fill_attr = f'fill="{fill}" fill-opacity="{opacity}"' if fill else 'fill="none"'
    return (
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" {fill_attr} '
        f'stroke="currentColor" stroke-width="1.2"/>'
    )


ARROW_DEF = (
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
    'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
    'fill="currentColor"/></marker></defs>'
)


def svg(figure: Figure, lang: str = "zh") -> str:
    """The whole SVG document of ``figure`` in ``lang``, one element per line, no blank lines."""
    say = sayer(lang)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {figure.width} {figure.height}" '
        f'width="{figure.width}" height="{figure.height}" role="img" '
        f'aria-labelledby="fig-{figure.slug}-title fig-{figure.slug}-desc" '
        f'font-family="{FONT}" color="currentColor">'
    )
    parts = [
        head,
        f'<title id="fig-{figure.slug}-title">{html.escape(say(*figure.title))}</title>',
        f'<desc id="fig-{figure.slug}-desc">{html.escape(say(*figure.desc))}</desc>',
        ARROW_DEF,
        *figure.draw(say),
        "</svg>",
    ]
    # The SVG is inline and a page shows several: each needs its own marker id (ids are unique
    # per page, and a duplicate is an accessibility error).
    return (
        "\n".join(parts)
        .replace("#arrow)", f"#arrow-{figure.slug})")
        .replace('id="arrow"', f'id="arrow-{figure.slug}"')
        + "\n"
    )
