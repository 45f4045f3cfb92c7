"""Typed, lazy access to the generated vocabulary files (``generated/*.toml``).

Importing this module reads nothing and imports no TOML reader: each accessor parses its file on
first use and keeps the result (``functools.cache``), so a run that never asks for, say, currency
symbols never pays for them. The files are made by :mod:`qcgrade.datagen`; see its docstring for the sources.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

GENERATED = Path(__file__).parent / "generated"


@cache
def load(name: str) -> Mapping[str, Any]:
    """The parsed ``generated/<name>.toml`` (read once per process)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised only on Python 3.10
        import tomli as tomllib
    return tomllib.loads((GENERATED / f"{name}.toml").read_text(encoding="utf-8"))


# --- currencies.toml ---------------------------------------------------------------------------


class CurrencySymbol(NamedTuple):
    text: str
    codes: tuple[str, ...]
    locales: int  # how many CLDR locales use it
    kind: str  # sign (one \p{Sc} character), letters, abbrev ("лв."), other ("US$")
    case: str  # upper, lower, title, mixed, uncased or none

    @property
    def sign(self) -> bool:
        return self.kind == "sign"

    @property
    def letters(self) -> bool:
        return self.kind == "letters"


@cache
def currency_symbols() -> Mapping[str, CurrencySymbol]:
    """symbol -> what CLDR says of it (symbols that are only their own ISO code are not here)."""
    found: dict[str, CurrencySymbol] = {}
    for line in load("currencies")["symbols"]["lines"].splitlines():
        codes, locales, kind, case, text = line.split(" ", 4)
        found[text] = CurrencySymbol(text, tuple(codes.split(",")), int(locales), kind, case)
    return MappingProxyType(found)


@cache
def currency_codes(status: str = "current") -> frozenset[str]:
    """ISO 4217 codes: ``current`` (legal tender), ``current_not_tender`` or ``historic``."""
    return frozenset(load("currencies")["iso4217"][status].split())


# --- numbers.toml ------------------------------------------------------------------------------

SCALING_KINDS = ("percent", "permille", "permyriad")
SIGN_KINDS = (*SCALING_KINDS, "plus", "minus", "decimal", "group")


class Sign(NamedTuple):
    text: str
    kind: str  # one of SIGN_KINDS
    power: int | None  # the factor is 10**power (scaling kinds only)
    locales: int  # 0: not written by any CLDR locale (a compatibility form, or U+2031)
    compat_of: str | None  # the CLDR sign this is a compatibility form of


@cache
def signs(kind: str) -> Mapping[str, Sign]:
    """sign -> :class:`Sign` for one kind (``percent``, ``minus``, ``group``...)."""
    table = load("numbers")[kind]
    return MappingProxyType(
        {text: Sign(text, kind, e.get("power"), e["locales"], e.get("compat_of")) for text, e in table.items()}
    )


@cache
def scaling_signs() -> Mapping[str, int]:
    """Every percent, per-mille and per-ten-thousand sign -> the power of ten it multiplies by."""
    found: dict[str, int] = {}
    for kind in SCALING_KINDS:
        for text, sign in signs(kind).items():
            assert sign.power is not None
            found[text] = sign.power
    return MappingProxyType(found)


@cache
def digit_sets() -> Mapping[str, str]:
    """CLDR numbering system -> its ten digits, zero first (algorithmic systems are not here)."""
    systems = load("numbers")["systems"]
    return MappingProxyType({name: e["digits"] for name, e in systems.items() if "digits" in e})


# --- magnitudes.toml ---------------------------------------------------------------------------


class Magnitude(NamedTuple):
    word: str
    power: int  # the word multiplies by 10**power
    form: str  # "short" ("Mrd.") or "long" ("Milliarden")
    pattern: str  # where the word stands, the number as one 0: "0 Mrd.", "0万", "elfu 0"
    locale: str  # the CLDR locale whose own data write it ("root": CLDR's fallback K/M/G/T)

    @property
    def language(self) -> str:
        return self.locale.split("_")[0]

    @property
    def position(self) -> str:
        """ "after" the number, "before" it, or "around" it (words on both sides)."""
        head, _, tail = self.pattern.partition("0")
        return "around" if head.strip() and tail.strip() else "before" if head.strip() else "after"


@cache
def magnitudes(locale: str) -> tuple[Magnitude, ...]:
    """The compact-format words a locale's own CLDR data write (KeyError for a locale without any)."""
    lines = load("magnitudes")["locales"][locale].splitlines()
    found = []
    for line in lines:
        power, form, pattern = line.split(" ", 2)
        word = " ".join(part.strip() for part in pattern.split("0") if part.strip())
        found.append(Magnitude(word, int(power), form, pattern, locale))
    return tuple(found)


@cache
def magnitude_words() -> Mapping[str, tuple[Magnitude, ...]]:
    """word -> every locale's entry for it (several when locales give it different powers)."""
    found: dict[str, list[Magnitude]] = {}
    for locale in load("magnitudes")["locales"]:
        for entry in magnitudes(locale):
            found.setdefault(entry.word, []).append(entry)
    return MappingProxyType({word: tuple(entries) for word, entries in found.items()})


@cache
def bare_magnitude_words() -> frozenset[str]:
    """Words of one or two Latin letters ("M", "bn", "Mr"): also unit symbols, initials or words."""
    return frozenset(load("magnitudes")["bare"]["words"].splitlines())


# --- confusables.toml --------------------------------------------------------------------------


def _targets(section: str, compat: bool) -> Mapping[str, str]:
    found: dict[str, str] = {}
    for target, entry in load("confusables")[section].items():
        for char in entry["chars"] + (entry["compat"] if compat else []):
            found[char] = target
    return MappingProxyType(found)


@cache
def digit_lookalikes(compat: bool = True) -> Mapping[str, str]:
    """character -> the ASCII digit it draws as (UTS #39; with ``compat``, NFKC forms too)."""
    return _targets("digits", compat)


@cache
def letters_as_digits() -> Mapping[str, str]:
    """Latin letter -> the digit UTS #39 says it draws as (O -> 0, l and I -> 1, ...)."""
    return MappingProxyType(dict(load("confusables")["letters_as_digits"]))


@cache
def punctuation_lookalikes(compat: bool = True) -> Mapping[str, str]:
    """character -> the one of ``. ! ? % [ ] { } §`` it draws as."""
    return _targets("punctuation", compat)


# --- abbreviations.toml ------------------------------------------------------------------------


class Abbreviations(NamedTuple):
    language: str
    abbreviations: frozenset[str]  # lower case, no final full stop ("z.b")
    prepositive: frozenset[str]  # written before a name ("dr")
    number: frozenset[str]  # written before a number ("no")
    sentence_starters: frozenset[str]  # as written ("The")
    terminators: frozenset[str]  # characters that end a sentence


@cache
def abbreviation_languages() -> tuple[str, ...]:
    """The language codes pySBD has lists for."""
    return tuple(load("abbreviations"))


@cache
def abbreviations(language: str) -> Abbreviations:
    """pySBD's lists for ``language`` (a code of :func:`abbreviation_languages`; KeyError otherwise)."""
    table = load("abbreviations")
    entry = table[language]
    shared = set(entry.get("same_as_en", ()))

    def words(name: str) -> frozenset[str]:
        source = table["en"] if name in shared else entry
        return frozenset(source.get(name, "").splitlines())

    return Abbreviations(
        language,
        words("abbreviations"),
        words("prepositive"),
        words("number"),
        words("sentence_starters"),
        frozenset(entry["terminators"]),
    )


# --- number_words.toml -------------------------------------------------------------------------


@cache
def number_words() -> Mapping[str, Mapping[str, Any]]:
    """num2words language code -> its table (numbers, magnitudes, parts, joiners, ... ; see the file's header)."""
    return MappingProxyType(dict(load("number_words")["languages"]))


# --- unicode.toml -------------------------------------------------------------------------------


@cache
def char_class(name: str) -> str:
    """The body of a character class (``\\uXXXX-\\uYYYY`` ranges) listing a Unicode property's characters, for
    either engine: ``sentence_terminal``, ``closing``, ``default_ignorable``, ``number`` or ``currency``."""
    parts = []
    for item in load("unicode")["classes"][name]["ranges"].split():
        first, _, last = item.partition("-")
        parts.append(_escape(int(first, 16)) + (f"-{_escape(int(last, 16))}" if last else ""))
    return "".join(parts)


def _escape(code: int) -> str:
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
