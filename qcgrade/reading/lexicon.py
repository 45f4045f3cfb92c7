"""The lexical shapes qcgrade reads in visible text: markers, numerals, sentences.

Every pattern is anchored on a literal character or bounded by a character
class that excludes its own terminator, so each runs in linear time on any
input (100k unmatched ``[`` included).
"""

from __future__ import annotations

import regex

# Numerals (what a reader reads as one number, and what is a name) have their
# own module; re-exported so every shape can be read from one place.
from .numerals import HAS_DIGIT, NUMERAL, footnote_masks, group_masks, scan_start

__all__ = ["HAS_DIGIT", "NUMERAL", "scan_start"]

# Numbers are read with \p{N}: decimal digits (Nd) of any script, letter
# numbers (Nl: Roman numerals) and other numbers (No: superscripts, fractions
# such as 1/2 in one character, circled digits), all of which a reader reads
# as numbers.

#: A citation id: letters then digits (``E001``, ``EV-12``), or a bare number
#: (``[3]``, a numeric citation style that never resolves to a card).
CITATION_ID = regex.compile(r"(?:\p{L}[\p{L}\p{M}]*[-_]?)?\p{N}+")
# An id-shaped token inside bracketed prose ("[see E009]", "[E001 E009]").
_ID_TOKEN = regex.compile(r"(?<![\p{L}\p{M}\p{N}_])\p{L}[\p{L}\p{M}]*[-_]?\p{N}+(?![\p{L}\p{M}\p{N}_])")

# A bracket group with no nested brackets; its parts are split on , and ;.
CITATION_GROUP = regex.compile(r"\[([^\[\]\n\u2029]{1,512})\]")
# A footnote reference has a word for an id; "[^30%]" is not one.
FOOTNOTE = regex.compile(r"\[\^[\w-]{1,64}\]")
# Braces around one or more identifiers ("{m_rev}", "{m_rev, m_share}").
METRIC_GROUP = regex.compile(r"\{([^{}\n\u2029]{1,256})\}")
_METRIC_TOKEN = regex.compile(r"[\p{L}_][\w.\-]{0,127}")
_METRIC_SEPARATORS = regex.compile(r"[\s,;|/&+]+")
# A section sign, perhaps spaced or bracketed, then a section id.
XREF = regex.compile(r"§[^\S\u2029]*[(\[\"'`\-.]?[^\S\u2029]*(\w(?:[\w\-]|\.(?=\w)){0,127})")

#: Abbreviations that never end a sentence ("e.g. ACME", "vs. peers").
ABBREVIATIONS = ("e.g", "i.e", "cf", "vs", "viz", "approx", "ca", "incl", "esp", "resp")
#: Abbreviations that end a sentence unless a lower-case word or a digit
#: follows ("in Dec. 31", "ACME Inc. and its units", "Fig. 3", "U.S. market"),
#: matched in any case; and the same for words that are ordinary in lower case.
SOFT_ABBREVIATIONS = (
    "mr mrs ms dr prof fig figs eq ref refs vol pp sec ch est al "
    "jan feb mar apr jun jul aug sep sept oct nov dec inc corp ltd co bros plc llc"
).split()
CASED_ABBREVIATIONS = ("No", "Nos", "St")


def _alternatives(words: list[str] | tuple[str, ...]) -> str:
    return "|".join(regex.escape(w) for w in sorted(words, key=len, reverse=True))


# A sentence ends at sentence-final punctuation, optional closing quotes,
# brackets or emphasis, optional citation groups (Wikipedia style "grew.[E1]"),
# then whitespace or the end. A period after an always-abbreviation never
# ends one; after a soft abbreviation, an initial or a dotted abbreviation
# ("J.", "U.S.") it does unless a lower-case word or a digit follows. When in
# doubt the text is split: a split sentence can only lose an annotation,
# never borrow one. CJK full stops need no space after them. Unit breaks
# (U+2029) always end a sentence. One compiled pattern, so the scan stays in C.
_NOT_WORD = r"(?<![\p{L}\p{M}.])"
_CLOSERS = r"[\"'\u201D\u2019\u00BB)\]*_]*(?:\[[^\[\]\n\u2029]{1,64}\])*"
_TERMINALS = "!?\u2026\u203c\u2047\u0964\u06d4\u0589"
SENTENCE_END = regex.compile(
    rf"(?=[.{_TERMINALS}\u3002\uFF01\uFF1F\u2029])(?:"
    r"\."
    r"(?:(?<!\p{L}\.)|"  # after anything but a letter no abbreviation is possible
    rf"(?<!{_NOT_WORD}(?i:{_alternatives(ABBREVIATIONS)})\.)"
    rf"(?!(?<={_NOT_WORD}(?:(?i:{_alternatives(SOFT_ABBREVIATIONS)})|{_alternatives(CASED_ABBREVIATIONS)}"
    r"|(?:\p{L}\.)*\p{L})\.)\s+[\p{Ll}\p{N}])"
    r")"
    rf"[.{_TERMINALS}]*{_CLOSERS}(?:\s+|$)"
    rf"|[{_TERMINALS}][.{_TERMINALS}]*{_CLOSERS}(?:\s+|$)"
    rf"|[\u3002\uFF01\uFF1F]+{_CLOSERS}\s*"
    r"|\u2029\s*"
    r")"
)

TLDR_LABEL = regex.compile(r"\s*(TL\s*;\s*DR)(?![\p{L}\p{N}])\s*:?", regex.IGNORECASE)
# Inline TL;DR items start at the beginning or after ';' (or a line break) with a dash.
TLDR_ITEM = regex.compile(r"(?:^|[;\n])\s*[-\u2013\u2014\u2022*]\s+")


_END = type(SENTENCE_END.match(".")).end  # Match.end, applied in C by map()


def sentence_ends(text: str) -> list[int]:
    """Offsets just past each sentence end in ``text``."""
    return list(map(_END, SENTENCE_END.finditer(text)))


def citation_ids(group: str, offset: int) -> list[tuple[str, int, int]]:
    """The ids inside one bracket group as ``(id, start, end)`` in visible offsets.

    A part (split on , and ;) that is entirely an id cites it: ``[E001, E002]``
    cites two cards, ``[3]`` a number. In a part that is prose, every
    card-shaped token counts too, so ``[see E009]`` and ``[E001 E009]`` cannot
    slip an orphan past the check; ``[see note three]`` cites nothing.
    """
    found: list[tuple[str, int, int]] = []
    pos = 0
    parts = group.replace(";", ",").split(",") if ("," in group or ";" in group) else (group,)
    for part in parts:
        stripped = part.strip()
        if stripped and CITATION_ID.fullmatch(stripped):
            start = offset + pos + part.index(stripped)
            found.append((stripped, start, start + len(stripped)))
        elif stripped:
            for token in _ID_TOKEN.finditer(part):
                found.append((token.group(), offset + pos + token.start(), offset + pos + token.end()))
        pos += len(part) + 1
    return found


_Found = tuple[str, int, int, int, int]  # kind, id start, id end, marker start, marker end


def find_markers(text: str) -> tuple[list[_Found], list[tuple[int, int]]]:
    """Every citation id, metric tag and xref in ``text``; and the spans to blank.

    Returns ``(kind, id_start, id_end, start, end)`` records in no particular
    order, and the marker spans whose digits never count as numerals. Whether
    a marker sits in code is the caller's business.
    """
    found: list[_Found] = []
    masks: list[tuple[int, int]] = []
    if "[" in text:
        masks.extend(footnote_masks(text))
        for match in CITATION_GROUP.finditer(text):
            group = match.group(1)
            if CITATION_ID.fullmatch(group):  # the everyday [E001]
                start, end = match.span(1)
                found.append(("citation", start, end, start, end))
            else:
                ids = citation_ids(group, match.start(1))
                if not ids:
                    continue
                found.extend(("citation", s, e, s, e) for _id, s, e in ids)
                masks.extend(group_masks(group.replace(";", ",").split(","), match.span(), ids))
                continue
            masks.append(match.span())
    if "{" in text:
        for match in METRIC_GROUP.finditer(text):
            inner = match.group(1)
            tokens = [t for t in _METRIC_SEPARATORS.split(inner) if t]
            if not tokens or not all(_METRIC_TOKEN.fullmatch(t) for t in tokens):
                continue
            span = match.span()
            masks.append(span)
            if len(tokens) == 1:
                at = match.start(1) + inner.index(tokens[0])
                found.append(("metric", at, at + len(tokens[0]), *span))
                continue
            for token in _METRIC_TOKEN.finditer(inner):
                at = match.start(1) + token.start()
                found.append(("metric", at, at + len(token.group()), at, at + len(token.group())))
    if "§" in text:
        for match in XREF.finditer(text):
            span = match.span()
            masks.append(span)
            found.append(("xref", *match.span(1), *span))
    return found, masks
