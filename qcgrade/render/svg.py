"""Inline SVG charts for the audit page, drawn by hand: no plotting library, no script.

Three pictures: per-class flag-rate bars with Wilson whiskers (the paper's
Fig. 2), the judge on the ``rho_fp`` axis against the cliff (Fig. 5), and a
small line chart used for the retirement curve and per-round activity.
Every piece of text goes through :func:`html.escape`; coordinates are
rounded to 0.1 px so the output is byte-stable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

GREEN, PURPLE, GREY, RED, BLUE, AMBER, INK = "#2e7d32", "#7b1fa2", "#78909c", "#c62828", "#1565c0", "#ef6c00", "#263238"


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text.removesuffix(".0")


def _text(
    x: float,
    y: float,
    content: str,
    *,
    size: int = 12,
    anchor: str = "start",
    fill: str = INK,
    weight: str = "normal",
    halo: bool = False,
) -> str:
    # A white halo keeps a label readable where it crosses a line or a marker.
    ring = ' stroke="#fff" stroke-width="3" paint-order="stroke"' if halo else ""
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}" text-anchor="{anchor}" fill="{fill}"'
        f' font-weight="{weight}"{ring}>{escape(content)}</text>'
    )


def nice_ceiling(value: float) -> float:
    """The smallest 1, 2, 2.5 or 5 times a power of ten that is >= value (axis tops)."""
    if value <= 0:
        return 1.0
    scale = 10.0 ** math.floor(math.log10(value))
    for step in (1.0, 2.0, 2.5, 5.0, 10.0):
        if step * scale >= value - 1e-12:
            return step * scale
    return 10.0 * scale


def _legend(items: Sequence[tuple[str, str, str]], left: float, top: float, width: float) -> tuple[list[str], float]:
    """Swatches wrapped into rows that fit ``width``; returns the parts and the height used."""
    parts: list[str] = []
    x, y = left, top
    for name, colour, dash in items:
        span = 36 + 6.5 * len(name)
        if x > left and x + span > left + width:
            x, y = left, y + 18
        parts.append(_line(x, y - 4, x + 24, y - 4, colour, 3, dash) if dash != "box" else _rect(x + 6, y - 10, 12, 12, colour))
        parts.append(_text(x + 30, y, name, size=11))
        x += span + 14
    return parts, y - top + 18


def _line(x1: float, y1: float, x2: float, y2: float, stroke: str = INK, width: float = 1, dash: str = "") -> str:
    extra = f' stroke-dasharray="{dash}"' if dash else ""
    return f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke="{stroke}" stroke-width="{_n(width)}"{extra}/>'


def _rect(x: float, y: float, w: float, h: float, fill: str, extra: str = "") -> str:
    return f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(max(w, 0.0))}" height="{_n(max(h, 0.0))}" fill="{fill}"{extra}/>'


def _svg(width: int, height: int, label: str, parts: Sequence[str]) -> str:
    # Inline SVG in HTML needs no xmlns; leaving it out keeps the page free of any URL.
    return (
        f'<svg viewBox="0 0 {width} {height}" width="{width}"'
        f' height="{height}" role="img" aria-label="{escape(label)}" font-family="sans-serif">'
        f"<title>{escape(label)}</title>{''.join(parts)}</svg>"
    )


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
    """Horizontal bars (one row per class) from 0 to 1 with 95% whiskers."""
    left, width, row, top = 190, 420, 30, 40
    height = top + row * len(bars) + 60
    x = lambda v: left + v * width
    parts = [_text(10, 22, title, size=15, weight="bold")]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(_line(x(tick), top - 6, x(tick), top + row * len(bars), "#cfd8dc", dash="2,3"))
        parts.append(_text(x(tick), top + row * len(bars) + 16, f"{tick:g}", size=11, anchor="middle"))
    for i, bar in enumerate(bars):
        y = top + i * row
        colour = _GROUP_COLOUR.get(bar.group, GREY)
        parts.append(_text(left - 8, y + 19, bar.label, anchor="end"))
        parts.append(_rect(left, y + 6, bar.value * width, row - 12, colour, ' opacity="0.85"'))
        mid = y + row / 2
        parts.append(_line(x(bar.low), mid, x(bar.high), mid, INK, 1.5))
        parts.append(_line(x(bar.low), mid - 5, x(bar.low), mid + 5, INK, 1.5))
        parts.append(_line(x(bar.high), mid - 5, x(bar.high), mid + 5, INK, 1.5))
        parts.append(_text(left + width + 10, y + 19, f"{bar.value:.3f}  (n={bar.n})", size=11))
    legend_y = top + row * len(bars) + 40
    swatches = [
        (name, _GROUP_COLOUR[group], "box")
        for group, name in (("visible", "QC-visible"), ("invisible", "QC-invisible"), ("clean", "clean (false fail)"))
    ]
    parts.extend(_legend(swatches, left - 6, legend_y, width)[0])
    parts.append(
        _text(
            left + width / 2,
            legend_y + 18,
            "share of items judged FAIL; whiskers: 95% Wilson interval",
            size=11,
            anchor="middle",
            fill=GREY,
        )
    )
    return _svg(left + width + 110, height + 20, title, parts)


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
    """The rho_fp axis from 0 to 1 with the safe / at risk / blind curator regions."""
    left, width, axis_y = 40, 640, 150
    x = lambda v: left + max(0.0, min(1.0, v)) * width
    band_top, band_h = 50, 110
    parts = [_text(10, 22, title, size=15, weight="bold")]
    regions = (
        ("safe", 0.0, at_risk_from, "#e8f5e9", GREEN),
        ("at risk", at_risk_from, cliff, "#fff3e0", AMBER),
        ("blind curator", cliff, 1.0, "#ffebee", RED),
    )
    for name, lo, hi, fill, ink in regions:
        if hi <= lo:
            continue
        parts.append(_rect(x(lo), band_top, x(hi) - x(lo), band_h, fill))
        if x(hi) - x(lo) >= 40:
            parts.append(_text((x(lo) + x(hi)) / 2, band_top + 16, name, size=12, anchor="middle", fill=ink, weight="bold"))
    parts.append(_line(left, axis_y + 10, left + width, axis_y + 10, INK, 1.5))
    for tick in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0):
        parts.append(_line(x(tick), axis_y + 10, x(tick), axis_y + 15))
        parts.append(_text(x(tick), axis_y + 28, f"{tick:g}", size=11, anchor="middle"))
    parts.append(
        _text(left + width / 2, axis_y + 46, "rho_fp: share of true failures the judge passes", size=12, anchor="middle")
    )
    parts.append(_line(x(cliff), band_top - 8, x(cliff), axis_y + 10, RED, 2, "6,4"))
    parts.append(_text(x(cliff), band_top - 12, f"cliff (1 - tau)/2 = {cliff:.3f}", size=11, anchor="middle", fill=RED))
    for i, mark in enumerate(marks):
        y = band_top + 38 + i * 24
        parts.append(_line(x(mark.low), y, x(mark.high), y, mark.colour, 2))
        parts.append(f'<circle cx="{_n(x(mark.value))}" cy="{_n(y)}" r="{_n(mark.size / 2 + 2)}" fill="{mark.colour}"/>')
        anchor, dx = ("end", -10) if mark.value > 0.7 else ("start", 10)
        parts.append(
            _text(x(mark.high if anchor == "start" else mark.low) + dx, y + 4, mark.label, size=11, anchor=anchor, halo=True)
        )
    swatches = [
        ("safe", "#c8e6c9", "box"),
        ("at risk: the 95% interval reaches the cliff at this n", "#ffe0b2", "box"),
        ("blind curator: past the cliff", "#ffcdd2", "box"),
    ]
    legend, used = _legend(swatches, left - 6, axis_y + 66, width)
    parts.extend(legend)
    parts.append(_text(left, axis_y + 72 + used, note, size=12))
    return _svg(left + width + 40, int(axis_y + 86 + used), title, parts)


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    colour: str
    points: tuple[tuple[float, float], ...]
    dash: str = ""


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
    left, top, width, height = 60, 40, 560, 240
    y_max = nice_ceiling(y_max)
    x = lambda v: left + v / x_max * width
    y = lambda v: top + height - v / y_max * height
    parts = [_text(10, 22, title, size=15, weight="bold"), _rect(left, top, width, height, "#fafafa", ' stroke="#b0bec5"')]
    for k in range(5):
        v = y_max * k / 4
        parts.append(_line(left, y(v), left + width, y(v), "#eceff1"))
        parts.append(_text(left - 6, y(v) + 4, f"{v:g}", size=11, anchor="end"))
    for t in x_ticks or [x_max * k / 5 for k in range(6)]:
        parts.append(_text(x(t), top + height + 16, f"{t:g}", size=11, anchor="middle"))
    parts.append(_text(left + width / 2, top + height + 36, x_label, size=12, anchor="middle"))
    parts.append(
        f'<text x="14" y="{_n(top + height / 2)}" font-size="12" text-anchor="middle" fill="{INK}"'
        f' transform="rotate(-90 14 {_n(top + height / 2)})">{escape(y_label)}</text>'
    )
    for vx, label in vlines:
        parts.append(_line(x(vx), top, x(vx), top + height, RED, 1.5, "6,4"))
        parts.append(_text(x(vx) + 4, top + 14, label, size=11, fill=RED, halo=True))
    for s in series:
        path = " ".join(f"{_n(x(px))},{_n(y(py))}" for px, py in s.points)
        dash = f' stroke-dasharray="{s.dash}"' if s.dash else ""
        parts.append(f'<polyline points="{path}" fill="none" stroke="{s.colour}" stroke-width="2"{dash}/>')
        parts.extend(f'<circle cx="{_n(x(px))}" cy="{_n(y(py))}" r="2.5" fill="{s.colour}"/>' for px, py in s.points)
    for mx, my, label in markers:
        parts.append(f'<circle cx="{_n(x(mx))}" cy="{_n(y(my))}" r="7" fill="none" stroke="{INK}" stroke-width="2.5"/>')
        anchor, dx = ("end", -10) if mx > 0.6 * x_max else ("start", 10)
        parts.append(_text(x(mx) + dx, y(my) - 10, label, size=12, weight="bold", anchor=anchor, halo=True))
    legend, used = _legend([(s.name, s.colour, s.dash) for s in series], left, top + height + 58, width)
    parts.extend(legend)
    return _svg(left + width + 30, int(top + height + 50 + used), title, parts)
