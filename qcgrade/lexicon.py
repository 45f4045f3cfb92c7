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
METRIC_TAG = regex.compile(r"\{\s*([\p{L}_][\w.\-]{0,127}?)\s*\}")
XREF = regex.compile(r"§\s?(\w(?:[\w\-]|\.(?=\w)){0,127})")

#: A numeral: sign, currency, digit groups with separators and decimals, and a
#: %/currency/unit suffix. Not glued to a preceding letter, digit or
#: underscore (``FY25``, ``Q3``, ``m_rev2`` are identifiers), nor after a
#: letter-hyphen (``COVID-19``) or an identifier's dot (``v2.3``).
NUMERAL = regex.compile(
    rf"(?<![\p{{L}}\p{{M}}\p{{Nd}}\p{{Numeric_Type=Digit}}_])(?<!\p{{L}}[-\u2010\u2011])(?<!{DIGIT}[.,])"
    rf"[+\-\u2212\u00B1]?\p{{Sc}}?"
    rf"{DIGIT}+(?:[.,'\u00A0\u202F\u2009]{DIGIT}+)*"
    r"(?:[%\u2030\u2031]|\p{Sc})?\p{L}*"
)
HAS_DIGIT = regex.compile(DIGIT)

# Sentence-final punctuation, optional closing quotes/brackets, then a space or end.
SENTENCE_END = regex.compile(r"[.!?\u3002\uFF01\uFF1F\u2026]+[\"'\u201D\u2019\u00BB)\]]*(?=\s|$)|\u2029")
_WORD_BEFORE = regex.compile(r"(\S{1,24})$")
_INITIALS = regex.compile(r"^\(?(?:\p{L}\.)*\p{L}$")

#: Words that end with a period without ending the sentence.
ABBREVIATIONS = frozenset(
    "e.g i.e cf vs viz approx ca incl esp est resp al mr mrs ms dr prof fig figs "
    "eq ref refs vol pp sec ch jan feb mar apr jun jul aug sep sept oct nov".split()
)
#: Abbreviations that are ordinary words in lower case ("said no.").
CASED_ABBREVIATIONS = frozenset({"No", "Nos", "St"})

TLDR_LABEL = regex.compile(r"^\s*(TL\s*;\s*DR)(?![\p{L}\p{N}])\s*:?", regex.IGNORECASE)
# Inline TL;DR items start at the beginning or after ';' (or a line break) with a dash.
TLDR_ITEM = regex.compile(r"(?:^|[;\n])\s*[-\u2013\u2014\u2022*]\s+")


def sentence_ends(text: str) -> list[int]:
    """Offsets just past each sentence end in ``text`` (abbreviations skipped)."""
    ends: list[int] = []
    for match in SENTENCE_END.finditer(text):
        if match.group() == "\u2029":
            ends.append(match.end())
            continue
        punct = match.group()
        if punct[0] == "." and punct[:2] != "..":
            start = match.start()
            word = _WORD_BEFORE.search(text[max(0, start - 24) : start])
            if word is not None and _is_abbreviation(word.group(1)):
                continue
        ends.append(match.end())
    return ends


def _is_abbreviation(word: str) -> bool:
    bare = word.lstrip("([\"'\u201C\u2018")
    if bare in CASED_ABBREVIATIONS or bare.lower() in ABBREVIATIONS:
        return True
    return _INITIALS.match(bare) is not None


def citation_ids(group: str, offset: int) -> list[tuple[str, int, int]]:
    """The ids inside one bracket group as ``(id, start, end)`` in visible offsets.

    Only parts that are entirely an id count: ``[E001, E002]`` cites two cards,
    ``[see note 3]`` cites none.
    """
    found: list[tuple[str, int, int]] = []
    pos = 0
    for part in regex.split(r"[,;]", group):
        stripped = part.strip()
        if stripped and CITATION_ID.fullmatch(stripped):
            start = offset + pos + part.index(stripped)
            found.append((stripped, start, start + len(stripped)))
        pos += len(part) + 1
    return found
