"""What a reader sees: visible text with a map back to source offsets.

Markdown and HTML hide characters (emphasis delimiters, link targets, tags,
comments, zero-width code points) and turn others into something else
(``&#52;`` shows as ``4``, ``\\[`` as ``[``). Checks must judge the rendered
text, yet report offsets into the original file. A :class:`Projection` holds
both: the visible string and, piece by piece, where each visible character
came from.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from typing import Protocol

import regex

# Zero-width and other default-ignorable code points render as nothing, so a
# digit run or marker split by them still reads as one to a person. The class
# is Unicode's Default_Ignorable_Code_Point, spelled out so the stdlib engine
# (much faster on this than a property lookup) can scan for it; a test checks
# it against the property.
IGNORABLE_CLASS = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
_IGNORABLE = re.compile(f"[{IGNORABLE_CLASS}]+")

# Full-width ASCII variants (U+FF01..FF5E) look like their ASCII twins; fold
# them one to one so detection sees what a reader sees while offsets hold.
_FOLD = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
_FOLD.update({0x037E: ord(";"), 0x2024: ord("."), 0xFE5D: ord("["), 0xFE5E: ord("]")})


_FOLDABLE = re.compile("[\uff01-\uff5e\u037e\u2024\ufe5d\ufe5e]")


def fold(text: str) -> str:
    """Fold look-alike punctuation and letters to ASCII, preserving length."""
    if text.isascii() or not _FOLDABLE.search(text):
        return text
    return text.translate(_FOLD)


class Projection:
    """Visible text plus, per piece, the source range it was read from.

    A piece is one-to-one (same length in both) or atomic (an entity or escape:
    any visible offset inside maps to the whole source range). Immutable once
    built.
    """

    __slots__ = ("text", "vis_starts", "src_starts", "src_ends", "_one_to_one")

    def __init__(self, text: str, vis_starts: list[int], src_starts: list[int], src_ends: list[int]) -> None:
        self.text = text
        self.vis_starts = vis_starts
        self.src_starts = src_starts
        self.src_ends = src_ends
        nxt = vis_starts[1:] + [len(text)]
        self._one_to_one = [n - v == e - s for v, n, s, e in zip(vis_starts, nxt, src_starts, src_ends)]

    def to_source(self, start: int, end: int) -> tuple[int, int]:
        """Map a visible span ``[start, end)`` to a source span."""
        starts = self.vis_starts
        if not starts:
            return 0, 0
        i = bisect_right(starts, start) - 1
        if i < 0:
            src_start = self.src_starts[0]
        elif self._one_to_one[i]:
            src_start = self.src_starts[i] + start - starts[i]
        else:
            src_start = self.src_starts[i]
        if end <= start:
            return src_start, src_start
        j = bisect_right(starts, end - 1) - 1
        if j < 0:
            return src_start, self.src_starts[0]
        if self._one_to_one[j]:
            return src_start, self.src_starts[j] + end - starts[j]
        return src_start, self.src_ends[j]


class ProjectionBuilder:
    """Accumulates visible pieces in reading order."""

    __slots__ = ("_parts", "_vis", "_src", "_end", "_length")

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._vis: list[int] = []
        self._src: list[int] = []
        self._end: list[int] = []
        self._length = 0

    def add(self, visible: str, src_start: int, src_end: int) -> None:
        """Add ``visible``, read from source ``[src_start, src_end)``."""
        if visible:
            self._parts.append(visible)
            self._vis.append(self._length)
            self._src.append(src_start)
            self._end.append(src_end)
            self._length += len(visible)

    def add_break(self, char: str) -> None:
        """A visible separator that stands for no source text."""
        at = self._end[-1] if self._end else 0
        self.add(char, at, at)

    @property
    def length(self) -> int:
        return self._length

    def build(self) -> Projection:
        return Projection("".join(self._parts), self._vis, self._src, self._end)


class IgnorableStrippingBuilder(ProjectionBuilder):
    """A builder that drops zero-width code points: they render as nothing.

    Used only when the source holds such characters (or entities for them),
    so ordinary text pays nothing.
    """

    __slots__ = ()

    def add(self, visible: str, src_start: int, src_end: int) -> None:
        if visible.isascii() or not _IGNORABLE.search(visible):
            super().add(visible, src_start, src_end)
        elif len(visible) != src_end - src_start:
            super().add(_IGNORABLE.sub("", visible), src_start, src_end)
        else:
            pos = 0
            for match in _IGNORABLE.finditer(visible):
                super().add(visible[pos : match.start()], src_start + pos, src_start + match.start())
                pos = match.end()
            super().add(visible[pos:], src_start + pos, src_end)


# Zero-width code points and foldable look-alikes, found in one pass (the
# regex engine's property lookup beats a stdlib class with astral ranges).
_SPECIAL = regex.compile(r"[\p{Default_Ignorable_Code_Point}\uFF01-\uFF5E\u037E\u2024\uFE5D\uFE5E]")


def needs_cleaning(text: str) -> bool:
    """Whether ``text`` may show zero-width or look-alike characters.

    Entities can produce any character, so any ``&`` counts. Ordinary text
    answers no and skips both the stripping builder and folding.
    """
    return "&" in text or (not text.isascii() and _SPECIAL.search(text) is not None)


def builder_for(cleaning: bool) -> ProjectionBuilder:
    """The cheapest builder that still reads the text as a reader sees it."""
    return IgnorableStrippingBuilder() if cleaning else ProjectionBuilder()


# --- HTML ------------------------------------------------------------------

_TAG = regex.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)([^<>]*)>")
_ENTITY = regex.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_HIDING_STYLE = regex.compile(r"display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d]*[1-9])", regex.I)
_HIDDEN_ATTR = regex.compile(r"(?:^|\s)(?:hidden|aria-hidden\s*=\s*[\"']?true)(?=[\s/=>]|$)", regex.I)
# Elements whose content a browser never shows as text.
_HIDDEN_ELEMENTS = frozenset(
    {"script", "style", "template", "head", "title", "noscript", "textarea", "select", "object", "iframe", "svg", "math"}
)
# Tags that break the flow of text (so ``4<br>2`` is two numbers, not ``42``).
BREAKING_TAGS = frozenset(
    {
        "br",
        "p",
        "div",
        "li",
        "ul",
        "ol",
        "tr",
        "td",
        "th",
        "table",
        "thead",
        "tbody",
        "hr",
        "img",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "blockquote",
        "pre",
        "section",
        "article",
        "header",
        "footer",
        "dd",
        "dt",
        "dl",
        "figure",
        "figcaption",
        "details",
        "summary",
        "caption",
        "nav",
        "aside",
    }
)


def add_tag_break(builder: ProjectionBuilder, name: str, start: int, end: int) -> None:
    """A block-level tag ends a sentence (U+2029); ``<br>`` and ``<img>`` only break words."""
    name = name.lower()
    if name in ("br", "img", "wbr"):
        builder.add("\n" if name == "br" else " ", start, end)
    elif name in BREAKING_TAGS:
        builder.add(PARAGRAPH_BREAK, start, end)


PARAGRAPH_BREAK = "\u2029"


class HiddenTracker:
    """Follows open and close tags to know whether text is currently shown."""

    __slots__ = ("_hidden_tag", "_depth")

    def __init__(self) -> None:
        self._hidden_tag: str | None = None
        self._depth = 0

    @property
    def hidden(self) -> bool:
        return self._hidden_tag is not None

    def feed(self, closing: bool, name: str, attrs: str) -> None:
        name = name.lower()
        self_closing = attrs.rstrip().endswith("/")
        if self._hidden_tag is not None:
            if name == self._hidden_tag and not self_closing:
                self._depth += -1 if closing else 1
                if self._depth == 0:
                    self._hidden_tag = None
            return
        if closing or self_closing:
            return
        if name in _HIDDEN_ELEMENTS or _HIDDEN_ATTR.search(attrs) or ("style" in attrs.lower() and _HIDING_STYLE.search(attrs)):
            self._hidden_tag = name
            self._depth = 1


def parse_tag(source: str) -> tuple[bool, str, str] | None:
    """``(closing, name, attributes)`` of one tag's source, or None if not a tag."""
    match = _TAG.fullmatch(source.strip())
    if match is None:
        return None
    return match.group(1) == "/", match.group(2), match.group(3)


_TAG_NAME = regex.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)")
_TAG_STOP = re.compile(r"[>\"']")


def _tag_end(source: str, pos: int) -> int:
    """Offset just past the ``>`` that closes a tag, as a browser reads it; -1 if none.

    Quoted attribute values may hold ``>``; anything else, ``<`` included,
    is part of the tag until the next ``>``.
    """
    while True:
        stop = _TAG_STOP.search(source, pos)
        if stop is None:
            return -1
        if stop.group() == ">":
            return stop.end()
        close = source.find(stop.group(), stop.end())
        if close < 0:
            return -1
        pos = close + 1


class HtmlSource(Protocol):
    """HTML text plus a way to add its ranges to a projection (see reading.py)."""

    content: str

    def add(self, builder: ProjectionBuilder, start: int, end: int, visible: str | None = None) -> None: ...

    def source(self, offset: int) -> int: ...


def add_html_text(builder: ProjectionBuilder, html_source: HtmlSource, tracker: HiddenTracker) -> None:
    """Add the text an HTML block displays: no tags, comments or hidden parts.

    One linear scan: comments end at the next ``-->`` (found with str.find, so
    many unclosed ``<!--`` cannot make it quadratic).
    """
    source = html_source.content
    pos = 0
    n = len(source)
    while pos < n:
        lt = source.find("<", pos)
        amp = source.find("&", pos)
        nxt = min(x for x in (lt, amp, n) if x >= 0)
        if nxt > pos and not tracker.hidden:
            html_source.add(builder, pos, nxt)
        if nxt == n:
            return
        if nxt == amp:
            match = _ENTITY.match(source, amp)
            end = amp + 1 if match is None else match.end()
            if not tracker.hidden:
                visible = "&" if match is None else html.unescape(match.group())
                builder.add(visible, html_source.source(amp), html_source.source(end - 1) + 1)
            pos = end
            continue
        if source.startswith("<!--", lt):
            close = source.find("-->", lt + 4)
            pos = n if close < 0 else close + 3
            continue
        if source.startswith(("<!", "<?"), lt):
            close = source.find(">", lt + 2)
            pos = n if close < 0 else close + 1
            continue
        name_match = _TAG_NAME.match(source, lt)
        if name_match is None:
            if not tracker.hidden:
                html_source.add(builder, lt, lt + 1)
            pos = lt + 1
            continue
        end = _tag_end(source, name_match.end())
        if end < 0:  # a tag cut off by the end of the block shows nothing
            return
        name = name_match.group(2)
        tracker.feed(name_match.group(1) == "/", name, source[name_match.end() : end - 1])
        if not tracker.hidden:
            add_tag_break(builder, name, html_source.source(lt), html_source.source(end - 1) + 1)
        pos = end
