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
def _may_be_lookalike(ascii_only: bool) -> re.Pattern[str]:
    """Where a look-alike numeral may be, for the stdlib engine: a superset derived from its shapes.

    Every shape holds a look-alike letter beside a digit, or beside a
    separator that has a digit or look-alike on its other side (grouped and
    decimal runs), or before a percent sign (across a blank) or a percent
    word (across blanks), or after a currency sign: take the last look-alike
    of the run before a percent sign or word, the first after a currency
    sign, one beside a separator of a grouped or decimal run. Digits grouped
    after an apostrophe are read by the grouped shape alone. ``ascii_only``:
    the pattern for text whose look-alikes, digits and signs are all ASCII
    (the classes a literal scan reads fastest).
    """
    chars = _fragments()["lookalike_chars"]
    digits = _property_chars("N")
    percents = "".join(vocab.percent_signs())
    currencies = _property_chars("Sc")
    if ascii_only:
        chars, digits = "".join(c for c in chars if c.isascii()), "0123456789"
        percents, currencies = "%", "$"
    look, digit = vocab.char_class(chars), vocab.char_class(digits)
    run, percent, currency = vocab.char_class(chars + digits), vocab.char_class(percents), vocab.char_class(currencies)
    return re.compile(
        rf"{look}(?:{digit}|[.,]{run}|[ \u00a0]?{percent}|[ \u00a0\n]+(?i:per[ \u00a0]?cent|pct))"
        rf"|{digit}{look}|{run}[.,]{look}|{currency}[ \u00a0]?{look}"
        rf"|['\u2019]{digit}{{1,3}},"
    )


@cache
def _non_ascii_relevant() -> frozenset[str]:
    """The non-ASCII characters a look-alike shape reads: look-alikes, digits, percent and currency signs."""
    relevant = _fragments()["lookalike_chars"] + _property_chars("N") + "".join(vocab.percent_signs()) + _property_chars("Sc")
    return frozenset(c for c in relevant if not c.isascii())


_ASCII_BYTES = bytes(range(128))


def _may_hold_lookalike(text: str, start: int, end: int) -> bool:
    """Whether a look-alike numeral may be in ``text[start:end]`` (see :func:`_may_be_lookalike`).

    Text whose non-ASCII characters hold none the shapes read is scanned with
    the ASCII classes; text with a character outside the BMP goes the long way.
    """
    stretch = text[start:end]
    if stretch.isascii():
        return _may_be_lookalike(True).search(stretch) is not None
    # Only the non-ASCII characters are looked at: the ASCII bytes of the encoded text dropped in one C pass.
    rest = frozenset(stretch.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass"))
    if max(rest) >= "\U00010000":
        return True
    return _may_be_lookalike(rest.isdisjoint(_non_ascii_relevant())).search(stretch) is not None


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
