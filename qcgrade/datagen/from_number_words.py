"""number_words.toml: number words of many languages, spelled by num2words, and the words CLDR writes after them.

num2words spells cardinals, ordinals and decimals in some fifty languages; Babel carries no
rule-based number formatting (CLDR's RBNF), so num2words is the source of the number words. Each
language's numbers are spelled over a sample that holds every word its cardinals use (0-100, the
hundreds, and small multiples of each power of ten), and the spellings are split into their words:

- a word that alone spells a number is a number word with that value ("forty", "zweiundvierzig");
- the last word of a spelled power of ten that is no number word is a magnitude ("thousand",
  "Millionen", "тысячи"), and so is what is left of a fused multiple once its multiplier is taken
  off ("zweitausend" - "zwei": "tausend"; Korean 이천 - 이: 천);
- a word between two number words that is neither joins them ("and", "y", "et", "og");
- the word between "one" and "five" in 1.5 spelled is the decimal word ("point", "Komma").

CLDR (through Babel) adds the words that make a spelled number a quantity in the language: its
percent words (the unit concentr-percent, with the side of the number they stand on) and its
currency nouns (the words of its currency names that several currencies share, or a name of one
word, less the words of its territory and language names: "Dollar", "Euro", not "Japanischer").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import regex

from . import cldr
from .toml_out import Lines, Value

Tables = list[tuple[tuple[str, ...], dict[str, Value]]]

#: num2words language -> the CLDR locale of its quantity words. The languages read: those of the
#: fresh corpora of issue 22 and the large languages of Europe, Turkish, Indonesian and Korean
#: (each adds words that may collide with another language's, so the list is chosen, not all).
LANGUAGES = {
    "en": "en",
    "de": "de",
    "nl": "nl",
    "sv": "sv",
    "da": "da",
    "no": "nb",
    "fr": "fr",
    "es": "es",
    "it": "it",
    "pt": "pt",
    "ro": "ro",
    "pl": "pl",
    "cs": "cs",
    "ru": "ru",
    "uk": "uk",
    "tr": "tr",
    "fi": "fi",
    "hu": "hu",
    "id": "id",
    "ko": "ko",
}

DESCRIPTION = [
    "[languages.LANG] (LANG: num2words' code; cldr: the CLDR locale of its quantity words):",
    "numbers: WORD VALUE, a word that alone spells VALUE; magnitudes: WORD POWER, a word that multiplies",
    "what stands before it by 10**POWER (also what every fused multiple leaves: de tausend, ko 억);",
    "parts: WORD NUMBER, a word that spells part of a number only (fr vingts: NUMBER, the least it helps spell);",
    "joiners: words between two number words (en and, es y); decimals: the word between the whole and",
    "the fraction of a spelled decimal; ordinals: the last words of spelled ordinals 1-100 that are no",
    "cardinal word; percent_after / percent_before: CLDR's percent words after / before a number;",
    "currencies: the nouns of CLDR's currency names (in each name the word most currencies share, when",
    "three or more share it, and names of one word; words of territory and language names left out).",
    "Every word is lower case (str.lower).",
]

_WORDS = regex.compile(r"[\p{L}\p{M}'’]+")
_SPLIT = regex.compile(r"[\s,\-\u2010\u2011]+")
_POWERS = (1, 2, 3, 4, 6, 8, 9, 12)
_MULTIPLIERS = (2, 3, 4, 5)


def _sample() -> list[int]:
    numbers = set(range(101)) | {k * 100 for k in range(1, 10)} | {101, 110, 121, 342}
    numbers |= {k * 10**p for k in (1, 2, 5, 21, 42) for p in _POWERS if p >= 3}
    return sorted(numbers)


def _spell(number: float, language: str, to: str = "cardinal") -> str:
    from num2words import num2words

    return str(num2words(number, lang=language, to=to)).lower()


def _split(spelling: str) -> list[str]:
    return [word for word in _SPLIT.split(spelling) if word]


def _spell_or_none(number: float, language: str, to: str = "cardinal") -> str | None:
    try:
        return _spell(number, language, to)
    except (NotImplementedError, OverflowError, TypeError, ValueError, KeyError, IndexError):
        return None  # num2words spells no such number in this language


def _numbers(language: str) -> tuple[dict[str, int], dict[int, str]]:
    values: dict[str, int] = {}
    spelled: dict[int, str] = {}
    for number in _sample():
        spelling = _spell_or_none(number, language)
        if spelling is None:
            continue
        spelled[number] = spelling
        if len(_split(spelling)) == 1:
            values.setdefault(spelling, number)
    return values, spelled


def _magnitudes(language: str, values: dict[str, int], spelled: dict[int, str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for power in _POWERS:
        if power < 2:
            continue  # "-zig", "-nta": tens are number words of their own
        rests: list[str] = []
        for multiplier in (1, *_MULTIPLIERS):
            spelling = spelled.get(multiplier * 10**power) or _spell_or_none(multiplier * 10**power, language)
            if spelling is None:
                continue
            words = _split(spelling)
            if len(words) > 1 and words[-1] not in values:
                found.setdefault(words[-1], power)
            rest = _fused_rest(language, multiplier, spelling, spelled)
            if rest:
                rests.append(rest)
        # A fused multiple ("zweitausend", 이천) leaves its magnitude when every multiplier leaves the
        # same rest ("dreißigtausend" - "drei" is no magnitude: "vierzigtausend" leaves another).
        if len(rests) > 1 and len(set(rests)) == 1 and rests[0] not in values:
            found.setdefault(rests[0], power)
    return found


def _fused_rest(language: str, multiplier: int, spelling: str, spelled: dict[int, str]) -> str:
    """What a one-word spelling of a multiple leaves once its multiplier is taken off ("zweitausend": "tausend")."""
    head = spelled.get(multiplier) or _spell_or_none(multiplier, language)
    if multiplier > 1 and head and len(_split(spelling)) == 1 and spelling.startswith(head) and spelling != head:
        return spelling[len(head) :]
    return ""


def _parts(values: dict[str, int], magnitudes: dict[str, int], joiners: list[str], spelled: dict[int, str]) -> dict[str, int]:
    """Words of spelled cardinals that are no number, magnitude or joiner (fr "vingts"), with the least number they help spell."""
    found: dict[str, int] = {}
    for number, spelling in sorted(spelled.items()):
        for word in _split(spelling):
            if word not in values and word not in magnitudes and word not in joiners:
                found.setdefault(word, number)
    return found


def _joiners(values: dict[str, int], magnitudes: dict[str, int], spelled: dict[int, str]) -> list[str]:
    """Words that stand only between two words of a spelled number ("and", "y", ro "de"), never at its ends."""
    numeric = values.keys() | magnitudes.keys()
    inner: set[str] = set()
    ends: set[str] = set()
    for spelling in spelled.values():
        words = _split(spelling)
        ends.update((words[0], words[-1]))
        for before, word, after in zip(words, words[1:], words[2:]):
            if word not in numeric and before in numeric and after in numeric:
                inner.add(word)
    return sorted(inner - ends)


def _decimals(language: str) -> list[str]:
    one, five, both = _spell_or_none(1, language), _spell_or_none(5, language), _spell_or_none(1.5, language)
    if not (one and five and both and both.startswith(one + " ") and both.endswith(" " + five)):
        return []  # spelled otherwise ("одна целая пять десятых"): no one decimal word
    middle = both[len(one) : len(both) - len(five)].strip()
    return [middle] if middle else []


def _ordinals(language: str, values: dict[str, int]) -> list[str]:
    """The last words of spelled ordinals 1-100 (en "first" of "twenty-first"), cardinal words left out."""
    found = set()
    for number in range(1, 101):
        spelling = _spell_or_none(number, language, to="ordinal")
        if spelling:
            last = _split(spelling)[-1]
            if last not in values:
                found.add(last)
    return sorted(found)


def _percent_words(locale_id: str) -> tuple[list[str], list[str]]:
    after: set[str] = set()
    before: set[str] = set()
    patterns = cldr.merged(locale_id)._data["unit_patterns"].get("concentr-percent", {})
    for width in ("long", "short"):
        for pattern in dict(patterns.get(width, {})).values():
            head, _, tail = cldr.bare(str(pattern)).partition("{0}")
            if _WORDS.search(tail):
                after.add(" ".join(_WORDS.findall(tail)).lower())
            if _WORDS.search(head):
                before.add(" ".join(_WORDS.findall(head)).lower())
    return sorted(after), sorted(before)


def _currency_nouns(locale_id: str, codes: Iterable[str]) -> list[str]:
    """The nouns of a locale's currency names: in each name, the word that most currencies share.

    A noun ("dollar", "Rubel", "доллара") is the most shared word of the names of three currencies
    or more; an adjective is the most shared word of fewer ("new" in "Israeli new shekel"). A name of
    one word ("euro") is a noun.
    """
    locale = cldr.merged(locale_id)
    plural = locale._data["currency_names_plural"]
    places = [*locale.territories.values(), *locale.languages.values()]
    placenames = {word.lower() for name in places for word in _WORDS.findall(name)}
    names: dict[str, list[list[str]]] = {}
    users: dict[str, set[str]] = defaultdict(set)
    for code in codes:
        forms = [locale.currencies.get(code)] + (list(dict(plural[code]).values()) if code in plural else [])
        names[code] = [[w.lower() for w in _WORDS.findall(f) if not w.isupper()] for f in forms if f]
        for words in names[code]:
            for word in words:
                users[word].add(code)
    heads, single = _heads(names, users)
    nouns = {word for word, where in heads.items() if len(where) > 2}
    return sorted((nouns | single) - placenames)


def _heads(names: dict[str, list[list[str]]], users: dict[str, set[str]]) -> tuple[dict[str, set[str]], set[str]]:
    """For each word, the currencies whose name has it as its most shared word; and the one-word names."""
    heads: dict[str, set[str]] = defaultdict(set)
    single = set()
    for code, forms in names.items():
        for words in filter(None, forms):
            if len(words) == 1:
                single.add(words[0])
            heads[max(words, key=lambda w: (len(users[w]), w))].add(code)
    return heads, single


def _current_codes() -> list[str]:
    from babel.core import get_global

    codes = set()
    for periods in get_global("territory_currencies").values():
        for code, _start, end, tender in periods:
            if end is None and tender:
                codes.add(code)
    return sorted(codes)


def _lines(table: dict[str, int]) -> Lines:
    return Lines(f"{word} {value}" for word, value in sorted(table.items(), key=lambda item: (item[1], item[0])))


def build() -> tuple[list[str], Tables]:
    codes = _current_codes()
    tables: Tables = []
    for language, locale_id in LANGUAGES.items():
        values, spelled = _numbers(language)
        magnitudes = _magnitudes(language, values, spelled)
        joiners = _joiners(values, magnitudes, spelled)
        after, before = _percent_words(locale_id)
        body: dict[str, Value] = {
            "cldr": locale_id,
            "numbers": _lines(values),
            "magnitudes": _lines(magnitudes),
            "parts": _lines(_parts(values, magnitudes, joiners, spelled)),
            "joiners": joiners,
            "decimals": _decimals(language),
            "ordinals": Lines(_ordinals(language, values)),
            "percent_after": after,
            "percent_before": before,
            "currencies": Lines(_currency_nouns(locale_id, codes)),
        }
        tables.append((("languages", language), body))
    return DESCRIPTION, tables
