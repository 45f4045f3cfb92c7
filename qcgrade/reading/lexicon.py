"""The lexical shapes qcgrade reads in visible text: markers, numerals, sentences.

Every pattern is anchored on a literal character or bounded by a character
class that excludes its own terminator, so each runs in linear time on any
input (100k unmatched ``[`` included).
"""

from __future__ import annotations

import regex

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

# Cyrillic and Greek letters that are drawn like digits (З 3, О/Ο 0, І/Ι 1, б 6).
_DIGIT_LOOKALIKE = "[\u0417\u0437\u041e\u043e\u0406\u0456\u0431\u0399\u039f\u03bf]"

# Currency codes that a number may be glued to ("USD1.2bn").
_CURRENCY_CODES = "USD|EUR|GBP|JPY|CNY|RMB|CHF|INR|AUD|CAD|HKD|SGD|KRW|BRL|MXN|ZAR|SEK|NOK|DKK|RUB|TRY|NZD"

#: A numeral: sign, currency, digit groups with separators and decimals, and a
#: %/currency/unit suffix. Digits glued after letters form an identifier
#: (``FY25``, ``Q3``, ``m_rev2``), and so do digits after an upper-case
#: prefix and a hyphen (``COVID-19``, ``EV-003``), unless they are plainly a
#: quantity: a decimal or grouped number, a percentage, or a number glued to
#: a currency code (``by30%``, ``USD1.2bn``, ``sub-10%``, ``top-3``).
NUMERAL = regex.compile(
    # The first-character test comes first so most positions fail fast.
    r"(?=[+\-\u2212\u00B1\p{Sc}\p{N}\u0417\u0437\u041E\u043E\u0406\u0456\u0431\u0399\u039F\u03BF])"
    r"(?:"
    # Free-standing: not glued to a letter, digit or underscore.
    r"(?<![\p{L}\p{M}\p{N}_])(?<!\p{Lu}\p{Lu}[-\u2010\u2011])(?<!\p{N}[.,])"
    r"[+\-\u2212\u00B1]?\p{Sc}?\p{N}+(?:[.,'\u00A0\u202F\u2009]\p{N}+)*(?:[%\u2030\u2031]|\p{Sc})?\p{L}*"
    # Glued to letters, yet plainly a quantity.
    r"|(?<=[\p{L}\p{M}_])\p{N}+(?:(?:[.,'\u00A0\u202F\u2009]\p{N}+)+(?:[%\u2030\u2031]|\p{Sc})?|[%\u2030\u2031])\p{L}*"
    rf"|(?<=(?<![\p{{L}}])(?:{_CURRENCY_CODES}))\p{{N}}+(?:[.,'\u00A0\u202F\u2009]\p{{N}}+)*\p{{L}}*"
    # Cyrillic or Greek letters drawn like digits, before a percent sign ("ЗО%").
    rf"|(?<![\p{{L}}\p{{M}}\p{{N}}_])[+\-\u2212]?(?:{_DIGIT_LOOKALIKE}|\p{{N}})*{_DIGIT_LOOKALIKE}"
    rf"(?:{_DIGIT_LOOKALIKE}|\p{{N}}|[.,])*[%\u2030\u2031]"
    r")"
)
# Where a numeral may start: a number character or a digit look-alike.
HAS_DIGIT = regex.compile("[\\p{N}" + _DIGIT_LOOKALIKE[1:-1] + "]")

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
        masks.extend(m.span() for m in FOOTNOTE.finditer(text))
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
