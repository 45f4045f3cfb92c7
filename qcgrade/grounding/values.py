"""Numbers as values: what a numeral says, with the precision it was written to.

This module is the one place where qcgrade decides whether two written
numbers state the same value (``docs/grounding.md`` has the table). A
numeral is read into a :class:`Value`: its magnitude, the half-unit of its
last written digit (``1.2`` is anything in ``[1.15, 1.25]``), its scale
(``bn``, ``million``), its unit family (percent, basis points, multiple,
plain) and, for the record, its sign and currency. Two values agree when
either one, rounded to the other's written precision, gives the other.

Deliberate choices, each because honest paraphrase does it:

* signs are read but not compared: "fell 5%" and "-5%" say the same thing,
  and a direction is :mod:`qcgrade.grounding.directions`' business;
* currency is read but not compared: cards write ``$412 million`` and
  ``412 M USD`` for one amount, and a currency swap is not a digit swap;
* a scaled value also matches its bare mantissa when the other side names
  no scale (a table headed "USD m" writes ``412`` for ``412 M USD``);
* basis points and percent convert (``13 bp`` is ``0.13%``); percentage
  points and percent are one family;
* units of time convert (``18 months`` is ``1.5 years``);
* the period a change is written over (``9% y/y``, ``0.6% q/q``, ``2.4%
  annualised``) is compared when both sides write one: ``9% q/q`` is not a
  card's ``9% y/y``, and a figure with no period meets any;
* a rate (percent, points, basis points), a multiple and a duration are
  never one value: ``31x`` is no ``31%`` and ``11.2 weeks`` no
  ``11.2 months`` (a plain number still meets any of them).

Every scan is a bounded regular expression or a single pass, so reading
stays linear in the text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Set
from decimal import Decimal, InvalidOperation
from typing import NamedTuple

import regex

from ..reading.rules.numerals import read_numerals

# Scale words and suffixes, as powers of ten. Letters glued to the digits
# ("1.2bn", "$3B") and a following word ("1.2 billion", "412 M USD") both count.
_SCALES: dict[str, int] = {
    "k": 3,
    "thousand": 3,
    "m": 6,
    "mn": 6,
    "mm": 6,
    "mln": 6,
    "million": 6,
    "millions": 6,
    "b": 9,
    "bn": 9,
    "bln": 9,
    "billion": 9,
    "billions": 9,
    "t": 12,
    "tn": 12,
    "trillion": 12,
}
_PERCENT = ("%", "\u2030", "\u2031")
_UNIT_WORDS: dict[str, str] = {
    "percent": "percent",
    "pct": "percent",
    "pp": "points",
    "ppt": "points",
    "ppts": "points",
    "points": "points",
    "point": "points",
    "pts": "points",
    "bp": "bp",
    "bps": "bp",
    "x": "multiple",
    "times": "multiple",
    "\u00d7": "multiple",  # the multiplication sign: "7\u00d7"
    "-fold": "multiple",  # "7-fold"
}
# What may follow a numeral, separated by blanks: a scale word, a unit or a
# currency code, at most a few words (a bounded window, never a backtrack).
_FOLLOWING = regex.compile(
    r"[ \t\u00a0\u202f\u2009]{0,2}"
    r"(?:(?P<energy>(?-i:[kMGT]W(?:h|p|e)?))"
    r"|(?P<scale>thousand|millions?|billions?|trillion|mn|mln|bln|bn|tn|[kKmMbBtT](?![\p{L}\p{N}]))"
    r"|(?P<points>percentage[ \t\u00a0]+points?|per[ \t\u00a0-]?centage[ \t\u00a0]+points?|points?|pts|pp|ppts?)"
    r"|(?P<percent>per[ \t\u00a0-]?cent|pct)"
    r"|(?P<bp>basis[ \t\u00a0]+points?|bps?(?![\p{L}]))"
    r"|(?P<unit>times(?![\p{L}])|x(?![\p{L}])|\u00d7|-fold(?![\p{L}]))"
    r"|(?P<duration>-?(?:days?|weeks?|wks?|months?|mos|mths?|years?|yrs?))(?!-))"
    r"(?![\p{L}\p{N}])",
    regex.IGNORECASE,
)
# ``_FOLLOWING`` for text without a non-ASCII character, in the stdlib engine (which calls
# faster): on ASCII text a letter is [A-Za-z], a number [0-9] and case is ASCII case.
_FOLLOWING_ASCII = re.compile(
    _FOLLOWING.pattern.replace(r"\p{L}\p{N}", "A-Za-z0-9").replace(r"\p{L}", "A-Za-z"), re.IGNORECASE | re.ASCII
)
# The letters every alternative of ``_FOLLOWING`` starts with (in either case).
_UNIT_FIRST_LETTERS = "tmbkpxdwy"
# How a unit of time starts, for the letters no other alternative of ``_FOLLOWING`` starts
# with (lowered: the Kelvin sign, which the pattern folds to "k", lowers to it too).
_DURATION_STARTS = ("day", "week", "wk", "year", "yr")
# Power and energy with an SI prefix ("412 MW", "1.4 TWh", "3 GWp"): the prefix scales the
# number, so 1,380 GWh and 1.4 TWh are one amount and 1,380 MWh another. Case matters ("mW"
# is a milliwatt).
_ENERGY = regex.compile(r"[kMGT]W(?:h|p|e)?(?![\p{L}\p{N}])")  # the energy alternative of _FOLLOWING
_ENERGY_SCALES = {"k": 3, "M": 6, "G": 9, "T": 12}
# Units of time, by how a writer abbreviates them ("18 months", "1.5 yrs"), and each in days:
# a duration meets another in any of them ("18 months" is "1.5 years"), and no rate or multiple.
DURATIONS: dict[str, str] = {
    "day": "days",
    "days": "days",
    "week": "weeks",
    "weeks": "weeks",
    "wk": "weeks",
    "wks": "weeks",
    "month": "months",
    "months": "months",
    "mos": "months",
    "mth": "months",
    "mths": "months",
    "year": "years",
    "years": "years",
    "yr": "years",
    "yrs": "years",
}
_DAYS: dict[str, Decimal] = {
    "days": Decimal(1),
    "weeks": Decimal(7),
    "months": Decimal("365.25") / 12,
    "years": Decimal("365.25"),
}
_CURRENCY_CODE = regex.compile(r"(?<![\p{L}])(?:US|A|C|NZ|HK|S)?\p{Sc}|USD|EUR|GBP|JPY|CNY|RMB|CHF|INR|AUD|CAD|HKD|SGD")
_GROUPING = "'\u00a0\u202f\u2009"

# Small numbers a card may spell out ("its three largest customers").
_SPELLED: dict[str, int] = {
    word: number
    for number, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
_SPELLED.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90})
_SPELLED_WORD = regex.compile(
    r"(?<![\p{L}\-])(?:" + "|".join(sorted(_SPELLED, key=len, reverse=True)) + r")(?![\p{L}\-])", regex.I
)


class Value(NamedTuple):
    """One written number, read.

    ``mantissa`` is the number as written (no sign, no scale), ``half`` half a
    unit of its last written digit, ``scale`` the power of ten a scale word
    adds, ``unit`` its family: ``percent`` (a level), ``points`` (a
    difference of levels: pp, percentage points), ``bp``, ``multiple``, a
    unit of time (``days``, ``weeks``, ``months``, ``years``) or ``plain``.
    """

    mantissa: Decimal
    half: Decimal
    scale: int = 0
    unit: str = "plain"
    negative: bool = False
    currency: str = ""
    derived: bool = False  # computed from two stated values, not stated
    period: str = ""  # the period written after it ("y/y": year, "q/q": quarter, "annualised"), if any

    @property
    def scaled(self) -> Decimal:
        return self.mantissa.scaleb(self.scale)

    @property
    def scaled_half(self) -> Decimal:
        return self.half.scaleb(self.scale)


def _digits(text: str) -> str | None:
    """``text`` with digits of any script made ASCII; None when a number char is not a decimal digit."""
    if text.isascii():
        return text  # the common case, without a loop in Python
    out = []
    for ch in text:
        if "0" <= ch <= "9":
            out.append(ch)
            continue
        digit = unicodedata.decimal(ch, None)
        if digit is not None:
            out.append(str(digit))
        elif unicodedata.category(ch).startswith("N"):
            return None  # a superscript, fraction or Roman numeral: not compared
        else:
            out.append(ch)
    return "".join(out)


def _number(body: str) -> tuple[Decimal, Decimal] | None:
    """The magnitude of a digit run with separators, and half its last unit."""
    for mark in _GROUPING:
        body = body.replace(mark, "")
    if body.count(",") and body.count("."):
        # "1,234.5" (or the continental "1.234,5"): the last mark is the decimal point.
        if body.rfind(",") > body.rfind("."):
            body = body.replace(".", "").replace(",", ".")
        else:
            body = body.replace(",", "")
    elif "," in body:
        groups = body.split(",")
        if len(groups) > 2 or len(groups[-1]) == 3:
            body = body.replace(",", "")  # thousands: "1,200" and "12,345,678"
        else:
            body = body.replace(",", ".")  # a decimal comma: "3,08"
    elif body.count(".") > 1:
        body = body.replace(".", "")  # "1.234.567": grouped with points
    if not body or not all(ch.isdigit() or ch == "." for ch in body) or body.count(".") > 1:
        return None
    places = len(body) - body.index(".") - 1 if "." in body else 0
    try:
        magnitude = Decimal(body.strip("."))
    except InvalidOperation:
        return None
    return magnitude, Decimal(5).scaleb(-places - 1)


_NUMERAL_PARTS = regex.compile(
    r"(?P<sign>[+\-\u2212\u00b1]?)(?P<cur>\p{Sc}?)(?P<body>[0-9][0-9.,'\u00a0\u202f\u2009]*)(?P<pct>[%\u2030\u2031]?)(?P<tail>\p{Sc}?[\p{L}]*)"
)


# A numeral of ASCII digits with at most one decimal point and no leading zero run
# to strip: what ``_number`` reads unchanged, so its value is ``Decimal(body)``.
_PLAIN = regex.compile(r"([0-9]+(?:\.[0-9]+)?)(%?)")


_BLANKS = " \t\u00a0\u202f\u2009"
# Half a unit of the last digit, by the number of decimals written.
_HALVES = tuple(Decimal(5).scaleb(-places - 1) for places in range(12))


def _half(places: int) -> Decimal:
    return _HALVES[places] if places < len(_HALVES) else Decimal(5).scaleb(-places - 1)


_MULTIPLE_SIGNS = ("\u00d7", "-")  # what may open a multiple that is not a letter ("\u00d7", "-fold")


def _following(after: str) -> tuple[int, str]:
    """The scale and unit a word after a bare numeral gives it ("1.2 billion", "13 bp")."""
    word = after.lstrip(_BLANKS)
    first = word[:1]
    if first in _MULTIPLE_SIGNS:
        following = _FOLLOWING.match(after)  # "7\u00d7", "7-fold", "24-month": rare, the pattern decides
        if following is not None and following.group("duration"):
            return 0, DURATIONS[following.group("duration").lstrip("-").lower()]
        return (0, "multiple") if following is not None and following.group("unit") else (0, "plain")
    if not first.isalpha() or len(after) - len(word) > 2:
        return 0, "plain"  # no word right after it: the usual case, without the pattern
    if first in "kMGT" and word[1:2] == "W":
        energy = _ENERGY.match(word)
        if energy is not None:
            return _ENERGY_SCALES[first], "plain"  # "1,380 GWh" is 1.38 TWh: the prefix is a scale
    if first.isascii() and first.lower() not in _UNIT_FIRST_LETTERS:
        return 0, "plain"  # "USD", "of": no scale or unit word starts so (only ASCII: the pattern ignores case)
    if first in "dDwWyY" and not word[:4].lower().startswith(_DURATION_STARTS):
        return 0, "plain"  # "was", "with", "during": only a unit of time starts with these letters
    second = word[1:2]
    if first in "kKmMbBtT" and (not second or (second.isascii() and not second.isalnum())):
        return _SCALES[first.lower()], "plain"  # "412 M USD": a one-letter scale, as the pattern reads it
    following = (_FOLLOWING_ASCII if after.isascii() else _FOLLOWING).match(after)
    if following is None:
        return 0, "plain"
    if following.group("energy"):
        return _ENERGY_SCALES[following.group("energy")[0]], "plain"
    if following.group("scale"):
        return _SCALES[following.group("scale").lower()], "plain"
    if following.group("percent"):
        return 0, "percent"
    if following.group("points"):
        return 0, "points"
    if following.group("bp"):
        return 0, "bp"
    if following.group("duration"):
        return 0, DURATIONS[following.group("duration").lstrip("-").lower()]
    return 0, _UNIT_WORDS[following.group("unit").lower()]


# The period a change is written over, right after its figure and unit ("9% y/y", "14 bp q/q",
# "0.4% m/m", "2.4% annualised"): the same digits over another period are another figure.
# The ways of writing each period, after a figure and before it alike (a slash may be a look-alike).
_YEAR_ON_YEAR = r"y[/\u2215\u2044]y|yoy|y-o-y|year[ \t\u00a0-](?:on|over)[ \t\u00a0-]year"
_QUARTER_ON_QUARTER = r"q[/\u2215\u2044]q|qoq|q-o-q|quarter[ \t\u00a0-](?:on|over)[ \t\u00a0-]quarter"
_MONTH_ON_MONTH = r"m[/\u2215\u2044]m|mom|m-o-m|month[ \t\u00a0-](?:on|over)[ \t\u00a0-]month"
_ANNUALISED = r"annuali[sz]ed|saar"
PERIOD_AFTER = regex.compile(
    r"[ \t\u00a0\r\n]{0,3}"
    r"(?:(?:per[ \t\u00a0-]?cent|pct|pp|ppts?|points?|pts|bps?|basis[ \t\u00a0]+points?)[ \t\u00a0\r\n]{1,3})?"
    r"(?:,[ \t\u00a0\r\n]{1,3})?\(?"
    r"(?:(?P<year>" + _YEAR_ON_YEAR + r")"
    r"|(?P<quarter>" + _QUARTER_ON_QUARTER + r"|per[ \t\u00a0]quarter)"
    r"|(?P<month>" + _MONTH_ON_MONTH + r"|per[ \t\u00a0]month)"
    r"|(?P<annualised>" + _ANNUALISED + r"|p\.a\.|per[ \t\u00a0]annum)"
    r"|(?P<sequential>sequentially))"
    r"(?![\p{L}\p{N}/\u2215\u2044])"
    # "2.4% q/q saar", "0.6% q/q annualised": the quarter's change at an annual rate.
    r"(?:[ \t\u00a0]{1,2}(?P<at_annual_rate>" + _ANNUALISED + r")(?![\p{L}\p{N}]))?",
    regex.IGNORECASE,
)


# ``PERIOD_AFTER`` for ASCII text, in the stdlib engine (which calls faster); and what it can
# start with past its blanks (a unit word's letter, a period's, a comma or a parenthesis): most
# numerals are followed by none of them, and are settled without a pattern.
_PERIOD_AFTER_ASCII = re.compile(PERIOD_AFTER.pattern.replace(r"\p{L}\p{N}", "A-Za-z0-9"), re.IGNORECASE | re.ASCII)
_PERIOD_FIRST = frozenset("pbyqmasPBYQMAS\u017f(,")  # and the long s, which the pattern folds to "s"
_PERIOD_BLANKS = " \t\u00a0\r\n"


def period_after(after: str) -> str:
    """The period written right after a figure (``after`` is the text that follows it), or ``""``."""
    if after.lstrip(_PERIOD_BLANKS)[:1] not in _PERIOD_FIRST:
        return ""
    return period_written((_PERIOD_AFTER_ASCII if after.isascii() else PERIOD_AFTER).match(after))


# A period named before a figure in its clause, with no other figure between: "q/q growth in
# retail sales was 9%", "grew at an annual rate of 0.6%". Read in sentences only: a card's
# "quarterly growth" may be growth in the quarter over any period.
_PERIOD_BEFORE = regex.compile(
    r"(?<![\p{L}\p{N}])(?:(?P<year>" + _YEAR_ON_YEAR + r")"
    r"|(?P<quarter>" + _QUARTER_ON_QUARTER + r")"
    r"|(?P<month>" + _MONTH_ON_MONTH + r")"
    r"|(?P<annualised>" + _ANNUALISED + r"|at[ \t\u00a0]an[ \t\u00a0]annual[ \t\u00a0]rate)"
    r"|(?P<sequential>sequentially|sequential(?=[ \t\u00a0]+(?:growth|gains?|rise|increase|decline|drop|fall|change|basis)\b)))"
    r"(?![\p{L}\p{N}/])",
    regex.IGNORECASE,
)
# What ends the stretch a period before a figure is read in: another figure, a clause break, a
# comma, a parenthesis or a dash, or a joining word ("Month-on-month volatility aside, CPI was 3.1%").
_FIGURE_OR_BREAK = regex.compile(
    r"[\p{N}.;:!?\n\u2029,()\u2013\u2014]|\s-\s|(?<![\p{L}])(?:and|but|while|whereas|although|though)(?![\p{L}])",
    regex.IGNORECASE,
)
# A period written right after a figure ("the quarter's 0.6% q/q growth is 2.4%") is that
# figure's: it is not read again for the next.
_AFTER_A_FIGURE = regex.compile(
    r"\p{N}[%\u2030]?[ \t\u00a0]{0,2}(?:pp|bps?|points?|pts|per[ \t\u00a0-]?cent)?[ \t\u00a0]{0,2}\(?$"
)
# A period that opens its sentence (only blanks before it since a sentence break or the window's
# start), and the comma that may set it off.
_OPENS_ITS_SENTENCE = regex.compile(r"(?:^|[.;:!?\n\u2029])[ \t\u00a0]*$")
_COMMA_AFTER = regex.compile(r"[ \t\u00a0]*,")
_BEFORE_WINDOW = 64
# What every period _PERIOD_BEFORE reads holds, lowered (the long s folds to "s" in the pattern,
# not in str.lower: "aar" and "equential" hold for it too): a window with none is read no further.
_PERIOD_BEFORE_KEYS = (
    "/",
    "\u2215",
    "\u2044",
    "yoy",
    "qoq",
    "mom",
    "-o-",
    "year",
    "quarter",
    "month",
    "annual",
    "aar",
    "equential",
)


def period_before(text: str, start: int) -> str:
    """The period named before the figure at ``start`` of ``text`` in its clause (see _PERIOD_BEFORE), or ``""``.

    The last one in the few words before it, with no other figure, clause
    break, comma, parenthesis, dash or joining word between (but the comma
    after a period that opens the sentence: "QoQ, loans grew 6%"), and not
    itself written right after another figure.
    """
    window = text[max(0, start - _BEFORE_WINDOW) : start]
    lowered = window.lower()
    if not any(key in lowered for key in _PERIOD_BEFORE_KEYS):
        return ""
    named = list(_PERIOD_BEFORE.finditer(window))
    if not named:
        return ""
    last = named[-1]
    stretch_from = last.end()
    if _OPENS_ITS_SENTENCE.search(window, 0, last.start()) is not None:
        # "QoQ, loans grew 6%", "Sequentially, RPKs rose 8.1%": set off by a comma, it opens the sentence.
        comma = _COMMA_AFTER.match(window, last.end())
        stretch_from = comma.end() if comma is not None else stretch_from
    if _FIGURE_OR_BREAK.search(window, stretch_from) is not None:
        return ""
    if _AFTER_A_FIGURE.search(window, 0, last.start()) is not None:
        return ""
    return last.lastgroup or ""


def periods_meet(a: str, b: str) -> bool:
    """Whether figures over periods ``a`` and ``b`` may be one: the same period, or none named, or
    "sequentially" for a quarter's or a month's change (it is the one before, whichever it is)."""
    return not a or not b or a == b or ("sequential" in (a, b) and ({a, b} - {"sequential"}) <= {"quarter", "month"})


def period_written(found: re.Match[str] | regex.Match[str] | None) -> str:
    """The period a match of :data:`PERIOD_AFTER` names: a later annualisation wins ("q/q saar")."""
    if found is None:
        return ""
    return "annualised" if found.group("at_annual_rate") else found.lastgroup or ""


def read_numeral(numeral: str, before: str = "", after: str = "") -> Value | None:
    """The value a numeral states, reading a little of the text around it.

    ``numeral`` is a token as :data:`qcgrade.reading.lexicon.NUMERAL` finds it
    (``-$1.2bn``, ``30%``); ``before`` is the text just before it (for a
    parenthesis or a currency code), ``after`` the text just after it (for
    ``billion``, ``per cent``, ``bp``, and a period: ``y/y``). None when it is not a plain decimal
    number (a look-alike letter, a superscript) and so is not compared.
    """
    value = _read_numeral(numeral, before, after)
    if value is not None and after:
        period = period_after(after)
        if period:
            return value._replace(period=period)
    return value


def _read_numeral(numeral: str, before: str = "", after: str = "") -> Value | None:
    """:func:`read_numeral` but for the period after it."""
    plain = _PLAIN.fullmatch(numeral)
    if plain is not None:
        # The common case ("412", "3.08%"), read without the general pattern: same result.
        body, pct = plain.group(1), plain.group(2)
        places = len(body) - body.index(".") - 1 if "." in body else 0
        unit, scale = "plain", 0
        if pct:
            unit = "percent"
        else:
            scale, unit = _following(after)
        negative = before.endswith("(") and after.startswith(")")
        tail = before[-4:]
        # A code or symbol needs more than blanks and lowercase letters ("to ", "of ").
        code = _CURRENCY_CODE.search(tail) if tail and not (tail.islower() and tail.strip(_BLANKS).isalpha()) else None
        return Value(Decimal(body), _half(places), scale, unit, negative, code.group() if code else "")
    ascii_form = _digits(numeral)
    if ascii_form is None:
        return None
    parts = _NUMERAL_PARTS.fullmatch(ascii_form)
    if parts is None:
        return None
    body = parts.group("body").rstrip(".,")
    read = _number(body)
    if read is None:
        return None
    mantissa, half = read
    scale, unit = 0, "plain"
    if parts.group("pct"):
        unit = "percent"
    tail = parts.group("tail").lstrip("".join(ch for ch in parts.group("tail") if unicodedata.category(ch) == "Sc"))
    glued = tail.lower()
    if glued:
        if _ENERGY.fullmatch(tail):
            scale = _ENERGY_SCALES[tail[0]]  # "1.4TWh"
        elif glued in _SCALES:
            scale = _SCALES[glued]
        elif glued in _UNIT_WORDS:
            unit = _UNIT_WORDS[glued]
    if not parts.group("pct") and not glued:
        scale, unit = _following(after)
    negative = parts.group("sign") in ("-", "\u2212") or (before.endswith("(") and after.startswith(")"))
    currency = parts.group("cur") or ("".join(ch for ch in parts.group("tail") if unicodedata.category(ch) == "Sc"))
    if not currency:
        code = _CURRENCY_CODE.search(before[-4:])
        currency = code.group() if code else ""
    return Value(mantissa, half, scale, unit, negative, currency)


# ``_PLAIN`` for the stdlib engine (the same ASCII-only pattern), which calls faster.
_PLAIN_FAST = re.compile(r"([0-9]+(?:\.[0-9]+)?)(%?)")


def plain_key(numeral: str, after: str) -> tuple[Decimal, int, str] | None:
    """``(mantissa, scale, unit)`` of ``read_numeral(numeral, before, after)`` for a plain numeral, else None.

    The common numeral ("412", "3.08%") read for comparison only: its sign and
    currency, which are never compared, are not read.
    """
    plain = _PLAIN_FAST.fullmatch(numeral)
    if plain is None:
        return None
    body, pct = plain.groups()
    if pct:
        return Decimal(body), 0, "percent"
    scale, unit = _following(after)
    return Decimal(body), scale, unit


def numeral_form(numeral: str) -> tuple[Value, bool] | None:
    """What a numeral states on its own, and whether a word after it may change that.

    ``read_numeral(numeral, before, after)`` compares as the value given
    here (sign and currency, which the text around also reads, are never
    compared), except that when the flag is set its scale and unit are
    ``_following(after)``'s: a numeral with neither a percent sign nor
    letters of its own reads them from the next word. The flag is found by
    asking: a following "million" changes the reading exactly when it is set.
    """
    alone = read_numeral(numeral)
    if alone is None:
        return None
    probed = read_numeral(numeral, "", " million")
    return alone, probed is not None and probed.scale != alone.scale


# What a writer puts before a number rounded more than its digits say: "~$640M", "about 1,400".
APPROXIMATE_BEFORE = regex.compile(
    r"(?:[~\u2248\u223c]|(?<![\p{L}])(?i:c\.|ca\.|circa|about|around|approximately|approx\.|roughly|nearly|almost|some))"
    r"[ \u00a0]*\p{Sc}?[ \u00a0]*$"
)


def approximate(value: Value) -> Value:
    """``value`` as a writer who rounds to its trailing zeros means it: "about 640" is 640 give or take 5.

    Only whole numbers that end in zeros after two or more other digits
    widen ("about 640", "c. 1,400"): "about 30%" or "about 600" would take
    in a sixth of the value either way, and "about 3.1" keeps the precision
    its decimals write.
    """
    mantissa = value.mantissa
    if mantissa == 0 or mantissa != mantissa.to_integral_value():
        return value
    whole, zeros = int(mantissa), 0
    while whole % 10 == 0:
        whole //= 10
        zeros += 1
    if not zeros or whole < 10:
        return value
    return value._replace(half=max(value.half, Decimal(5).scaleb(zeros - 1)))


def unit_after(after: str) -> tuple[int, str]:
    """The scale and unit the text after a numeral without its own gives it (see :func:`numeral_form`)."""
    return _following(after)


Key = tuple[Decimal, int, str]  # (mantissa, scale, unit): a value as compared when nothing is rounded


def verbatim_forms(texts: Iterable[str], exact: Set[Key]) -> tuple[frozenset[str], dict[str, frozenset[tuple[int, str]]]]:
    """Which numeral texts read as a value whose key is in ``exact``, as one lookup each.

    ``fixed``: texts whose reading is such a value whatever surrounds them
    ("30%", "$1.2bn"). ``free``: texts that read their scale and unit from
    the next word ("412"), with the (scale, unit) pairs of :func:`unit_after`
    that make them such a value. A text in neither may still be one: the
    caller reads it the long way.
    """
    units_of: dict[Decimal, set[tuple[int, str]]] = {}
    for mantissa, scale, unit in exact:
        units_of.setdefault(mantissa, set()).add((scale, unit))
    fixed: set[str] = set()
    free: dict[str, frozenset[tuple[int, str]]] = {}
    for text in texts:
        form = numeral_form(text)
        if form is None:
            continue
        value, reads_next_word = form
        if reads_next_word:
            units = units_of.get(value.mantissa)
            if units:
                free[text] = frozenset(units)
        elif (value.mantissa, value.scale, value.unit) in exact:
            fixed.add(text)
    return frozenset(fixed), free


def figures(text: str) -> list[Value]:
    """The values ``text`` writes in figures (its numerals, by the grader's own pattern), in order."""
    values: list[Value] = []
    for start, end in read_numerals(text):
        value = read_numeral(text[start:end], text[max(0, start - 4) : start], text[end : end + 32])
        if value is not None:
            values.append(value)
    return values


def read_values(text: str) -> list[Value]:
    """Every value a card's text or a metric states, spelled small numbers included.

    Uses the grader's own numeral pattern, so identifiers (``FY25``, ``Q3``)
    are no more values here than they are numerals to tier 1.
    """
    values = figures(text)
    if any(ch.isalpha() for ch in text):
        values.extend(_worded_values(text))
        for word in _SPELLED_WORD.finditer(text):
            # With the word after it, as a numeral's: "one year" is 12 months, "five times" a multiple.
            scale, unit = _following(text[word.end() : word.end() + 32])
            values.append(Value(Decimal(_SPELLED[word.group().lower()]), Decimal("0.5"), scale, unit))
    return values


# A spelled number joined to its unit ("five-year", "six-month", "two-fold"), and the words
# that multiply ("doubled": 2x, or up 100%). Not "double-digit" or "twice-yearly".
_SPELLED_UNIT = regex.compile(
    r"(?<![\p{L}\-])(?P<number>" + "|".join(sorted(_SPELLED, key=len, reverse=True)) + r")-"
    r"(?:(?P<duration>days?|weeks?|months?|years?)|(?P<fold>fold))(?![\p{L}\-])",
    regex.IGNORECASE,
)
_MULTIPLYING = regex.compile(
    r"(?<![\p{L}\-])(?:(?P<twice>twice)|(?P<double>doubled?|doubling)|(?P<triple>tripled?|tripling|trebled?)"
    r"|(?P<half>halved|halving))(?![\p{L}\-])",
    regex.IGNORECASE,
)
_MULTIPLIED: dict[str, tuple[Value, ...]] = {
    "twice": (Value(Decimal(2), Decimal("0.05"), 0, "multiple"),),
    "double": (Value(Decimal(2), Decimal("0.05"), 0, "multiple"), Value(Decimal(100), Decimal("0.5"), 0, "percent")),
    "triple": (Value(Decimal(3), Decimal("0.05"), 0, "multiple"), Value(Decimal(200), Decimal("0.5"), 0, "percent")),
    "half": (Value(Decimal("0.5"), Decimal("0.005"), 0, "multiple"), Value(Decimal(50), Decimal("0.5"), 0, "percent")),
}


def _worded_values(text: str) -> list[Value]:
    """The values a card writes in words: "five-year" (5 years), "two-fold" (2x), "doubled" (2x, 100%)."""
    values: list[Value] = []
    for written in _SPELLED_UNIT.finditer(text):
        number = Decimal(_SPELLED[written.group("number").lower()])
        duration = written.group("duration")
        unit = DURATIONS[duration.lower()] if duration else "multiple"
        values.append(Value(number, Decimal("0.5"), 0, unit))
    for written in _MULTIPLYING.finditer(text):
        values.extend(_MULTIPLIED[written.lastgroup or ""])
    return values


def metric_values(value: str | float | int, unit: str) -> list[Value]:
    """The value a registered metric states: its value read with its unit (``1.2`` + ``B USD``)."""
    if isinstance(value, bool):
        return []
    written = value if isinstance(value, str) else repr(value)
    if not written.strip():
        return []
    return read_values(f"{written} {unit}".strip())


# The family of each unit: two units of one family may state one value (converted where they differ).
_FAMILY = {"percent": "rate", "points": "rate", "bp": "rate", **{unit: "time" for unit in _DAYS}}


def _close(a: Decimal, half_a: Decimal, b: Decimal, half_b: Decimal) -> bool:
    # Either value rounded to the other's written precision gives the other.
    return abs(a - b) <= max(half_a, half_b)


def same_value(stated: Value, source: Value) -> bool:
    """Whether a sentence's value ``stated`` agrees with a value its source states.

    Magnitudes only (see the module notes on sign and currency); scaled
    values compare scaled, and a value with no scale also compares with the
    other's bare mantissa; basis points meet percent and points at a
    hundredth. A value computed from two others stands for a number written
    with a percent sign only when it is a percentage itself: a difference of
    two percentages is in points, and a level or multiple is no percentage;
    a computed multiple or percentage stands only for a number written as
    one.
    """
    a, b = stated, source
    if a.period != b.period and not periods_meet(a.period, b.period):
        return False  # "9% q/q" is no "9% y/y"
    # A computed percentage stands only for a number written as one, and a computed ratio only
    # for a multiple ("7x", "7 times"): computed points, levels and multiples are no percentage.
    if b.derived and ((a.unit == "percent") != (b.unit == "percent") or (b.unit == "multiple" and a.unit != "multiple")):
        return False
    if a.unit != b.unit and a.unit != "plain" and b.unit != "plain":
        # "31x" is thirty-one-fold and "31%" a rate: units of two families never meet.
        family_a, family_b = _FAMILY.get(a.unit, a.unit), _FAMILY.get(b.unit, b.unit)
        if family_a != family_b:
            return False
        if family_a == "time":  # "18 months" is "1.5 years": compared in days
            a_days, b_days = _DAYS[a.unit], _DAYS[b.unit]
            return _close(a.scaled * a_days, a.scaled_half * a_days, b.scaled * b_days, b.scaled_half * b_days)
    if a.unit != b.unit and "bp" in (a.unit, b.unit) and ({a.unit, b.unit} & {"percent", "points"}):
        a_m, a_h, b_m, b_h = a.mantissa, a.half, b.mantissa, b.half
        if a.unit == "bp":
            a_m, a_h = a_m / 100, a_h / 100
        else:
            b_m, b_h = b_m / 100, b_h / 100
        return _close(a_m, a_h, b_m, b_h)
    if _close(a.scaled, a.scaled_half, b.scaled, b.scaled_half):
        return True
    if not a.scale or not b.scale:
        return _close(a.mantissa, a.half, b.mantissa, b.half)
    return False


def derived_values(values: list[Value], limit: int = 24) -> list[Value]:
    """Values a faithful sentence may compute from two stated ones of one family.

    The difference of two levels ("from 5.04% to 5.62%" is 0.58 points or
    58 bp; "579 against 548" is 31), a level moved by a change ("down 13 bp
    to 3.08%" was 3.21%), and the change between two values in percent.
    Only the first ``limit`` distinct values take part, so this stays
    bounded on any card. (A level before a change, and a ratio, are computed
    within one clause of a card: :func:`clause_values`.)
    """
    out: list[Value] = []
    pool: list[Value] = []
    for value in values:
        value = _as_points(value)
        if value.mantissa != 0 and all((v.mantissa, v.scale, v.unit) != (value.mantissa, value.scale, value.unit) for v in pool):
            pool.append(value)
        if len(pool) == limit:
            break
    for i, x in enumerate(pool):
        for y in pool[i + 1 :]:
            if x.scale != y.scale:
                if x.unit == y.unit == "plain":
                    out.extend(_across_scales(x, y))
                continue
            half = x.half + y.half
            units = {x.unit, y.unit}
            if units == {"percent", "points"}:
                # A level and a change: the other end of the change.
                for amount in (abs(x.mantissa - y.mantissa), x.mantissa + y.mantissa):
                    if amount > half:
                        out.append(Value(amount, half, 0, "percent", derived=True))
                continue
            if x.unit != y.unit:
                continue
            unit = "points" if x.unit == "percent" else x.unit
            for amount in (abs(x.mantissa - y.mantissa), x.mantissa + y.mantissa):
                if amount <= half:
                    continue  # indistinguishable from zero at the precision written
                out.append(Value(amount, half, x.scale, unit, derived=True))
            if x.unit in ("percent", "plain") or x.unit in _DAYS:  # "11.2 vs. 7.4 months": 51% longer
                out.append(_change_in_percent(x, y, rise=True))
    return out


# A range a card writes: "5-7%", "5\u20137%", "$1.2-1.5bn", "$1.2bn-$1.5bn", "-2-4%", "between 5%
# and 7%". The second end carries the unit and scale of both (a writer may put them once). Not "5% to 7%": "from 5% to 7%"
# is a move, and its midpoint no figure.
_RANGE_END = r"\p{Sc}?[0-9][0-9,]*(?:\.[0-9]+)?"
_RANGE = regex.compile(
    r"(?<![\p{L}\p{N}.,/])(?P<sign>[\-\u2212]?)"
    r"(?:between\s{1,3}(?P<low>" + _RANGE_END + r")(?P<low_tail>%|bn|mn|[mbk])?\s{1,3}and\s{1,3}"
    r"|(?P<low2>" + _RANGE_END + r")(?P<low_tail2>%|bn|mn|[mbk])?[ \u00a0]?[\-\u2013\u2014][ \u00a0]?)"
    r"(?P<high>" + _RANGE_END + r"%?)(?![\p{N}/\-])",
    regex.IGNORECASE,
)


def range_midpoints(text: str) -> list[Value]:
    """The midpoint of each range ``text`` writes, as a computed value in the range's unit and scale.

    "5-7%" gives 6%, "$1.2-1.5bn" $1.35bn: a writer restates a guided range
    by its midpoint. It is written to the finer end's precision; ends of two
    unit families ("5x-7%") give none.
    """
    found: list[Value] = []
    for written in _RANGE.finditer(text):
        high = read_numeral(written.group("high"), "", text[written.end() : written.end() + 32])
        low_tail = written.group("low_tail") or written.group("low_tail2") or ""
        low = read_numeral((written.group("low") or written.group("low2")) + low_tail)
        if high is None or low is None or (low.unit != "plain" and low.unit != high.unit):
            continue
        if (high.unit == "plain" and low.unit != "plain") or (low.scale and low.scale != high.scale):
            continue  # "5%-7", "$1.2bn-1.5m": no range of one unit and scale
        low_end = -low.mantissa if written.group("sign") else low.mantissa  # "-2-4%": from -2% to 4%
        if low_end >= high.mantissa or (_is_year_number(low_end) and _is_year_number(high.mantissa)):
            continue  # a score ("3-1") or a span of years ("2019-2023"): no amount between
        middle = (low_end + high.mantissa) / 2
        found.append(
            Value(
                abs(middle),
                min(low.half, high.half),
                high.scale,
                high.unit,
                negative=middle < 0,
                currency=high.currency,
                derived=True,
                period=high.period,  # "5-7% y/y": its midpoint over a year too
            )
        )
    return found


def _is_year_number(number: Decimal) -> bool:
    return number == number.to_integral_value() and 1900 <= number <= 2099


def clause_values(values: tuple[Value, ...], way: int) -> list[Value]:
    """Figures computed within one clause of a card that moves a size ``way`` (up 1, down -1).

    A change in percent and a level: the level before the change and the
    amount it moved by ("rose 6.2% to $2.56B" was $2.41B, up $150m), only
    when the clause holds one percentage, and only the way the clause says
    it moved. Two levels: how many times the one is the other, as a multiple
    ("rose to $0.88 from $0.12": about 7x), and for a fall the change in
    percent from the higher level ("fell to 479 from 548": 12.6%; a rise's,
    from the lower level, is in :func:`derived_values`). Each as computed
    from the figures written, so within the change's own rounding only: a
    wider band would take in swapped numbers, and a percentage or level
    elsewhere on the card (a margin, a dividend) is no part of it.
    """
    changes = [v for v in values if v.unit == "percent"]
    levels = [v for v in values if (v.unit in ("plain", "multiple") or v.unit in _DAYS) and v.mantissa and not v.derived]
    out: list[Value] = []
    if len(changes) == 1:
        change = changes[0]
        factor = 1 + way * change.mantissa / 100
        if factor > 0:
            # The change as a growth multiple: "grew 31%" is 1.31x the earlier level.
            out.append(Value(factor, change.half / 100, 0, "multiple", derived=True))
            for level in levels:
                before = level.mantissa / factor
                half = before * change.half / 100 / factor
                out.append(Value(before, half, level.scale, level.unit, currency=level.currency, derived=True))
                # And the amount it moved by ("rose 6.2% to $2.56B": up about $150m).
                moved = abs(level.mantissa - before)
                out.append(Value(moved, half, level.scale, level.unit, currency=level.currency, derived=True))
    for i, x in enumerate(levels):
        for y in levels[i + 1 :]:
            out.extend(_ratios(x, y))
            if way < 0 and x.unit == y.unit and x.scale == y.scale:
                out.append(_change_in_percent(x, y, rise=False))
    return out


def multiples_as_percents(text: str) -> list[Value]:
    """Each multiple ``text`` writes in figures, as a percentage of the base and as a change from it.

    "expanded to 1.4x its starting ARR" is 140% of it, and up 40%. Not a
    multiplying word: "doubled" says up 100% itself, and "rose 200%" for it
    is a misstatement.
    """
    out: list[Value] = []
    for value in figures(text):
        if value.unit == "multiple" and value.mantissa > 1:
            level = value.mantissa * 100
            half = value.half * 100
            out.append(Value(level, half, 0, "percent", derived=True))
            out.append(Value(level - 100, half, 0, "percent", derived=True))
    return out


def _change_in_percent(x: Value, y: Value, rise: bool) -> Value:
    """The change between two levels in percent: a rise from the lower, a fall from the higher.

    ("rose to 548 from 479" is 14.4% up, "fell to 479 from 548" 12.6% down.)
    """
    low, high = sorted((x.mantissa, y.mantissa))
    change = (high - low) / (low if rise else high) * 100
    # Interval arithmetic, to first order: the change moves with either end.
    spread = change * (x.half / x.mantissa + y.half / y.mantissa)
    return Value(change, spread, 0, "percent", derived=True)


def _ratios(x: Value, y: Value) -> list[Value]:
    """How many times the one level is the other ("$0.88 against $0.12": about 7x)."""
    high, low = (x, y) if x.scaled >= y.scaled else (y, x)
    ratio = high.scaled / low.scaled
    spread = ratio * (high.half / high.mantissa + low.half / low.mantissa)
    return [Value(ratio, spread, 0, "multiple", derived=True)]


def _across_scales(x: Value, y: Value) -> list[Value]:
    """The difference and sum of two levels written at different scales ("€1.2bn" less "€850m" is "€350m")."""
    low = min(x.scale, y.scale)
    xm, ym = x.mantissa.scaleb(x.scale - low), y.mantissa.scaleb(y.scale - low)
    # As computed from the figures written: the finer one's rounding, not the coarser one's
    # (which would take in any figure within 50m of "€1.2bn" less "€850m").
    half = min(x.half.scaleb(x.scale - low), y.half.scaleb(y.scale - low))
    return [
        Value(amount, half, low, "plain", currency=x.currency or y.currency, derived=True)
        for amount in (abs(xm - ym), xm + ym)
        if amount > half
    ]


def _as_points(value: Value) -> Value:
    """Basis points as points (``13 bp`` is 0.13 points), so changes meet levels."""
    if value.unit != "bp":
        return value
    return Value(value.mantissa / 100, value.half / 100, 0, "points", value.negative, value.currency)
