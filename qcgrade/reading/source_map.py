"""From a markdown-it-py token's content back to offsets in the original text.

Block content loses its container prefixes (``> ``, list indentation) and
its lines are joined with ``\\n``; these helpers find each content line in its
source line so that every visible character keeps its original offset.
"""

from __future__ import annotations

from ..spans import line_starts
from .projection import ProjectionBuilder


class Lines:
    """Line starts of the original text (any line ending); lines sliced on demand.

    ``text`` is the original as markdown-it-py reads it: CommonMark replaces
    NUL with U+FFFD before parsing, one character for one, so token content
    is found in these lines at unchanged offsets. (Searching the raw text for
    content holding U+FFFD misses, and the content was placed at column 0.)
    """

    __slots__ = ("text", "starts")

    def __init__(self, text: str) -> None:
        self.text = text.replace("\0", "\ufffd") if "\0" in text else text
        self.starts = line_starts(text)

    def line(self, index: int) -> str:
        index = min(index, len(self.starts) - 1)
        return self.text[self.starts[index] : self.line_end(index)]

    def start(self, index: int) -> int:
        return self.starts[min(index, len(self.starts) - 1)]

    def line_end(self, index: int) -> int:
        """Offset of the line's terminator (``\\n``, ``\\r\\n`` or ``\\r``), or the text's end."""
        starts = self.starts
        if index + 1 >= len(starts):
            return len(self.text)
        end = starts[index + 1] - 1
        if end > 0 and self.text[end] == "\n" and self.text[end - 1] == "\r":
            end -= 1
        return end


class Content:
    """Maps offsets in a token's content to offsets in the original text."""

    __slots__ = ("content", "_content_starts", "_source_starts")

    def __init__(self, content: str, first_line: int, lines: Lines, cursor: int | None = None) -> None:
        self.content = content
        self._content_starts: list[int] = []
        self._source_starts: list[int] = []
        offset = 0
        for i, piece in enumerate(content.split("\n")):
            col = locate(lines.line(first_line + i), piece, cursor if i == 0 else None)
            self._content_starts.append(offset)
            self._source_starts.append(lines.start(first_line + i) + col)
            offset += len(piece) + 1

    def add(self, builder: ProjectionBuilder, start: int, end: int, visible: str | None = None) -> None:
        """Add content ``[start, end)`` one to one, split at content lines."""
        text = self.content[start:end] if visible is None else visible
        starts = self._content_starts
        i = _index(starts, start)
        pos = start
        while pos < end:
            line_end = starts[i + 1] if i + 1 < len(starts) else len(self.content) + 1
            stop = min(end, line_end)
            src = self._source_starts[i] + (pos - starts[i])
            builder.add(text[pos - start : stop - start], src, src + stop - pos)
            pos = stop
            i += 1

    def source(self, offset: int) -> int:
        i = _index(self._content_starts, offset)
        return self._source_starts[i] + offset - self._content_starts[i]


def _index(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo


def locate(line: str, piece: str, cursor: int | None) -> int:
    """Column of a content line inside its source line (containers stripped).

    Block content is a suffix of its line once container markers (``> ``,
    list indentation) are removed; table cells are found left to right from
    ``cursor``.
    """
    if cursor is None:
        stripped = line.rstrip()
        if not piece:
            return len(stripped)
        if stripped.endswith(piece):
            return len(stripped) - len(piece)
        cursor = 0
    elif not piece:
        return min(cursor, len(line))
    col = line.find(piece, cursor)
    if col >= 0:
        return col
    bare = piece.lstrip(" ")
    col = line.find(bare, cursor) if bare else -1
    return max(0, col - (len(piece) - len(bare))) if col >= 0 else min(cursor, len(line))
