"""The parsed section: sentences, markers, numerals and TL;DR blocks, parsed once.

Every check reads this one immutable value. Offsets are into the original
text; what is recorded is what a reader sees in the rendered section (see
:mod:`qcgrade.reading`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markdown_it.token import Token

from .findings import Finding
from .lexicon import (
    CITATION_GROUP,
    FOOTNOTE,
    HAS_DIGIT,
    METRIC_TAG,
    NUMERAL,
    TLDR_ITEM,
    TLDR_LABEL,
    XREF,
    citation_ids,
    sentence_ends,
)
from .reading import Unit, read_units
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


@dataclass(frozen=True, slots=True)
class Section:
    """Everything the checks need to know about one composed section."""

    text: str
    sentences: tuple[Sentence, ...]
    citations: tuple[Marker, ...]
    metric_tags: tuple[Marker, ...]
    xrefs: tuple[Marker, ...]
    numerals: tuple[Numeral, ...]
    tldrs: tuple[Tldr, ...]
    lines: LineIndex = field(repr=False, compare=False)

    def finding(self, check: str, start: int, end: int, message: str, related: str | None = None) -> Finding:
        """A finding at ``[start, end)``, with its line and column."""
        line, column = self.lines.position(start)
        end_line, end_column = self.lines.position(end)
        return Finding(check, message, start, end, line, column, end_line, end_column, related)


class _Collector:
    def __init__(self) -> None:
        self.sentences: list[Sentence] = []
        self.markers: dict[str, list[Marker]] = {"citation": [], "metric": [], "xref": []}
        self.numerals: list[Numeral] = []
        self.tldrs: list[Tldr] = []


def parse_section(text: str) -> Section:
    """Parse a markdown section into the immutable :class:`Section`."""
    units, tokens, _env = read_units(text)
    visible_at = {u.token_index: bool(u.projection.text.strip()) for u in units}
    out = _Collector()
    for unit in units:
        _read_unit(unit, tokens, visible_at, out)
    return Section(
        text=text,
        sentences=tuple(out.sentences),
        citations=tuple(out.markers["citation"]),
        metric_tags=tuple(out.markers["metric"]),
        xrefs=tuple(out.markers["xref"]),
        numerals=tuple(out.numerals),
        tldrs=tuple(out.tldrs),
        lines=LineIndex(text),
    )


def _read_unit(unit: Unit, tokens: list[Token], visible_at: dict[int, bool], out: _Collector) -> None:
    projection = unit.projection
    visible = projection.text
    if not visible.strip():
        return
    folded = fold(visible)
    breaks: list[int] = []
    if unit.kind in ("paragraph", "heading", "html"):
        label = TLDR_LABEL.match(folded)
        if label is not None:
            breaks = _read_tldr(unit, label.span(1), label.end(), folded, tokens, visible_at, out)
    found: list[tuple[str, int, int, int, int]] = []
    masks: list[tuple[int, int]] = []
    if unit.kind != "code":
        _find_markers(folded, unit.code_ranges, found, masks)
    numerals: list[tuple[str, int, int]] = []
    if HAS_DIGIT.search(folded):
        scan = _masked(folded, masks)
        numerals = [(m.group(), m.start(), m.end()) for m in NUMERAL.finditer(scan)]
    if unit.kind in ("paragraph", "html"):
        ends = sorted(set(sentence_ends(folded)) | set(breaks))
    else:
        ends = []
    _emit_sentences(unit, visible, ends, found, numerals, out)


def _find_markers(
    folded: str,
    code: tuple[tuple[int, int], ...],
    found: list[tuple[str, int, int, int, int]],
    masks: list[tuple[int, int]],
) -> None:
    """Collect ``(kind, id_start, id_end, start, end)`` for every marker outside code."""
    def in_code(start: int, end: int) -> bool:
        return any(s < end and start < e for s, e in code)

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


def _masked(text: str, masks: list[tuple[int, int]]) -> str:
    if not masks:
        return text
    chars = list(text)
    for start, end in masks:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _emit_sentences(
    unit: Unit,
    visible: str,
    ends: list[int],
    found: list[tuple[str, int, int, int, int]],
    numerals: list[tuple[str, int, int]],
    out: _Collector,
) -> None:
    projection = unit.projection
    bounds = [0, *[e for e in ends if 0 < e < len(visible)], len(visible)]
    found.sort(key=lambda item: item[3])
    numerals.sort(key=lambda item: item[1])
    fi = ni = 0
    for lo, hi in zip(bounds, bounds[1:]):
        piece = visible[lo:hi]
        stripped = piece.strip()
        if not stripped:
            continue
        index = len(out.sentences)
        cites: list[str] = []
        tags: list[str] = []
        while fi < len(found) and found[fi][3] < hi:
            kind, id_start, id_end, start, end = found[fi]
            # Ids are compared byte for byte: keep what the text really says.
            raw = visible[id_start:id_end]
            src_start, src_end = projection.to_source(start, end)
            out.markers[kind].append(Marker(kind, raw, src_start, src_end, index))
            if kind == "citation":
                cites.append(raw)
            elif kind == "metric":
                tags.append(raw)
            fi += 1
        while ni < len(numerals) and numerals[ni][1] < hi:
            _text, start, end = numerals[ni]
            src_start, src_end = projection.to_source(start, end)
            out.numerals.append(Numeral(visible[start:end], src_start, src_end, index))
            ni += 1
        first = lo + (len(piece) - len(piece.lstrip()))
        last = lo + len(piece.rstrip())
        src_start, src_end = projection.to_source(first, last)
        out.sentences.append(Sentence(src_start, src_end, stripped, unit.kind, tuple(cites), tuple(tags)))


def _read_tldr(
    unit: Unit,
    label: tuple[int, int],
    label_end: int,
    folded: str,
    tokens: list[Token],
    visible_at: dict[int, bool],
    out: _Collector,
) -> list[int]:
    """Record a TL;DR block; return inline item boundaries (they end sentences)."""
    start, end = unit.projection.to_source(*label)
    listed = _following_list_items(unit.token_index, tokens, visible_at)
    if listed is not None:
        out.tldrs.append(Tldr(start, end, listed, "list"))
        return []
    rest = folded[label_end:]
    items = [m.end() for m in TLDR_ITEM.finditer(rest)]
    if not items:
        bullets = 1 if rest.strip(" \t\n:-\u2013\u2014.;") else 0
        out.tldrs.append(Tldr(start, end, bullets, "inline"))
        return []
    bounds = [*items, len(rest) + 1]
    bullets = sum(1 for a, b in zip(bounds, bounds[1:]) if rest[a : b - 1].strip(" \t\n;.,-\u2013\u2014"))
    out.tldrs.append(Tldr(start, end, bullets, "inline"))
    return [label_end + m.start() + (1 if rest[m.start()] in ";\n" else 0) for m in TLDR_ITEM.finditer(rest)]


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
