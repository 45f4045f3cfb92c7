"""currencies.toml: every currency symbol of every CLDR locale, and the ISO 4217 codes CLDR knows."""

from __future__ import annotations

from collections import defaultdict

import regex

from . import cldr
from .toml_out import Lines, Value

Tables = list[tuple[tuple[str, ...], dict[str, Value]]]

DESCRIPTION = [
    "[iso4217]: the codes CLDR's supplemental data lists per territory, separated by spaces. current:",
    "legal tender in some territory with no end date; current_not_tender: in use with no end date, not",
    "legal tender (funds, metals, test codes); historic: every other code with a territory history.",
    "[symbols] lines: one symbol a line: CODES LOCALES KIND CASE SYMBOL. CODES: the ISO codes it stands",
    "for, comma-separated; LOCALES: how many CLDR locales use it (inherited uses count); KIND: sign (one",
    "\\p{Sc} character), letters (letters and marks only), abbrev (letters and full stops, ending with",
    'one: "лв."), other (anything else: "US$", "R$"); CASE: upper, lower, title, mixed, uncased',
    "(letters without case) or none (no letters); SYMBOL: the symbol, bidi controls removed (it may hold",
    'spaces). A symbol that is only its own ISO code ("CHF" for CHF) is left to [iso4217].',
    "Babel's importer keeps each locale's standard symbol and drops CLDR's alt=narrow/variant forms,",
    "so a narrow form appears only where some locale uses it as its standard symbol.",
]

_SIGN = regex.compile(r"\p{Sc}")
_LETTERS = regex.compile(r"[\p{L}\p{M}]+")
_ABBREV = regex.compile(r"[\p{L}\p{M}.]*[\p{L}\p{M}][\p{L}\p{M}.]*\.")
_CASED = regex.compile(r"\p{Cased}")
# Case from the pinned regex's Unicode tables, not str.isupper(): Python's own tables differ by version.
_UPPER = regex.compile(r"[\p{Uppercase}\p{Lt}]")


def _case(symbol: str) -> str:
    letters = [c for c in symbol if _LETTERS.fullmatch(c)]
    if not letters:
        return "none"
    cased = [c for c in letters if _CASED.match(c)]
    if not cased:
        return "uncased"
    upper = [_UPPER.match(c) is not None for c in cased]
    if all(upper):
        return "upper"
    if not any(upper):
        return "lower"
    if upper[0] and not any(upper[1:]):
        return "title"
    return "mixed"


def kind(symbol: str) -> str:
    if len(symbol) == 1 and _SIGN.match(symbol):
        return "sign"
    if _LETTERS.fullmatch(symbol):
        return "letters"
    if _ABBREV.fullmatch(symbol):
        return "abbrev"
    return "other"


def _packed(codes: list[str], per_line: int = 16) -> Lines:
    return Lines(" ".join(codes[i : i + per_line]) for i in range(0, len(codes), per_line))


def _iso_codes() -> dict[str, list[str]]:
    from babel.core import get_global

    tender: set[str] = set()
    untendered: set[str] = set()
    known: set[str] = set()
    for periods in get_global("territory_currencies").values():
        for code, _start, end, is_tender in periods:
            known.add(code)
            if end is None:
                (tender if is_tender else untendered).add(code)
    untendered -= tender
    return {
        "current": sorted(tender),
        "current_not_tender": sorted(untendered),
        "historic": sorted(known - tender - untendered),
    }


def build() -> tuple[list[str], Tables]:
    codes: dict[str, set[str]] = defaultdict(set)
    locales: dict[str, set[str]] = defaultdict(set)
    for locale_id in cldr.locale_ids():
        for code, raw in cldr.merged(locale_id).currency_symbols.items():
            symbol = cldr.bare(raw).strip()
            if not symbol:
                continue
            codes[symbol].add(code)
            locales[symbol].add(locale_id)
    iso = _iso_codes()
    all_codes = {c for group in iso.values() for c in group}
    lines = [
        f"{','.join(sorted(codes[s]))} {len(locales[s])} {kind(s)} {_case(s)} {s}"
        for s in sorted(codes)
        if not (s in all_codes and codes[s] == {s})
    ]
    iso_table: dict[str, Value] = {name: _packed(group) for name, group in iso.items()}
    return DESCRIPTION, [(("iso4217",), iso_table), (("symbols",), {"lines": Lines(lines)})]
