"""The lexical shapes qcgrade reads in visible text: markers, numerals, sentences.

Every pattern is anchored on a literal character or bounded by a character
class that excludes its own terminator, so each runs in linear time on any
input (100k unmatched ``[`` included).
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cache

import regex

from . import vocab

# Numbers are read with \p{N}: decimal digits (Nd) of any script, letter
# numbers (Nl: Roman numerals) and other numbers (No: superscripts, fractions
# such as 1/2 in one character, circled digits), all of which a reader reads
# as numbers.

#: A citation id: letters then digits (``E001``, ``EV-12``), or a bare number
#: (``[3]``, a numeric citation style that never resolves to a card).
CITATION_ID = regex.compile(r"(?:\p{L}[\p{L}\p{M}]*[-_]?)?\p{N}+")
# An id-shaped token inside bracketed prose ("[see E009]", "[E001 E009]").
# An id attempt inside bracketed prose: a run of letters, marks, digits,
# underscores, hyphens and inner stops that starts with a letter and holds a
# digit ("E009", "E047a", "E0O1", "E04\u20e37", "E.047"); "E 047" joins a lone
# capital to the digits after it. Compared exactly, so a near miss is an orphan.
_ID_ATTEMPT = regex.compile(
    r"(?<![\p{L}\p{M}\p{N}_\-\u2010\u2011])(?:\p{Lu}[^\S\u2029]\p{N}[\p{L}\p{M}\p{N}_\-\u2010\u2011]*"
    r"|\p{L}[\p{L}\p{M}\p{N}_\-\u2010\u2011]*(?:\.[\p{L}\p{M}\p{N}_\-\u2010\u2011]+)*)"
)
_HAS_LETTER_AND_DIGIT = regex.compile(r"\p{L}.*\p{N}|\p{N}.*\p{L}", regex.DOTALL)
_PROSE_WORD = regex.compile(r"\p{L}[\p{L}\p{M}.]*")

# A bracket group, read whatever its length and across soft line breaks (never
# a unit or cell break), holding at most one level of nested brackets (an
# editor's "[p. iv]" inside); its parts are split on , and ;.
# The everyday one-id group ("[E001]", a CITATION_ID alone) is told apart by
# the engine as it matches (group "id"), not by a second match of each group.
CITATION_GROUP = regex.compile(
    r"\[(?:(?P<id>(?:\p{L}[\p{L}\p{M}]*[-_]?)?\p{N}+)\]"
    r"|(?P<group>[^\[\]\u2029\u2063]*+(?:\[[^\[\]\u2029\u2063]*\][^\[\]\u2029\u2063]*+)*)\])"
)
# A footnote reference has a word for an id; "[^30%]" is not one.
FOOTNOTE = regex.compile(r"\[\^[\w-]{1,64}\]")
# Braces around one or more identifiers ("{m_rev}", "{m_rev, m_share}").
METRIC_GROUP = regex.compile(r"\{([^{}\u2029\u2063]+)\}")
# A tag; a format spec ("{m_rev:.1f}") is part of what it names.
_METRIC_TOKEN = regex.compile(r"[\p{L}_][\w.\-:]{0,127}")
_METRIC_SEPARATORS = regex.compile(r"[\s,;|/&+]+")
# A section sign (or the top-half sign drawn like it), perhaps spaced,
# bracketed, quoted or dashed in any style, then a section id.
#: A section id that is a number ("7", "18", "2.1"): a statute's or another document's section.
NUMBERED_SECTION = regex.compile(r"\p{Nd}+(?:\.\p{Nd}+)*")
XREF = regex.compile(r"[§\u2e39][^\S\u2029]*[(\[\"'`.\p{Pd}\p{Pi}\p{Pf}]?[^\S\u2029]*(\w(?:[\w\-]|\.(?=\w)){0,127})")

#: A TL;DR label opening its unit, perhaps after a decoration of symbols and
#: punctuation ("## 📌 TL;DR", "**✅ TL;DR:**"), or a heading or line that ends
#: by naming it in parentheses ("## 🔑 Key takeaways (TL;DR)").
TLDR_LABEL = regex.compile(
    r"[^\p{L}\p{N}\u2029]{0,16}?(TL\s*;\s*DR)(?![\p{L}\p{N}])\s*:?"
    r"|[^\u2029()]{1,80}\(\s*(TL\s*;\s*DR)\s*\)\s*:?\s*(?=\u2029|$)",
    regex.IGNORECASE,
)
TLDR_ANYWHERE = regex.compile(r"TL\s*;\s*DR", regex.IGNORECASE)
# Inline TL;DR items start at the beginning or after ';' (or a line break) with a dash.
TLDR_ITEM = regex.compile(r"(?:^|[;\n])\s*[-\u2013\u2014\u2022*]\s+")


def citation_ids(group: str, offset: int) -> list[tuple[str, int, int, bool]]:
    """The ids inside one bracket group as ``(id, start, end, vouches)`` in visible offsets.

    A group whose every part (split on , and ;) is an id cites them all:
    ``[E001, E002]`` two cards, ``[3]`` a number. In a group holding prose,
    every id attempt counts (``[see E009]``, ``[E001 E009]``, ``[E047a]``,
    ``[E 047]``), so no near miss slips past the orphan check; those ids vouch
    only when the prose is locator words (``see``, ``p.``), never in
    ``[not from E001]``. ``[see note three]`` cites nothing.
    """
    parts = group.replace(";", ",").split(",") if ("," in group or ";" in group) else (group,)
    found: list[tuple[str, int, int, bool]] = []
    pos = 0
    pure = True
    for part in parts:
        stripped = part.strip()
        if stripped and CITATION_ID.fullmatch(stripped):
            start = offset + pos + part.index(stripped)
            found.append((stripped, start, start + len(stripped), True))
        elif stripped:
            pure = False
            break
        pos += len(part) + 1
    if pure:
        return found
    attempts = [m for m in _ID_ATTEMPT.finditer(group) if _HAS_LETTER_AND_DIGIT.search(m.group())]
    if not attempts:
        return []
    rest = _ID_ATTEMPT.sub(lambda m: " " if _HAS_LETTER_AND_DIGIT.search(m.group()) else m.group(), group)
    # Words that may stand beside ids in a group that still vouches ("[see E009]", "[E001, p. 4]"); any
    # other word ("[not from E001]") makes its ids check-only.
    words = vocab.group_words()
    vouches = all(w.group().rstrip(".").lower() in words for w in _PROSE_WORD.finditer(rest))
    return [(m.group(), offset + m.start(), offset + m.end(), vouches) for m in attempts]


class _Editorial:
    """Which bracket groups stand inside a quotation, not at its end."""

    def __init__(self, text: str, quotations: list[tuple[int, int]]) -> None:
        self._text = text
        self._quotations = quotations
        self._starts = [start for start, _ in quotations]

    def inserted(self, start: int, end: int) -> bool:
        i = bisect_right(self._starts, start) - 1
        if i < 0 or self._quotations[i][1] <= end:
            return False
        close = self._quotations[i][1] - 1  # the closing quote
        return _CLOSES_QUOTE.match(self._text, end, close + 1) is None


# What may stand between a citation and the closing quote it ends with: "...grew 9% [E001]."
_CLOSES_QUOTE = regex.compile(r"[^\S\u2029]*[.,;:!?]?[^\S\u2029]*.$", regex.DOTALL)

_Found = tuple[str, int, int, int, int, bool]  # kind, id start, id end, marker start, marker end, may vouch


def find_markers(text: str, quotations: list[tuple[int, int]] | None = None) -> tuple[list[_Found], list[tuple[int, int]]]:
    """Every citation id, metric tag and xref in ``text``; and the spans to blank.

    Returns ``(kind, id_start, id_end, start, end, may_vouch)`` records in no particular
    order, and the marker spans whose digits never count as numerals. Whether
    a marker sits in code is the caller's business. A bracket group inside one
    of the ``quotations`` (sorted spans) is an editor's insertion (``[Q4]``,
    ``[sic]``, ``[2029]``): plain text, unless it closes the quotation.
    """
    found: list[_Found] = []
    masks: list[tuple[int, int]] = []
    if "[" in text:
        masks.extend(footnote_masks(text))
        editorial = _Editorial(text, quotations) if quotations else None
        for match in CITATION_GROUP.finditer(text):
            if editorial is not None and editorial.inserted(*match.span()):
                continue
            if match.group(1) is not None:  # the everyday [E001] (group "id": by number, a name costs a lookup)
                start, end = match.span(1)
                found.append(("citation", start, end, start, end, True))
                masks.append(match.span())
                continue
            group = match.group(2)
            ids = citation_ids(group, match.start(2))
            if not ids:
                continue
            found.extend(("citation", s, e, s, e, v) for _id, s, e, v in ids)
            if ids[0][3]:
                # A group of ids only is blanked whole; in prose only the ids, so its other digits still count.
                parts = group.replace(";", ",").split(",")
                masks.extend(group_masks(parts, match.span(), [(i, s, e) for i, s, e, _v in ids], group, match.start(2)))
            else:  # a group that cannot vouch: blank the ids only
                masks.extend((s, e) for _id, s, e, _v in ids)
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
                found.append(("metric", at, at + len(tokens[0]), *span, True))
                continue
            for token in _METRIC_TOKEN.finditer(inner):
                at = match.start(1) + token.start()
                found.append(("metric", at, at + len(token.group()), at, at + len(token.group()), True))
    if "§" in text or "\u2e39" in text:
        for match in _xref_matches(text):
            span = match.span()
            # A numbered section ("§ 7 of the Clayton Act", "15 U.S.C. § 18")
            # shows its number to the reader: its digits still count.
            if NUMBERED_SECTION.fullmatch(match.group(1)) is None:
                masks.append(span)
            found.append(("xref", *match.span(1), *span, True))
    return found, masks


def _xref_matches(text: str) -> list[regex.Match[str]]:
    """``list(XREF.finditer(text))``, the pattern tried only at each sign (a string search finds them).

    A match never holds a second sign (an id is word characters, and no sign
    is one), so the matches at the signs are finditer's, none overlapping.
    """
    found = []
    for sign in ("§", "\u2e39"):
        at = text.find(sign)
        while at >= 0:
            match = XREF.match(text, at)
            if match is not None:
                found.append(match)
            at = text.find(sign, at + 1)
    found.sort(key=_match_start)
    return found


def _match_start(match: regex.Match[str]) -> int:
    return match.start()


def link_citations(text: str, links: tuple[tuple[int, int], ...]) -> tuple[list[_Found], list[tuple[int, int]]]:
    """Links whose whole text is card ids, read as the citations they are shown as.

    ``[E047](https://...)``, or ``[E047]`` with a link reference definition,
    renders as the link text ``E047``: a reader sees a citation, so it cites
    (and vouches when the card exists, and is an orphan when it does not). Only
    link text made of ids, each with a letter and a digit (``E001, E002``), is
    read so; ``[2025](url)`` or ``[the filing](url)`` stay text.
    """
    found: list[_Found] = []
    masks: list[tuple[int, int]] = []
    for start, end in links:
        shown = text[start:end]
        stripped = shown.strip()
        if not stripped or "[" in stripped or "]" in stripped:
            continue  # a bracket group inside the link text is read as one already
        at = start + shown.index(stripped)
        ids = citation_ids(stripped, at)
        parts = [p for p in stripped.replace(";", ",").split(",") if p.strip()]
        if not ids or len(ids) != len(parts) or not all(_HAS_LETTER_AND_DIGIT.search(i) for i, _s, _e, _v in ids):
            continue
        found.extend(("citation", s, e, s, e, True) for _id, s, e, _v in ids)
        masks.append((start, end))
    return found, masks


# Footnote references: CommonMark shows "[^label]" literally (qcgrade's
# CommonMark has no footnotes), yet a reader still reads "[^1]" as a footnote
# mark (structure.footnote_reference). It is one when the section defines the
# label ("[^45]: ..."), or when its label has at most three digits and no
# percent sign or quantity word follows; otherwise its digits are a number
# ("[^45]%", "[^42] percent", "[^1200000] units").
_SHORT_LABEL = regex.compile(r"[^\p{N}]*\p{N}{0,3}[^\p{N}]*")
_FOOTNOTE_REFERENCE = regex.compile(r"\[\^([\w-]{1,64})\]")
_FOOTNOTE_DEFINITION = regex.compile(r"(?:^|(?<=[\n\u2029]))[ \t>]*\[\^([\w-]{1,64})\]:")


@cache
def quantity_start() -> regex.Pattern[str]:
    """A quantity word (or percent or currency sign) ahead, after optional blanks: it carries a number on as a quantity."""
    words = vocab.alternation(vocab.quantity_words())
    return regex.compile(rf"[ \t\n\u00a0]*(?:{vocab.percent_sign_class()}|\p{{Sc}}|(?i:{words})(?![\p{{L}}\p{{N}}]))")


def footnote_masks(text: str) -> list[tuple[int, int]]:
    """Spans of footnote references that are marks (see above): their digits never count."""
    if "[^" not in text:
        return []
    defined = {m.group(1) for m in _FOOTNOTE_DEFINITION.finditer(text)}
    ahead = quantity_start()
    return [
        m.span()
        for m in _FOOTNOTE_REFERENCE.finditer(text)
        if m.group(1) in defined or (_SHORT_LABEL.fullmatch(m.group(1)) is not None and ahead.match(text, m.end()) is None)
    ]


def group_masks(
    parts: list[str], span: tuple[int, int], ids: list[tuple[str, int, int]], group: str = "", offset: int = 0
) -> list[tuple[int, int]]:
    """What to blank of a vouching bracket group: all of it when it lists only ids, else its ids and locators.

    In a group that holds prose besides ids the prose is text the reader
    reads, numbers included; but the number after a locator word is where in
    the source, not a claim (marker.locator_number): "[TB-53, p. 4]",
    "[TB-52, Exhibit 99.1]". ``group`` is the group's text and ``offset``
    where it starts.
    """
    if all(CITATION_ID.fullmatch(p.strip()) for p in parts if p.strip()):
        return [span]
    masks = [(start, end) for _id, start, end in ids]
    masks.extend((offset + m.start(1), offset + m.end(1)) for m in _locator_number().finditer(group))
    return masks


@cache
def _locator_number() -> regex.Pattern[str]:
    """A locator word and the number it takes: a page, slide, exhibit, table or section ("p. 4", "pp. 12-14",
    "Exhibit 99.1", "§ 3.2(b)"); never a percentage or an amount."""
    magnitudes = vocab.alternation((*vocab.magnitude_words(glued=None, one_letter=True), *vocab.percent_words()))
    return regex.compile(
        rf"(?<![\p{{L}}\p{{N}}])(?i:{vocab.alternation(vocab.locator_words())})\.?[ \u00a0]{{0,3}}"
        r"(\p{Nd}{1,4}(?:[.\-\u2013]\p{Nd}{1,4}){0,3}[a-z]?)"
        rf"(?![\p{{N}}{vocab.percent_sign_chars()}\p{{Sc}}.,]?\p{{N}}|{vocab.percent_sign_class()}|\p{{Sc}}|\p{{L}})"
        rf"(?![ \u00a0]*(?i:{magnitudes})(?!\p{{L}}))"
    )
