"""What a reader reads as one number: the shapes a number takes, and the table of vetoes that make digits a name.

docs/reading-rules.md (section 6) has each rule with an example of both
directions. How a stretch of visible text is read:

1. Each run of digits (``\\p{N}``, with any combining marks drawn on them)
   is a candidate. It starts at the run, or up to two characters before it
   at a sign and a currency sign (``-$1.2bn``), and reads on through
   separators, decimals, a percent or currency sign and a glued unit
   (``numeral.digits``).
2. A candidate glued to what precedes it is no number (``identifier.glued``:
   ``FY25``, ``m_rev2``, ``4.5`` read as one number already). Otherwise the
   vetoes of :func:`vetoes` are asked in turn; the first that fires makes
   the digits part of a name (``Scope 3``, ``Wren-8B``, ``3Q24``, ``10-K``).
3. Digits glued to a letter are still a number when plainly a quantity:
   the admits of :data:`ADMITS` (``by30%``, ``USD42m``, ``R42bn``, ``x42``).
4. Numerals that are not digits: letters drawn as digits in a numeric
   context, CJK numerals, number emoji (:mod:`.lookalikes`).

Each decision names its rule (:mod:`qcgrade.reading.rules`), recorded in a
trace when one is asked for. Every shape is bounded, so reading is linear in
the text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache
from typing import NamedTuple

import regex

from .. import vocab
from . import Decision, Trace, scan
from .lookalikes import may_hold_symbols, next_symbol_numeral

Span = tuple[int, int]


class _Shapes:
    """The numeral shapes, built from the vocabulary and compiled on first use.

    ``ascii``: the same shapes for text that is all ASCII, with each property
    class made its ASCII members (a digit is 0-9, an id letter A-Z or a-z, a
    currency sign $), for the stdlib engine, which reads these faster. The
    scan-off differential reads every text with the full shapes.
    """

    def __init__(self, ascii: bool = False) -> None:
        self.ascii = ascii

    @property
    def digit(self) -> str:
        return "[0-9]" if self.ascii else r"\p{N}\p{M}*"

    @property
    def separator(self) -> str:
        # An apostrophe groups thousands ("1'000'000") only before exactly three digits: "Q3'24" is a period.
        separators = vocab.typography()["group_separators"]
        if self.ascii:
            return rf"(?:{vocab.char_class(''.join(c for c in separators if c.isascii()))}|'(?=[0-9]{{3}}(?![0-9])))"
        return rf"(?:{vocab.char_class(separators)}|'(?=\p{{N}}{{3}}(?!\p{{N}})))"

    @property
    def unit(self) -> str:
        return "[A-Za-z]*" if self.ascii else f"{vocab.id_letter()}*"

    @property
    def percent_or_currency(self) -> str:
        if self.ascii:
            return "[%$]"
        return rf"(?:{vocab.percent_sign_class()}|\p{{Sc}})"

    @property
    def long_magnitude(self) -> str:
        return rf"{vocab.alternation(vocab.magnitude_words(glued=False) + ('bn', 'mn', 'tn', 'mln', 'bln'))}(?![\p{{L}}\p{{N}}])"

    @property
    def quantity_after(self) -> str:
        """A percent sign or word, or a magnitude, after digits (perhaps glued: "12bn"): they make a quantity."""
        spaced = vocab.alternation(
            (*vocab.percent_words(), "percentage", *vocab.magnitude_words(glued=False), "bn", "mn", "tn", "mln", "bln")
        )
        return (
            rf"[\p{{N}}\p{{M}}]|[.,]\p{{N}}"
            rf"|[ \u00a0]*(?:{vocab.percent_sign_class()}|(?i:{spaced})(?![\p{{L}}\p{{N}}]))"
            r"|(?:[kKmM]|(?i:bn|mn|tn))(?![\p{L}\p{N}])"
        )


_SHAPES = _Shapes()
_ASCII_SHAPES = _Shapes(ascii=True)


@cache
def _ascii_body() -> re.Pattern[str]:
    """numeral.digits' body for ASCII text (see :class:`_Shapes`), for the stdlib engine."""
    s = _ASCII_SHAPES
    digits = f"(?:{s.digit})+"
    return re.compile(rf"{digits}(?:{s.separator}{digits})*{s.percent_or_currency}?{s.unit}")


@cache
def _pattern(name: str) -> regex.Pattern[str]:
    """The compiled shape ``name``: each is compiled the first time a text needs it."""
    s = _SHAPES
    digits = f"(?:{s.digit})+"
    sources = {
        # numeral.digits: from the first digit on (a sign and currency sign before it are read apart).
        "body": rf"{digits}(?:{s.separator}{digits})*{s.percent_or_currency}?{s.unit}",
        # numeral.glued_quantity: decimal, grouped or a percentage.
        "glued_quantity": rf"{digits}(?:(?:{s.separator}{digits})+{s.percent_or_currency}?|{vocab.percent_sign_class()}){s.unit}",
        "after_currency_code": rf"{digits}(?:{s.separator}{digits})*{s.unit}",
        "after_code_hyphen": rf"\p{{N}}+(?:[.,]\p{{N}}+)*(?=[ \u00a0]?{s.long_magnitude}|[km](?![\p{{L}}\p{{N}}])){s.unit}",
        "after_prefix": (
            rf"(?:\p{{N}}+(?:[.,]\p{{N}}+)*(?=[ \u00a0]?{s.long_magnitude})"
            rf"|(?:\p{{N}}{{2,}}|\p{{N}}+[.,]\p{{N}}+)(?=[kmbKM](?![\p{{L}}\p{{N}}]))){s.unit}"
        ),
        "multiplier": r"\p{N}+(?:[.,]\p{N}+)?",
        "quantity_after": s.quantity_after,
        "period_label": (
            rf"{vocab.alternation(vocab.period_label_heads())}{vocab.alternation(vocab.fiscal_marks())}?"
            r"(?:\p{N}{4}|\p{N}{2})?(?![\p{L}\p{N}])"
        ),
        "filing_form": rf"\p{{N}}{{1,{vocab.filing_digits()}}}-\p{{Lu}}(?![\p{{L}}\p{{N}}])",
        "id_letter": vocab.id_letter(),
        "bound": r"[^\S\u2029](?:[\u2265\u2264<>]=?|=<|=>)[^\S\u2029]?$",
        # A run of digits (a mark drawn on a digit ends the run: a number may start after it, and the
        # body reads the marks); in ASCII text the stdlib engine finds runs faster.
        "run": r"\p{N}+",
        "digits_with_marks": r"(?:\p{N}\p{M}*)+",
    }
    return regex.compile(sources[name])


_ASCII_RUN = re.compile(r"[0-9]+")
_TYPOGRAPHY = vocab.typography()
_SIGNS = frozenset(_TYPOGRAPHY["signs"])
_HYPHENS = frozenset(_TYPOGRAPHY["hyphens"])
_APOSTROPHES = frozenset(_TYPOGRAPHY["apostrophes"])
_category = unicodedata.category


def _is_letter(char: str) -> bool:
    return char.isalpha()


def _is_digit(char: str) -> bool:
    return ("0" <= char <= "9") or (not char.isascii() and _category(char)[0] == "N")


def _is_mark(char: str) -> bool:
    return not char.isascii() and _category(char)[0] == "M"


def _is_id_letter(text: str, at: int) -> bool:
    char = text[at]
    if char.isascii():
        return char.isalpha()
    return _pattern("id_letter").match(text, at) is not None


def _is_currency(char: str) -> bool:
    return char == "$" or (not char.isascii() and _category(char) == "Sc")


def _digit_count(text: str, at: int, end: int) -> int:
    """How many ``\\p{N}`` characters (no marks) stand in a row from ``at`` (not past ``end``)."""
    count = at
    while count < end and _is_digit(text[count]):
        count += 1
    return count - at


def _letter_run_before(text: str, at: int) -> int:
    """Where the run of letters that ends just before ``at`` starts (``at`` when there is none); at most 64 back."""
    q = at
    floor = max(0, at - 64)
    while q > floor and _is_letter(text[q - 1]):
        q -= 1
    return q


# --- the glue: what makes a digit run no start of a number -------------------------------------


def _glued(text: str, at: int) -> bool:
    """Whether a number cannot start at ``at``: glued to an id letter (perhaps through marks), a digit or an
    underscore, a digit and a separator ("4.5": one number), or a word and an apostrophe ("Q3'24")."""
    if at == 0:
        return False
    before = text[at - 1]
    if before == "_" or _is_digit(before):
        return True
    q = at - 1
    while q >= 0 and _is_mark(text[q]):
        q -= 1
    if q >= 0 and _is_id_letter(text, q):
        return True
    if at >= 2 and before in ".," and _is_digit(text[at - 2]):
        return True
    return at >= 2 and before in _APOSTROPHES and (_is_letter(text[at - 2]) or _is_digit(text[at - 2]))


def _glue_rule(text: str, at: int) -> str:
    before = text[at - 1]
    return "name.apostrophe_year" if before in _APOSTROPHES else "identifier.glued"


# --- the vetoes: digits that are part of a name -------------------------------------------------


def _after_hyphen(text: str, d: int, end: int) -> bool:
    """name.after_hyphen: up to three digits after a capitalised word and a hyphen ("Wren-8B", "COVID-19"),
    not after a prefix or a currency name ("Top-3", "Euro-420M")."""
    if d < 2 or text[d - 1] not in _HYPHENS:
        return False
    q = _letter_run_before(text, d - 1)
    word = text[q : d - 1]
    if not word or not word[0].isupper() or word in vocab.not_name_words():
        return False
    most, _code = vocab.name_digits()
    return 1 <= _digit_count(text, d, end) <= most


# What a hyphenated name carries: digits and at most one capital ("8B", "70B").
_NAME_SHAPE = regex.compile(r"\p{N}{1,3}\p{Lu}?")


def _code_digits(text: str, d: int, end: int) -> bool:
    """name.code_digits: four digits after an all-capital code and a hyphen ("HX-1200")."""
    if d < 3 or text[d - 1] not in _HYPHENS:
        return False
    q = _letter_run_before(text, d - 1)
    word = text[q : d - 1]
    _most, code = vocab.name_digits()
    return len(word) >= 2 and word.isupper() and all(c.isupper() for c in word) and _digit_count(text, d, end) == code


def _category_word_before(text: str, at: int) -> bool:
    """Whether a category word ends just before the blank at ``at - 1`` (perhaps a bound between: "Grade >= 3")."""
    if at < 2:
        return False
    blank = at - 1
    if text[blank] in "\u2265\u2264<>=" or (text[blank].isspace() and at >= 2 and text[at - 2] in "\u2265\u2264<>="):
        bound = _pattern("bound").search(text[max(0, at - 8) : at])
        if bound is None:
            return False
        blank = max(0, at - 8) + bound.start()
    if not text[blank].isspace() or text[blank] == "\u2029":
        return False
    q = blank
    floor = max(0, blank - 12)
    while q > floor and (_is_letter(text[q - 1]) or (text[q - 1] == "." and q == blank)):
        q -= 1
    word = text[q:blank].lower()
    if not word or (q > 0 and _is_letter(text[q - 1])):
        return False
    return word in vocab.category_words()


def _category_word(text: str, d: int, end: int) -> bool:
    """name.category_word: one or two digits after a category word, unless a quantity follows ("Scope 3";
    "Scope 3 million", "Tier 1.5" are quantities)."""
    if not _category_word_before(text, d):
        return False
    found = _pattern("digits_with_marks").match(text, d, end)
    digits = regex.sub(r"\p{M}", "", found.group()) if found else ""
    if not 1 <= len(digits) <= 2:
        return False
    return _pattern("quantity_after").match(text, found.end(), end) is None


def _period_label(text: str, d: int, end: int) -> bool:
    """name.period_label: "3Q24", "1H25", "4QFY25", "2H"."""
    return text[d + 1 : d + 2] in ("Q", "H") and _pattern("period_label").match(text, d, end) is not None


def _filing_form(text: str, d: int, end: int) -> bool:
    """name.filing_form: "10-K", "8-K", "20-F"."""
    return "-" in text[d + 1 : d + 3] and _pattern("filing_form").match(text, d, end) is not None


class Veto(NamedTuple):
    """A rule that makes digits a name: its id, its test, and what it looks at beside the digits.

    What it looks at is data the scan derives its guards from (:meth:`may`): the
    characters one of which stands just ``before`` the digits, or just before a
    blank before them (``before_blank``), or within ``reach`` characters
    ``after`` the first digit. A veto whose characters are not there cannot
    fire, so it is not asked; with the scan off every veto is asked
    (tests/test_reading_scan.py).
    """

    id: str
    fires: Callable[[str, int, int], bool]
    before: frozenset[str] = frozenset()
    before_blank: frozenset[str] = frozenset()
    after: frozenset[str] = frozenset()
    reach: int = 2

    def may(self, text: str, d: int) -> bool:
        before = text[d - 1] if d else ""
        if before in self.before:
            return True
        if self.before_blank and before.isspace() and d >= 2 and text[d - 2] in self.before_blank:
            return True
        return bool(self.after) and not self.after.isdisjoint(text[d + 1 : d + 1 + self.reach])


_BOUND_SIGNS = frozenset("\u2265\u2264<>=")


@cache
def vetoes() -> tuple[Veto, ...]:
    """The vetoes, asked in turn of digits a number could start at (no sign or currency before them)."""
    category_endings = frozenset(c for word in vocab.category_words() for c in (word[-1], word[-1].upper()))
    period_letters = frozenset(head[-1] for head in vocab.period_label_heads())
    return (
        Veto("name.after_hyphen", _after_hyphen, before=_HYPHENS),
        Veto("name.code_digits", _code_digits, before=_HYPHENS),
        Veto("name.category_word", _category_word, before=_BOUND_SIGNS, before_blank=category_endings | _BOUND_SIGNS),
        Veto("name.period_label", _period_label, after=period_letters, reach=1),
        Veto("name.filing_form", _filing_form, after=frozenset("-"), reach=vocab.filing_digits()),
    )


@cache
def _any_veto() -> Veto:
    """What any veto looks at (the union of theirs): digits beside none of it are asked no veto at all."""
    table = vetoes()
    return Veto(
        "any",
        lambda text, d, end: True,
        frozenset().union(*(v.before for v in table)),
        frozenset().union(*(v.before_blank for v in table)),
        frozenset().union(*(v.after for v in table)),
        max(v.reach for v in table),
    )


def _veto(text: str, d: int, end: int) -> str | None:
    """The first veto that fires for digits at ``d``, or None."""
    guarded = scan.ENABLED
    if guarded and not _any_veto().may(text, d):
        return None
    for veto in vetoes():
        if (not guarded or veto.may(text, d)) and veto.fires(text, d, end):
            return veto.id
    return None


# --- the admits: digits glued to a letter that are still a quantity ------------------------------


def _glued_quantity(text: str, d: int) -> bool:
    before = text[d - 1]
    if before == "_":
        return True
    q = d - 1
    if before in _HYPHENS:
        q -= 1
    while q >= 0 and _is_mark(text[q]):
        q -= 1
    return q >= 0 and _is_id_letter(text, q)


def _after_currency_code(text: str, d: int) -> bool:
    q = d - 1 if text[d - 1] in _HYPHENS else d
    code = text[q - 3 : q]
    return len(code) == 3 and code in vocab.currency_codes() and (q < 4 or not _is_letter(text[q - 4]))


def _free_before(text: str, q: int) -> bool:
    """Nothing of a word stands before ``q``: no letter, mark, digit or underscore."""
    if q == 0:
        return True
    char = text[q - 1]
    return not (_is_letter(char) or _is_mark(char) or _is_digit(char) or char == "_")


def _after_code_hyphen(text: str, d: int) -> bool:
    return d >= 4 and text[d - 1] in _HYPHENS and all(c.isupper() for c in text[d - 4 : d - 1]) and _free_before(text, d - 4)


def _after_prefix(text: str, d: int) -> bool:
    q = _letter_run_before(text, d)
    return 1 <= d - q <= 3 and text[q].isupper() and _free_before(text, q)


def _multiplier(text: str, d: int) -> bool:
    if text[d - 1] != "x" or not _free_before(text, d - 1):
        return False
    named = text[d - 1 : d + 2]  # "x86": a CPU name, unless a digit goes on
    return named not in vocab.cpu_names() or _is_digit(text[d + 2 : d + 3] or "a")


#: The admits, asked in turn of digits glued to a letter, a mark, an underscore or a hyphen: each names its
#: shape, read from the digits on.
ADMITS: tuple[tuple[str, Callable[[str, int], bool], str], ...] = (
    ("numeral.glued_quantity", _glued_quantity, "glued_quantity"),
    ("numeral.after_currency_code", _after_currency_code, "after_currency_code"),
    ("numeral.after_code_hyphen", _after_code_hyphen, "after_code_hyphen"),
    ("numeral.after_prefix", _after_prefix, "after_prefix"),
    ("numeral.multiplier", _multiplier, "multiplier"),
)


def _admit(text: str, d: int, end: int) -> tuple[str, int] | None:
    """The first admit whose context and shape hold for digits at ``d``: its rule and where the number ends."""
    before = text[d - 1]
    if not (_is_letter(before) or _is_mark(before) or before == "_" or before in _HYPHENS):
        return None
    for rule_id, context, shape in ADMITS:
        if context(text, d):
            found = _pattern(shape).match(text, d, end)
            if found is not None:
                return rule_id, found.end()
    return None


# --- reading a stretch ----------------------------------------------------------------------------


def _free_start(text: str, d: int, floor: int) -> int | None:
    """The earliest start of a number at the digits ``d``: a sign and a currency sign may stand before them."""
    for s in (d - 2, d - 1, d):
        if s < floor:
            continue
        lead = text[s:d]
        if lead and not _lead_ok(lead):
            continue
        if not _glued(text, s):
            return s
    return None


@cache
def _untouchable(char: str) -> bool:
    """Whether a character before digits is one no rule looks at: no glue (a letter, digit, mark, underscore,
    separator or apostrophe), no lead (a sign or currency sign), and nothing a veto or admit looks at just
    before digits (a hyphen, a bound sign; a blank is asked apart: see :func:`_untouched`)."""
    looked_at = _SIGNS | _HYPHENS | _APOSTROPHES | _BOUND_SIGNS | frozenset("_.,")
    looked_at |= frozenset().union(*(v.before for v in vetoes()))
    category = _category(char)
    return char not in looked_at and category[0] not in "LNM" and category != "Sc"


def _untouched(text: str, d: int) -> bool:
    """Whether digits at ``d`` start a number no rule but numeral.digits decides: nothing any rule looks at stands
    just before them (a blank only where no category word ends before it), and no veto's character after them.

    A speed guard derived from the rules' declarations: it skips, never decides
    (tests/test_reading_scan.py reads every text with it off too).
    """
    before = text[d - 1]
    if not _untouchable(before):
        return False
    if before.isspace() and d >= 2 and (text[d - 2] in _any_veto().before_blank) and _category_word_before(text, d):
        return False
    veto = _any_veto()
    return veto.after.isdisjoint(text[d + 1 : d + 1 + veto.reach])


def _lead_ok(lead: str) -> bool:
    if len(lead) == 1:
        return lead in _SIGNS or _is_currency(lead)
    return lead[0] in _SIGNS and _is_currency(lead[1])


def _digit_numerals(text: str, start: int, end: int, trace: Trace | None) -> list[tuple[int, int, str]]:
    """The numbers of the digit runs of ``text[start:end]``: (start, end, rule)."""
    found: list[tuple[int, int, str]] = []
    ascii_run = scan.ENABLED and text[start:end].isascii()  # the stdlib engine reads an ASCII stretch faster
    runs = _ASCII_RUN.finditer(text, start, end) if ascii_run else _pattern("run").finditer(text, start, end)
    body_shape = _ascii_body() if ascii_run else _pattern("body")
    guarded = scan.ENABLED
    reached = start
    for run in runs:
        d = run.start()
        if d < reached:
            continue
        if guarded and d > reached and _untouched(text, d):
            number_end = body_shape.match(text, d, end).end()  # type: ignore[union-attr]
            found.append((d, number_end, "numeral.digits"))
            reached = number_end
            continue
        s = _free_start(text, d, reached)
        veto = None
        if s == d:
            veto = _veto(text, d, end)
        if s is not None and veto is None:
            body = body_shape.match(text, d, end)
            number_end = body.end() if body is not None else d + 1
            found.append((s, number_end, "numeral.digits"))
            reached = number_end
            continue
        admitted = _admit(text, d, end) if d > 0 else None
        if admitted is not None and text[d : admitted[1]] in vocab.period_label_heads() and _period_label(text, d, end):
            veto, admitted = "name.period_label", None  # "USD3Q": a glued period name is still a name
        if admitted is not None:
            rule_id, number_end = admitted
            found.append((d, number_end, rule_id))
            reached = number_end
            continue
        if trace is not None:
            rule_id = veto or _glue_rule(text, d)
            trace.append(Decision("numeral", d, run.end(), "not a number", rule_id))
    return found


def read_numerals(text: str, start: int = 0, end: int | None = None, trace: Trace | None = None) -> list[Span]:
    """The spans of the numbers a reader reads in ``text[start:end]``, in order.

    Context before ``start`` is read (what a number is glued to); nothing
    past ``end`` is. ``trace`` receives every decision with its rule.
    """
    return [(s, e) for s, e, _rule in numerals_with_rules(text, start, end, trace)]


def numerals_with_rules(
    text: str, start: int = 0, end: int | None = None, trace: Trace | None = None
) -> list[tuple[int, int, str]]:
    """:func:`read_numerals`, each span with the id of the rule that read it."""
    end = len(text) if end is None else end
    numbers = _digit_numerals(text, start, end, trace)
    if may_hold_symbols(text, start, end):
        numbers = _leftmost(text, numbers, start, end)
    if trace is not None:
        for s, e, rule_id in numbers:
            named = rule_id.startswith("-")
            trace.append(Decision("numeral", s, e, "not a number" if named else "number", rule_id.lstrip("-")))
    return [number for number in numbers if not number[2].startswith("-")]


def _leftmost(text: str, digits: list[tuple[int, int, str]], start: int, end: int) -> list[tuple[int, int, str]]:
    """The numbers a left-to-right reading takes: at each place the leftmost, a digit shape before a symbol one.

    A number that starts inside one taken before it is not read; the reading
    goes on after the number taken.
    """
    taken: list[tuple[int, int, str]] = []
    position, i = start, 0
    symbol = next_symbol_numeral(text, position, end)
    while True:
        while i < len(digits) and digits[i][0] < position:
            i += 1
        if symbol is not None and symbol[0] < position:
            symbol = next_symbol_numeral(text, position, end)  # each search starts past the last: linear
        digit = digits[i] if i < len(digits) else None
        if digit is not None and (symbol is None or digit[0] <= symbol[0]):
            taken.append(digit)
            position = digit[1]
        elif symbol is not None:
            position = symbol[1]
            # A look-alike run shaped as a name's digits is one after a hyphenated word ("Wren-8B percent").
            named = _NAME_SHAPE.fullmatch(text, symbol[0], symbol[1]) is not None and _after_hyphen(text, symbol[0], end)
            taken.append((*symbol[:2], "-name.after_hyphen") if named else symbol)
        else:
            return taken  # a look-alike run read as a name is marked with "-" before its rule
