"""What a phone sees of a record table drawn as cards (`stack-on-phone`, static/css/site.css),
for the browser tests of the pages that use it."""

from __future__ import annotations

from typing import Any

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

_MEASURE_JS = """([table, cell]) => {
  const t = document.querySelector(table), c = t.querySelector(cell), wrap = t.parentElement;
  return {page: document.documentElement.scrollWidth, inner: window.innerWidth,
          wrap: wrap.scrollWidth, wrapClient: wrap.clientWidth,
          right: c.getBoundingClientRect().right,
          label: getComputedStyle(c, '::before').content,
          rows: t.querySelectorAll('tbody tr').length,
          rowWidth: t.querySelector('tbody tr').getBoundingClientRect().width};
}"""


def measured_on_a_phone(page, table: str, cell: str) -> dict[str, Any]:
    """The page, the table's wrapper and one cell (`cell`, a selector inside `table`) measured at
    390 px; the page goes back to desktop width afterwards."""
    page.set_viewport_size(PHONE)
    try:
        return page.evaluate(_MEASURE_JS, [table, cell])
    finally:
        page.set_viewport_size(DESKTOP)
