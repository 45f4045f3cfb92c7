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
def _may_be_lookalike() -> re.Pattern[str]:
    """Where a look-alike numeral may be, for the stdlib engine: a superset derived from its shapes.

    Every shape holds a look-alike letter beside a digit or separator, or
    before a percent sign (across a blank) or a percent word (across blanks),
    or after a currency sign: take the last look-alike of the run before a
    percent sign or word, the first after a currency sign, any look-alike of a
    grouped or decimal run (the run holds a separator). Digits grouped after
    an apostrophe are read by the grouped shape alone; a character outside
    the BMP (a mathematical look-alike, an astral digit or currency sign)
    sends the stretch the long way.
    """
    chars = _fragments()["lookalike_chars"]
    look = vocab.char_class(chars)
    digits = vocab.char_class(_property_chars("N") + ".,")
    percent = vocab.char_class("".join(vocab.percent_signs()))
    currency = vocab.char_class(_property_chars("Sc"))
    return re.compile(
        rf"{look}(?:{digits}|[ \u00a0]?{percent}|[ \u00a0\n]+(?i:per[ \u00a0]?cent|pct))"
        rf"|(?:{digits}|{currency}[ \u00a0]?){look}"
        rf"|['\u2019]{vocab.char_class(_property_chars('N'))}{{1,3}},"
        r"|[\U00010000-\U0010ffff]"
    )


def _may_hold_lookalike(text: str, start: int, end: int) -> bool:
    """Whether a look-alike numeral may be in ``text[start:end]`` (see :func:`_may_be_lookalike`)."""
    return _may_be_lookalike().search(text, start, end) is not None


@cache
def _symbol_chars() -> re.Pattern[str]:
    always, before_unit = vocab.number_emoji()
    return re.compile(vocab.char_class(vocab.cjk()["digits"] + "".join(always) + "".join(before_unit)))


def _may_hold(text: str, start: int, end: int) -> tuple[bool, bool]:
    """Whether ``text[start:end]`` may hold a CJK numeral or number emoji, and a look-alike numeral.

    A section's stretches are asked one by one: the whole text is asked once
    (and remembered for the text last asked about), and a stretch only when
    the whole may hold one.
    """
    if not scan.ENABLED:
        return True, True
    global _last
    last = _last
    if last[0] is not text:
        last = _last = (text, _may_hold_in(text, 0, len(text)))
    if not last[1][0] and not last[1][1]:
        return False, False
    return _may_hold_in(text, start, end)


def _may_hold_in(text: str, start: int, end: int) -> tuple[bool, bool]:
    symbols = not text.isascii() and _symbol_chars().search(text, start, end) is not None
    return symbols, _may_hold_lookalike(text, start, end)


# The text last asked about, and its answer (one tuple, replaced whole: safe to share between threads).
_last: tuple[str | None, tuple[bool, bool]] = (None, (True, True))


def may_hold_symbols(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` may hold a look-alike, CJK or emoji numeral (a superset: it never decides)."""
    symbols, lookalikes = _may_hold(text, start, end)
    return symbols or lookalikes


def next_symbol_numeral(text: str, start: int, end: int) -> Found | None:
    """The first look-alike, CJK or emoji numeral of ``text[start:end]``: (start, end, rule), or None."""
    found = _symbol_pattern().search(text, start, end)
    return None if found is None else (found.start(), found.end(), "numeral." + (found.lastgroup or "lookalike"))
