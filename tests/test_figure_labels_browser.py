"""Every lecture figure, in both languages, laid out by real Chromium: no label runs outside its
drawing. Label widths depend on the font (Chinese glyphs are about twice as wide as Latin ones),
so this is measured in a browser rather than estimated from character counts."""

from __future__ import annotations

import pytest

from lectures.figures import FIGURES, LANGS, figure_path

OUTSIDE_JS = """svg => { const v = svg.viewBox.baseVal, slack = 0.5;  // px of anti-aliasing
  return [...svg.querySelectorAll('text')].map(t => [t.textContent, t.getBBox()])
    .filter(([, b]) => b.x < v.x - slack || b.y < v.y - slack
      || b.x + b.width > v.x + v.width + slack || b.y + b.height > v.y + v.height + slack)
    .map(([s, b]) => `${s} @ ${Math.round(b.x)},${Math.round(b.y)} w ${Math.round(b.width)}`); }"""


@pytest.mark.browser
def test_every_label_of_every_figure_lies_inside_its_drawing(_browser) -> None:
    page = _browser.new_page(viewport={"width": 1280, "height": 900})
    outside = {}
    for figure in FIGURES:
        for lang in LANGS:
            svg = figure_path(figure.slug, lang).read_text(encoding="utf-8")
            page.set_content(f'<html lang="{lang}"><body>{svg}</body></html>')
            found = page.locator("svg").evaluate(OUTSIDE_JS)
            if found:
                outside[f"{figure.slug} ({lang})"] = found
    page.close()
    assert outside == {}
