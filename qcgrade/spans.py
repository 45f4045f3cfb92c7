"""Character spans: offsets to line:column, and Jaccard overlap of span sets.

Offsets are the truth everywhere in qcgrade; this is the one place that turns
them into the 1-based ``line:column`` people read.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable

Span = tuple[int, int]
_NEWLINE = re.compile(r"\r\n|\r|\n")


def line_starts(text: str) -> list[int]:
    """Offsets where each line starts; ``\n``, ``\r\n`` and ``\r`` end lines."""
    if "\r" in text:
        return [0] + [m.end() for m in _NEWLINE.finditer(text)]
    starts = [0]
    pos = text.find("\n")
    while pos >= 0:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    return starts


class LineIndex:
    """Line starts of a text, for ``offset -> (line, column)`` by bisection.

    ``\\n``, ``\\r\\n`` and ``\\r`` each end a line, as in markdown.
    Columns count code points (SARIF's ``unicodeCodePoints``).
    """

    __slots__ = ("_starts", "_length", "_text")

    def __init__(self, text: str, starts: list[int] | None = None) -> None:
        self._starts = starts if starts is not None else line_starts(text)
        self._length = len(text)
        self._text = text

    def position(self, offset: int) -> tuple[int, int]:
        """1-based ``(line, column)`` of a character offset."""
        offset = max(0, min(offset, self._length))
        line = bisect_right(self._starts, offset) - 1
        return line + 1, offset - self._starts[line] + 1

    def line_bounds(self, line: int) -> tuple[int, int]:
        """Offsets where 1-based ``line`` starts and ends, its line break excluded.

        Constant time, so showing one line of a long paragraph per finding stays linear.
        """
        line = max(1, min(line, len(self._starts)))
        start = self._starts[line - 1]
        if line == len(self._starts):
            return start, self._length
        end = self._starts[line] - 1
        if end > start and self._text[end - 1 : end + 1] == "\r\n":
            end -= 1
        return start, end


def _covered(spans: Iterable[Span]) -> list[Span]:
    merged: list[Span] = []
    for start, end in sorted(s for s in spans if s[1] > s[0]):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def jaccard(a: Iterable[Span], b: Iterable[Span]) -> float:
    """Character-offset Jaccard of two span sets: |A ∩ B| / |A ∪ B| over covered characters.

    Empty spans cover nothing. Two empty sets agree perfectly (1.0); one empty
    and one non-empty share nothing (0.0).
    """
    left, right = _covered(a), _covered(b)
    size_a = sum(e - s for s, e in left)
    size_b = sum(e - s for s, e in right)
    if size_a == 0 and size_b == 0:
        return 1.0
    inter = 0
    i = j = 0
    while i < len(left) and j < len(right):
        lo = max(left[i][0], right[j][0])
        hi = min(left[i][1], right[j][1])
        if hi > lo:
            inter += hi - lo
        if left[i][1] < right[j][1]:
            i += 1
        else:
            j += 1
    return inter / (size_a + size_b - inter)
