"""What a reader reads as one number in visible text, and what is a name.

Each rule decides what a reader of the rendered section sees as a number; a
rule that fails honest writing is as much a bug as one that passes a hack.
The rules, each with an example of both directions, are in
``docs/reading-rules.md`` (section "Numbers"). In short:

- A number is a run of digits of any script (``\\p{N}``: ``42``, ``٤٢``,
  ``➍``), a digit may carry combining marks drawn on it (keycaps, underlines,
  strokes: ``4⃣2⃣``), with its sign, currency, separators, decimals and unit.
- Digits glued after a Latin, Greek or Cyrillic letter form an identifier
  (``FY25``, ``Q3``, ``m_rev2``); after a letter of any other script they are
  a number (``3200億円``, ``ب42``, ``약3200억원``): those scripts glue numbers
  to words and particles, and write no alphanumeric ids.
- Glued digits are still a number when plainly a quantity: decimal, grouped,
  percent, after a currency code (``USD1.2bn``), after a short capitalised
  prefix when a magnitude follows (``R42bn``, ``RM42m``, ``Rs420 crore``), or
  after the multiplier ``x`` (``x42``; the CPU names ``x86``, ``x64``,
  ``x32`` excepted).
- Names are not quantities: digits after a capitalised word and a hyphen
  (``COVID-19``, ``Wren-8B``, ``Llama-70B``, ``Strix-9``) unless plainly a
  quantity (``CAGR-12%``, ``USD-42m``), or unless the word is a prefix
  (``Mid-2025``, ``Top-3``); quarter and half shapes in every order (``3Q24``,
  ``1H25``, ``4QFY25``, ``2H``); filing names (``10-K``, ``10-Q``, ``8-K``,
  ``20-F``); one or two digits after a category word (``Scope 3``,
  ``Phase 2``, ``Tier 1``, ``Table 4``).
- Letters drawn like digits read as digits in a numeric context: Latin ``I l
  O o``, and the Cyrillic and Greek look-alikes, before a percent sign, after
  a currency sign, or in a grouped or decimal shape (``IO%``, ``$lO.l bn``,
  ``l,OOO``, ``O.5%``).
- CJK numerals read as a number before a percent sign or percent word, after
  ``百分之``, or before a magnitude and a currency (``四十二%``,
  ``三千二百億円``); ``🔟`` always, ``💯`` before a percent sign or ``x``.

Every alternative is anchored on a literal class and bounded, so the scan is
linear on any input.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

import regex

# Letters drawn like digits: Cyrillic and Greek (З 3, О/Ο 0, І/Ι 1, б 6) and
# Latin I, l, O, o, S, Z, B (1, 1, 0, 0, 5, 2, 8).
_CYRILLIC_GREEK_LOOKALIKE = "\u0417\u0437\u041e\u043e\u0406\u0456\u0431\u0399\u039f\u03bf"
# Mathematical alphanumeric letters drawn as I, l, O or o (bold, italic, sans ...).
_MATH_LOOKALIKE = "".join(
    chr(c) for c in range(0x1D400, 0x1D6A4) if unicodedata.normalize("NFKC", chr(c)) in ("I", "l", "O", "o", "S", "Z", "B")
)
_LOOKALIKE = f"[IlOoSZB{_CYRILLIC_GREEK_LOOKALIKE}{_MATH_LOOKALIKE}]"
# Letters that make glued digits an identifier: those of alphabets that write
# alphanumeric ids. Any other letter (Han, Kana, Hangul, Thai, Arabic, Hebrew,
# Devanagari ...) does not.
_ID_LETTER = r"(?:(?!\u0394)[\p{Latin}\p{Greek}\p{Cyrillic}])"  # but the capital delta: "\u039442 bps" is a change
# A digit, with any combining marks drawn on it (keycap, underline, stroke).
_DIGIT = r"\p{N}\p{M}*"
_DIGITS = rf"(?:{_DIGIT})+"
# An apostrophe groups thousands ("1'000'000") only before three digits: "Q3'24"
# and "FY'26" are periods.
_SEPARATOR = r"(?:[.,\u00a0\u202f\u2009]|'(?=\p{N}{3}(?!\p{N})))"
# Percent and per-mille signs, the Arabic and small forms included.
_PERCENT = "[%\u2030\u2031\u066a\ufe6a\u0609\u060a]"
_PERCENT_SIGNS = frozenset(_PERCENT[1:-1])
_SIGN = "[+\\-\u2212\u00b1]"
_PERCENT_WORD = r"(?i:per[ \u00a0]?cent(?:age)?|pct)(?![\p{L}\p{N}])"
_HYPHEN = "[-\u2010\u2011]"
# A unit glued after the digits: letters of an id-writing alphabet ("bn", "m",
# "GW"); other scripts' letters after a number are the next word.
_UNIT = rf"{_ID_LETTER}*"
# Currency codes a number may be glued to without a magnitude ("USD1.2bn").
_CURRENCY_CODES = "USD|EUR|GBP|JPY|CNY|RMB|CHF|INR|AUD|CAD|HKD|SGD|KRW|BRL|MXN|ZAR|SEK|NOK|DKK|RUB|TRY|NZD"
# Magnitudes that make digits glued after a short prefix an amount ("R42bn").
# Magnitude words, the short ones that may be glued to digits first.
_GLUED_MAGNITUDES = "bn|mn|tn|mln|bln"
_MAGNITUDES = _GLUED_MAGNITUDES + "|thousand|million|billion|trillion"
_LONG_MAGNITUDE = rf"(?:{_MAGNITUDES}|crores?|lakhs?)(?![\p{{L}}\p{{N}}])"
_SHORT_MAGNITUDE = r"[kmbKM](?![\p{L}\p{N}])"
# Capitalised hyphen prefixes that are words, not names ("Mid-2025", "Top-3").
_PREFIX_WORDS = "Mid|Pre|Post|Sub|Top|Over|Under|Non|Up|Down|Low|High|Circa|Near|Ultra|Super|Pro|Anti|Ex"
#: Currency names: before a hyphen they make an amount, not a name ("Euro-420M").
CURRENCY_NAMES = frozenset(
    "Euro Euros Dollar Dollars Yen Pound Pounds Rupee Rupees Peso Pesos Franc Francs Yuan Renminbi Won Rand Real"
    " Reais Ruble Rubles Rouble Roubles Lira Krona Krone Kronor Ringgit Rupiah Baht Dinar Dirham Riyal Naira"
    " Shilling Zloty".split()
)
_NOT_NAME_WORDS = "|".join([_PREFIX_WORDS, *sorted(CURRENCY_NAMES, key=lambda w: (-len(w), w))])
# Category words before one or two digits that make a name ("Scope 3").
_CATEGORY_WORDS = (
    "Scope|Phase|Tier|Stage|Level|Class|Category|Grade|Type|Table|Figure|Fig\\.|Exhibit|Item|Note|Chapter"
    "|Article|Section|Part|Annex|Appendix|Schedule|Pillar|Title|Chart|Step|Round|Wave|Cohort|Arm|Lot"
)
# What makes one or two digits after a category word a quantity after all.
#: A percent sign or word, or a magnitude, after a number (perhaps glued: "12bn";
#: a glued "b" is a version, "Phase 2b"): it makes the number a quantity.
MAGNITUDE_OR_PERCENT_AFTER = (
    rf"(?:[ \u00a0]*(?:[%\u2030\u2031\u066a\ufe6a\u0609\u060a]|(?i:per\s?cent(?:age)?|pct|{_MAGNITUDES}|crores?|lakhs?)"
    r"(?![\p{L}\p{N}]))|(?:[kKmM]|(?i:bn|mn|tn))(?![\p{L}\p{N}]))"
)
_QUANTITY_AFTER = rf"[\p{{N}}\p{{M}}]|[.,]\p{{N}}|{MAGNITUDE_OR_PERCENT_AFTER}"
# Quarter and half shapes in the digit-first order ("3Q24", "1H", "4QFY25").
_PERIOD = r"(?:[1-4]Q|[12]H)(?:FY|CY)?(?:\p{N}{4}|\p{N}{2})?(?![\p{L}\p{N}])"
# Filing names: a number, a hyphen and one capital ("10-K", "8-K", "20-F").
_FILING = r"\p{N}{1,2}-\p{Lu}(?![\p{L}\p{N}])"
# CJK numerals, and what makes a run of them a quantity.
_CJK_DIGITS = "〇零一二三四五六七八九十百千两兩壱弐参拾"
_CJK_MAGNITUDE = "万萬億亿兆"
_CJK_AFTER = r"(?:[%％\u2030]|パーセント|円|元|ドル|美元|ユーロ|欧元|ウォン|원|圆|圓)"

_FREE = (
    # Not glued to an id letter, a digit or an underscore.
    rf"(?<!{_ID_LETTER}\p{{M}}*)(?<![\p{{N}}_])(?<!\p{{N}}[.,])"
    # Not a year after an apostrophe glued to a word ("Q3'24", "FY\u201926").
    rf"(?<![\p{{L}}\p{{N}}]['\u2019])"
    # Not a name: a capitalised word, a hyphen and at most three digits ("COVID-19",
    # "Wren-8B"), unless the word is a prefix or a currency ("Mid-2025", "Euro-420M"),
    # or an all-capital code, a hyphen and four digits ("HX-1200"); longer runs are
    # amounts ("Record-1200000").
    rf"(?!(?<=(?<![\p{{L}}])(?!(?:{_NOT_NAME_WORDS}){_HYPHEN})\p{{Lu}}\p{{L}}*{_HYPHEN})\p{{N}}{{1,3}}(?!\p{{N}}))"
    rf"(?!(?<=(?<![\p{{L}}])\p{{Lu}}{{2,}}{_HYPHEN})\p{{N}}{{4}}(?!\p{{N}}))"
    # Not one or two digits after a category word, unless plainly a quantity.
    rf"(?!(?<=(?<![\p{{L}}])(?i:{_CATEGORY_WORDS})[ \u00a0])(?:{_DIGIT}){{1,2}}(?!{_QUANTITY_AFTER}))"
    rf"(?!{_PERIOD}|{_FILING})"
    rf"{_SIGN}?\p{{Sc}}?{_DIGITS}(?:{_SEPARATOR}{_DIGITS})*(?:{_PERCENT}|\p{{Sc}})?{_UNIT}"
)
# Glued to an id letter (perhaps across a hyphen), yet plainly a quantity.
_GLUED_QUANTITY = (
    rf"(?<={_ID_LETTER}\p{{M}}*{_HYPHEN}?|_)"
    rf"{_DIGITS}(?:(?:{_SEPARATOR}{_DIGITS})+(?:{_PERCENT}|\p{{Sc}})?|{_PERCENT}){_UNIT}"
)
# After a listed currency code, perhaps across a hyphen ("USD42m", "USD-42m").
_AFTER_CODE = rf"(?<=(?<!\p{{L}})(?:{_CURRENCY_CODES}){_HYPHEN}?){_DIGITS}(?:{_SEPARATOR}{_DIGITS})*{_UNIT}"
# After a short capitalised prefix when a magnitude follows ("R42bn", "Rs420 crore").
# A one-letter magnitude needs two digits or a decimal, so "B2B" stays a name.
_AFTER_PREFIX = (
    r"(?<=(?<![\p{L}\p{M}\p{N}_])\p{Lu}\p{L}{0,2})"
    rf"(?:\p{{N}}+(?:[.,]\p{{N}}+)*(?=[ \u00a0]?{_LONG_MAGNITUDE})|(?:\p{{N}}{{2,}}|\p{{N}}+[.,]\p{{N}}+)(?={_SHORT_MAGNITUDE}))"
    rf"{_UNIT}"
)
# After a three-capital code and a hyphen when a magnitude follows ("PLN-42m"):
# only a long magnitude or a lower-case k or m, so "MPT-30B" stays a name.
_AFTER_CODE_HYPHEN = (
    rf"(?<=(?<![\p{{L}}\p{{M}}\p{{N}}_])\p{{Lu}}{{3}}{_HYPHEN})"
    rf"\p{{N}}+(?:[.,]\p{{N}}+)*(?=[ \u00a0]?{_LONG_MAGNITUDE}|[km](?![\p{{L}}\p{{N}}])){_UNIT}"
)
# The multiplier x glued to a number ("grew x42"), but not the CPU names.
_MULTIPLIER = r"(?<=(?<![\p{L}\p{M}\p{N}_])x)(?!(?:86|64|32)(?![\p{N}]))\p{N}+(?:[.,]\p{N}+)?"
# Letters drawn like digits in a numeric context. The run holds at least one
# look-alike; it stands before a percent sign, after a currency sign, or in a
# grouped or decimal shape.
_LOOK_RUN = rf"(?:{_LOOKALIKE}|\p{{N}})"
# Magnitudes that make a look-alike run an amount: glued after a currency sign's
# run ("$lObn"), or after a decimal shape ("lO.l bn"). A single letter is left
# out: "$ZOOM" is a ticker.
_GLUED_MAGNITUDE = rf"(?i:{_GLUED_MAGNITUDES})(?![\p{{L}}\p{{N}}])"
_MAGNITUDE_WORD = rf"(?i:{_MAGNITUDES})(?![\p{{L}}\p{{N}}])"
_LOOKALIKE_NUMERAL = (
    rf"(?<![\p{{L}}\p{{M}}\p{{N}}_])"
    rf"(?:"
    # Before a percent sign, glued or after a space: "IO%", "IO %".
    rf"{_SIGN}?(?=(?:{_LOOK_RUN}|[.,]){{0,32}}[ \u00a0]?{_PERCENT}){_LOOK_RUN}*{_LOOKALIKE}(?:{_LOOK_RUN}|[.,](?={_LOOK_RUN}))*"
    rf"[ \u00a0]?{_PERCENT}"
    # After a currency sign, perhaps with a glued magnitude: "$lO.l bn", "$lObn".
    rf"|(?<=\p{{Sc}}[ \u00a0]?)(?={_LOOK_RUN}*{_LOOKALIKE}){_LOOK_RUN}{{1,32}}"
    rf"(?:(?:[.,]{_LOOK_RUN}{{1,32}})+{_UNIT}|{_GLUED_MAGNITUDE}|(?![\p{{L}}\p{{N}}]|[.,]{_LOOK_RUN}))"
    rf"|(?={_LOOK_RUN}{{1,3}},){_LOOK_RUN}{{1,3}}(?:,{_LOOK_RUN}{{3}})+(?![\p{{L}}\p{{N}}])"
    # A decimal or grouped shape before a magnitude: "lO.l bn".
    rf"|(?=(?:{_LOOK_RUN}|[.,]){{0,40}}?{_LOOKALIKE})"
    rf"{_LOOK_RUN}{{1,32}}(?:[.,]{_LOOK_RUN}{{1,32}}){{1,4}}(?=[ \u00a0]?{_MAGNITUDE_WORD})"
    # Before a percent word, across spaces or a soft line break: "lO percent",
    # "IO per cent" (two characters at least, and not a capitalised word such as "So").
    rf"|(?={_LOOK_RUN}{{2,32}}[ \u00a0\n]+{_PERCENT_WORD})(?!\p{{Lu}}\p{{Ll}}+[ \u00a0\n])"
    rf"(?={_LOOK_RUN}*?{_LOOKALIKE}){_LOOK_RUN}{{2,32}}(?=[ \u00a0\n])"
    rf")"
)
_CJK_NUMERAL = (
    rf"(?<=百分之)[{_CJK_DIGITS}]{{1,16}}"
    rf"|[{_CJK_DIGITS}]{{1,16}}[{_CJK_MAGNITUDE}]{{0,2}}(?={_CJK_AFTER})"
)
_EMOJI = "\U0001f51f|\U0001f4af(?=[ \u00a0]?(?:[%\u2030x\u00d7]|per))"
# What a CJK numeral or number emoji holds: text without any is scanned without those alternatives.
_SYMBOL_CHARS = (*_CJK_DIGITS, "\U0001f51f", "\U0001f4af")

# The alternatives after the first open with a one-character guard, so that at
# most positions they fail before their variable-length lookbehinds run.
_DIGIT_SHAPES = (
    rf"(?=[+\-\u2212\u00b1\p{{Sc}}\p{{N}}])(?:{_FREE}"
    rf"|(?<=[\p{{L}}\p{{M}}_\-\u2010\u2011])(?:{_GLUED_QUANTITY}|{_AFTER_CODE}|{_AFTER_CODE_HYPHEN}|{_AFTER_PREFIX}|{_MULTIPLIER}))"
)
_SYMBOL_SHAPES = rf"(?=[{_CJK_DIGITS}])(?:{_CJK_NUMERAL})|{_EMOJI}"

#: A numeral the reader sees; see the module docstring for the rules.
NUMERAL = regex.compile(rf"{_DIGIT_SHAPES}|{_SYMBOL_SHAPES}|{_LOOKALIKE_NUMERAL}")
# Every alternative costs time at every position, so text that cannot hold a
# CJK numeral, a number emoji or a look-alike in numeric context is scanned
# with a pattern without those alternatives (same matches: see numeral_pattern).
_PATTERNS = {
    (False, False): regex.compile(_DIGIT_SHAPES),
    (True, False): regex.compile(rf"{_DIGIT_SHAPES}|{_SYMBOL_SHAPES}"),
    (False, True): regex.compile(rf"{_DIGIT_SHAPES}|{_LOOKALIKE_NUMERAL}"),
    (True, True): NUMERAL,
}


_LOOKALIKE_CHARS = frozenset(_LOOKALIKE[1:-1])
# Where a look-alike numeral may be: a percent sign, a comma before a digit or
# look-alike, or a currency sign. The stdlib engine scans a literal class fastest.
_CURRENCY_SIGNS = "".join(chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Sc")
_BMP_CURRENCY_SIGNS = "".join(c for c in _CURRENCY_SIGNS if ord(c) < 0x10000)
_NON_ASCII_CURRENCY_SIGNS = tuple(c for c in _BMP_CURRENCY_SIGNS if c != "$")
_ASTRAL_CURRENCY_SIGNS = tuple(c for c in _CURRENCY_SIGNS if ord(c) >= 0x10000)
# A class of BMP characters only: the stdlib engine scans it with a bitmap.
_LOOKALIKE_TRIGGER = re.compile("[%\u2030\u2031\u066a\ufe6a\u0609\u060a," + re.escape(_BMP_CURRENCY_SIGNS) + "]")


# Non-ASCII characters common in prose and in the visible text that are no
# trigger (unit and cell breaks, dashes, quotes, the no-break space): left out
# of the stdlib scan below (tests/test_numeral_scan.py checks each).
NOT_TRIGGERS = "\u00a0\u00b7\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u2029\u2063"


def _non_ascii_but(excluded: str) -> str:
    """A character class body: every non-ASCII character except ``excluded``."""
    ranges, low = [], 0x80
    for char in sorted(excluded):
        if ord(char) > low:
            ranges.append(f"{chr(low)}-{chr(ord(char) - 1)}")
        low = ord(char) + 1
    ranges.append(f"{chr(low)}-\U0010ffff")
    return "".join(ranges)


_PLAIN_RUN = frozenset("0123456789.,")
# Where a trigger can get past the shortcuts of the long way below: a percent
# sign, or a comma before a digit or look-alike, after a run of plain digits
# and separators after a look-alike or non-ASCII character (looked for in the
# reversed text, so that the scan starts at the rare sign); or a currency
# sign, a space and plain digits before a look-alike or non-ASCII character
# (a look-alike after a currency sign counts only before any separator).
# Supersets (no run length limit beyond the 40 characters a run may hold),
# each one stdlib scan: most text holds neither. The non-ASCII characters
# common in prose that are no letter, mark or digit (NOT_TRIGGERS) hold no
# run. The bound keeps each scan linear ("1,1,1,...").
_ASCII_LOOKALIKES = "".join(sorted(c for c in _LOOKALIKE_CHARS if c.isascii()))
_RUN_CHAR = f"[{_ASCII_LOOKALIKES}{_non_ascii_but(NOT_TRIGGERS)}]"
_MAY_PASS_BACKWARDS = re.compile(rf"(?:[%\u2030\u2031\u066a\ufe6a\u0609\u060a][ \u00a0]?|,)[0-9.,]{{0,40}}{_RUN_CHAR}")
# The same for "%" and "," alone: a pattern that opens with one character is
# scanned several times faster than one that opens with a class, and most
# text holds none of the other percent signs.
_PERCENT_PAST_ASCII = "\u2030\u2031\u066a\ufe6a\u0609\u060a"
_MAY_PASS_AFTER_PERCENT = re.compile(rf"%[ \u00a0]?[0-9.,]{{0,40}}{_RUN_CHAR}")
# A separator with plain digits and then a look-alike or non-ASCII character
# after it (in the reversed text: before it).
_AFTER_STOP = re.compile(rf"\.[0-9.,]{{0,40}}{_RUN_CHAR}")
_AFTER_COMMA = re.compile(rf",[0-9.,]{{0,40}}{_RUN_CHAR}")
_MAY_PASS_FORWARDS = re.compile(rf"[{re.escape(_BMP_CURRENCY_SIGNS)}][ \u00a0]?[0-9]{{0,40}}{_RUN_CHAR}")
_MAY_PASS_FORWARDS_ASCII = re.compile(rf"\$ ?[0-9]{{0,40}}[{_ASCII_LOOKALIKES}]")  # "$" is the one ASCII currency sign
_MAY_PASS_AFTER_DOLLAR = re.compile(rf"\$[ \u00a0]?[0-9]{{0,40}}{_RUN_CHAR}")


_ASCII_BYTES = bytes(range(128))


def non_ascii_chars(text: str) -> frozenset[str]:
    """The non-ASCII characters of ``text`` but NOT_TRIGGERS, in one C-level pass.

    Asked once instead of a string search for each sign of a long list
    (currency signs, rare percent signs, CJK numerals): encode the text, drop
    its ASCII bytes (a multi-byte character is all non-ASCII bytes) and
    decode what is left.
    """
    if text.isascii():
        return frozenset()
    rest = text.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")
    return frozenset(rest).difference(NOT_TRIGGERS)


def _may_pass_forwards(text: str, others: frozenset[str]) -> bool:
    """Whether ``_MAY_PASS_FORWARDS`` finds a currency sign before a look-alike (see above)."""
    if text.isascii():
        return _MAY_PASS_FORWARDS_ASCII.search(text) is not None
    if not others.isdisjoint(_NON_ASCII_CURRENCY_SIGNS):
        return _MAY_PASS_FORWARDS.search(text) is not None
    return "$" in text and _MAY_PASS_AFTER_DOLLAR.search(text) is not None


def _may_pass_backwards(text: str, others: frozenset[str]) -> bool:
    """Whether ``_MAY_PASS_BACKWARDS`` finds a percent sign, or a comma before a digit or look-alike."""
    backwards = text[::-1]
    if not others.isdisjoint(_PERCENT_PAST_ASCII):
        return _MAY_PASS_BACKWARDS.search(backwards) is not None  # rare signs: the one class scan
    if "%" in text and _MAY_PASS_AFTER_PERCENT.search(backwards) is not None:
        return True
    return _separator_found(_AFTER_COMMA, text, backwards, _digit_or_lookalike)


def _separator_found(pattern: re.Pattern[str], text: str, scanned: str, beside: Callable[[str], bool]) -> bool:
    """Whether ``pattern`` (which opens with a separator) matches in ``scanned`` where the character
    on the separator's other side in ``text`` passes ``beside``.

    ``scanned`` is ``text`` or ``text`` reversed; a rejected match is tried
    again from the character after its separator, since a separator inside
    its run may still pass.
    """
    size = len(text)
    reversed_ = scanned is not text
    at = 0
    while True:
        found = pattern.search(scanned, at)
        if found is None:
            return False
        other = size - found.start() if reversed_ else found.start() - 1
        if 0 <= other < size and beside(text[other]):
            return True
        at = found.start() + 1


def _digit_or_lookalike(char: str) -> bool:
    return char in _LOOKALIKE_CHARS or char.isdigit()


def may_show_lookalikes(text: str) -> bool:
    """Whether a letter drawn as a digit may be read as one somewhere in ``text``.

    A superset of where the look-alike alternatives of NUMERAL can match: a
    run of digits and look-alikes with at least one look-alike, just before a
    percent sign or comma (and not glued to a word), or just after a currency
    sign. Most text answers no and is scanned with the faster pattern.
    """
    return _may_show_lookalikes(text, non_ascii_chars(text))


def _may_show_lookalikes(text: str, others: frozenset[str]) -> bool:
    """:func:`may_show_lookalikes`, given ``text``'s :func:`non_ascii_chars`."""
    if (
        not _may_pass_backwards(text, others)
        and not _may_pass_forwards(text, others)
        and others.isdisjoint(_ASTRAL_CURRENCY_SIGNS)
    ):
        # Every trigger would be passed by a shortcut of the long way: only a
        # percent word or a magnitude word is left to look at.
        return _lookalikes_before_percent_word(text) or _lookalikes_before_magnitude(text)
    return _may_show_lookalikes_the_long_way(text)


def _may_show_lookalikes_the_long_way(text: str) -> bool:
    """:func:`may_show_lookalikes`, looking at every trigger (the shortcut's reference)."""
    lookalikes = _LOOKALIKE_CHARS
    if not text.isascii() and any(sign in text for sign in _ASTRAL_CURRENCY_SIGNS):
        return True  # rare signs: take the full pattern rather than a second scan
    size = len(text)
    for trigger in _LOOKALIKE_TRIGGER.finditer(text):
        at = trigger.start()
        mark = trigger.group()
        if mark in _CURRENCY_SIGNS:
            # Most amounts are plain ASCII digits: past them, an ASCII character
            # that is no look-alike ends the run, and the run holds none.
            j = at + 1
            if j < size and text[j] == " ":
                j += 1
            stop = min(size, j + 40)  # the run is at most 40 characters (_FIRST_RUN_AFTER)
            while j < stop and text[j] in "0123456789":
                j += 1
            if j == stop or (text[j].isascii() and text[j] not in lookalikes):
                continue
            run = _FIRST_RUN_AFTER.match(text, at + 1)
            if run is not None and not lookalikes.isdisjoint(run.group()):
                return True
            continue
        if mark == "," and not (at + 1 < size and (text[at + 1] in lookalikes or text[at + 1].isdigit())):
            continue  # a grouped number goes on after its comma
        if mark != "," and at > 0 and text[at - 1] in " \u00a0":
            at -= 1  # "IO %": the run ends before the space
        j = at
        stop = max(0, at - 40)  # the run is at most 40 characters (_RUN_BEFORE)
        while j > stop and text[j - 1] in _PLAIN_RUN:
            j -= 1
        if j == stop or (text[j - 1].isascii() and text[j - 1] not in lookalikes):
            continue  # the same shortcut backwards: "30%", "(1,200,"
        run = _RUN_BEFORE.match(text, 0, at)
        if run is None or lookalikes.isdisjoint(run.group()):
            continue
        before = run.start() - 1
        # Not glued to a word, or a numeral may start inside the run after one of
        # its separators ("e.g.IO%", "U.S.IO%" holds "S.IO%").
        if before < 0 or not (text[before].isalpha() or text[before] == "_") or "." in run.group() or "," in run.group():
            return True
    return _lookalikes_before_percent_word(text) or _lookalikes_before_magnitude(text)


# A percent word after a space: with the spaces before it (see
# percent_word_spaces), a superset of where the look-alike alternative before
# a percent word can match. The stdlib engine finds it several times faster.
_PERCENT_WORD_AFTER_SPACE = re.compile(r"[ \u00a0\n](?i:per[ \u00a0]?cent|pct)")
# The same after a plain space: a pattern that opens with one character is
# scanned several times faster, and most text holds no no-break space.
_PERCENT_WORD_AFTER_BLANK = re.compile(r" (?i:per[ \u00a0]?cent|pct)")


def _percent_word_pattern(text: str) -> re.Pattern[str]:
    # A soft line break shows as a space: "lO" at a line's end, "percent" on the next.
    return _PERCENT_WORD_AFTER_SPACE if "\u00a0" in text or "\n" in text else _PERCENT_WORD_AFTER_BLANK


_SPACES = " \u00a0\n"


def percent_word_spaces(text: str, start: int, end: int) -> list[int]:
    """Where the spaces before each percent word of ``text[start:end]`` start, in order."""
    return [_spaces_start(text, w.start(), start) for w in _percent_word_pattern(text).finditer(text, start, end)]


def _spaces_start(text: str, at: int, floor: int) -> int:
    """The start of the run of spaces that holds ``at`` (not before ``floor``)."""
    while at > floor and text[at - 1] in _SPACES:
        at -= 1
    return at


def percent_word_at(text: str, start: int, end: int, pattern: re.Pattern[str] | None = None) -> int:
    """Where the spaces before the first percent word of ``text[start:end]`` start, or -1.

    A stretch with no digit, sign or separator may still show a number: letters
    drawn as digits before a percent word ("lO percent"); markdown shows a run
    of spaces as one.
    """
    word = (pattern or _percent_word_pattern(text)).search(text, start, end)
    return -1 if word is None else _spaces_start(text, word.start(), start)


# A magnitude word after a run (perhaps after a space): a superset of where the
# look-alike alternative for a decimal shape before a magnitude can match.
_MAGNITUDE_AFTER_RUN = re.compile(rf"[0-9.,IlOoSZB\u0080-\U0010ffff][ \u00a0]?(?i:{_MAGNITUDES})")


def _separator_beside_lookalike(text: str) -> bool:
    """Whether a stop or comma stands inside a run that holds a look-alike or non-ASCII character.

    A superset of where a decimal or grouped look-alike run can be (the run
    goes on, past the separator, on the other side too); two scans that open
    with one character, and a test at each of the few places they find.
    """
    backwards = text[::-1]
    return any(
        _separator_found(pattern, text, scanned, _in_run)
        for pattern in (_AFTER_STOP, _AFTER_COMMA)
        for scanned in (backwards, text)
    )


def _in_run(char: str) -> bool:
    return char.isdigit() or char in _LOOKALIKE_CHARS or (not char.isascii() and char not in NOT_TRIGGERS)


def _lookalikes_before_magnitude(text: str) -> bool:
    """Whether a run holding a look-alike and a separator stands before a magnitude ("lO.l bn")."""
    if not _separator_beside_lookalike(text):
        return False  # the pattern's scan below opens with a class: most text needs none
    lookalikes = _LOOKALIKE_CHARS
    for word in _MAGNITUDE_AFTER_RUN.finditer(text):
        end = word.start() + 1
        run = _RUN_BEFORE.match(text, 0, end)
        if run is not None and not lookalikes.isdisjoint(run.group()) and ("." in run.group() or "," in run.group()):
            return True
    return False


def _lookalikes_before_percent_word(text: str) -> bool:
    """Whether a run holding a look-alike stands before a percent word ("lO percent")."""
    lookalikes = _LOOKALIKE_CHARS
    for space in percent_word_spaces(text, 0, len(text)):
        run = _RUN_BEFORE.match(text, 0, space)
        if run is not None and not lookalikes.isdisjoint(run.group()):
            return True
    return False


# The run of digits, marks, separators and look-alikes just before a position
# (a reverse match).
_RUN_BEFORE = regex.compile(rf"(?r)(?:{_LOOKALIKE}|[\p{{N}}\p{{M}}.,]){{1,40}}")
# After a currency sign a look-alike counts only in the first run, before any
# separator ("$lO.5bn"; "$4.2B" holds none: B is its magnitude).
_FIRST_RUN_AFTER = regex.compile(rf"[ \u00a0]?(?:{_LOOKALIKE}|[\p{{N}}\p{{M}}]){{1,40}}")


def numeral_pattern(text: str) -> regex.Pattern[str] | None:
    """The cheapest pattern that reads in ``text`` exactly the numerals NUMERAL reads; None when it reads none.

    Most stretches a scan is asked about hold a comma or a percent sign but no
    digit at all: with no digit, CJK numeral or number emoji, only a look-alike
    numeral could be there, and mostly none can.
    """
    others = non_ascii_chars(text)
    symbols = not others.isdisjoint(_SYMBOL_CHARS)
    lookalikes = _may_show_lookalikes(text, others)
    if not symbols and not lookalikes and _ANY_DIGIT.search(text) is None:
        return None
    return _PATTERNS[(symbols, lookalikes)]


_ANY_DIGIT = regex.compile(r"\p{N}")

#: The pattern for text that can show no look-alike, CJK or emoji numeral.
DIGIT_SHAPES = _PATTERNS[(False, False)]
# A digit or non-ASCII character (not one of NOT_TRIGGERS): every numeral of the
# digit shapes holds one at most two characters after its start (a sign and a
# currency sign before the digits).
_DIGIT_OR_OTHER = re.compile(f"[0-9{_non_ascii_but(NOT_TRIGGERS)}]")


def digit_shapes(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans ``DIGIT_SHAPES.finditer(text, start, end)`` matches, skipping prose between numerals.

    The regex engine tries its guard at every position; the stdlib engine finds
    the next digit several times faster, and no numeral starts more than two
    characters before it, so the regex engine is asked only where one may
    start (:func:`_numeral_near`), never to scan on through prose. A plain
    ASCII numeral where no guard of the pattern can apply is read by the
    stdlib engine alone (:func:`_plain_numeral`).
    """
    find_digit = _DIGIT_OR_OTHER.search
    spans: list[tuple[int, int]] = []
    at = start
    while True:
        digit = find_digit(text, at, end)
        if digit is None:
            return spans
        first = digit.start()
        span = None
        if text[first] <= "9":  # an ASCII digit
            span = _plain_numeral(text, at, first, end)
            if span is None and first and text[first - 1] in _ASCII_LETTERS:
                past = _identifier_digits_end(text, first, end)
                if past >= 0:
                    at = past  # "FY25", "Q4": no numeral starts in these digits
                    continue
        if span is None:
            span = _numeral_near(text, max(at, first - 2), first, end)
            if span is None:
                at = first + 1  # none starts here: the next may start only near the next digit
                continue
        spans.append(span)
        at = span[1]


# ASCII digits glued to an ASCII letter that no alternative of the digit
# shapes reads: nothing after them that may go on with them as a quantity (a
# non-ASCII character, a separator, a percent or dollar sign, the first letter
# of a glued magnitude, or of one after a blank). Possessive: the whole run.
_IDENTIFIER_DIGITS = re.compile(r"[0-9]++(?![^\x00-\x7f]|[.,'%$kmbKMtcl]|[ ][bmtcl])")
_CURRENCY_CODE_SET = frozenset(_CURRENCY_CODES.split("|"))


def _identifier_digits_end(text: str, first: int, end: int) -> int:
    """Where the ASCII digits at ``first``, glued to an ASCII letter, end when no numeral starts in them; else -1.

    Glued to a letter, digits are a numeral only as a glued quantity (a
    separator or percent sign after them), after a currency code ("USD42"),
    after a short capitalised prefix before a magnitude ("R42bn"), or after
    the multiplier x ("x42"); each digit after the first is glued to a digit,
    where no numeral starts.
    """
    if text[first - 1] == "x" or text[max(0, first - 3) : first] in _CURRENCY_CODE_SET:
        return -1
    found = _IDENTIFIER_DIGITS.match(text, first, end)
    return -1 if found is None else found.end()


def _numeral_near(text: str, low: int, first: int, end: int) -> tuple[int, int] | None:
    """The span of the first DIGIT_SHAPES match starting from ``low`` to ``first`` (the digit), if any.

    Between ``low`` and ``first`` stand only ASCII characters and NOT_TRIGGERS:
    a numeral may start there only at an ASCII sign or dollar.
    """
    match = DIGIT_SHAPES.match
    for at in range(low, first):
        if text[at] in "+-$":
            found = match(text, at, end)
            if found is not None:
                return found.span()
    found = match(text, first, end)
    return None if found is None else found.span()


# Characters before a numeral that no guard of _FREE looks for: no letter,
# mark, digit, underscore, separator, apostrophe, hyphen, sign or currency
# sign (tests/test_numeral_scan.py checks each). A blank may end a category
# word ("Scope 3"): _plain_numeral looks at the word before it.
_BLANKS = " \u00a0"
CLEAR_BEFORE = frozenset(_BLANKS + '\t\n\r\u2028\u2029\u2063\u2013\u2014\u201c\u2018()[]{}"/:;|*<>=!?&#@~^`\\')
# After a plain numeral, a character that may go on with it in the regex
# engine's reading: any non-ASCII one but the NOT_TRIGGERS that are no
# separator (a digit, mark, separator, percent or currency sign or letter may).
_GOES_ON = f"[{_non_ascii_but(NOT_TRIGGERS.replace(chr(0xA0), ''))}]"
# The body of _FREE in ASCII, read at the numeral's start: an optional sign and
# dollar, digits with their separators (an apostrophe only before exactly three
# digits), a percent or dollar sign and a unit of ASCII letters. It fails (the
# regex engine decides) before what may be a period ("3Q24") or a filing
# ("10-K": one or two digits, a hyphen and no digit), and when one of the four
# characters after it may go on with it (an apostrophe decides on the three
# after it). Group 1 is set for one or two digits after a blank that no
# percent sign or decimal follows: a category word may stand before them.
PLAIN_NUMERAL = re.compile(
    r"(?>[+\-]?\$?"  # atomic: read greedily as the regex engine does, never backed into
    r"(?:(?<=[ \u00a0])(?=[0-9]{1,2}(?![0-9%]|[.,][0-9]))()|)"
    r"(?![0-9][QH])(?![0-9]{1,2}-[^0-9])"
    r"[0-9]+(?:(?:[.,]|'(?=[0-9]{3}(?![0-9])))[0-9]+)*[%$]?[A-Za-z]*)"
    rf"(?![\s\S]{{0,3}}{_GOES_ON})"
)
# Category words lower-cased ("Fig." aside: a stop before the blank is left to the regex engine).
_CATEGORY_LOWER = frozenset(w.lower() for w in _CATEGORY_WORDS.split("|") if w.isalpha())
_LONGEST_CATEGORY = max(map(len, _CATEGORY_LOWER))
_ASCII_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _plain_numeral(text: str, at: int, digit: int, end: int) -> tuple[int, int] | None:
    """The span DIGIT_SHAPES first matches from ``max(at, digit - 2)``, or None when only the regex engine can tell.

    ``digit`` is the first digit at or after ``at``. When the character
    before the numeral's start (its sign or dollar, else the digit) is one no
    guard of _FREE looks for, no numeral starts before it and those guards
    hold: the match is the one the stdlib engine reads (PLAIN_NUMERAL), unless
    one or two digits may follow a category word ("Scope 3").
    """
    begin = digit
    if begin > at and text[begin - 1] == "$":
        begin -= 1
    if begin > at and text[begin - 1] in "+-":
        begin -= 1
    if begin and text[begin - 1] not in CLEAR_BEFORE:
        return None
    found = PLAIN_NUMERAL.match(text, begin, end)
    if found is None or (found.lastindex and _may_end_category_word(text, begin - 1)):
        return None
    return found.span()


def _may_end_category_word(text: str, blank: int) -> bool:
    """Whether a category word of _FREE may end just before ``text[blank]`` ("Scope 3"; True when unsure)."""
    word = blank
    while word > max(0, blank - _LONGEST_CATEGORY - 1) and text[word - 1] in _ASCII_LETTERS:
        word -= 1
    if word == blank:
        return text[blank - 1 : blank] == "." or not text[blank - 1 : blank].isascii()  # "Fig. 2"; another script
    if word and not text[word - 1].isascii():
        return True  # a letter of another script may lengthen the word
    return text[word:blank].lower() in _CATEGORY_LOWER


#: Where a numeral may be; scanning starts a little before the first. Every
#: numeral holds a digit, a CJK numeral or a number emoji, or it is letters
#: drawn as digits in a numeric context: before a percent sign, after a
#: currency sign, grouped or decimal after a separator ("l,OOO", "lO.l bn"),
#: or before a percent word, which :func:`percent_word_at` finds. A comma or
#: stop before anything else (nearly every one of prose) starts none.
NUMERAL_TRIGGER = regex.compile(rf"[\p{{N}}{_CJK_DIGITS}{_PERCENT[1:-1]}\p{{Sc}}\U0001f51f\U0001f4af]|[.,](?={_LOOKALIKE})")


# Where a trigger may be, for the stdlib engine (it scans a listed class
# several times faster than the regex engine tests properties): the ASCII
# triggers, a comma before a look-alike or non-ASCII character, and the other
# non-ASCII characters, which the regex engine then decides one at a time.
_MAY_TRIGGER = re.compile(rf"[0-9$%{_non_ascii_but(NOT_TRIGGERS)}]|[.,](?=[IlOoSZB\u0080-\U0010ffff])")
# Non-ASCII characters decided one at a time before the rest of a stretch is
# left to the regex engine: text in another script stays one scan.
_ONE_AT_A_TIME = 32


class NumeralStarts:
    """Where the first numeral of a stretch of one text may be (asked once per scanned stretch).

    The earlier of the first ``NUMERAL_TRIGGER`` and the first percent word
    after spaces (:func:`percent_word_at`), found by the stdlib engine, with
    the regex engine deciding non-ASCII characters: prose is ASCII but for a
    few dashes and quotes.
    """

    __slots__ = ("text", "_percent_words")

    def __init__(self, text: str) -> None:
        self.text = text
        self._percent_words = _percent_word_pattern(text)  # chosen once: each stretch pays for itself only

    def first(self, start: int, end: int) -> int:
        """Where the first numeral of ``text[start:end]`` may be, or -1."""
        first = self._first_trigger(start, end)
        # A percent word holds no trigger: one before the trigger ends before it.
        word = percent_word_at(self.text, start, end if first < 0 else first, self._percent_words)
        return word if word >= 0 else first

    def _first_trigger(self, start: int, end: int) -> int:
        text = self.text
        decided = 0
        for candidate in _MAY_TRIGGER.finditer(text, start, end):
            at = candidate.start()
            if text[at] in "0123456789$%":
                return at
            if decided == _ONE_AT_A_TIME:
                trigger = NUMERAL_TRIGGER.search(text, at, end)
                return -1 if trigger is None else trigger.start()
            decided += 1
            if NUMERAL_TRIGGER.match(text, at, end) is not None:
                return at
        return -1


def scan_start(text: str, first: int, floor: int) -> int:
    """Where to start scanning for numerals, given the first trigger at ``first``.

    A numeral starts at most two characters (sign, currency) before its first
    digit, but letters drawn as digits may stand before a percent sign or a
    comma that triggers the scan ("IOO,OOO"): step back over the word.
    """
    at = first
    if at > floor and text[at - 1] in " \u00a0" and text[at] in _PERCENT_SIGNS:
        at -= 1  # "IO %": the letters stand before the space
    stop = max(floor, first - 64)
    while at > stop and not text[at - 1].isspace():
        at -= 1
    return max(floor, min(at, first - 2))


#: Words that carry a number on as a quantity ("42. percent of", "30) bn").
QUANTITY_WORDS = (
    "percent per cent pct percentage percentages points point pts pt pp bp bps basis of out "
    "million millions billion billions trillion trillions thousand thousands hundred hundreds "
    "bn mn tn m k crore crores lakh lakhs times x fold units dollars euros pounds yen yuan"
).split()
#: A quantity word (or percent or currency sign) ahead, after optional spaces.
QUANTITY_START = regex.compile(r"[ \t\n\u00a0]*(?:[%\u2030\u2031\p{Sc}]|(?i:" + "|".join(QUANTITY_WORDS) + r")(?![\p{L}\p{N}]))")

# Footnote references: CommonMark shows "[^label]" literally (qcgrade's
# CommonMark has no footnotes), yet a reader still reads "[^1]" as a footnote
# mark. It is one when the section defines the label ("[^45]: ..."), or when
# its label has at most three digits and no percent sign or quantity word
# follows; otherwise its digits are a number ("[^45]%", "[^42] percent",
# "[^1200000] units").
_SHORT_LABEL = regex.compile(r"[^\p{N}]*\p{N}{0,3}[^\p{N}]*")
_FOOTNOTE_REFERENCE = regex.compile(r"\[\^([\w-]{1,64})\]")
_FOOTNOTE_DEFINITION = regex.compile(r"(?:^|(?<=[\n\u2029]))[ \t>]*\[\^([\w-]{1,64})\]:")


def footnote_masks(text: str) -> list[tuple[int, int]]:
    """Spans of footnote references whose label the text defines: their digits never count."""
    if "[^" not in text:
        return []
    defined = {m.group(1) for m in _FOOTNOTE_DEFINITION.finditer(text)}
    return [
        m.span()
        for m in _FOOTNOTE_REFERENCE.finditer(text)
        if m.group(1) in defined
        or (_SHORT_LABEL.fullmatch(m.group(1)) is not None and QUANTITY_START.match(text, m.end()) is None)
    ]


def group_masks(
    parts: list[str], span: tuple[int, int], ids: list[tuple[str, int, int]], group: str = "", offset: int = 0
) -> list[tuple[int, int]]:
    """What to blank of a vouching bracket group: all of it when it lists only ids, else its ids and locators.

    In a group that holds prose besides ids the prose is text the reader
    reads, numbers included; but the number after a locator word is where in
    the source, not a claim: "[TB-53, p. 4]", "[TB-52, Exhibit 99.1]".
    ``group`` is the group's text and ``offset`` where it starts.
    """
    if all(_ID_PART.fullmatch(p.strip()) for p in parts if p.strip()):
        return [span]
    masks = [(start, end) for _id, start, end in ids]
    masks.extend((offset + m.start(1), offset + m.end(1)) for m in _LOCATOR_NUMBER.finditer(group))
    return masks


# A locator word and the number it takes: a page, slide, exhibit, table or
# section ("p. 4", "pp. 12-14", "slide 12", "Exhibit 99.1", "§ 3.2(b)"); never
# a percentage or an amount.
_LOCATOR_NUMBER = regex.compile(
    r"(?<![\p{L}\p{N}])(?i:p|pp|page|pages|slide|slides|exhibit|exhibits|exh|ex|table|tables|fig|figs|figure|figures"
    r"|note|notes|appendix|annex|schedule|section|sec|para|paras|line|lines|ch|chapter|item)\.?[ \u00a0]{0,3}"
    r"(\p{Nd}{1,4}(?:[.\-\u2013]\p{Nd}{1,4}){0,3}[a-z]?)(?![\p{N}%\u2030\p{Sc}.,]?\p{N}|[%\u2030\p{Sc}]|\p{L})"
    rf"(?![ \u00a0]*(?i:{_MAGNITUDES}|k|m|percent|per cent|pct)(?!\p{{L}}))"
)


_ID_PART = regex.compile(r"(?:\p{L}[\p{L}\p{M}]*[-_]?)?\p{N}+")


# A bidi override shown by the text, typed or as an entity ("&#x202E;").
_BIDI_OVERRIDE_ENTITY = regex.compile(r"&#(?:[xX]0*202[dDeE]|0*823[78]);?")


def shows_bidi_override(text: str) -> bool:
    """Whether ``text`` shows a left-to-right or right-to-left override (which can reverse what it covers)."""
    if "\u202d" in text or "\u202e" in text:
        return True
    return "&#" in text and _BIDI_OVERRIDE_ENTITY.search(text) is not None
