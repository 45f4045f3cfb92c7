"""Numbers that are not digit runs: letters drawn as digits, CJK numerals and number emoji.

- ``numeral.lookalike``: letters drawn like digits (``I l O o S Z B``, their
  Cyrillic, Greek and mathematical twins) read as digits in a numeric
  context only: before a percent sign (``IO%``, ``IO %``), after a currency
  sign in the run before any separator (``$lO.l bn``, ``$lObn``; ``$4.2B`` is
  an amount in billions), grouped (``l,OOO``), in a decimal or grouped shape
  before a magnitude word (``lO.l bn``), before a percent word (``lO
  percent``, two characters at least and no capitalised word: ``So percent``
  is prose). Never glued after a letter, mark, digit or underscore.
- ``numeral.cjk``: CJK numerals before a percent sign, a percent word or a
  currency (perhaps after a magnitude: ``三千二百億円``), or after 百分之.
- ``numeral.emoji``: the keycap ten always; the hundred points emoji before
  a percent sign, a multiple or a percent word.

The shapes are built from the vocabulary (:mod:`qcgrade.reading.vocab`).
A stretch is searched only when a cheaper test derived from the same
vocabulary says a shape may be there (:func:`_may_hold`): it skips text,
it never decides.
"""

from __future__ import annotations

import re
from functools import cache

import regex

from .. import vocab
from . import scan

Found = tuple[int, int, str]


@cache
def _fragments() -> dict[str, str]:
    lookalikes = vocab.lookalike_digits()
    look = vocab.char_class(lookalikes)
    percent = vocab.percent_sign_class()
    glued = vocab.alternation(("bn", "mn", "tn", "mln", "bln"))
    magnitudes = vocab.alternation(("bn", "mn", "tn", "mln", "bln", "thousand", "million", "billion", "trillion"))
    percent_word = r"(?i:per[ \u00a0]?cent(?:age)?|pct)(?![\p{L}\p{N}])"
    return {
        "look": look,
        "run": rf"(?:{look}|\p{{N}})",
        "percent": percent,
        "glued": rf"(?i:{glued})(?![\p{{L}}\p{{N}}])",
        "magnitude": rf"(?i:{magnitudes})(?![\p{{L}}\p{{N}}])",
        "percent_word": percent_word,
        "sign": vocab.char_class(vocab.typography()["signs"]),
        "unit": f"{vocab.id_letter()}*",
        "lookalike_chars": lookalikes,
    }


@cache
def _symbol_pattern() -> regex.Pattern[str]:
    f = _fragments()
    run, look, percent = f["run"], f["look"], f["percent"]
    lookalike = (
        r"(?<![\p{L}\p{M}\p{N}_])(?:"
        # Before a percent sign, glued or after a space: "IO%", "IO %".
        rf"{f['sign']}?(?=(?:{run}|[.,]){{0,32}}[ \u00a0]?{percent}){run}*{look}(?:{run}|[.,](?={run}))*[ \u00a0]?{percent}"
        # After a currency sign, perhaps with a glued magnitude: "$lO.l bn", "$lObn".
        rf"|(?<=\p{{Sc}}[ \u00a0]?)(?={run}*{look}){run}{{1,32}}"
        rf"(?:(?:[.,]{run}{{1,32}})+{f['unit']}|{f['glued']}|(?![\p{{L}}\p{{N}}]|[.,]{run}))"
        # Grouped: "l,OOO".
        rf"|(?={run}{{1,3}},){run}{{1,3}}(?:,{run}{{3}})+(?![\p{{L}}\p{{N}}])"
        # A decimal or grouped shape before a magnitude: "lO.l bn".
        rf"|(?=(?:{run}|[.,]){{0,40}}?{look}){run}{{1,32}}(?:[.,]{run}{{1,32}}){{1,4}}(?=[ \u00a0]?{f['magnitude']})"
        # Before a percent word, across spaces or a soft line break (not a capitalised word such as "So").
        rf"|(?={run}{{2,32}}[ \u00a0\n]+{f['percent_word']})(?!\p{{Lu}}\p{{Ll}}+[ \u00a0\n])"
        rf"(?={run}*?{look}){run}{{2,32}}(?=[ \u00a0\n])"
        r")"
    )
    cjk = vocab.cjk()
    digits, scales = cjk["digits"], cjk["magnitudes"]
    after = vocab.alternation(cjk["after"])
    always, before_unit = vocab.number_emoji()
    unit_after = rf"[ \u00a0]?(?:{percent}|[x\u00d7]|per)"
    symbols = (
        rf"(?P<cjk>(?<={cjk['percent_before']})[{digits}]{{1,16}}|[{digits}]{{1,16}}[{scales}]{{0,2}}(?={after}))"
        rf"|(?P<emoji>{vocab.alternation(always)}|{vocab.alternation(before_unit)}(?={unit_after}))"
    )
    return regex.compile(rf"{symbols}|(?P<lookalike>{lookalike})")


@cache
def _property_chars(prop: str) -> str:
    """Every BMP character with the Unicode property ``prop`` as the regex engine reads it (for a stdlib class).

    The stdlib engine scans a listed class several times faster than the regex
    engine tests a property; the list is made once, on first use.
    """
    return "".join(regex.findall(rf"\p{{{prop}}}", "".join(map(chr, range(0x10000)))))


@cache
def _anchors() -> re.Pattern[str]:
    """What every look-alike shape stands beside, for the stdlib engine: a percent or currency sign, a separator
    or an apostrophe before a digit or look-alike (grouped and decimal shapes), a percent word."""
    f = _fragments()
    run = vocab.char_class(f["lookalike_chars"] + _property_chars("N"))
    signs = vocab.char_class("".join(vocab.percent_signs()) + _property_chars("Sc"))
    return re.compile(rf"{signs}|[.,'\u2019](?={run})|(?i:per[ \u00a0]?cent|pct)")


def _may_hold_lookalike(text: str, start: int, end: int) -> bool:
    """A superset of where a look-alike numeral may be: a look-alike letter in the run of digits, look-alikes and
    separators that touches an anchor (:func:`_anchors`), or a character outside the BMP (the long way)."""
    if not text.isascii() and _ASTRAL.search(text, start, end) is not None:
        return True
    lookalikes = _lookalike_set()
    for anchor in _anchors().finditer(text, start, end):
        at = anchor.start()
        if text[at] in "'\u2019" and text[at + 1 : at + 2].isdigit():
            return True  # digits grouped after an apostrophe: no digit rule reads them (the grouped shape may)
        if _run_holds(text, at, start, end, lookalikes):
            return True
    return False


def _run_holds(text: str, at: int, start: int, end: int, lookalikes: frozenset[str]) -> bool:
    """Whether the run of digits, look-alikes and separators on either side of ``text[at]`` (across one blank,
    or blanks and a line break before a percent word) holds a look-alike."""
    left = at
    while left > start and text[left - 1] in " \u00a0\n" and at - left < 8:
        left -= 1
    floor = max(start, left - 41)
    while left > floor and (text[left - 1] in lookalikes or text[left - 1].isnumeric() or text[left - 1] in ".,"):
        left -= 1
        if text[left] in lookalikes:
            return True
    right = at + 1
    if right < end and text[right] in " \u00a0":
        right += 1
    ceiling = min(end, right + 41)
    while right < ceiling and (text[right] in lookalikes or text[right].isnumeric() or text[right] in ".,"):
        if text[right] in lookalikes:
            return True
        right += 1
    return False


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


@cache
def _lookalike_set() -> frozenset[str]:
    return frozenset(_fragments()["lookalike_chars"])


@cache
def _symbol_chars() -> re.Pattern[str]:
    always, before_unit = vocab.number_emoji()
    return re.compile(vocab.char_class(vocab.cjk()["digits"] + "".join(always) + "".join(before_unit)))


def _may_hold(text: str, start: int, end: int) -> tuple[bool, bool]:
    """Whether ``text[start:end]`` may hold a CJK numeral or number emoji, and a look-alike numeral."""
    if not scan.ENABLED:
        return True, True
    symbols = not text.isascii() and _symbol_chars().search(text, start, end) is not None
    return symbols, _may_hold_lookalike(text, start, end)


def may_hold_symbols(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` may hold a look-alike, CJK or emoji numeral (a superset: it never decides)."""
    symbols, lookalikes = _may_hold(text, start, end)
    return symbols or lookalikes


def next_symbol_numeral(text: str, start: int, end: int) -> Found | None:
    """The first look-alike, CJK or emoji numeral of ``text[start:end]``: (start, end, rule), or None."""
    found = _symbol_pattern().search(text, start, end)
    return None if found is None else (found.start(), found.end(), "numeral." + (found.lastgroup or "lookalike"))
