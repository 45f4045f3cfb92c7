"""One line of source with a span marked under it, as compilers show an error.

::

    8 | ...price and mix contributed 6 points [F2]. Gross margin rose 4.5% on ...
      |                                                              ^^^^

Pure and terminal-agnostic: :func:`excerpt` returns the two strings, and the
text renderer decides how to style them. Widths are display cells, not code
points: East Asian wide and full-width characters (CJK, most emoji) take two
cells and combining marks none, so the carets stay under the span. A tab is
shown as four spaces, control characters and bidirectional overrides (which
could rewrite what a terminal shows) as U+FFFD. A long line is cut around the
span, at a word boundary where one is near, with ``...`` at each cut; a span
that runs past the end of its line is marked to the line end. Each call reads
only about ``width`` characters around the span, so a megabyte-long paragraph
with thousands of findings still renders in linear time.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

ELLIPSIS = "..."
TAB = "    "
#: Display cells for the source text; with the gutter a line stays within about 88 columns.
WIDTH = 80
#: A cut moves back to a word boundary found within this many characters.
_SNAP = 12
#: Characters read on each side of a span, whatever their width (zero-width ones included).
_READ = 4 * WIDTH

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@dataclass(frozen=True, slots=True)
class Excerpt:
    """The shown source text and the marker line that goes under it."""

    source: str
    marker: str


def shown(ch: str) -> str:
    """How one character of the source is drawn."""
    if ch == "\t":
        return TAB
    if ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cs"):
        return "\ufffd"
    return ch


def cells(text: str) -> int:
    """Terminal cells a drawn text takes (East Asian width; combining and format characters take none)."""
    total = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def _walk(text: str, positions: range, budget: int) -> tuple[list[str], int, bool]:
    """Drawn characters at ``positions`` while they fit ``budget`` cells; whether all of them did."""
    out: list[str] = []
    used = 0
    for count, i in enumerate(positions):
        if count >= _READ:
            return out, used, False
        piece = shown(text[i])
        width = cells(piece)
        if used + width > budget:
            return out, used, False
        out.append(piece)
        used += width
    return out, used, True


def _snap(pieces: list[str]) -> list[str]:
    """Drop a partial word at the cut (pieces run from the span towards the cut).

    Only a short way back, and never more than half of what is kept: text
    without spaces (CJK, a URL) is cut where it is cut.
    """
    for i in range(len(pieces) - 1, max(len(pieces) // 2, len(pieces) - 1 - _SNAP), -1):
        if pieces[i] == " ":
            return pieces[:i]
    return pieces


def excerpt(text: str, line_start: int, line_end: int, start: int, end: int, width: int = WIDTH) -> Excerpt:
    """The line ``text[line_start:line_end]`` with ``[start, end)`` marked, cut to about ``width`` cells.

    ``start`` must lie on the line; ``end`` may lie beyond it (the mark then
    runs to the line end). An empty span gets one caret where it sits.
    """
    start = max(line_start, min(start, line_end))
    end = max(start, min(end, line_end))
    room = max(width, 3 * len(ELLIPSIS) + 8)
    line, _, line_whole = _walk(text, range(line_start, line_end), room)
    if line_whole:  # the common case: the line fits, nothing to cut
        before = "".join(line[: start - line_start])
        marked = "".join(line[start - line_start : end - line_start])
        return Excerpt("".join(line), " " * cells(before) + "^" * max(1, cells(marked)))
    # The span itself, cut when it alone would fill the line.
    span, span_cells, span_whole = _walk(text, range(start, end), room - 2 * len(ELLIPSIS) - 8)
    room -= span_cells + (0 if span_whole else len(ELLIPSIS))
    after = start + len(span)
    left, left_cells, left_whole = _walk(text, range(start - 1, line_start - 1, -1), room)
    right, right_cells, right_whole = ([], 0, True) if not span_whole else _walk(text, range(after, line_end), room)
    if not (left_whole and right_whole and left_cells + right_cells <= room):
        # Something is cut: share the room, more of it after the span (text is read left to right).
        if left_whole and left_cells <= room // 2:
            right = _cut(right, room - left_cells - len(ELLIPSIS))
        elif right_whole and right_cells <= room - room // 3 - len(ELLIPSIS):
            left = _cut(left, room - right_cells - len(ELLIPSIS))
        else:
            left = _cut(left, room // 3 - len(ELLIPSIS))
            right = _cut(right, room - room // 3 - len(ELLIPSIS))
    left_cut = len(left) < start - line_start
    right_cut = span_whole and after + len(right) < line_end
    before = (ELLIPSIS if left_cut else "") + "".join(reversed(_snap(left) if left_cut else left))
    marked = "".join(span) + ("" if span_whole else ELLIPSIS)
    tail = "".join(_snap(right) if right_cut else right) + (ELLIPSIS if right_cut else "")
    return Excerpt(before + marked + tail, " " * cells(before) + "^" * max(1, cells(marked)))


def _cut(pieces: list[str], budget: int) -> list[str]:
    """The first pieces (from the span outwards) that fit ``budget`` cells."""
    kept: list[str] = []
    used = 0
    for piece in pieces:
        width = cells(piece)
        if used + width > budget:
            break
        kept.append(piece)
        used += width
    return kept
