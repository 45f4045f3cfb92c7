"""Inline SVG charts for the audit page, drawn by hand: no plotting library, no script.

Three pictures: per-class flag-rate bars with Wilson whiskers (the paper's
Fig. 2), the judge on the ``rho_fp`` axis against the cliff (Fig. 5), and a
small line chart used for the retirement curve and per-round activity.

Fluid, not scaled: a chart is ``width="100%"`` of its column with a fixed
height, horizontal positions are percentages and text has a fixed size in
pixels (the page's body size). A chart drawn in one ``viewBox`` would shrink
its text with the page: readable at 1280 px, a few pixels high on a phone.
Here the plot stretches and the text stays put, so a phone shows the same
chart, narrower, with text as large as the paragraphs around it. Lines of a
curve are drawn in a nested ``viewBox`` stretched to the plot
(``preserveAspectRatio="none"``, strokes that do not scale). Labels sit
above what they label rather than beside it, and anything long (titles,
legends, notes) is HTML in the figure's caption, where it wraps. Every piece
of text goes through :func:`html.escape`; numbers are rounded so the output
is byte-stable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

GREEN, PURPLE, GREY, RED, BLUE, AMBER, INK = "#2e7d32", "#7b1fa2", "#78909c", "#c62828", "#1565c0", "#ef6c00", "#263238"

#: Chart text size in CSS pixels: the page's body size (see audit_html's stylesheet).
FONT = 16
#: Horizontal inset of the plot, in percent of the chart's width on each side.
_INSET = 1.5


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text.removesuffix(".0")


def pct(value: float) -> str:
    """A fraction of the plot's width (0..1, clamped) as an SVG percentage inside the inset."""
    return f"{_n(_INSET + max(0.0, min(1.0, value)) * (100 - 2 * _INSET))}%"


def _text(
    x: str,
    y: float,
    content: str,
    *,
    anchor: str = "start",
    fill: str = INK,
    weight: str = "normal",
    halo: bool = False,
    dx: float = 0,
) -> str:
    # A white halo keeps a label readable where it crosses a line or a marker.
    ring = ' stroke="#fff" stroke-width="4" paint-order="stroke"' if halo else ""
    shift = f' dx="{_n(dx)}"' if dx else ""
    return (
        f'<text x="{x}" y="{_n(y)}"{shift} font-size="{FONT}" text-anchor="{anchor}" fill="{fill}"'
        f' font-weight="{weight}"{ring}>{escape(content)}</text>'
    )


def _edge_anchor(value: float) -> str:
    """Anchor a label so it stays inside the chart: from the left edge, the middle, or the right edge."""
    return "start" if value < 0.2 else "end" if value > 0.8 else "middle"


def nice_ceiling(value: float) -> float:
    """The smallest 1, 2, 2.5 or 5 times a power of ten that is >= value (axis tops)."""
    if value <= 0:
        return 1.0
    scale = 10.0 ** math.floor(math.log10(value))
    for step in (1.0, 2.0, 2.5, 5.0, 10.0):
        if step * scale >= value - 1e-12:
            return step * scale
    return 10.0 * scale


def _line(x1: str, y1: float, x2: str, y2: float, stroke: str = INK, width: float = 1, dash: str = "") -> str:
    extra = f' stroke-dasharray="{dash}"' if dash else ""
    return f'<line x1="{x1}" y1="{_n(y1)}" x2="{x2}" y2="{_n(y2)}" stroke="{stroke}" stroke-width="{_n(width)}"{extra}/>'


def _rect(x0: float, y: float, x1: float, h: float, fill: str, extra: str = "") -> str:
    """A rectangle from fraction ``x0`` to ``x1`` of the plot's width, ``h`` pixels high."""
    width = max(0.0, min(1.0, x1) - max(0.0, min(1.0, x0))) * (100 - 2 * _INSET)
    return f'<rect x="{pct(x0)}" y="{_n(y)}" width="{_n(width)}%" height="{_n(max(h, 0.0))}" fill="{fill}"{extra}/>'


def _dot(x: float, y: float, radius: float, fill: str, extra: str = "") -> str:
    return f'<circle cx="{pct(x)}" cy="{_n(y)}" r="{_n(radius)}" fill="{fill}"{extra}/>'


def _svg(height: float, label: str, parts: Sequence[str]) -> str:
    # Inline SVG in HTML needs no xmlns; leaving it out keeps the page free of any URL.
    return (
        f'<svg class="chart" width="100%" height="{_n(height)}" role="img" aria-label="{escape(label)}"'
        f' font-family="sans-serif"><title>{escape(label)}</title>{"".join(parts)}</svg>'
    )


def legend(items: Sequence[tuple[str, str, str]]) -> str:
    """Swatches and names as HTML, which wraps: ``(name, colour, "box" or a dash pattern)``."""
    keys = []
    for name, colour, dash in items:
        style = f"background:{colour}" if dash == "box" else f"border-top:3px {'dashed' if dash else 'solid'} {colour}"
        shape = "box" if dash == "box" else "stroke"
        keys.append(f'<span class="key"><i class="{shape}" style="{style}"></i>{escape(name)}</span>')
    return f'<span class="legend">{"".join(keys)}</span>'


def figure(title: str, chart: str, caption: Sequence[str] = ()) -> str:
    """A chart with its title above and its legend and notes (HTML, already escaped) below."""
    notes = "".join(f"<div>{line}</div>" for line in caption)
    return f'<figure><div class="chart-title">{escape(title)}</div>{chart}<figcaption>{notes}</figcaption></figure>'


@dataclass(frozen=True, slots=True)
class Bar:
    """One class: its flag rate and interval; ``group`` is "visible", "invisible" or "clean"."""

    label: str
    value: float
    low: float
    high: float
    n: int
    group: str


_GROUP_COLOUR = {"visible": GREEN, "invisible": PURPLE, "clean": GREY}


def flag_rate_bars(bars: Sequence[Bar], title: str = "Flag rate per defect class") -> str:
    """One row per class: its name and rate above, a bar from 0 to 1 with the 95% whisker below."""
    row, label_h, bar_h, top = 50, 20, 14, 8
    bottom = top + row * len(bars)
    parts = []
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(_line(pct(tick), top, pct(tick), bottom, "#cfd8dc", dash="2,3"))
        parts.append(_text(pct(tick), bottom + 20, f"{tick:g}", anchor=_edge_anchor(tick)))
    for i, bar in enumerate(bars):
        y = top + i * row
        colour = _GROUP_COLOUR.get(bar.group, GREY)
        parts.append(_text(pct(0), y + label_h - 4, bar.label))
        parts.append(_text(pct(1), y + label_h - 4, f"{bar.value:.3f}  (n={bar.n})", anchor="end"))
        bar_y = y + label_h + 4
        parts.append(_rect(0.0, bar_y, 1.0, bar_h, "#eceff1"))
        parts.append(_rect(0.0, bar_y, bar.value, bar_h, colour, ' opacity="0.85"'))
        mid = bar_y + bar_h / 2
        parts.append(_line(pct(bar.low), mid, pct(bar.high), mid, INK, 1.5))
        for end in (bar.low, bar.high):
            parts.append(_line(pct(end), mid - 6, pct(end), mid + 6, INK, 1.5))
    keys = legend(
        [
            (name, _GROUP_COLOUR[group], "box")
            for group, name in (("visible", "QC-visible"), ("invisible", "QC-invisible"), ("clean", "clean (false fail)"))
        ]
    )
    caption = [keys, "Share of items judged FAIL; whiskers: 95% Wilson interval."]
    return figure(title, _svg(bottom + 28, title, parts), caption)


@dataclass(frozen=True, slots=True)
class AxisMark:
    """A point on the rho_fp axis with its interval and a label."""

    label: str
    value: float
    low: float
    high: float
    colour: str = INK
    size: float = 7


def cliff_axis(
    marks: Sequence[AxisMark], cliff: float, at_risk_from: float, note: str, title: str = "The judge against the retirement cliff"
) -> str:
    """The rho_fp axis from 0 to 1 with the safe / at risk / blind curator regions; each mark on its own row."""
    row, band_top = 48, 30
    band_h = 30 + row * len(marks)
    axis_y = band_top + band_h
    parts = [_text(pct(cliff), 18, f"cliff (1 - tau)/2 = {cliff:.3f}", anchor=_edge_anchor(cliff), fill=RED)]
    regions = (
        ("safe", 0.0, at_risk_from, "#e8f5e9", GREEN),
        ("at risk", at_risk_from, cliff, "#fff3e0", AMBER),
        ("blind curator", cliff, 1.0, "#ffebee", RED),
    )
    for name, lo, hi, fill, ink in regions:
        if hi <= lo:
            continue
        parts.append(_rect(lo, band_top, hi, band_h, fill))
        # Named inside only where the name fits even on a phone (about 360 px); the legend names all three.
        if hi - lo >= 0.028 * len(name) + 0.04:
            parts.append(_text(pct((lo + hi) / 2), band_top + 20, name, anchor="middle", fill=ink, weight="bold"))
    parts.append(_line(pct(0), axis_y, pct(1), axis_y, INK, 1.5))
    for tick in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0):
        parts.append(_line(pct(tick), axis_y, pct(tick), axis_y + 5))
        parts.append(_text(pct(tick), axis_y + 24, f"{tick:g}", anchor=_edge_anchor(tick)))
    parts.append(_line(pct(cliff), band_top - 6, pct(cliff), axis_y, RED, 2, "6,4"))
    for i, mark in enumerate(marks):
        y = band_top + 30 + i * row
        # The label on its own line above the mark, from the side the mark is on: never cut, never on a dot.
        anchor = "end" if mark.value > 0.5 else "start"
        parts.append(_text(pct(1.0 if anchor == "end" else 0.0), y + 14, mark.label, anchor=anchor, halo=True))
        line_y = y + 28
        parts.append(_line(pct(mark.low), line_y, pct(mark.high), line_y, mark.colour, 2.5))
        parts.append(_dot(mark.value, line_y, mark.size / 2 + 2, mark.colour))
    keys = legend(
        [
            ("safe", "#c8e6c9", "box"),
            ("at risk: the 95% interval reaches the cliff at this n", "#ffe0b2", "box"),
            ("blind curator: past the cliff", "#ffcdd2", "box"),
        ]
    )
    caption = ["Horizontal axis: rho_fp, the share of true failures the judge passes.", keys, escape(note)]
    return figure(title, _svg(axis_y + 32, title, parts), caption)


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    colour: str
    points: tuple[tuple[float, float], ...]
    dash: str = ""


#: Horizontal resolution of the stretched viewBox a curve is drawn in.
_SPAN = 1000


def line_chart(
    series: Sequence[Series],
    *,
    title: str,
    x_label: str,
    y_label: str,
    x_max: float,
    y_max: float,
    vlines: Sequence[tuple[float, str]] = (),
    markers: Sequence[tuple[float, float, str]] = (),
    x_ticks: Sequence[float] = (),
) -> str:
    """Lines with dots on a [0, x_max] x [0, y_max] frame, optional vertical rules and labelled markers."""
    top, height = 30, 220
    y_max = nice_ceiling(y_max)
    fx = lambda v: v / x_max
    y = lambda v: top + height - v / y_max * height
    parts = [_rect(0.0, top, 1.0, height, "#fafafa", ' stroke="#b0bec5"')]
    for k in range(5):
        v = y_max * k / 4
        parts.append(_line(pct(0), y(v), pct(1), y(v), "#eceff1"))
        if k:  # tick values inside the plot, above their grid line: no margin to squeeze on a phone
            parts.append(_text(pct(0), y(v) - 4, f"{v:g}", dx=4, fill=GREY, halo=True))
    for t in x_ticks or [x_max * k / 5 for k in range(6)]:
        parts.append(_text(pct(fx(t)), top + height + 20, f"{t:g}", anchor=_edge_anchor(fx(t))))
    for vx, label in vlines:
        parts.append(_line(pct(fx(vx)), top, pct(fx(vx)), top + height, RED, 1.5, "6,4"))
        anchor = "end" if fx(vx) > 0.5 else "start"
        parts.append(_text(pct(fx(vx)), top + 18, label, anchor=anchor, fill=RED, halo=True, dx=-5 if anchor == "end" else 5))
    # The curves in a viewBox stretched over the plot; dots drawn outside it stay round.
    left, right = _INSET / 100, 1 - _INSET / 100
    curves = []
    for s in series:
        points = " ".join(f"{_n((left + fx(px) * (right - left)) * _SPAN)},{_n(y(py) - top)}" for px, py in s.points)
        dash = f' stroke-dasharray="{s.dash}"' if s.dash else ""
        curves.append(
            f'<polyline points="{points}" fill="none" stroke="{s.colour}" stroke-width="2"'
            f' vector-effect="non-scaling-stroke"{dash}/>'
        )
        parts.extend(_dot(fx(px), y(py), 3, s.colour) for px, py in s.points)
    parts.insert(
        1,
        f'<svg x="0" y="{top}" width="100%" height="{height}" viewBox="0 0 {_SPAN} {height}"'
        f' preserveAspectRatio="none">{"".join(curves)}</svg>',
    )
    for mx, my, label in markers:
        # A short tag by the ring (it fits beside it at any width); the full label goes in the caption.
        parts.append(_dot(fx(mx), y(my), 8, "none", f' stroke="{INK}" stroke-width="2.5"'))
        anchor = "end" if fx(mx) > 0.5 else "start"
        tag_y = y(my) - 14 if y(my) - 14 > top + 36 else y(my) + 28
        tag = label.split(":")[0]
        parts.append(_text(pct(fx(mx)), tag_y, tag, weight="bold", anchor=anchor, halo=True, dx=-10 if anchor == "end" else 10))
    keys = legend([(s.name, s.colour, s.dash) for s in series])
    caption = [keys, *(f"<b>{escape(label)}</b> (ringed)." for _, _, label in markers)]
    caption.append(escape(f"Horizontal: {x_label}; vertical: {y_label}."))
    return figure(title, _svg(top + height + 30, title, parts), caption)
