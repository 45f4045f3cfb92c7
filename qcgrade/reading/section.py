"""The parsed section: sentences, markers, numerals and TL;DR blocks, parsed once.

Every check reads this one immutable value. Offsets are into the original
text; what is recorded is what a reader sees in the rendered section (see
:mod:`qcgrade.reading.document`). Markers and TL;DRs are found when the section is
parsed; sentences and numerals are built the first time they are asked for,
because a reward call on a clean section needs neither in full.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from itertools import accumulate
from operator import itemgetter
from typing import NamedTuple, Protocol

import regex
from markdown_it.token import Token

from ..findings import Finding
from ..spans import LineIndex
from . import vocab
from .document import Document, read_document
from .lexicon import TLDR_ANYWHERE, TLDR_ITEM, TLDR_LABEL, _Found, find_markers, link_citations
from .projection import fold
from .rules.numerals import numerals_with_rules
from .sentences import attributed_quotations, quoted_spans, sentence_ends
from .structure import heading_number, list_numbers


class _Finds(Protocol):
    """What ``Section.find_visible`` scans with: a compiled pattern, or anything with its ``finditer``."""

    def finditer(self, text: str, pos: int = ..., endpos: int | None = ...) -> Iterator[regex.Match[str]]: ...


class Marker(NamedTuple):
    """A citation id, metric tag or cross-reference as the reader sees it.

    ``vouches`` is False for a marker inside raw HTML (which can hide it), in
    a group split by a tag CSS could make a block (see :func:`_soft_ends`) or
    in a section using bidi overrides (which can reverse it): such a marker
    is still checked, but never annotates a number or counts as coverage.
    """

    kind: str  # citation | metric | xref
    id: str
    start: int
    end: int
    sentence: int
    vouches: bool = True


class Numeral(NamedTuple):
    """A number the reader sees, with its sign, currency and unit, and the rule that read it."""

    text: str
    start: int
    end: int
    sentence: int
    rule: str = "numeral.digits"


class Sentence(NamedTuple):
    """The unit of annotation; never spans a paragraph, item, row or heading."""

    start: int
    end: int
    text: str  # visible text
    kind: str  # paragraph | heading | row | code | html
    citations: tuple[str, ...]
    metric_tags: tuple[str, ...]


class Tldr(NamedTuple):
    """A TL;DR block: where its label is and how many non-empty bullets it has."""

    start: int
    end: int
    bullets: int
    form: str  # list | inline


# Units read as one sentence each: a code block (shown verbatim, not prose) and a
# table row (its Source cell cites the whole row, whatever stops its cells hold).
_WHOLE_UNITS = frozenset({"code", "row"})
_UNSET = object()


class Section:
    """Everything the checks need to know about one composed section (immutable)."""

    __slots__ = (
        "text",
        "lines",
        "citations",
        "metric_tags",
        "xrefs",
        "tldrs",
        "_doc",
        "_folded",
        "_masks",
        "_ends",
        "_sentences",
        "_numerals",
        "_scan",
        "_drawn",
        "_shown_at",
    )

    text: str
    lines: LineIndex
    citations: tuple[Marker, ...]
    metric_tags: tuple[Marker, ...]
    xrefs: tuple[Marker, ...]
    tldrs: tuple[Tldr, ...]
    _doc: Document
    _folded: str
    _masks: list[tuple[int, int]]
    _ends: list[int]
    _sentences: object  # tuple[Sentence, ...] once built
    _numerals: object  # tuple[Numeral, ...] once built
    _scan: str | None
    _drawn: list[Numeral] | None
    _shown_at: dict[int, int]  # a read numeral's source start -> its visible start

    def __init__(self, text: str) -> None:
        doc = read_document(text)
        folded = fold(doc.visible) if doc.cleaning else doc.visible
        quotations = quoted_spans(folded) if ("[" in folded or "{" in folded) else []
        found, groups = _find_markers(folded, doc, quotations)
        # Markers that cannot vouch do not hide their digits; section numbers are structure.
        may_vouch = not shows_bidi_override(text)
        masks = sorted(_vouching_masks(doc, groups, may_vouch) + _section_numbers(doc, folded) + _footnote_marks(doc, text))
        hiding = "<" in text and _hiding_html(doc, text)
        scan: list[str | None] = [None]
        tldrs, breaks = _find_tldrs(doc, folded, masks, scan)
        if hiding:
            tldrs = []
        ends = _sentence_ends(doc, folded, breaks, quotations)
        spans: list[tuple[int, int, str]] = []
        if doc.soft_breaks:
            # Where such a tag may end a sentence depends on the numbers it stands in: read them all now.
            blanked = scan[0]
            if blanked is None:
                blanked = scan[0] = _blank(folded, masks) if masks else folded
            spans = numerals_with_rules(blanked, 0, len(folded))
            ends, found = _soft_ends(doc, folded, ends, found, groups, [(s, e) for s, e, _rule in spans])
        markers = _markers(doc, found, ends, may_vouch and not hiding)
        setter = object.__setattr__
        setter(self, "text", text)
        setter(self, "lines", LineIndex(text, doc.line_starts))
        setter(self, "citations", tuple(markers["citation"]))
        setter(self, "metric_tags", tuple(markers["metric"]))
        setter(self, "xrefs", tuple(markers["xref"]))
        setter(self, "tldrs", tuple(tldrs))
        setter(self, "_doc", doc)
        setter(self, "_folded", folded)
        setter(self, "_masks", masks)
        setter(self, "_ends", ends)
        setter(self, "_sentences", _UNSET)
        setter(self, "_numerals", _UNSET)
        setter(self, "_scan", scan[0])
        setter(self, "_drawn", None)
        setter(self, "_shown_at", {})
        if doc.soft_breaks:
            # Every later question is answered from this one list, read with the final sentence ends.
            setter(self, "_numerals", self._numerals_sorted(self._to_numerals(spans)))

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
        """Every numeral the reader sees, outside markers, in source order."""
        if self._numerals is _UNSET:
            object.__setattr__(self, "_numerals", self._numerals_sorted(self._scan_numerals(0, len(self._folded))))
        return self._numerals  # type: ignore[return-value]

    def _numerals_sorted(self, found: list[Numeral]) -> tuple[Numeral, ...]:
        """``found`` (the whole text's numerals) with the drawn ones, in source order."""
        drawn = self._drawn_numerals()
        if drawn:
            found = sorted(found + drawn, key=lambda n: (n.start, n.end))
        return tuple(found)

    def _drawn_numerals(self) -> list[Numeral]:
        """Numbers the renderer draws that the visible text does not hold: list numbers (read once)."""
        drawn = self._drawn
        if drawn is None:
            drawn = []
            if "." in self.text or ")" in self.text:
                ends = self._ends
                last = len(ends) - 1  # an empty last item draws its number past every sentence: it joins the last
                drawn = [
                    Numeral(d.text, d.src_start, d.src_end, min(bisect_right(ends, d.visible_at), last), "numeral.list_number")
                    for d in list_numbers(self._doc, self.text)
                ]
            object.__setattr__(self, "_drawn", drawn)
        return drawn  # callers never change it

    def sentence_at(self, index: int) -> Sentence:
        """``sentences[index]``, building only that one when the list is not built yet.

        Tier-3 grounding reads the few sentences that cite something; building
        every sentence of a long section for them would cost more than the rest
        of grading.
        """
        if self._sentences is not _UNSET:
            return self._sentences[index]  # type: ignore[index]
        return _one_sentence(self._doc, self._ends, index, _ids_in(self.citations, index), _ids_in(self.metric_tags, index))

    def visible_spans(self, indices: Iterable[int]) -> list[tuple[int, int, str]]:
        """Where each sentence ``indices`` names lies in :attr:`visible`, its blanks left out, and its kind.

        Grounding reads the citing sentences there, in one pass.
        """
        return _visible_spans(self._doc, self._ends, indices)

    def numerals_within(self, sentences: set[int]) -> Iterator[Numeral]:
        """Numerals in the given sentences, in order, scanning only those sentences.

        Each run of consecutive sentences is scanned as one stretch (a numeral
        never spans a sentence end), so grounding, which reads the citing
        sentences, and tier 1, which reads the others (:meth:`numerals_outside`),
        together scan the section about once.
        """
        if not sentences:
            return
        if self._numerals is not _UNSET:
            yield from (n for n in self.numerals if n.sentence in sentences)
            return
        ends = self._ends
        found: list[Numeral] = []
        for first, last in _runs(sorted(i for i in sentences if 0 <= i < len(ends))):
            begin = ends[first - 1] if first else 0
            found.extend(n for n in self._scan_numerals(begin, ends[last]) if n.sentence in sentences)
        drawn = [n for n in self._drawn_numerals() if n.sentence in sentences]
        yield from sorted(found + drawn, key=lambda n: (n.start, n.end)) if drawn else found

    def numerals_outside(self, sentences: set[int]) -> Iterator[Numeral]:
        """Numerals not in the given sentences, scanning only what is needed."""
        if self._numerals is not _UNSET or not sentences:
            yield from (n for n in self.numerals if n.sentence not in sentences)
            return
        yield from (n for n in self._drawn_numerals() if n.sentence not in sentences)
        ends = self._ends
        start = 0
        for index in sorted(sentences):
            if 0 <= index < len(ends):
                begin = ends[index - 1] if index else 0
                if start < begin:
                    yield from self._scan_numerals(start, begin)
                start = max(start, ends[index])
        if start < len(self._folded):
            yield from self._scan_numerals(start, len(self._folded))

    def _scan_numerals(self, start: int, end: int) -> list[Numeral]:
        scan = self._scan
        if scan is None:
            # Markers blanked out: digits inside a marker never count.
            scan = _blank(self._folded, self._masks) if self._masks else self._folded
            object.__setattr__(self, "_scan", scan)
        return self._to_numerals(numerals_with_rules(scan, start, end))

    def _to_numerals(self, spans: list[tuple[int, int, str]]) -> list[Numeral]:
        """Numerals at visible ``spans`` (with the rule that read each), with their source offsets and sentences."""
        to_source = self._doc.projection.to_source
        ends = self._ends
        visible = self._doc.visible
        shown_at = self._shown_at
        found = []
        for vs, ve, rule in spans:
            src_start, src_end = to_source(vs, ve)
            shown_at[src_start] = vs
            found.append(Numeral(visible[vs:ve], src_start, src_end, bisect_right(ends, vs), rule))
        return found

    def shown_at(self, numeral: Numeral) -> int:
        """Where ``numeral`` starts in :attr:`visible` (kept as it is read; mapped for a drawn list number)."""
        at = self._shown_at.get(numeral.start)
        return self._doc.projection.to_visible(numeral.start) if at is None else at

    def table_headers(self) -> dict[int, int]:
        """The header-row sentence of each table body row's sentence (tables with a header row)."""
        headers: dict[int, int] = {}
        header = -1
        tokens, ends = self._doc.tokens, self._ends
        # A row unit is read at its closing token: after a header cell's close in a table's head.
        for unit in self._doc.units:
            if unit.kind == "row":
                sentence = bisect_right(ends, unit.start)
                if tokens[unit.token_index - 1].type == "th_close":
                    header = sentence
                elif header >= 0:
                    headers[sentence] = header
        return headers

    def covered_header_rows(self, annotated: set[int]) -> set[int]:
        """Header-row sentences of tables whose every body row is in ``annotated``.

        A header labels columns ("HR (95% CI)", "Sep. 30, 2025"); when every
        row under it is cited, its labels are covered too (see
        :func:`is_column_label` for what a label may hold).
        """
        if "|" not in self.text:
            return set()
        covered = set()
        for header, body in _table_rows(self._doc, self._ends):
            if header not in annotated and body and all(row in annotated for row in body):
                covered.add(header)
        return covered

    def is_column_label(self, numeral: Numeral) -> bool:
        """Whether a numeral in a header row reads as a column label, not a claim.

        Labels: a year or the tail of a year range (``2025``, ``2019–20``), a
        day beside a month (``Jun. 30``, ``1 Nov.``), a number glued to a unit
        or after a label word (``10y``, ``Week 76``), anything else inside
        parentheses but a percentage (``(n=412)``, ``(5-shot)``), and a
        confidence level (``95% CI``). ``Revenue grew 42 times`` and
        ``Revenue (up 42%)`` are claims.
        """
        text = self.text
        line = text[text.rfind("\n", 0, numeral.start) + 1 : numeral.start]
        after = text[numeral.end : numeral.end + 16]
        if _CONFIDENCE.match(after) and numeral.text.endswith("%"):
            return True
        if _claim_shape().search(numeral.text) is not None:
            return False
        if _YEAR_OR_TAIL.fullmatch(numeral.text) and (len(numeral.text) == 4 or _YEAR_RANGE_BEFORE.search(line)):
            return True
        if _glued_unit().fullmatch(numeral.text) or _label_word_before().search(line):
            return True
        if _month_before().search(line) or _month_after().match(after):
            return True
        return line.rfind("(") > max(line.rfind(")"), line.rfind("|"))

    @property
    def visible(self) -> str:
        """The text as a reader sees it (markup hidden, entities shown, look-alike punctuation folded).

        Its offsets are visible offsets: :meth:`to_source` maps them to the
        original text, :meth:`to_visible` back.
        """
        return self._folded

    @property
    def to_source(self) -> Callable[[int, int], tuple[int, int]]:
        """The source span of a visible span ``[start, end)`` (a function: grounding maps many)."""
        return self._doc.projection.to_source

    @property
    def to_visible(self) -> Callable[[int], int]:
        """The visible offset of a source boundary (a function: grounding maps many)."""
        return self._doc.projection.to_visible

    def find_visible(self, pattern: _Finds, skip: set[int]) -> Iterator[tuple[regex.Match[str], int, int, int]]:
        """Matches of ``pattern`` in the visible text outside the sentences in ``skip``.

        Yields ``(match in the visible text, source start, source end, sentence)``;
        for checks that read words the way a reader sees them (emphasis and tags removed).
        """
        visible = self._doc.visible
        ends = self._ends
        to_source = self._doc.projection.to_source
        lo = 0
        for index, hi in enumerate(ends):
            if index not in skip:
                for match in pattern.finditer(visible, lo, hi):
                    yield (match, *to_source(*match.span()), index)
            lo = hi

    def finding(
        self, check: str, start: int, end: int, message: str, related: str | None = None, rule: str | None = None
    ) -> Finding:
        """A finding at ``[start, end)``, with its line and column, and the rule that fired."""
        line, column = self.lines.position(start)
        end_line, end_column = self.lines.position(end)
        return Finding(check, message, start, end, line, column, end_line, end_column, related, rule)


# HTML that can hide any markdown after it: a <template> (its content is never
# shown, and markdown-it may end its block early), a <style> element or a
# stylesheet <link> (CSS can hide any list, label or citation). Lopsided: such
# a section gets no TL;DR credit and no vouching markers.
_HIDING_HTML = regex.compile(r"<(?:template|style|link)(?=[\s/>])", regex.IGNORECASE)


def _hiding_html(doc: Document, text: str) -> bool:
    """Whether ``text`` holds a ``<template>``, ``<style>`` or ``<link>`` tag outside code.

    A tag shown in a code span (an odd number of backticks before it on its
    line) or a code block is text about HTML, not HTML.
    """
    matches = list(_HIDING_HTML.finditer(text))
    if not matches:
        return False
    code_lines = [(t.map[0], t.map[1]) for t in doc.tokens if t.type in ("fence", "code_block") and t.map]
    line_no, counted = 0, 0  # lines counted incrementally: linear in the text
    for checked, match in enumerate(matches):
        if checked == 64:
            return True  # so many tags is no prose about HTML; and the test stays linear
        line_no += text.count("\n", counted, match.start())
        counted = match.start()
        line_start = text.rfind("\n", 0, match.start()) + 1
        if text.count("`", line_start, match.start()) % 2:
            continue
        if any(first <= line_no < last for first, last in code_lines):
            continue
        return True
    return False


# A bidi override shown by the text, typed or as an entity ("&#x202E;").
_BIDI_OVERRIDE_ENTITY = regex.compile(r"&#(?:[xX]0*202[dDeE]|0*823[78]);?")


def shows_bidi_override(text: str) -> bool:
    """Whether ``text`` shows a left-to-right or right-to-left override (which can reverse what it covers)."""
    if "\u202d" in text or "\u202e" in text:
        return True
    return "&#" in text and _BIDI_OVERRIDE_ENTITY.search(text) is not None


def parse_section(text: str) -> Section:
    """Parse a markdown section into the immutable :class:`Section`."""
    return Section(text)


@cache
def _claim_shape() -> regex.Pattern[str]:
    """A percent or currency sign or a sign in a header's number: a claim, not a label."""
    signs = vocab.char_class(vocab.typography()["signs"])[1:-1]
    return regex.compile(rf"[{vocab.percent_sign_chars()}\p{{Sc}}{signs}]")


@cache
def _glued_unit() -> regex.Pattern[str]:
    """A tenor or label glued to its number ("10y", "5d"); a magnitude or multiple glued on ("420bn", "3x")
    makes an amount, a claim."""
    glued = vocab.alternation((*vocab.magnitude_words(glued=True, one_letter=True), "x"))
    return regex.compile(rf"\p{{N}}+(?!(?i:{glued})$)\p{{L}}{{1,3}}")


@cache
def _label_word_before() -> regex.Pattern[str]:
    return regex.compile(rf"(?i:{vocab.alternation(vocab.label_words())})\s*[=:]?\s*$")


@cache
def _month_before() -> regex.Pattern[str]:
    return regex.compile(rf"(?i:\b{vocab.alternation(vocab.months())}[a-z]*\.?)\s*$")


@cache
def _month_after() -> regex.Pattern[str]:
    return regex.compile(rf"\s*(?i:{vocab.alternation(vocab.months())}[a-z]*\b)")


_CONFIDENCE = regex.compile(r"\s*(?:CI|PI|CrI|confidence|credible)\b", regex.IGNORECASE)
_YEAR_OR_TAIL = regex.compile(r"(?:19|20)[0-9]{2}|[0-9]{2}")
_YEAR_RANGE_BEFORE = regex.compile(r"(?:19|20)[0-9]{2}[-\u2013\u2014/]$")


def _table_rows(doc: Document, ends: list[int]) -> list[tuple[int, list[int]]]:
    """For each table with a header row: its header sentence and its body-row sentences."""
    rows = {u.token_index: u for u in doc.units if u.kind == "row"}
    if not rows:
        return []
    tables: list[tuple[int, list[int]]] = []
    header = -1
    body: list[int] = []
    in_head = False
    for index, token in enumerate(doc.tokens):
        kind = token.type
        if kind == "table_open":
            header, body, in_head = -1, [], False
        elif kind == "thead_open":
            in_head = True
        elif kind == "thead_close":
            in_head = False
        elif kind == "tr_close" and index in rows:
            sentence = bisect_right(ends, rows[index].start)
            if in_head:
                header = sentence
            else:
                body.append(sentence)
        elif kind == "table_close" and header >= 0:
            tables.append((header, body))
    return tables


def _section_numbers(doc: Document, folded: str) -> list[tuple[int, int]]:
    """Section numbers opening headings (see :func:`qcgrade.reading.structure.heading_number`)."""
    spans = []
    for unit in doc.units:
        if unit.kind == "heading" and folded[unit.start : unit.start + 1].isdigit():
            number = heading_number(folded, unit.start, unit.end)
            if number is not None:
                spans.append(number)
    return spans


# A footnote mark: digits, or a list or range of them, in a superscript ("FY25.<sup>1</sup>",
# "growth<sup>2,3</sup>"). Right after a digit a superscript is an exponent ("10<sup>6</sup>"), a number.
_FOOTNOTE_SUP = regex.compile(
    r"<sup(?:\s[^<>]*)?>\s*([0-9]{1,3}(?:\s?[,\u2013\-]\s?[0-9]{1,3}){0,8})\s*</sup\s*>", regex.IGNORECASE
)


_SUP_OPEN = re.compile(r"<sup", re.IGNORECASE)
_CURRENCY_BEFORE = regex.compile(r"\p{Sc}")


@cache
def _unit_after() -> regex.Pattern[str]:
    """A percent sign (raw text: its full-width twin too) or a quantity word after a superscript: a quantity."""
    words = vocab.alternation(
        (*vocab.percent_words(), *(w for w in vocab.unit_words() if w.isalpha()), *vocab.magnitude_words(one_letter=True), "x")
    )
    return regex.compile(rf"\s{{0,2}}(?:[{vocab.percent_sign_chars()}\uff05]|(?:{words})(?![\p{{L}}\p{{N}}]))", regex.IGNORECASE)


def _footnote_marks(doc: Document, text: str) -> list[tuple[int, int]]:
    """Visible spans of footnote marks in superscripts: a reader sees a pointer to a note, not a number."""
    if "<" not in text or _SUP_OPEN.search(text) is None:
        return []  # one search, by the stdlib engine, for most text
    to_visible, visible = doc.projection.to_visible, doc.visible
    spans = []
    for mark in _FOOTNOTE_SUP.finditer(text):
        if mark.start() and (text[mark.start() - 1].isdigit() or _CURRENCY_BEFORE.match(text, mark.start() - 1)):
            continue  # an exponent, or an amount ("$<sup>5</sup>")
        if _unit_after().match(text, mark.end()):
            continue  # a quantity however it is drawn ("<sup>45</sup>%", "<sup>3</sup> bn")
        start, end = to_visible(mark.start(1)), to_visible(mark.end(1))
        # Shown as its digits alone: HTML, not a tag written out in code ("`<sup>1</sup>`").
        if visible[start:end] == mark.group(1) and visible[start - 1 : start] != ">":
            spans.append((start, end))
    return spans


def _find_markers(folded: str, doc: Document, quotations: list[tuple[int, int]]) -> tuple[list[_Found], list[tuple[int, int]]]:
    """Every citation id, metric tag and xref outside code, sorted; and the spans to blank."""
    found, masks = find_markers(folded, quotations)
    if doc.links:
        linked, link_masks = link_citations(folded, doc.links)
        found.extend(linked)
        masks.extend(link_masks)
    code = doc.code
    if code:
        # Markers shown inside code are verbatim text, not markers.
        starts = [s for s, _ in code]
        found = [f for f in found if not _overlaps(starts, code, f[3], f[4])]
        masks = [m for m in masks if not _overlaps(starts, code, m[0], m[1])]
    found.sort(key=itemgetter(3))
    masks.sort()
    return found, masks


def _vouching_masks(doc: Document, masks: list[tuple[int, int]], may_vouch: bool) -> list[tuple[int, int]]:
    """Only markers that can vouch hide their digits.

    A group inside raw HTML (which can hide its id) or in a section with a bidi
    override (which can reverse it) cannot vouch, so the reader may see its
    other characters as a number: "[<span hidden>E001</span> 42%]".
    """
    if not masks or (may_vouch and not doc.html):
        return masks
    if not may_vouch:
        return []
    html = doc.html
    starts = [s for s, _ in html]
    return [m for m in masks if not _overlaps(starts, html, m[0], m[1])]


def _overlaps(starts: list[int], ranges: tuple[tuple[int, int], ...], start: int, end: int) -> bool:
    """Whether ``[start, end)`` overlaps one of the sorted, disjoint ``ranges``."""
    i = bisect_right(starts, end - 1) - 1
    return i >= 0 and ranges[i][1] > start


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


def _markers(doc: Document, found: list[_Found], ends: list[int], may_vouch: bool) -> dict[str, list[Marker]]:
    """Marker records by kind, in reading order, with source offsets and sentence index."""
    to_source = doc.projection.to_source
    visible = doc.visible
    html = doc.html
    html_starts = [s for s, _ in html]
    by_kind: dict[str, list[Marker]] = {"citation": [], "metric": [], "xref": []}
    for kind, id_start, id_end, start, end, vouch in found:
        src_start, src_end = to_source(start, end)
        vouches = vouch and may_vouch and not (html and _overlaps(html_starts, html, start, end))
        # Ids are compared byte for byte: keep what the text really says.
        by_kind[kind].append(Marker(kind, visible[id_start:id_end], src_start, src_end, bisect_right(ends, start), vouches))
    return by_kind


def _sentence_ends(doc: Document, folded: str, breaks: list[int], quotations: list[tuple[int, int]]) -> list[int]:
    """Where sentences end: punctuation in prose units, TL;DR items and unit breaks.

    Each end lies just past the whitespace that follows it, so no sentence is
    blank. A sentence index is ``bisect_right(ends, offset)``.
    """
    ends = sentence_ends(folded, quotations, attributed=attributed_quotations(folded, doc.units, doc.tokens))
    # A heading, table row or code block is one sentence: drop ends inside one.
    inside: list[tuple[int, int]] = []
    for unit in doc.units:
        if unit.kind in _WHOLE_UNITS:
            first = bisect_right(ends, unit.start)
            last = bisect_right(ends, unit.end)
            if last > first:
                inside.append((first, last))
    if inside:
        drop = {i for first, last in inside for i in range(first, last)}
        ends = [end for i, end in enumerate(ends) if i not in drop]
    if breaks:
        ends = sorted(set(ends).union(breaks))
    if not ends or ends[-1] != len(folded):
        ends.append(len(folded))
    return ends


def _soft_ends(
    doc: Document,
    folded: str,
    ends: list[int],
    found: list[_Found],
    groups: list[tuple[int, int]],
    numerals: list[tuple[int, int]],
) -> tuple[list[int], list[_Found]]:
    """Sentence ends at the tags a browser draws inline that CSS could make blocks (``Document.soft_breaks``).

    The reader's text joins across such a tag, so words, numbers and marker
    groups read whole; it is a sentence end for vouching only, and a
    conservative one: no marker vouches for a number across it.

    - A marker group it splits (``[E0<x></x>01]``) is checked but never vouches,
      and the end moves to the group's start.
    - A number it splits (``1<x></x>0%``) becomes a sentence of its own, so no
      marker vouches for it (a block would show ``1`` apart).
    - Inside a word the end moves to the word's start, so the word reads whole
      in the sentence after it, unless a number or marker stands in between.
    - A table row and a code block stay one sentence each.

    ``ends`` must end with ``len(folded)``; ``groups`` are the marker groups
    and ``numerals`` the numbers of the whole text, each sorted. Linear: each
    word is scanned back over once.
    """
    groups = _merged(groups)  # a group's ids may be blanked one by one, and overlap
    group_starts = [start for start, _ in groups]
    numeral_starts = [start for start, _ in numerals]
    numeral_reach = list(accumulate((end for _, end in numerals), max))
    whole = tuple((u.start, u.end) for u in doc.units if u.kind in _WHOLE_UNITS)
    whole_starts = [start for start, _ in whole]
    silenced: list[tuple[int, int]] = []
    added: list[int] = []
    scanned_to = run_start = 0  # how far words were scanned back, and the start of the word that reached there
    for at in doc.soft_breaks:
        i = bisect_left(group_starts, at) - 1
        if i >= 0 and groups[i][1] > at:
            silenced.append(groups[i])
            at = groups[i][0]
        if whole and _overlaps(whole_starts, whole, at, at + 1):
            continue
        j = bisect_left(numeral_starts, at) - 1
        if j >= 0 and numerals[j][1] > at:
            added.extend(numerals[j])
            continue
        if 0 < at < len(folded) and at >= scanned_to and folded[at - 1].isalnum() and folded[at].isalnum():
            word = at
            while word > scanned_to and folded[word - 1].isalnum():
                word -= 1
            if word == scanned_to and word and folded[word - 1].isalnum():
                word = run_start  # the word goes on before the last break scanned: its start is known
            scanned_to, run_start = at, word
            # Only letters and digits of no number or marker lie between: the end may move.
            if not (j >= 0 and numeral_reach[j] > word) and not (i >= 0 and groups[i][1] > word):
                at = word
        added.append(at)
    if silenced:
        found = _silence(found, silenced)
    extra = {end for end in added if 0 < end < len(folded)}.difference(ends)
    if not extra:
        return ends, found
    merged = sorted(extra.union(ends))
    kept: list[int] = []
    prev = 0
    for k, end in enumerate(merged):
        # An end that would leave a blank sentence on either side is not needed: a blank holds nothing to vouch.
        if end in extra and (folded[prev:end].isspace() or folded[end : merged[k + 1]].isspace()):
            continue
        kept.append(end)
        prev = end
    return kept, found


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted ``spans`` with those that overlap joined: disjoint, in order."""
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _silence(found: list[_Found], groups: list[tuple[int, int]]) -> list[_Found]:
    """``found`` with the markers inside ``groups`` (sorted by start) unable to vouch."""
    starts = [start for start, _ in groups]
    silenced: list[_Found] = []
    for kind, id_start, id_end, start, end, vouch in found:
        i = bisect_right(starts, start) - 1
        inside = i >= 0 and groups[i][1] >= end
        silenced.append((kind, id_start, id_end, start, end, vouch and not inside))
    return silenced


def _build_sentences(section: Section) -> tuple[Sentence, ...]:
    doc = section._doc
    visible = doc.visible
    to_source = doc.projection.to_source
    ends = section._ends
    cites: list[list[str]] = [[] for _ in ends]
    tags: list[list[str]] = [[] for _ in ends]
    for marker in section.citations:
        cites[marker.sentence].append(marker.id)
    for marker in section.metric_tags:
        tags[marker.sentence].append(marker.id)
    # Every sentence where _visible_spans finds it, as _one_sentence builds one.
    return tuple(
        Sentence(*to_source(first, last), visible[first:last], kind, tuple(cites[index]), tuple(tags[index]))
        for index, (first, last, kind) in enumerate(_visible_spans(doc, ends, range(len(ends))))
    )


def _runs(indices: list[int]) -> Iterator[tuple[int, int]]:
    """The runs of consecutive numbers in sorted ``indices``, as (first, last) pairs."""
    first = last = -2
    for index in indices:
        if index != last + 1:
            if first >= 0:
                yield first, last
            first = index
        last = index
    if first >= 0:
        yield first, last


def _ids_in(markers: tuple[Marker, ...], index: int) -> tuple[str, ...]:
    """The ids of the markers in sentence ``index`` (markers are in reading order: bisect, never scan)."""
    lo = bisect_left(markers, index, key=_sentence_of)
    hi = bisect_right(markers, index, lo, key=_sentence_of)
    return tuple(m.id for m in markers[lo:hi])


def _sentence_of(marker: Marker) -> int:
    return marker.sentence


def _one_sentence(doc: Document, ends: list[int], index: int, cites: tuple[str, ...], tags: tuple[str, ...]) -> Sentence:
    """Sentence ``index``, as :func:`_build_sentences` builds it: where :func:`_visible_spans` finds it."""
    ((first, last, kind),) = _visible_spans(doc, ends, (index,))
    src_start, src_end = doc.projection.to_source(first, last)
    return Sentence(src_start, src_end, doc.visible[first:last], kind, cites, tags)


def _visible_spans(doc: Document, ends: list[int], indices: Iterable[int]) -> list[tuple[int, int, str]]:
    """Visible start, end and kind of each sentence ``indices`` names (what :func:`_one_sentence` builds on).

    Sentence ``i`` lies between visible offsets ``ends[i - 1]`` (0 for the
    first) and ``ends[i]``, its blanks at either end left out.
    """
    visible = doc.visible
    units, unit_starts = doc.units, doc.unit_starts
    spans: list[tuple[int, int, str]] = []
    for index in indices:
        hi = ends[index]
        stripped = visible[ends[index - 1] if index else 0 : hi].lstrip()
        first = hi - len(stripped)
        kind = units[bisect_right(unit_starts, first) - 1].kind if units else "paragraph"
        spans.append((first, first + len(stripped.rstrip()), kind))
    return spans


def _find_tldrs(doc: Document, folded: str, masks: list[tuple[int, int]], scan: list[str | None]) -> tuple[list[Tldr], list[int]]:
    """TL;DR blocks, and the inline item boundaries (they end sentences).

    A bullet counts when it shows a word outside its markers (see ``_HAS_WORD``).
    ``scan[0]`` receives the text with markers blanked, when it is built here.
    """
    tldrs: list[Tldr] = []
    breaks: list[int] = []
    visible_at: _VisibleUnits | None = None
    maybe = "TL" in folded or "tl" in folded or "Tl" in folded or "tL" in folded  # no copy of the text
    if not maybe:
        return tldrs, breaks
    # Only a unit that names TL;DR somewhere can open with its label: try those.
    starts = doc.unit_starts
    candidates = sorted({bisect_right(starts, m.start()) - 1 for m in TLDR_ANYWHERE.finditer(folded)})
    for index in candidates:
        if index < 0:
            continue
        unit = doc.units[index]
        if unit.kind not in ("paragraph", "heading") or _in_html(doc, unit.start):
            continue  # a TL;DR is markdown; inside HTML it could be hidden
        label = TLDR_LABEL.match(folded, unit.start, unit.end)
        if label is None:
            continue
        if visible_at is None:
            visible_at = _VisibleUnits(doc, _blank(folded, masks) if masks else folded)
            scan[0] = visible_at.text
        start, end = doc.projection.to_source(*label.span(1 if label.group(1) is not None else 2))
        listed = _following_list_items(unit.token_index, doc.tokens, visible_at)
        if listed is not None:
            tldrs.append(Tldr(start, end, listed, "list"))
            continue
        rest = folded[label.end() : unit.end]
        shown = visible_at.text[label.end() : unit.end]  # markers blanked: a bullet of markers shows no word
        items = list(TLDR_ITEM.finditer(rest))
        if not items:
            bullets = 1 if _HAS_WORD.search(shown) else 0
            tldrs.append(Tldr(start, end, bullets, "inline"))
            continue
        bounds = [m.end() for m in items] + [len(rest) + 1]
        bullets = sum(1 for a, b in zip(bounds, bounds[1:]) if _HAS_WORD.search(shown, a, b - 1))
        tldrs.append(Tldr(start, end, bullets, "inline"))
        breaks.extend(label.end() + m.start() + (1 if rest[m.start()] in ";\n" else 0) for m in items)
    return tldrs, breaks


class _VisibleUnits:
    """Whether the unit read from a block token shows a bullet's worth of text (asked rarely).

    A bullet needs a word outside HTML and markers: "- .", "- …", "- ـ" and
    "- [E001]" are empty.
    """

    def __init__(self, doc: Document, text: str) -> None:
        self._by_token = {u.token_index: u for u in doc.units}
        self._doc = doc
        self.text = text  # the folded visible text with markers blanked

    def get(self, token_index: int, default: bool = False) -> bool:
        unit = self._by_token.get(token_index)
        if unit is None or _in_html(self._doc, unit.start):
            return default
        return _HAS_WORD.search(self.text, unit.start, unit.end) is not None


# A word a reader reads: a digit, or a letter other than a modifier letter
# (tatweel, primes, tone letters draw as strokes and punctuation) and the
# letters drawn as punctuation (click letters ǀ ǁ ǂ ǃ, syllabics finals ᐧ ᐨ ᐩ ᐪ).
_HAS_WORD = regex.compile(r"\p{N}|(?![\p{Lm}\u01c0-\u01c3\u1427-\u142a])\p{L}")


def _in_html(doc: Document, offset: int) -> bool:
    html = doc.html
    return bool(html) and _overlaps([s for s, _ in html], html, offset, offset + 1)


# The tokens a unit is read from (see qcgrade.reading.document): only they can show an item's text.
_UNIT_TOKENS = frozenset({"inline", "tr_close", "fence", "code_block", "html_block"})


def _following_list_items(index: int, tokens: list[Token], visible_at: _VisibleUnits) -> int | None:
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
        elif in_item and not item_has_text and tok.type in _UNIT_TOKENS and visible_at.get(j, False):
            item_has_text = True
    return count
