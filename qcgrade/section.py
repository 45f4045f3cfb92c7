"""The parsed section: sentences, markers, numerals and TL;DR blocks, parsed once.

Every check reads this one immutable value. Offsets are into the original
text; what is recorded is what a reader sees in the rendered section (see
:mod:`qcgrade.reading`). Markers and TL;DRs are found when the section is
parsed; sentences and numerals are built the first time they are asked for,
because a reward call on a clean section needs neither in full.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

from markdown_it.token import Token

from .findings import Finding
from .lexicon import (
    CITATION_GROUP,
    FOOTNOTE,
    HAS_DIGIT,
    METRIC_TAG,
    NUMERAL,
    TLDR_ANYWHERE,
    TLDR_ITEM,
    TLDR_LABEL,
    XREF,
    citation_ids,
    sentence_ends,
)
from .reading import Document, read_document
from .spans import LineIndex
from .visible import fold


@dataclass(frozen=True, slots=True)
class Marker:
    """A citation id, metric tag or cross-reference as the reader sees it."""

    kind: str  # citation | metric | xref
    id: str
    start: int
    end: int
    sentence: int


@dataclass(frozen=True, slots=True)
class Numeral:
    """A number the reader sees, with its sign, currency and unit."""

    text: str
    start: int
    end: int
    sentence: int


@dataclass(frozen=True, slots=True)
class Sentence:
    """The unit of annotation; never spans a paragraph, item, row or heading."""

    start: int
    end: int
    text: str  # visible text
    kind: str  # paragraph | heading | row | code | html
    citations: tuple[str, ...]
    metric_tags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Tldr:
    """A TL;DR block: where its label is and how many non-empty bullets it has."""

    start: int
    end: int
    bullets: int
    form: str  # list | inline


# Units read as one sentence each: a heading, a table row, a code block.
_WHOLE_UNITS = frozenset({"heading", "row", "code"})
_UNSET = object()


class Section:
    """Everything the checks need to know about one composed section (immutable)."""

    __slots__ = (
        "text", "lines", "citations", "metric_tags", "xrefs", "tldrs",
        "_doc", "_folded", "_masks", "_ends", "_sentences", "_numerals", "_scan",
    )

    text: str
    lines: LineIndex
    citations: tuple[Marker, ...]
    metric_tags: tuple[Marker, ...]
    xrefs: tuple[Marker, ...]
    tldrs: tuple[Tldr, ...]

    def __init__(self, text: str) -> None:
        doc = read_document(text)
        folded = fold(doc.visible)
        found, masks = _find_markers(folded, doc.code)
        tldrs, breaks = _find_tldrs(doc, folded)
        ends = _sentence_ends(doc, folded, breaks)
        markers = _markers(doc, found, ends)
        setter = object.__setattr__
        setter(self, "text", text)
        setter(self, "lines", LineIndex(text, doc.line_starts))
        setter(self, "citations", tuple(m for m in markers if m.kind == "citation"))
        setter(self, "metric_tags", tuple(m for m in markers if m.kind == "metric"))
        setter(self, "xrefs", tuple(m for m in markers if m.kind == "xref"))
        setter(self, "tldrs", tuple(tldrs))
        setter(self, "_doc", doc)
        setter(self, "_folded", folded)
        setter(self, "_masks", masks)
        setter(self, "_ends", ends)
        setter(self, "_sentences", _UNSET)
        setter(self, "_numerals", _UNSET)
        setter(self, "_scan", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Section is immutable; cannot set {name!r}")

    def __repr__(self) -> str:
        return f"Section({len(self.text)} chars, {len(self._ends)} sentences, {len(self.citations)} citations)"

    @property
    def sentences(self) -> tuple[Sentence, ...]:
        """Every sentence in reading order; ``Marker.sentence`` indexes this."""
        if self._sentences is _UNSET:
            object.__setattr__(self, "_sentences", _build_sentences(self))
        return self._sentences  # type: ignore[return-value]

    @property
    def numerals(self) -> tuple[Numeral, ...]:
        """Every numeral the reader sees, outside markers."""
        if self._numerals is _UNSET:
            object.__setattr__(self, "_numerals", tuple(self._scan_numerals(0, len(self._folded))))
        return self._numerals  # type: ignore[return-value]

    def numerals_outside(self, sentences: set[int]) -> Iterator[Numeral]:
        """Numerals not in the given sentences, scanning only what is needed."""
        if self._numerals is not _UNSET or not sentences:
            yield from (n for n in self.numerals if n.sentence not in sentences)
            return
        ends = self._ends
        start = 0
        for index, end in enumerate(ends):
            if index in sentences:
                if start < (ends[index - 1] if index else 0):
                    yield from self._scan_numerals(start, ends[index - 1])
                start = end
        if start < len(self._folded):
            yield from self._scan_numerals(start, len(self._folded))

    def _scan_numerals(self, start: int, end: int) -> Iterator[Numeral]:
        folded = self._folded
        if HAS_DIGIT.search(folded, start, end) is None:
            return
        scan = self._scan
        if scan is None:
            scan = _blank(folded, self._masks) if self._masks else folded
            object.__setattr__(self, "_scan", scan)
        to_source = self._doc.projection.to_source
        ends = self._ends
        visible = self._doc.visible
        for match in NUMERAL.finditer(scan, start, end):
            vs, ve = match.span()
            src_start, src_end = to_source(vs, ve)
            yield Numeral(visible[vs:ve], src_start, src_end, bisect_right(ends, vs))

    def finding(self, check: str, start: int, end: int, message: str, related: str | None = None) -> Finding:
        """A finding at ``[start, end)``, with its line and column."""
        line, column = self.lines.position(start)
        end_line, end_column = self.lines.position(end)
        return Finding(check, message, start, end, line, column, end_line, end_column, related)


def parse_section(text: str) -> Section:
    """Parse a markdown section into the immutable :class:`Section`."""
    return Section(text)


_Found = tuple[str, int, int, int, int]  # kind, id start, id end, start, end (visible offsets)


def _find_markers(folded: str, code: tuple[tuple[int, int], ...]) -> tuple[list[_Found], list[tuple[int, int]]]:
    """Every citation id, metric tag and xref outside code; and the spans to blank."""
    found: list[_Found] = []
    masks: list[tuple[int, int]] = []
    code_starts = [s for s, _ in code]

    def in_code(start: int, end: int) -> bool:
        if not code:
            return False
        i = bisect_right(code_starts, end - 1) - 1
        return i >= 0 and code[i][1] > start

    if "[" in folded:
        for match in FOOTNOTE.finditer(folded):
            if not in_code(*match.span()):
                masks.append(match.span())
        for match in CITATION_GROUP.finditer(folded):
            ids = citation_ids(match.group(1), match.start(1))
            if ids and not in_code(*match.span()):
                masks.append(match.span())
                found.extend(("citation", s, e, s, e) for _id, s, e in ids)
    if "{" in folded:
        for match in METRIC_TAG.finditer(folded):
            if not in_code(*match.span()):
                masks.append(match.span())
                found.append(("metric", *match.span(1), *match.span()))
    if "§" in folded:
        for match in XREF.finditer(folded):
            if not in_code(*match.span()):
                masks.append(match.span())
                found.append(("xref", *match.span(1), *match.span()))
    found.sort(key=lambda item: item[3])
    masks.sort()
    return found, masks


def _blank(text: str, masks: list[tuple[int, int]]) -> str:
    """``text`` with marker spans replaced by spaces, so their digits never count."""
    parts = []
    prev = 0
    for start, end in masks:
        if start >= prev:
            parts.append(text[prev:start])
            parts.append(" " * (end - start))
            prev = end
    parts.append(text[prev:])
    return "".join(parts)


def _markers(doc: Document, found: list[_Found], ends: list[int]) -> list[Marker]:
    to_source = doc.projection.to_source
    visible = doc.visible
    markers = []
    for kind, id_start, id_end, start, end in found:
        src_start, src_end = to_source(start, end)
        # Ids are compared byte for byte: keep what the text really says.
        markers.append(Marker(kind, visible[id_start:id_end], src_start, src_end, bisect_right(ends, start)))
    return markers


def _sentence_ends(doc: Document, folded: str, breaks: list[int]) -> list[int]:
    """Where sentences end: punctuation in prose units, TL;DR items and unit breaks.

    Each end lies just past the whitespace that follows it, so no sentence is
    blank. A sentence index is ``bisect_right(ends, offset)``.
    """
    ends = sentence_ends(folded)
    whole = [(u.start, u.end) for u in doc.units if u.kind in _WHOLE_UNITS]
    if whole:
        starts = [s for s, _ in whole]
        kept = []
        for end in ends:
            i = bisect_right(starts, end - 1) - 1
            if i < 0 or whole[i][1] < end:
                kept.append(end)
        ends = kept
    if breaks:
        ends = sorted(set(ends).union(breaks))
    if not ends or ends[-1] != len(folded):
        ends.append(len(folded))
    return ends


def _build_sentences(section: Section) -> tuple[Sentence, ...]:
    doc = section._doc
    visible = doc.visible
    to_source = doc.projection.to_source
    units = doc.units
    unit_starts = [u.start for u in units]
    cites: list[list[str]] = [[] for _ in section._ends]
    tags: list[list[str]] = [[] for _ in section._ends]
    for marker in section.citations:
        cites[marker.sentence].append(marker.id)
    for marker in section.metric_tags:
        tags[marker.sentence].append(marker.id)
    sentences = []
    lo = 0
    for index, hi in enumerate(section._ends):
        piece = visible[lo:hi]
        stripped = piece.strip()
        first = lo + len(piece) - len(piece.lstrip())
        src_start, src_end = to_source(first, first + len(stripped))
        kind = units[bisect_right(unit_starts, first) - 1].kind if units else "paragraph"
        sentences.append(Sentence(src_start, src_end, stripped, kind, tuple(cites[index]), tuple(tags[index])))
        lo = hi
    return tuple(sentences)


def _find_tldrs(doc: Document, folded: str) -> tuple[list[Tldr], list[int]]:
    """TL;DR blocks, and the inline item boundaries (they end sentences)."""
    tldrs: list[Tldr] = []
    breaks: list[int] = []
    units = doc.units
    unit_starts = [u.start for u in units]
    visible_at: dict[int, bool] | None = None
    for hit in TLDR_ANYWHERE.finditer(folded):
        unit = units[bisect_right(unit_starts, hit.start()) - 1]
        if unit.kind == "row" or unit.kind == "code":
            continue
        label = TLDR_LABEL.match(folded, unit.start, unit.end)
        if label is None or label.start(1) != hit.start():
            continue
        if visible_at is None:
            visible_at = {u.token_index: bool(folded[u.start : u.end].strip()) for u in units}
        start, end = doc.projection.to_source(*label.span(1))
        listed = _following_list_items(unit.token_index, doc.tokens, visible_at)
        if listed is not None:
            tldrs.append(Tldr(start, end, listed, "list"))
            continue
        rest = folded[label.end() : unit.end]
        items = list(TLDR_ITEM.finditer(rest))
        if not items:
            bullets = 1 if rest.strip(" \t\n:-\u2013\u2014.;") else 0
            tldrs.append(Tldr(start, end, bullets, "inline"))
            continue
        bounds = [m.end() for m in items] + [len(rest) + 1]
        bullets = sum(1 for a, b in zip(bounds, bounds[1:]) if rest[a : b - 1].strip(" \t\n;.,-\u2013\u2014"))
        tldrs.append(Tldr(start, end, bullets, "inline"))
        breaks.extend(label.end() + m.start() + (1 if rest[m.start()] in ";\n" else 0) for m in items)
    return tldrs, breaks


def _following_list_items(index: int, tokens: list[Token], visible_at: dict[int, bool]) -> int | None:
    """Non-empty items of a list right after the block at ``index``, or None."""
    opener = tokens[index - 1] if index > 0 else None
    if opener is None or opener.type not in ("paragraph_open", "heading_open"):
        return None
    at = index + 2
    if at >= len(tokens) or tokens[at].type not in ("bullet_list_open", "ordered_list_open"):
        return None
    if tokens[at].level != opener.level:
        return None
    level = tokens[at].level
    count = 0
    item_has_text = False
    in_item = False
    for j in range(at + 1, len(tokens)):
        tok = tokens[j]
        if tok.level == level and tok.type in ("bullet_list_close", "ordered_list_close"):
            break
        if tok.level == level + 1 and tok.type == "list_item_open":
            in_item, item_has_text = True, False
        elif tok.level == level + 1 and tok.type == "list_item_close":
            count += 1 if item_has_text else 0
            in_item = False
        elif in_item and visible_at.get(j, False):
            item_has_text = True
    return count
