"""The reading vocabulary: every word list and character set the reader uses, defined once as data.

The lists live in TOML files beside this module, one per concern:

- ``units.toml``: percent signs and words, magnitudes, unit words, units of
  time, periods of a change, quantity words;
- ``currencies.toml``: currency codes, names, and the letters before a sign;
- ``names.toml``: category words, hyphen prefixes, name digits, period
  labels, filing forms, CPU names, months;
- ``scripts.toml``: letters drawn as digits, id-writing scripts, CJK
  numerals, number emoji;
- ``markers.toml``: locator words, words a vouching group may hold, tail openers;
- ``abbreviations.toml``: abbreviation classes and the words of a clause.

The files under ``generated/`` are made by :mod:`qcgrade.datagen` from pinned versions
of well-kept sources (CLDR through Babel, the UTS #39 confusables, pySBD's
abbreviation lists, the Unicode Character Database through ``regex``) and
checked in; :mod:`.data` reads them lazily with the standard library's TOML
reader. Nothing here imports a source library except :mod:`qcgrade.datagen` and the
``from_*`` modules it runs.

This module is the one place where a list becomes a pattern: the readers
import the fragments below (regular-expression source, or frozensets for
lookups) and never spell a word or sign themselves. Files are read on first
use, so importing costs nothing.
"""

from __future__ import annotations

import sys
import unicodedata
from decimal import Decimal
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import regex

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

_HERE = Path(__file__).resolve().parent

#: Blanks that join a spaced unit word ("per cent", "basis points"): a space or a no-break space.
BLANK = "[ \u00a0]"


@cache
def load(name: str) -> dict[str, Any]:
    """The parsed vocabulary file ``name`` (``"units"`` for ``units.toml``)."""
    with (_HERE / f"{name}.toml").open("rb") as handle:
        return tomllib.load(handle)


# --- fragments: how a list becomes a pattern -------------------------------------------


def escape(word: str) -> str:
    """``word`` as pattern source: regex metacharacters escaped, each blank as :data:`BLANK`."""
    out = []
    for char in word:
        if char == " ":
            out.append(BLANK)
        elif char.isalnum() or char == "_" or not char.isascii():
            out.append(char)
        else:
            out.append("\\" + char)
    return "".join(out)


def alternation(words: object) -> str:
    """A non-capturing alternation of ``words``, longest first (so a longer word wins over its prefix)."""
    unique = sorted(set(words), key=lambda w: (-len(w), w))  # type: ignore[call-overload]
    return "(?:" + "|".join(escape(w) for w in unique) + ")"


def char_class(chars: str) -> str:
    """A character class of ``chars`` (each escaped)."""
    return "[" + "".join("\\" + c if c in "\\]^-[" else c for c in sorted(set(chars))) + "]"


# --- units --------------------------------------------------------------------------------


@cache
def percent_signs() -> dict[str, int]:
    """Percent, per-mille and per-ten-thousand signs, each with the power of ten it divides by."""
    return {sign: entry["power"] for sign, entry in load("units")["percent_signs"].items()}


@cache
def percent_sign_class() -> str:
    """A character class of every percent sign (:func:`percent_signs`)."""
    return f"[{percent_sign_chars()}]"


@cache
def percent_sign_chars() -> str:
    """The percent signs as the body of a character class (to join with other characters in one class)."""
    return char_class("".join(percent_signs()))[1:-1]


@cache
def percent_words() -> tuple[str, ...]:
    """Words for percent after a number."""
    return tuple(load("units")["percent_words"]["english"])


class Magnitude(NamedTuple):
    """A magnitude word or suffix: its power of ten, whether it may be glued to digits, whether it is one letter."""

    power: int
    glued: bool
    one_letter: bool


@cache
def magnitudes() -> dict[str, Magnitude]:
    """Magnitude words and suffixes (lower case) by what they are."""
    return {
        word: Magnitude(entry["power"], entry.get("glued", False), entry.get("one_letter", False))
        for word, entry in load("units")["magnitudes"].items()
    }


@cache
def magnitude_words(*, glued: bool | None = None, one_letter: bool = False) -> tuple[str, ...]:
    """Magnitude words: those that may be glued (``glued=True``) or not; one-letter ones only when asked."""
    return tuple(
        word for word, m in magnitudes().items() if (glued is None or m.glued == glued) and (one_letter or not m.one_letter)
    )


@cache
def unit_words() -> dict[str, str]:
    """Unit words by their family: ``points``, ``bp`` or ``multiple``."""
    return {word: family for family, words in load("units")["unit_words"].items() for word in words}


@cache
def durations() -> dict[str, str]:
    """Units of time by how a writer abbreviates them: word -> ``days``/``weeks``/``months``/``years``."""
    return {word: unit for unit, entry in load("units")["durations"].items() for word in entry["words"]}


@cache
def days_in() -> dict[str, Decimal]:
    """Each unit of time in days."""
    return {unit: Decimal(entry["days"]) for unit, entry in load("units")["durations"].items()}


@cache
def periods(where: str) -> dict[str, tuple[str, ...]]:
    """Spellings of each period of a change, read ``"after"`` a figure or ``"before"`` it."""
    return {
        period: tuple(entry.get("both", ()) + entry.get(where, ()))
        for period, entry in load("units")["periods"].items()
        if entry.get("both") or entry.get(where)
    }


@cache
def quantity_words() -> tuple[str, ...]:
    """Words that carry a number on as a quantity when they follow it: percent, point and magnitude words and more."""
    units = load("units")
    words = set(percent_words()) | {w + "s" for w in ("percentage",)}
    words |= {w for w in unit_words() if w.isalpha()} | {"basis"}
    words |= set(magnitudes()) | {"hundred", "hundreds"}
    words |= set(units["quantity_words"]["extra"])
    # One-letter words count only as listed: an outline letters its items ("1. a", "2. b").
    words = {w for w in words if len(w) > 1} | set(units["quantity_words"]["letters"])
    return tuple(sorted(words))


# --- currencies ------------------------------------------------------------------------------


@cache
def currency_codes() -> tuple[str, ...]:
    """ISO 4217 codes a number may be glued to."""
    return tuple(load("currencies")["codes"]["words"])


@cache
def currency_names() -> frozenset[str]:
    """Currency names: before a hyphen they make an amount ("Euro-420M")."""
    return frozenset(load("currencies")["names"]["words"])


@cache
def sign_prefixes() -> tuple[str, ...]:
    """Letters written before a currency sign ("US$", "HK$")."""
    return tuple(load("currencies")["sign_prefixes"]["words"])


# --- names -----------------------------------------------------------------------------------


@cache
def category_words() -> frozenset[str]:
    """Category words, lower case (read in any case), "fig." with its stop."""
    return frozenset(w.lower() for w in load("names")["category_words"]["words"])


@cache
def hyphen_prefixes() -> frozenset[str]:
    """Capitalised words that make a quantity before a hyphen and digits ("Top-3")."""
    return frozenset(load("names")["hyphen_prefixes"]["words"])


@cache
def not_name_words() -> frozenset[str]:
    """Words that make hyphen and digits after them no name: the prefixes and the currency names."""
    return hyphen_prefixes() | currency_names()


@cache
def name_digits() -> tuple[int, int]:
    """At most how many digits a hyphenated name carries, and how many after an all-capital code."""
    table = load("names")["hyphen_names"]
    return table["digits"], table["code_digits"]


@cache
def period_label_heads() -> frozenset[str]:
    """The digit-first quarter and half heads of a period label ("3Q", "1H")."""
    table = load("names")["period_labels"]
    return frozenset(table["quarters"] + table["halves"])


@cache
def fiscal_marks() -> tuple[str, ...]:
    """What may stand between a period head and its year ("4QFY25")."""
    return tuple(load("names")["period_labels"]["fiscal"])


@cache
def filing_digits() -> int:
    """At most how many digits a filing name has before its hyphen ("10-K")."""
    return int(load("names")["filing_forms"]["digits"])


@cache
def cpu_names() -> frozenset[str]:
    """CPU names that "x" and digits spell ("x86")."""
    return frozenset(load("names")["cpu_names"]["words"])


@cache
def months() -> tuple[str, ...]:
    """Month names and abbreviations, lower case."""
    return tuple(load("names")["months"]["words"])


# --- scripts ---------------------------------------------------------------------------------


@cache
def lookalike_digits() -> str:
    """Letters drawn like digits: the listed ones, and mathematical letters that are one of the Latin ones."""
    table = load("scripts")["lookalike_digits"]
    latin = table["latin"]
    math = "".join(chr(c) for c in range(0x1D400, 0x1D6A4) if unicodedata.normalize("NFKC", chr(c)) in latin)
    return latin + table["other"] + math


@cache
def id_letter() -> str:
    """Pattern source for one letter of a script that writes alphanumeric ids (the excepted letters left out)."""
    table = load("scripts")["id_scripts"]
    scripts = "".join(rf"\p{{{name}}}" for name in table["scripts"])
    exceptions = "".join(table["except"])
    return rf"(?:(?![{exceptions}])[{scripts}])"


@cache
def cjk() -> dict[str, Any]:
    """CJK numerals: ``digits``, ``magnitudes`` (strings), ``after`` (what makes a run a quantity), ``percent_before``."""
    return dict(load("scripts")["cjk"])


@cache
def number_emoji() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Emoji that are always a number, and those that are one before a unit."""
    table = load("scripts")["emoji"]
    return tuple(table["always"]), tuple(table["before_unit"])


# --- markers ---------------------------------------------------------------------------------


@cache
def locator_words() -> frozenset[str]:
    """Locator words: they take a number that says where in the source."""
    return frozenset(load("markers")["locators"]["words"])


@cache
def group_words() -> frozenset[str]:
    """Words a vouching bracket group may hold beside its ids: the locators and the connectives."""
    return locator_words() | frozenset(load("markers")["group_words"]["words"])


@cache
def tail_openers() -> tuple[str, ...]:
    """Words that open a parenthesised marker group ("(see [C72])")."""
    return tuple(load("markers")["tail_openers"]["words"])


# --- abbreviations ---------------------------------------------------------------------------


@cache
def abbreviation_class(name: str) -> frozenset[str]:
    """The hand-listed words of one abbreviation class (``never_final``, ``title`` ...)."""
    return frozenset(load("abbreviations")["classes"][name]["words"])


@cache
def abbreviation_classes() -> tuple[str, ...]:
    """Every hand-listed abbreviation class, in the file's order."""
    return tuple(load("abbreviations")["classes"])


@cache
def name_connectors() -> frozenset[str]:
    """Lower-case words that join the words of a name."""
    return frozenset(load("abbreviations")["name_connectors"]["words"])


@cache
def name_particles() -> frozenset[str]:
    """Particles that open a family or place name when capitalised ("De Beers", "Van Hout")."""
    return frozenset(load("abbreviations")["name_particles"]["words"])


@cache
def clause_openers() -> frozenset[str]:
    """Words that open a clause, lower case: the listed ones of every language and pySBD's sentence starters."""
    from . import data

    table = load("abbreviations")["clause_openers"]
    starters = {w.lower() for lang in data.abbreviation_languages() for w in data.abbreviations(lang).sentence_starters}
    return frozenset(table["words"]) | frozenset(table["other_languages"]) | frozenset(starters)


@cache
def capital_abbreviations() -> frozenset[str]:
    """Abbreviations still read as such when written all in capitals ("PLC", "LLC")."""
    return frozenset(load("abbreviations")["capitals"]["words"])


def _stopless(words: object) -> frozenset[str]:
    """Lower-cased words with their final stop dropped ("Mrd." -> "mrd"); single letters left out."""
    out = {str(w).lower().removesuffix(".") for w in words}  # type: ignore[attr-defined]
    return frozenset(w for w in out if len(w) > 1)


@cache
def magnitude_abbreviations() -> frozenset[str]:
    """CLDR compact magnitude words written with a final stop, without it ("mrd", "mld", "тыс")."""
    from . import data

    return _stopless(w for w in data.magnitude_words() if w.endswith(".") and " " not in w)


@cache
def currency_abbreviations() -> frozenset[str]:
    """CLDR currency symbols written with a final stop, without it ("rs", "лв", "ر.س")."""
    from . import data

    return _stopless(s for s in data.currency_symbols() if s.endswith(".") and " " not in s)


@cache
def number_abbreviations() -> frozenset[str]:
    """Abbreviations pySBD lists as written before a number, in any language ("no", "nr", "pp")."""
    from . import data

    return frozenset().union(*(data.abbreviations(lang).number for lang in data.abbreviation_languages()))


@cache
def listed_abbreviations() -> frozenset[str]:
    """Every abbreviation of pySBD's per-language lists and of the extra lists, less the ordinary words."""
    from . import data

    table = load("abbreviations")
    dotted_only = set(table["listed_sources"]["dotted_only"])
    words: set[str] = set()
    for lang in data.abbreviation_languages():
        listed = data.abbreviations(lang).abbreviations
        words.update(w for w in listed if len(w) > 1 and (lang not in dotted_only or "." in w))
    words.update(w for extra in table["listed_extra"].values() for w in extra)
    return frozenset(words - set(table["not_abbreviations"]["words"]))


@cache
def noun_capitalised_abbreviations() -> frozenset[str]:
    """Abbreviations only languages that capitalise nouns write: pySBD's and the extra lists' lower case
    ("bzw", "ggü"), CLDR's magnitude words as written ("Mrd", "Mio": Danish writes "mio.")."""
    from . import data

    table = load("abbreviations")
    nouns = set(table["noun_capitalising"]["languages"])
    by_word: dict[str, set[str]] = {}
    for lang in data.abbreviation_languages():
        for word in data.abbreviations(lang).abbreviations:
            by_word.setdefault(word, set()).add(lang)
    for lang, extra in table["listed_extra"].items():
        for word in extra:
            by_word.setdefault(word, set()).add(lang)
    for word, entries in data.magnitude_words().items():
        if word.endswith("."):
            by_word.setdefault(word.removesuffix("."), set()).update(e.language for e in entries)
    return frozenset(word for word, langs in by_word.items() if langs <= nouns)


@cache
def capital_locators() -> frozenset[str]:
    """Capital letters read as a locator before a page number ("S." for Seite)."""
    return frozenset(load("abbreviations")["capital_locators"]["words"])


@cache
def typography() -> dict[str, str]:
    """Signs, hyphens, group separators and apostrophes around numbers (each a string of characters)."""
    return dict(load("scripts")["typography"])


@cache
def label_words() -> tuple[str, ...]:
    """Words before a number in a table header that make it a column label ("Week 76")."""
    return tuple(load("names")["label_words"]["words"])


@cache
def ordinal_before() -> frozenset[str]:
    """Words after which a number and a stop is an ordinal before a capitalised word ("im 2. Quartal")."""
    return frozenset(load("abbreviations")["ordinals"]["before"])


@cache
def ordinal_indicators() -> str:
    """Ordinal indicators glued after a stop ("10.ª", "2.º")."""
    return str(load("abbreviations")["ordinals"]["indicators"])


@cache
def ticker_suffixes() -> tuple[str, ...]:
    """Exchange suffixes of numeric tickers ("T" of "7203.T")."""
    return tuple(load("abbreviations")["ticker_suffixes"]["words"])


@cache
def unspaced_letter() -> str:
    """A character class of the letters of scripts written without spaces between words."""
    return "[" + "".join(rf"\p{{{name}}}" for name in load("scripts")["unspaced_scripts"]["scripts"]) + "]"


@cache
def abbreviation_table() -> dict[str, dict[str, str]]:
    """The abbreviation decision: class -> what follows the period -> outcome (see abbreviations.toml)."""
    table = load("abbreviations")["table"]
    columns = table["columns"]
    return {cls: dict(zip(columns, row)) for cls, row in table.items() if cls != "columns"}


# --- hedges (unhedged_weak_card) ---------------------------------------------------------------


@cache
def hedge_words() -> tuple[str, ...]:
    """The default hedge lexicon: every language's list in ``hedges.toml``, English first, each word once."""
    seen: dict[str, None] = {}
    for entry in load("hedges")["languages"].values():
        seen.update(dict.fromkeys(entry["words"]))
    return tuple(seen)


# A run may pass its own lexicon (Options.hedge_words): keep a few, not every one ever seen.
@lru_cache(maxsize=32)
def hedge_pattern(words: tuple[str, ...]) -> regex.Pattern[str]:
    """One case-insensitive matcher for a hedge lexicon (``hedges.toml`` says how an entry matches).

    A phrase's words may be split by any run of blanks; ``*`` at an end is any letters there;
    on a side where the entry's letter belongs to a script written without spaces, the entry
    may stand inside a run of letters.
    """
    import regex

    unspaced = regex.compile("[" + "".join(rf"\p{{{s}}}" for s in load("hedges")["unspaced"]["scripts"]) + "]")

    def edge(letter: str, wild: bool, before: bool) -> str:
        if wild:
            return r"(?<!\w)\w*" if before else r"\w*"
        if unspaced.match(letter):
            return ""
        return r"(?<!\w)" if before else r"(?!\w)"

    alternatives = []
    for phrase in sorted({w.strip() for w in words if w.strip("* \t\n")}, key=lambda w: (-len(w), w)):
        body = phrase.strip("*").strip()
        source = r"\s+".join(regex.escape(part) for part in body.split())
        head = edge(body[0], phrase.startswith("*"), before=True)
        tail = edge(body[-1], phrase.endswith("*"), before=False)
        alternatives.append(head + source + tail)
    return regex.compile("|".join(alternatives) or "(?!)", regex.IGNORECASE)


# --- spelled-out numbers (spelled_number) -------------------------------------------------------


class SpelledLanguage(NamedTuple):
    """How one language spells numbers and the words that make them quantities (all lower case).

    From ``generated/number_words.toml`` (num2words, CLDR), ``generated/magnitudes.toml`` (CLDR's
    compact words) and ``spelled.toml`` (what those sources do not say); see those files.
    """

    code: str
    values: dict[str, int]
    magnitudes: dict[str, int]
    parts: frozenset[str]
    joiners: frozenset[str]
    decimals: frozenset[str]
    ordinals: frozenset[str]
    percent: tuple[str, ...]
    after: tuple[str, ...]
    strict: tuple[str, ...]
    collisions: frozenset[str]
    before: tuple[str, ...]
    points: tuple[str, ...]
    points_before: tuple[str, ...]
    articles: tuple[str, ...]
    fractions: frozenset[str]
    fractions_of: frozenset[str]
    fractions_alone: frozenset[str]
    of: tuple[str, ...]
    ratios: tuple[str, ...]
    ratio_gap: int
    multiples: tuple[str, ...]
    parts_after: tuple[str, ...]
    self_min_letters: int
    particles: tuple[str, ...]


def _word_lines(text: str) -> dict[str, int]:
    return {word: int(number) for word, number in (line.rsplit(" ", 1) for line in text.splitlines() if line)}


def _english_after(points: set[str]) -> set[str]:
    """English quantity words of the shared units vocabulary (percent, points, magnitudes), one letter left out."""
    words = set(percent_words()) | {w for w in unit_words() if w not in points} | set(magnitude_words())
    return {w for w in words if len(w) > 1 and w[0].isalpha()}


@cache
def spelled_languages() -> tuple[SpelledLanguage, ...]:
    """Every language whose spelled numbers spelled_number reads."""
    from . import data

    hand = load("spelled")["languages"]
    found = []
    for code, entry in data.number_words().items():
        extra = hand.get(code, {})
        values = _word_lines(entry["numbers"]) | {w.lower(): int(v) for w, v in extra.get("numbers", {}).items()}
        compact = (
            {m.word.lower(): m.power for m in data.magnitudes(entry["cldr"])}
            if entry["cldr"] in data.load("magnitudes")["locales"]
            else {}
        )
        # CLDR's long compact words ("Milliarden", "миллиардов"); its one- and two-letter ones ("M", "Md")
        # are symbols, read only after a number (below).
        long_words = {w: p for w, p in compact.items() if len(w) > 2 and w.isalpha() and w not in values}
        magnitudes = long_words | _word_lines(entry["magnitudes"])
        points = set(extra.get("points", ()))
        after = set(entry["percent_after"]) | set(entry["currencies"].split()) | set(extra.get("after", ()))
        after |= {w for w in compact if len(w) > 1}
        if code == "en":
            after |= _english_after(points)
        found.append(
            SpelledLanguage(
                code=code,
                values=values,
                magnitudes=magnitudes,
                parts=frozenset(_word_lines(entry["parts"])),
                joiners=frozenset(entry["joiners"]) | frozenset(entry["decimals"]),
                decimals=frozenset(entry["decimals"]),
                ordinals=frozenset(entry["ordinals"].split()),
                percent=tuple(entry["percent_after"]),
                after=tuple(sorted(after - points)),
                strict=tuple(sorted(set(entry["percent_after"]) | {w for w in compact if len(w) > 1} | set(magnitudes))),
                collisions=frozenset(extra.get("collisions", ())),
                before=tuple(entry["percent_before"]),
                points=tuple(sorted(points)),
                points_before=tuple(extra.get("points_before", ())),
                articles=tuple(extra.get("articles", ())),
                fractions=frozenset(extra.get("fractions", ())),
                fractions_of=frozenset(extra.get("fractions_of", ())),
                fractions_alone=frozenset(extra.get("fractions_alone", ())),
                of=tuple(extra.get("of", ())),
                ratios=tuple(extra.get("ratios", ())),
                ratio_gap=int(extra.get("ratio_gap", 0)),
                multiples=tuple(extra.get("multiples", ())),
                parts_after=tuple(extra.get("parts_after", ())),
                self_min_letters=int(extra.get("self_min_letters", 0)),
                particles=tuple(extra.get("particles", ())),
            )
        )
    return tuple(found)


def trie(words: object) -> str:
    """Pattern source matching any of ``words``, as a trie (a longer word before its prefix).

    A plain alternation of thousands of words is tried word by word at each position; the trie
    branches on each letter, so a position costs about the length of the longest match.
    """
    root: dict[str, Any] = {}
    for word in set(words):  # type: ignore[call-overload]
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def source(node: dict[str, Any]) -> str:
        branches = [escape(char) + source(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return source(root)
