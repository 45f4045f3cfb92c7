"""Digits a reader reads as part of a name or as structure, not as a quantity.

Blanked before numerals are read, like the digits inside markers:

- section numbers opening a heading: ``## 1. Demand``, ``### 2.1 Units``
  (a trailing stop or a dotted level, at most two digits a level, then a
  capitalised word that is no magnitude: ``## 2.5 Billion ...`` stays a number);
- period labels in the quarter-first and half-first order: ``3Q24``, ``1H25``,
  ``4Q`` (``Q3``, ``H1``, ``FY25`` are identifiers already);
- names that carry digits: a capitalised word, a hyphen and at most three
  digits with at most one capital after them (``Strix-9``, ``Wren-8B``,
  ``Llama-70B``); a documented category word and one or two digits (``Scope 3``,
  ``Phase 2b``, ``Tier 1``); a filing form (``10-K``, ``10-Q``, ``8-K``, ``20-F``).

Never blanked: anything with a percent sign, currency, decimal or grouped
digits after it, and names written with a space before an all-capitals word
(``737 MAX`` reads as a number: cite it or name it without the digits).
"""

from __future__ import annotations

import regex

_NOT_QUANTITY_AFTER = r"(?![\p{L}\p{N}_%\u2030\u2031\p{Sc}]|[.,'][\p{N}])"

# Each pattern starts with a literal character or a small class (the engine
# scans for it), and checks what stands before it with a lookbehind after it.
PERIOD_LABEL = regex.compile(r"(?:[1-4]Q|[12]H)(?<![\p{L}\p{N}_]..)(?:[0-9]{4}|[0-9]{2})?" + _NOT_QUANTITY_AFTER)
# Capitalised prefixes that make a quantity, not a name ("Top-3", "Sub-10").
_QUANTITY_PREFIXES = "Top|Sub|Over|Under|Mid|Pre|Post|Non|Up|Down|Low|High|Near|Circa|Approx"
_HYPHENATED_NAME = regex.compile(
    r"[-\u2010\u2011](?<=(?<![\p{L}\p{M}\p{N}_])\p{Lu}\p{Ll}+.)"
    rf"(?<!(?<![\p{{L}}])(?:{_QUANTITY_PREFIXES}).)"
    r"(\p{N}{1,3}\p{Lu}?)" + _NOT_QUANTITY_AFTER
)
#: Words that name a category by number ("Scope 3 emissions", "a Phase 3 trial").
CATEGORY_WORDS = (
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
)
_CATEGORY_NAME = regex.compile(
    rf"(?<![\p{{L}}\p{{M}}])(?:{'|'.join(CATEGORY_WORDS)})[^\S\u2029](\p{{N}}{{1,2}}\p{{Ll}}?)" + _NOT_QUANTITY_AFTER
)
_FILING_FORM = regex.compile(r"-(?<=(?<![\p{L}\p{M}\p{N}_\-.,])\p{N}{1,2}.)\p{Lu}(?![\p{L}\p{M}\p{N}_])")
_FILING_DIGITS = regex.compile(r"\p{N}{1,2}$")

# A section number opening a heading.
_MAGNITUDES = "(?i:hundred|thousand|million|billion|trillion|percent|per|times|bn|mn|m|k|x)(?![\\p{L}])"
HEADING_NUMBER = regex.compile(
    r"[^\S\u2029]*(\p{N}{1,2}\.(?:\p{N}{1,2}\.?)*|\p{N}{1,2}(?:\.\p{N}{1,2})+)"
    rf"(?=[^\S\u2029]+(?!{_MAGNITUDES})[\p{{Lu}}\p{{Lt}}\p{{Lo}}])"
)


def name_spans(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` whose digits belong to a period label or a name (unsorted)."""
    spans: list[tuple[int, int]] = []
    if "Q" in text or "H" in text:
        spans.extend(m.span() for m in PERIOD_LABEL.finditer(text))
    if "-" in text or "\u2010" in text or "\u2011" in text:
        spans.extend(m.span(1) for m in _HYPHENATED_NAME.finditer(text))
        for match in _FILING_FORM.finditer(text):
            digits = _FILING_DIGITS.search(text, max(0, match.start() - 2), match.start())
            if digits is not None:
                spans.append((digits.start(), match.end()))
    if any(word in text for word in CATEGORY_WORDS):
        spans.extend(m.span(1) for m in _CATEGORY_NAME.finditer(text))
    return spans


def heading_number(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The section number opening the heading ``text[start:end]``, if any."""
    match = HEADING_NUMBER.match(text, start, end)
    return match.span(1) if match else None
