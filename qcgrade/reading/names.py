"""Digits a reader reads as part of a name or as structure, not as a quantity.

Section numbers are blanked before numerals are read, like the digits
inside markers; the others are dropped as each numeral is read (:func:`is_name`):

- section numbers opening a heading: ``## 1. Demand``, ``### 2.1 Units``,
  ``## 3) Risks`` (a trailing stop or parenthesis or a dotted level, at most
  two digits a level, then a capitalised word that is no magnitude, or a
  symbol other than a currency or percent sign: ``## 2.5 Billion ...``,
  ``## 1.2 B in ...``, ``## 42. % of ...`` and ``## 42. percent ...`` stay numbers);
- period labels in the quarter-first and half-first order: ``3Q24``, ``1H25``,
  ``4Q`` (``Q3``, ``H1``, ``FY25`` are identifiers already);
- names that carry digits: a capitalised word, a hyphen and at most three
  digits with at most one capital after them (``Strix-9``, ``Wren-8B``,
  ``Llama-70B``; a currency name makes an amount: ``Euro-420M``); a documented category word and one or two digits (``Scope 3``,
  ``Phase 2b``, ``Tier 1``); a filing form (``10-K``, ``10-Q``, ``8-K``, ``20-F``).

Never blanked: anything with a percent sign, currency, decimal or grouped
digits after it, and names written with a space before an all-capitals word
(``737 MAX`` reads as a number: cite it or name it without the digits).
"""

from __future__ import annotations

import regex

from .numerals import CURRENCY_NAMES, MAGNITUDE_OR_PERCENT_AFTER

_NOT_QUANTITY_AFTER = r"(?![\p{L}\p{N}_%\u2030\u2031\p{Sc}]|[.,'][\p{N}])"

# Each test runs on one numeral the scan found ("3Q", "9", "8B", "3", "10"),
# so it costs nothing for the numerals of sentences that are cited anyway.
_PERIOD_LABEL = regex.compile(r"(?:[1-4]Q|[12]H)(?:[0-9]{4}|[0-9]{2})?" + _NOT_QUANTITY_AFTER)
_PERIOD_NUMERAL = regex.compile(r"[1-4]Q|[12]H")
# Capitalised prefixes that make a quantity, not a name ("Top-3", "Sub-10").
_QUANTITY_PREFIXES = ("Top", "Sub", "Over", "Under", "Mid", "Pre", "Post", "Non", "Up", "Down", "Low", "High", "Near")
_HYPHENATED_NAME = regex.compile(r"(?<![\p{L}\p{M}\p{N}_])(\p{Lu}\p{Ll}+)[-\u2010\u2011]$")
_NAME_DIGITS = regex.compile(r"\p{N}{1,3}\p{Lu}?" + _NOT_QUANTITY_AFTER)
#: Words that name a category by number ("Scope 3 emissions", "a Phase 3 trial").
CATEGORY_WORDS = frozenset(
    {
        "Scope",
        "Phase",
        "Tier",
        "Stage",
        "Class",
        "Category",
        "Level",
        "Grade",
        "Gen",
        "Series",
        "Title",
        "Form",
        "Pillar",
        "Basel",
    }
)
_WORD_THEN_SPACE = regex.compile(r"(?<![\p{L}\p{M}])(\p{Lu}\p{Ll}+)[^\S\u2029]$")
# Cheap tests first (each numeral of a section is asked): what the patterns need.
_PERIOD_NUMERALS = frozenset(("1Q", "2Q", "3Q", "4Q", "1H", "2H"))  # what _PERIOD_NUMERAL matches whole
_CATEGORY_ENDINGS = tuple(sorted(CATEGORY_WORDS))  # a category word must end just before the blank
# "Phase 2b"; a percent word or magnitude after the digits makes an amount ("Gen 2 million"),
# as numerals._QUANTITY_AFTER reads it for the category words NUMERAL knows.
_CATEGORY_DIGITS = regex.compile(rf"\p{{N}}{{1,2}}[a-d]?{_NOT_QUANTITY_AFTER}(?!{MAGNITUDE_OR_PERCENT_AFTER})")
# A bound before the digits of a category ("Grade ≥3", "Phase <= 2"): after a blank, and perhaps before one.
_BOUND_SIGNS = frozenset("\u2265\u2264<>=")
_BOUND_BEFORE = regex.compile(r"[^\S\u2029](?:[\u2265\u2264<>]=?|=<|=>)[^\S\u2029]?$")
_FILING_FORM = regex.compile(r"\p{N}{1,2}-\p{Lu}(?![\p{L}\p{M}\p{N}_])")
_BEFORE_FILING = regex.compile(r"[\p{L}\p{M}\p{N}_\-.,]")


def is_name(text: str, start: int, end: int) -> bool:
    """Whether the numeral ``text[start:end]`` is a period label or part of a name."""
    numeral = text[start:end]
    if numeral.isascii() and not numeral.isalnum():
        return False  # a sign, separator or unit symbol ("42%", "3.1", "$9"): every name is digits and letters
    return names_by_pattern(text, start, end)


def names_by_pattern(text: str, start: int, end: int) -> bool:
    """:func:`is_name` without its first shortcut (tests compare the two)."""
    numeral = text[start:end]
    if numeral in _PERIOD_NUMERALS:
        return _PERIOD_LABEL.match(text, start) is not None
    before = text[max(0, start - 16) : start]
    if before.endswith(("-", "\u2010", "\u2011")):
        name = _HYPHENATED_NAME.search(before)
        if name is not None and name.group(1) not in _QUANTITY_PREFIXES and name.group(1) not in CURRENCY_NAMES:
            return _NAME_DIGITS.fullmatch(numeral) is not None and _NAME_DIGITS.match(text, start) is not None
    if before[-1:] in _BOUND_SIGNS or before[-2:-1] in _BOUND_SIGNS:
        bound = _BOUND_BEFORE.search(before)
        if bound is not None:
            before = before[: bound.start()] + " "  # "Grade ≥3", "Grade >= 3": a bound on a category
    if before[-1:].isspace() and before[:-1].endswith(_CATEGORY_ENDINGS):
        word = _WORD_THEN_SPACE.search(before)
        if word is not None and word.group(1) in CATEGORY_WORDS:
            match = _CATEGORY_DIGITS.match(text, start)
            return match is not None and match.end() >= end
    if text.startswith("-", end) and (start == 0 or not _BEFORE_FILING.match(text, start - 1)):
        match = _FILING_FORM.match(text, start)
        return match is not None and match.start() == start
    return False


# A section number opening a heading.
_MAGNITUDES = (
    "(?i:hundred|thousand|million|billion|trillion|percent|pct|per|times|bn|bln|mn|mln|tn|trn|b|m|k|x)(?![\\p{L}\\p{N}])"
)
# One or two digits a level, closed by a stop or a parenthesis ("## 3) Risks") or
# dotted; then a capital, a letter without case or a symbol ("## 1. 📈 Growth"),
# never a lower-case word, a digit, a magnitude ("## 2.5 Billion ...", "## 1.2 B in
# ..."), a currency or a percent sign ("## 1.2 €bn", "## 42. % of ..."). One level
# written bare ("## 3 Risks", as LaTeX numbers sections) needs a capital after it.
HEADING_NUMBER = regex.compile(
    r"[^\S\u2029]*(\p{N}{1,2}\.(?:\p{N}{1,2}\.?)*|\p{N}{1,2}(?:\.\p{N}{1,2})+|\p{N}{1,2}(?=\))"
    rf"|\p{{N}}{{1,2}}(?=[^\S\u2029]+(?!{_MAGNITUDES})\p{{Lu}}))\)?"
    rf"(?=[^\S\u2029]+(?!{_MAGNITUDES})[^\s\p{{Ll}}\p{{N}}\p{{Sc}}%\u2030\u2031])"
)


def heading_number(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The section number opening the heading ``text[start:end]``, if any."""
    match = HEADING_NUMBER.match(text, start, end)
    return match.span(1) if match else None
