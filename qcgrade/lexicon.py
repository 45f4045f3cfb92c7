"""The lexical shapes qcgrade reads in visible text: markers, numerals, sentences.

Every pattern is anchored on a literal character or bounded by a character
class that excludes its own terminator, so each runs in linear time on any
input (100k unmatched ``[`` included).
"""

from __future__ import annotations

import regex

# Digits of any script: decimal digits (Nd) and other digit characters such as
# superscripts, which a reader also reads as numbers.
DIGIT = r"[\p{Nd}\p{Numeric_Type=Digit}]"

#: A citation id: letters then digits (``E001``, ``EV-12``), or a bare number
#: (``[3]``, a numeric citation style that never resolves to a card).
CITATION_ID = regex.compile(rf"(?:\p{{L}}[\p{{L}}\p{{M}}]*[-_]?)?{DIGIT}+")

# A bracket group with no nested brackets; its parts are split on , and ;.
CITATION_GROUP = regex.compile(r"\[([^\[\]\n\u2029]{1,512})\]")
FOOTNOTE = regex.compile(r"\[\^[^\[\]\s]{1,64}\]")
# Whitespace inside a marker may not be the break between two blocks (U+2029).
METRIC_TAG = regex.compile(r"\{[^\S\u2029]*([\p{L}_][\w.\-]{0,127}?)[^\S\u2029]*\}")
XREF = regex.compile(r"§[^\S\u2029]?(\w(?:[\w\-]|\.(?=\w)){0,127})")

#: A numeral: sign, currency, digit groups with separators and decimals, and a
#: %/currency/unit suffix. Not glued to a preceding letter, digit or
#: underscore (``FY25``, ``Q3``, ``m_rev2`` are identifiers), nor after a
#: letter-hyphen (``COVID-19``) or an identifier's dot (``v2.3``).
NUMERAL = regex.compile(
    # The first-character test comes first so most positions fail fast.
    rf"(?=[+\-\u2212\u00B1\p{{Sc}}\p{{Nd}}\p{{Numeric_Type=Digit}}])"
    rf"(?<![\p{{L}}\p{{M}}\p{{Nd}}\p{{Numeric_Type=Digit}}_])(?<!\p{{L}}[-\u2010\u2011])(?<!{DIGIT}[.,])"
    rf"[+\-\u2212\u00B1]?\p{{Sc}}?"
    rf"{DIGIT}+(?:[.,'\u00A0\u202F\u2009]{DIGIT}+)*"
    r"(?:[%\u2030\u2031]|\p{Sc})?\p{L}*"
)
HAS_DIGIT = regex.compile(DIGIT)

#: Words that end with a period without ending the sentence (any case).
ABBREVIATIONS = (
    "e.g i.e cf vs viz approx ca incl esp est resp al mr mrs ms dr prof fig figs eq ref refs vol pp sec ch "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
).split()
#: Abbreviations that are ordinary words in lower case ("said no.").
CASED_ABBREVIATIONS = ("No", "Nos", "St")
#: Company suffixes end a sentence only when a capitalised word follows.
COMPANY_SUFFIXES = ("Inc", "Corp", "Ltd", "Co", "Bros", "Plc", "LLC", "PLC")


def _alternatives(words: list[str] | tuple[str, ...]) -> str:
    return "|".join(regex.escape(w) for w in sorted(words, key=len, reverse=True))


# A sentence ends at . ! ? (and CJK/ellipsis forms), optional closing quotes,
# brackets or emphasis, then whitespace or the end; never after an
# abbreviation, an initial ("J.", "U.S."), or a company suffix followed by a
# lower-case word. Unit breaks (U+2029) always end one. One compiled pattern,
# so the whole scan stays in C.
_NOT_WORD = r"(?<![\p{L}\p{M}.])"
SENTENCE_END = regex.compile(
    r"(?=[.!?\u3002\uFF01\uFF1F\u2026\u2029])(?:"
    r"(?:"
    r"\."
    # After anything but a letter no abbreviation is possible: skip the checks.
    r"(?:(?<!\p{L}\.)|"
    rf"(?<!{_NOT_WORD}(?i:{_alternatives(ABBREVIATIONS)})\.)"
    rf"(?<!{_NOT_WORD}(?:{_alternatives(CASED_ABBREVIATIONS)})\.)"
    rf"(?<!{_NOT_WORD}(?:\p{{L}}\.)*\p{{L}}\.)"
    rf"(?!(?<={_NOT_WORD}(?:{_alternatives(COMPANY_SUFFIXES)})\.)\s+\p{{Ll}})"
    r")"
    r"[.!?\u3002\uFF01\uFF1F\u2026]*"
    r"|[!?\u3002\uFF01\uFF1F\u2026][.!?\u3002\uFF01\uFF1F\u2026]*"
    r")[\"'\u201D\u2019\u00BB)\]*_]*(?:\s+|$)|\u2029\s*"
    r")"
)

TLDR_ANYWHERE = regex.compile(r"TL\s*;\s*DR", regex.IGNORECASE)
TLDR_LABEL = regex.compile(r"\s*(TL\s*;\s*DR)(?![\p{L}\p{N}])\s*:?", regex.IGNORECASE)
# Inline TL;DR items start at the beginning or after ';' (or a line break) with a dash.
TLDR_ITEM = regex.compile(r"(?:^|[;\n])\s*[-\u2013\u2014\u2022*]\s+")


_END = type(SENTENCE_END.match(".")).end  # Match.end, applied in C by map()


def sentence_ends(text: str) -> list[int]:
    """Offsets just past each sentence end in ``text``."""
    return list(map(_END, SENTENCE_END.finditer(text)))


def citation_ids(group: str, offset: int) -> list[tuple[str, int, int]]:
    """The ids inside one bracket group as ``(id, start, end)`` in visible offsets.

    Only parts that are entirely an id count: ``[E001, E002]`` cites two cards,
    ``[see note 3]`` cites none.
    """
    found: list[tuple[str, int, int]] = []
    pos = 0
    parts = group.replace(";", ",").split(",") if ("," in group or ";" in group) else (group,)
    for part in parts:
        stripped = part.strip()
        if stripped and CITATION_ID.fullmatch(stripped):
            start = offset + pos + part.index(stripped)
            found.append((stripped, start, start + len(stripped)))
        pos += len(part) + 1
    return found
