"""Whether a period after an abbreviation ends the sentence: the class of the word, against what follows it.

docs/reading-rules.md (1.5) gives the table; ``abbreviations.toml`` holds it
as data, with the words of each class. :func:`abbreviation_ends` asks three
questions, each a named rule:

1. what class the word before the period is (:func:`word_class`): a hand-listed
   class, else a class read from generated data (pySBD's per-language lists,
   CLDR's magnitude words and currency symbols written with a stop);
2. what kind of token follows it (:func:`next_kind`): a reference number (a
   page, a year) is not an amount (a percentage, a sum of money);
3. the table's outcome for that pair, and for the outcomes that look further
   ahead, what the next words are (:func:`_outcome`).

The decision comes back with its rule id (``abbreviation.<class>``), so
``qcgrade explain`` can say why a sentence ended or did not.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import cache

import regex

from .. import vocab

#: Hand-listed classes in precedence order: a word in two lists takes the first (an introducing word is never final too).
_PRECEDENCE = (
    "introducing",
    "never_final",
    "legal",
    "unit",
    "before_number",
    "including",
    "number_taking",
    "title",
    "name_ending",
    "et_al",
)
#: Classes read from generated data, after the hand-listed ones.
_GENERATED: tuple[tuple[str, Callable[[], frozenset[str]]], ...] = (
    ("magnitude", vocab.magnitude_abbreviations),
    ("currency", vocab.currency_abbreviations),
    ("number_taking", vocab.number_abbreviations),
    ("listed", vocab.listed_abbreviations),
)


@cache
def _known() -> frozenset[str]:
    """Every word of a class: a period after any other word of several letters ends the sentence unasked."""
    hand = frozenset().union(*(vocab.abbreviation_class(name) for name in vocab.abbreviation_classes()))
    return hand.union(*(words() for _name, words in _GENERATED))


def asks(word: str, before: str = "") -> bool:
    """Whether a period after ``word`` needs the table: a single letter, a dotted word, a listed one or the last
    part of a listed spaced one ("p. es.")."""
    return len(word) == 1 or "." in word or word.lower() in _known() or "." in _key(word, before)


_NEXT_WORD = regex.compile(r"[\p{L}\p{M}]+")
_LEGAL_MARKS = frozenset("§¶")
# Before a letter that stands as a word: the start, or a blank or an opening
# bracket or quote after anything but a number ("$420 M." is a magnitude).
_STANDS_ALONE = regex.compile(r"(?:^|\u2029|(?<![\p{N}\p{Sc}%])\s|[(\[\"'\u201c\u2018\u00ab])$")
# A capitalised adverb and a comma: "Separately,", "Finally,".
_SENTENCE_ADVERB = regex.compile(r"\p{Lu}\p{Ll}+ly,")
_AFTER_CAPITALISED = regex.compile(r"\p{Lu}[\p{L}\p{M}]*[^\S\u2029]+$")
_AFTER_NUMBER = regex.compile(r"\p{N}[^\S\u2029]*$")
_CAPITALISED_THEN_WORD = regex.compile(r"\p{Lu}[\p{L}\p{M}'\u2019\-]*[^\S\u2029]+(\p{Ll}[\p{L}\p{M}]*)")
# Short parts of a spaced abbreviation before the word ("z. " of "z. B.", "op. " of "op. cit.") and after it.
_PARTS_BEFORE = regex.compile(r"(?<![\p{L}\p{M}\p{N}.])((?:\p{L}{1,4}\.[ \u00a0]){1,3})$")
_PARTS_AFTER = regex.compile(r"(?:\p{L}{1,4}\.(?:[ \u00a0]|(?!\p{L}))){1,3}")
# A volume number and up to two capitalised words of a reporter's name before it ("603 U.S.", "144 S. Ct.").
_VOLUME_BEFORE = regex.compile(r"(?<![\p{N}\p{Sc}.,])\p{Nd}{1,4}[ \u00a0](?:\p{Lu}[\p{L}.]*[ \u00a0]){0,2}$")
_NUMBER = regex.compile(r"(?:[+\-\u2212\u00b1<>\u2264\u2265\u2248~][^\S\u2029]?)?\p{N}+(?:[.,\u00a0\u202f'\u2019]\p{N}+)*")
# A sign or a bound before a number ("+5%", "≥ 27 kg", "≈ 30").
_SIGNED = regex.compile(r"[+\-\u2212\u00b1<>\u2264\u2265\u2248~][^\S\u2029]?\p{N}")
# An abbreviation with its stop: "Ed." of "L. Ed. 2d", "Ct." of "S. Ct.".
_ABBREVIATED = regex.compile(r"\p{Lu}[\p{L}\p{M}]*\.")


@cache
def _period_label() -> regex.Pattern[str]:
    """A period label read like a number after an abbreviation ("the U.S. Q3 margins"): Q3, H1, FY25, 3Q24."""
    heads = vocab.alternation(vocab.period_label_heads())
    fiscal = vocab.alternation(vocab.fiscal_marks())
    return regex.compile(rf"(?:[QH][1-4]|FY\d{{2,4}}|{heads}(?:{fiscal})?\d{{2,4}})(?![\p{{L}}\p{{N}}])")


# The token that may name a currency or a unit: a run of letters, marks, stops and currency signs ("Rs.", "R$",
# "US$", "zł", "Mrd.") and, for unit names of two words, the word after it ("basis points").
_TOKEN = regex.compile(r"[^\S\u2029]*([\p{L}\p{M}\p{Sc}.'\u2019]{1,12})(?:[ \u00a0]([\p{L}\p{M}]{1,12}))?")


@cache
def _currencies() -> tuple[frozenset[str], frozenset[str]]:
    """Currencies before an amount, as written (CLDR symbols of two characters or more: "Rs.", "zł"; ISO codes)
    and in lower case (currency names: "Euro", "euro")."""
    from ..vocab import data

    # Symbols of one letter ("R", "K") are initials as often.
    symbols = {s for s, sym in data.currency_symbols().items() if not sym.sign and " " not in s and len(s) > 1}
    return frozenset(symbols | set(vocab.currency_codes())), frozenset(w.lower() for w in vocab.currency_names())


@cache
def _units() -> frozenset[str]:
    """Words that make the number before them an amount, lower case: percent words, magnitudes (CLDR's of every
    language), unit words, currency codes and names."""
    from ..vocab import data

    words = [
        *vocab.percent_words(),
        *vocab.magnitude_words(glued=None, one_letter=True),
        *(w for w in data.magnitude_words() if len(w.rstrip(".")) > 1),
        *vocab.unit_words(),
        *vocab.currency_codes(),
        *vocab.currency_names(),
    ]
    return frozenset(w.lower() for w in words)


def _currency_first(following: str, at: int = 0) -> bool:
    """Whether a currency stands at ``at``: a sign, an ISO code, a CLDR symbol of letters or a currency name."""
    if following[at : at + 1].isspace():
        at = len(following) - len(following[at:].lstrip())
    if following[at : at + 1] and unicodedata.category(following[at]) == "Sc":
        return True
    token = _TOKEN.match(following, at)
    if token is None:
        return False
    cased, names = _currencies()
    word = token.group(1)
    return any(w in cased or w.lower() in names for w in (word, word.rstrip(".,"), word.rstrip(".,") + "."))


def _amount_after(following: str, at: int) -> bool:
    """Whether what follows the number ending at ``at`` makes it an amount: a percent sign, a currency, a
    magnitude or a unit word ("9%", "1,2 Mrd.", "42 bps", "5 basis points")."""
    rest = following[at : at + 2].lstrip()
    if rest[:1] and rest[0] in vocab.percent_sign_chars():
        return True
    if _currency_first(following, at):
        return True
    token = _TOKEN.match(following, at)
    if token is None:
        return False
    word = token.group(1).lower()
    units = _units()
    if word in units or word.rstrip(".,") in units:
        return True
    return token.group(2) is not None and f"{word} {token.group(2).lower()}" in units


def next_kind(following: str) -> str:
    """What follows the period: ``end``, ``lower``, ``reference``, ``quantity``, ``currency``, ``mark``,
    ``period``, ``paren``, ``capital``, ``caseless`` or ``other``."""
    if not following or following[0] == "\u2029":
        return "end"
    first = following[0]
    if first.islower():
        return "lower"
    if first == "(":
        inner = following[1:]
        return _number_kind(inner) if inner[:1].isdigit() else "paren"
    if first == "#":
        return "reference"
    if first in _LEGAL_MARKS:
        return "mark"
    if _currency_first(following):
        return "currency"
    if first.isdigit() or _SIGNED.match(following):
        return _number_kind(following)
    if _period_label().match(following):
        return "period"
    if first.isupper():
        return "capital"
    return "caseless" if first.isalpha() else "other"


def _number_kind(following: str) -> str:
    """``quantity`` when an amount's unit follows the number at the start of ``following``, else ``reference``."""
    number = _NUMBER.match(following)
    if number is None:
        return "reference"
    return "quantity" if _amount_after(following, number.end()) else "reference"


def _key(word: str, before: str) -> str:
    """The word to look up: the parts of a spaced abbreviation joined ("z. B." -> "z.b"), else the word, lower case."""
    parts = _PARTS_BEFORE.search(before)
    head = [p for p in regex.split(r"[.\s]+", parts.group(1)) if p] if parts else []
    for i in range(len(head)):
        joined = ".".join([*head[i:], word]).lower()
        if joined in _known():
            return joined
    return word.lower()


def inside_compound(word: str, following: str) -> bool:
    """Whether ``word.`` is a first part of a spaced abbreviation that goes on in ``following`` ("z." of "z. B.")."""
    after = _PARTS_AFTER.match(following)
    if after is None:
        return False
    tail = [p for p in regex.split(r"[.\s]+", after.group()) if p]
    return any(".".join([word, *tail[:n]]).lower() in _known() for n in range(1, len(tail) + 1))


def word_class(word: str, before: str) -> str:
    """The class of ``word`` (the letters and inner stops before the period); ``before`` is the text before it.

    ``ordinary``: a word of a cased class written in lower case ("said no."),
    or a word of no class; ``capitals``: a word of two letters or more written
    all in capitals (a name or a ticker: "MS", "APP").
    """
    key = _key(word, before)
    shape = _shape_class(word, before, key)
    if shape is not None:
        return shape
    if len(word) == 1 and word.isupper() and "." not in key:
        key = ""  # a capital alone is an initial, a label or a letter: the lists hold lower-case words ("p.", "v.")
    hand = _hand_class(key, word, before)
    if hand is not None:
        return hand
    if "." in word and word.isupper():
        return "initialism"  # "U.S.", "E.U.": the generated lists hold them lower-cased, as they hold "z.b"
    for name, words in _GENERATED:
        if key in words():
            return name
    return _unlisted_class(word, before)


def _shape_class(word: str, before: str, key: str) -> str | None:
    """The class the word's shape decides before any list: a clitic, a word in capitals, a cased word in lower case."""
    if len(word) == 1 and before.endswith(("'", "\u2019")):
        return "ordinary"  # a clitic, not an abbreviation: "the group's.", "l'"
    if "." not in key and len(word) > 1 and word.isupper():
        return "name_ending" if key in vocab.capital_abbreviations() else "capitals"
    if key in vocab.abbreviation_class("cased") and not word[:1].isupper():
        return "ordinary"
    return None


def _hand_class(key: str, word: str, before: str) -> str | None:
    for name in _PRECEDENCE:
        if key not in vocab.abbreviation_class(name):
            continue
        if name == "unit" and word[:1].isupper() and key in vocab.abbreviation_class("title"):
            if _AFTER_NUMBER.search(before) is None:
                return "title"  # "since Pt. Nehru"; "14 pt." is a unit
        if name == "legal" and "." in key:
            return "legal_dotted"
        if name == "title" and key in vocab.abbreviation_class("place_title") and _AFTER_CAPITALISED.search(before):
            return "place_title"  # "Main St.": a place's name ends, as a name ending does
        return name
    return None


def _unlisted_class(word: str, before: str) -> str:
    if "." in word:
        return "initialism"
    if len(word) == 1 and word.isupper() and _STANDS_ALONE.search(before) is not None:
        return "label" if _AFTER_CAPITALISED.search(before) else "initial"
    return "letter" if len(word) == 1 else "ordinary"


def _clause_opens(following: str, long: bool = False) -> bool:
    opener = _NEXT_WORD.match(following)
    if opener is None:
        return not long
    word = opener.group()
    lower = word.lower()
    if lower not in vocab.clause_openers():
        return not long and _SENTENCE_ADVERB.match(following) is not None
    if long and len(word) < 2:
        return False
    if lower in vocab.name_particles():
        # "De Beers", "La Jolla" open a name; "De marge steeg", "La croissance" a clause.
        after = _NEXT_WORD.match(following, opener.end() + 1)
        return after is not None and after.group()[:1].islower() and following[opener.end() : after.start()].isspace()
    return True


def _outcome(outcome: str, following: str, nouns: Callable[[], bool] = lambda: False) -> bool:
    """Whether the sentence ends, for a table cell ``outcome`` and the text ``following`` the period.

    ``nouns()``: the abbreviation is of a language that capitalises nouns, so a
    capitalised word and a lower-case one are no new clause (asked only when it matters).
    """
    if outcome == "stays":
        return False
    if outcome == "ends":
        return True
    if outcome == "ends_before_long_opener":
        return _clause_opens(following, long=True)
    if _clause_opens(following):
        return True
    if outcome == "ends_before_opener" or nouns():
        return False
    clause = _CAPITALISED_THEN_WORD.match(following)
    return clause is not None and clause.group(1).lower() not in vocab.name_connectors()


def _reporter(word: str, key: str, kind: str, following: str, before: str) -> bool:
    """A reporter's or a code's name, not an end: an abbreviation between a volume number and a page ("603 U.S.
    369", "127 Yale L.J. 2"), a capital before a legal abbreviation ("412 F. Supp. 3d 77"), a capital after a
    volume number before an abbreviation ("219 L. Ed. 2d"), a capital after a locator before its number ("art. L.
    3141-3"), or a capital that is a locator ("Bd. 43, S. 512")."""
    capital = len(word) == 1 and word.isupper()
    if kind == "reference":
        if capital:
            return word in vocab.capital_locators() or _locator_before().search(before) is not None
        return ("." in key or key in vocab.abbreviation_class("legal")) and _VOLUME_BEFORE.search(before) is not None
    if kind not in ("capital", "caseless") or not capital:
        return False
    if _VOLUME_BEFORE.search(before) is not None and _ABBREVIATED.match(following):
        return True
    reporter = _NEXT_WORD.match(following)
    return (
        reporter is not None
        and reporter.group().lower() in vocab.abbreviation_class("legal")
        and following.startswith(".", reporter.end())
    )


@cache
def _locator_before() -> regex.Pattern[str]:
    words = vocab.alternation(vocab.abbreviation_class("number_taking"))
    return regex.compile(rf"(?<![\p{{L}}\p{{M}}])(?i:{words})\.[ \u00a0]$")


def abbreviation_ends(word: str, following: str, before: str = "") -> tuple[bool, str]:
    """Whether a period after ``word`` ends the sentence, and the rule that decided.

    ``word`` is the letters (and inner stops) before the period: ``Dr``,
    ``U.S``, ``approx``. ``following`` starts at the next visible character,
    ``before`` is the text before ``word``.
    """
    kind = next_kind(following)
    if kind == "end":
        return True, "sentence_end.unit_break"
    if inside_compound(word, following):
        return False, "abbreviation.compound"
    cls = word_class(word, before)
    if cls in ("ordinary", "capitals"):
        return True, f"abbreviation.{cls}"
    key = _key(word, before)
    if cls not in ("never_final", "introducing") and _reporter(word, key, kind, following, before):
        return False, "abbreviation.reporter"
    ahead = following[1:].lstrip() if kind == "paren" else following

    def nouns() -> bool:
        return word in vocab.noun_capitalised_abbreviations() or key in vocab.noun_capitalised_abbreviations()

    return _outcome(vocab.abbreviation_table()[cls][kind], ahead, nouns), f"abbreviation.{cls}"


_LAST_WORD = regex.compile(r"([\p{L}\p{M}]+)[^\S\u2029]+$")


def ordinal_ends(following: str, before: str) -> tuple[bool, str]:
    """Whether a stop after a number of one to three digits ends the sentence, and the rule that decided.

    An ordinal ("2. çeyreğinde", "im 2. Quartal") ends none: before a
    lower-case word, or before a capitalised one after a word that takes an
    ordinal (abbreviations.toml, ``ordinals``). ``before`` ends at the digits.
    """
    if not following or following[0] == "\u2029":
        return True, "sentence_end.unit_break"
    if following[0].islower():
        return False, "sentence_end.ordinal"
    word = _LAST_WORD.search(before)
    if following[0].isupper() and word is not None and word.group(1).lower() in vocab.ordinal_before():
        return False, "sentence_end.ordinal"
    unit = _ABBREVIATED.match(following)
    if unit is not None and unit.group()[:-1].lower() in _known():
        return False, "sentence_end.ordinal"  # "(49. Min.)": an ordinal and its abbreviated noun
    return True, "sentence_end.terminator"


# What may stand before an aside's opening parenthesis inside a sentence: a word, a number, a comma.
_BEFORE_ASIDE = regex.compile(r"[\p{L}\p{M}\p{N},;:%][^\S\u2029]*$")


def closes_aside(before: str) -> bool:
    """Whether a period followed by ")" closes an aside opened inside the sentence (``before`` ends at the period:
    "(36 mg 1 × tgl.)", "(Smith, op. cit.)"), not a sentence written whole in parentheses: it ends none."""
    opening = before.rfind("(")
    if opening < 0 or ")" in before[opening:] or "\u2029" in before[opening:]:
        return False
    return _BEFORE_ASIDE.search(before, max(0, opening - 40), opening) is not None
