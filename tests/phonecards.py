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


# Per cell of a card table whose content starts left of the value column, i.e. under the cell's
# own name: each child of a grid cell is a grid item, so a value made of parts (a date, then a
# badge) put its second part in the name column of the next line.
_MISPLACED_JS = """(table) => {
  const out = [];
  for (const td of document.querySelectorAll(`${table} tbody td[data-label]`)) {
    if (getComputedStyle(td).display !== 'grid') continue;
    const column = parseFloat(getComputedStyle(td).gridTemplateColumns.split(' ')[0]);
    const start = td.getBoundingClientRect().left + parseFloat(getComputedStyle(td).paddingLeft);
    const range = document.createRange();
    range.selectNodeContents(td);
    const lefts = [...range.getClientRects()].filter(r => r.width > 0).map(r => r.left);
    if (lefts.some(left => left < start + column)) out.push(td.dataset.label + ': ' + td.textContent.trim());
  }
  return out;
}"""


def misplaced_on_a_phone(page, table: str) -> list[str]:
    """The cells of `table` whose value (or part of it) starts in the name column at 390 px; the
    page goes back to desktop width afterwards."""
    page.set_viewport_size(PHONE)
    try:
        return page.evaluate(_MISPLACED_JS, table)
    finally:
        page.set_viewport_size(DESKTOP)


# A cell's right edge is its content's where that sticks out (a line kept from wrapping).
_CELLS_JS = """(table) => [...document.querySelectorAll(`${table} tbody td`)].map(td => {
  const range = document.createRange();
  range.selectNodeContents(td);
  const right = Math.max(td.getBoundingClientRect().right, range.getBoundingClientRect().right);
  const only = td.children.length === 1 ? td.firstElementChild : null;
  const link = !!only && only.tagName === 'A' && only.textContent.trim() === td.textContent.trim();
  return {label: td.dataset.label || '', link: link, right: right, window: window.innerWidth};
})"""


def cells_on_a_phone(page, table: str) -> list[dict[str, Any]]:
    """Each cell of `table` at 390 px: its column's name (data-label), whether it is one link and
    nothing else (such a cell needs no name: "Review"), and its right edge (or its content's, if
    further) against the window's; the page goes back to desktop width afterwards."""
    page.set_viewport_size(PHONE)
    try:
        return page.evaluate(_CELLS_JS, table)
    finally:
        page.set_viewport_size(DESKTOP)


# Per line of each card: where its name starts and where its value's column starts (from the
# cell's own box, padding and grid columns). A line whose cell has its own font size (a note in
# .9rem) had a name column 10 % narrower, and an app's desktop padding on all but the first cell
# moved every other line in by half a rem.
_OFFSET_JS = """(table) => {
  const out = [];
  for (const tr of document.querySelectorAll(`${table} tbody tr`)) {
    const lines = [];
    for (const td of tr.querySelectorAll('td[data-label]')) {
      const style = getComputedStyle(td);
      const columns = style.gridTemplateColumns.split(' ');
      if (style.display !== 'grid' || columns.length < 2) continue;  // prose under its name
      const name = td.getBoundingClientRect().left + parseFloat(style.borderLeftWidth)
        + parseFloat(style.paddingLeft);
      const value = name + parseFloat(columns[0]) + parseFloat(style.columnGap);
      lines.push({label: td.dataset.label, at: `${Math.round(name)} ${Math.round(value)}`});
    }
    const counts = {};
    for (const l of lines) counts[l.at] = (counts[l.at] || 0) + 1;
    const usual = Object.keys(counts).sort((a, b) => counts[b] - counts[a])[0];
    for (const l of lines) if (l.at !== usual) out.push(`${l.label}: ${l.at} (others ${usual})`);
  }
  return out;
}"""


def offset_on_a_phone(page, table: str) -> list[str]:
    """The lines of `table`'s cards at 390 px whose name or value starts elsewhere than most lines
    of the same card do (as "label: name-x value-x (others …)"); the page goes back to desktop
    width afterwards."""
    page.set_viewport_size(PHONE)
    try:
        return page.evaluate(_OFFSET_JS, table)
    finally:
        page.set_viewport_size(DESKTOP)
