"""A server-rendered SVG bar chart of an item's score distribution: no JavaScript, no CDN."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

_W, _H = 520, 200  # px: chart area inside the SVG
_PAD_L, _PAD_B, _PAD_T = 32, 36, 32  # px: room for axis labels (phone labels are drawn larger)
_PAD_R = 24  # px: room for half of the "100" tick


def histogram_svg(counts: list[int], *, title: str) -> SafeString:
    """Bars for 10-percent bins, labelled 0 … 100 %, with each bar's count on top."""
    bins = len(counts)
    top = max(counts) if counts and max(counts) > 0 else 1
    bar_w = _W / bins
    bars = format_html_join(
        "",
        '<g><rect x="{}" y="{}" width="{}" height="{}" class="bar"><title>{}–{}%: {}</title></rect>'
        '<text x="{}" y="{}" class="count">{}</text></g>',
        (
            (
                round(_PAD_L + i * bar_w + 2, 1),
                round(_PAD_T + _H - n / top * _H, 1),
                round(bar_w - 4, 1),
                round(n / top * _H, 1),
                i * 100 // bins,
                (i + 1) * 100 // bins,
                n,
                round(_PAD_L + (i + 0.5) * bar_w, 1),
                round(_PAD_T + _H - n / top * _H - 3, 1),
                n if n else "",
            )
            for i, n in enumerate(counts)
        ),
    )
    ticks = format_html_join(
        "",
        '<text x="{}" y="{}" class="tick">{}</text>',
        (
            (round(_PAD_L + i * bar_w, 1), _PAD_T + _H + 16, f"{i * 100 // bins}")
            for i in range(bins + 1)
        ),
    )
    width, height = _PAD_L + _W + _PAD_R, _PAD_T + _H + _PAD_B
    return format_html(
        '<svg class="histogram" role="img" aria-label="{}" viewBox="0 0 {} {}" width="{}" '
        'height="{}" xmlns="http://www.w3.org/2000/svg"><title>{}</title>'
        '<line x1="{}" y1="{}" x2="{}" y2="{}" class="axis"/>{}{}</svg>',
        title,
        width,
        height,
        width,
        height,
        title,
        _PAD_L,
        _PAD_T + _H,
        _PAD_L + _W,
        _PAD_T + _H,
        bars,
        ticks,
    )
