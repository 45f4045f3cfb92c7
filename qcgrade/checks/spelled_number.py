"""A quantity spelled out in words sits in a sentence with no valid citation and no registered metric tag (tier 2).

Why it matters: ``bare_number`` reads digits, as the paper's tier 1 does, so
a section could dodge it by spelling its numbers out ("revenue grew
forty-two percent"). A reader reads those words as the number; they need
evidence just the same. The check is tier 2, so the paper's tier 1 stays as
written. A sentence is annotated exactly as for ``bare_number``: one valid,
vouching card citation or registered metric tag anywhere in it covers it.

Number words are read in twenty languages (English, German, Dutch, Swedish,
Danish, Norwegian, French, Spanish, Italian, Portuguese, Romanian, Polish,
Czech, Russian, Ukrainian, Turkish, Finnish, Hungarian, Indonesian and
Korean in Hangul): spelled by num2words, with the percent words and currency
nouns of CLDR (``qcgrade/reading/vocab/generated/number_words.toml``) and
what those sources do not say (``qcgrade/reading/vocab/spelled.toml``).
Words are read as a reader sees them: look-alike letters of other scripts
are folded ("f\u043erty" with a Cyrillic o is "forty"), fused compounds are split
("fortytwo", "zweiundvierzig"), common misspellings are known ("fourty").
The number words of a phrase are of one language, and so is the word that
makes them a quantity.

Scope: quantities, not every number word. A spelled number is flagged when
(rule ``spelled.<kind>``)

- ``phrase``: a percent, point, currency, multiple or magnitude word of its
  language follows it (``nine per cent``, ``nine pc``, ``three hundred basis
  points``, ``two billion dollars``, ``nine USD``, ``twelve grand``,
  ``zwölf Mrd. Euro``, ``douze Md€``, ``двенадцать процентов``), or it is a
  quantity by itself: it holds a magnitude with a multiplier (``twelve
  hundred``, ``sixty-five million``), a tens word or a compound (``forty-two``,
  ``quarante-deux``) or a decimal point (``one point two``);
- ``fraction``: a fraction (``two-thirds``, ``two thirds``, ``a third of``,
  ``zwei Drittel``, ``deux tiers``, ``dos tercios``);
- ``ratio``: a ratio (``nine in ten``, ``one in every five``, ``nine of every
  ten``, ``neun von zehn``, ``neuf clients sur dix``);
- ``multiple``: a multiple (``ninefold``, ``ten-fold``, ``dreifach``).

Honest prose passes: small numbers without a unit (``one of the two
largest``, ``three segments``, ``twelve months``), vague amounts (``a few``,
``hundreds of stores``, ``millions of users``), ordinals (``second
quarter``, ``twenty-first century``), ``half``, a count of parts (``the
reason is twofold``), "points" that are not a change (``One point is often
missed``, ``Three points stand out``: a points word is a quantity at the end
of a clause or before a direction word such as ``to`` or ``higher``), and a
magnitude word after digits (``$1.2 billion``, ``bare_number``'s business).
Decided: ``three quarters`` without ``of`` stays prose (three fiscal quarters
and three fourths are written alike); ``three quarters of sales`` is read.

Fails (tier 2)::

    Revenue grew forty-two percent last year.

Passes::

    Revenue grew forty-two percent last year [E001].
    One of the two largest segments shrank.

Examples are graded against the slice ``tests/cases/slice.json``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache, cached_property, lru_cache
from typing import NamedTuple

import regex

from ..evidence import EvidenceSlice
from ..findings import Finding
from ..options import Options
from ..reading import vocab
from ..reading.projection import fold_letters
from ..reading.section import Section
from ..reading.vocab import SpelledLanguage, trie
from ..reading.vocab import data as vocab_data
from .base import Check

NAME = "spelled_number"

_LETTER = r"[\p{L}\p{M}]"
_END = r"(?![\p{L}\p{M}])"
_DASH = "[-\u2010\u2011\u2012\u2013]"


def _alternation(words: object) -> str:
    """Words as a trie pattern (a blank inside a word is a space or a no-break space), or one that never matches."""
    unique = set(words)  # type: ignore[call-overload]
    return f"(?:{trie(unique)})" if unique else "(?!)"


def _splits(word: str, atoms: set[str], longest: int) -> bool:
    """Whether ``word`` is a run of ``atoms``, each taken longest first (as the candidate scan takes them)."""
    at = 0
    while at < len(word):
        size = next((n for n in range(min(longest, len(word) - at), 0, -1) if word[at : at + n] in atoms), 0)
        if not size:
            return False
        at += size
    return True


def _primitive(words: set[str]) -> set[str]:
    """The words the candidate scan needs: a word that other kept words spell ("fortytwo", 사십이) is left
    out, since the scan reads words as runs of number words; the scan's pattern is then half the size
    and compiles in half the time."""
    kept = set(words)
    longest = max(map(len, words), default=0)
    for word in sorted(words, key=lambda w: (-len(w), w)):
        kept.discard(word)
        if not _splits(word, kept, longest):
            kept.add(word)
    missing = {w for w in words if not _splits(w, kept, longest)}  # a later removal may break an earlier one
    return kept | missing


def _optional(template: str, words: object) -> re.Pattern[str] | None:
    """``template`` with ``{}`` the words' pattern, compiled; None when there are no words."""
    return re.compile(template.replace("{}", _alternation(words))) if words else None


class _Word(NamedTuple):
    """One word read in one language."""

    value: int | None  # the number it spells alone (None: a magnitude, a part, a fused word)
    power: int | None  # a magnitude's power of ten
    atoms: int  # number words it is made of ("fortytwo": 2)
    numeric: bool  # part of a number phrase
    multiple: bool  # a number word with a multiple suffix ("ninefold")
    fraction: str  # "", or the fraction list it is in: "plain", "of", "alone"


class _Language:
    """The patterns of one language (built once, on first use)."""

    def __init__(self, spec: SpelledLanguage) -> None:
        self.spec = spec
        self.fraction_lists = (("plain", spec.fractions), ("of", spec.fractions_of), ("alone", spec.fractions_alone))
        self._particles = f"(?:{_alternation(spec.particles)})?" if spec.particles else ""

    # Each pattern is compiled when first needed: most text asks a few languages a few questions.
    # The stdlib engine: these are tried at every number word, and it branches on a trie's letters fast.

    @cached_property
    def atoms(self) -> frozenset[str]:
        # Parts ("vingts", sv "en") are never fused into a word: "entre" is no "en" + "tre".
        spec = self.spec
        return frozenset(spec.values) | frozenset(spec.magnitudes) | frozenset(spec.multiples)

    @cached_property
    def edges(self) -> tuple[frozenset[str], frozenset[str]]:
        """The first and last two letters of its number words (one for a word of one letter)."""
        return frozenset(a[:2] for a in self.atoms), frozenset(a[-2:] for a in self.atoms)

    @cached_property
    def segment(self) -> regex.Pattern[str]:
        return regex.compile(f"(?:(?P<a>{trie(self.atoms)}))++")

    @cached_property
    def join(self) -> re.Pattern[str]:
        joiners = self.spec.joiners
        extra = rf"|\s+{_alternation(joiners)}\s+|\s*{_DASH}{_alternation(joiners)}{_DASH}\s*" if joiners else ""
        return re.compile(rf"\s+|\s*{_DASH}\s*{extra}")

    @cached_property
    def after(self) -> re.Pattern[str]:
        return re.compile(rf"\s*{_DASH}?\s*{_alternation(self.spec.after)}{self._particles}(?!\w)")

    @cached_property
    def strict(self) -> re.Pattern[str]:
        return re.compile(rf"\s*{_alternation(self.spec.strict)}{self._particles}(?!\w)")

    @cached_property
    def points(self) -> re.Pattern[str]:
        spec = self.spec
        clause_end = r"(?=\s*(?:[.,;:!?)\]\u00bb\u201d]|$))"
        toward = rf"|\s+{_alternation(spec.points_before)}(?!\w)" if spec.points_before else ""
        return re.compile(rf"\s*{_alternation(spec.points)}(?!\w)(?:{clause_end}{toward})")

    @cached_property
    def before(self) -> re.Pattern[str] | None:
        return _optional(r"(?<!\w){}\s+$", self.spec.before)

    @cached_property
    def ordinal(self) -> re.Pattern[str] | None:
        return _optional(rf"{_DASH}{{}}(?!\w)", self.spec.ordinals)

    @cached_property
    def multiple(self) -> re.Pattern[str] | None:
        return _optional(rf"\s*{_DASH}?\s*{{}}(?!\w)", self.spec.multiples)

    @cached_property
    def parts_before(self) -> re.Pattern[str] | None:
        return _optional(r"(?<!\w){}\s+$", self.spec.parts_after)

    @cached_property
    def of(self) -> re.Pattern[str] | None:
        return _optional(r"\s+{}(?!\w)", self.spec.of)

    @cached_property
    def article(self) -> re.Pattern[str] | None:
        return _optional(r"(?<!\w){}\s+$", self.spec.articles)

    @cached_property
    def ratio(self) -> re.Pattern[str]:
        spec = self.spec
        return re.compile(rf"(?:\s+\w+){{0,{spec.ratio_gap}}}?\s+{_alternation(spec.ratios)}\s+" if spec.ratios else "(?!)")

    def read(self, word: str) -> _Word | None:
        spec = self.spec
        fraction = next((kind for kind, words in self.fraction_lists if word in words), "")
        if word in spec.values:
            return _Word(spec.values[word], None, 1, True, False, fraction)
        if word in spec.magnitudes:
            return _Word(None, spec.magnitudes[word], 1, True, False, fraction)
        if word in spec.parts:
            return _Word(None, None, 1, True, False, fraction)
        if fraction:
            return _Word(None, None, 0, False, False, fraction)
        return self._fused(word)

    def _fused(self, word: str) -> _Word | None:
        """A word made of several number words ("fortytwo", "zweitausend", "ninefold"), or None."""
        spec = self.spec
        heads, tails = self.edges
        if not ((word[:2] in heads or word[:1] in heads) and (word[-2:] in tails or word[-1:] in tails)):
            return None  # cannot start or end with a number word of this language
        found = self.segment.fullmatch(word)
        if found is None:
            return None
        atoms = found.captures("a")
        digits = [spec.values.get(atom, 10) < 10 for atom in atoms]
        if any(a and b for a, b in zip(digits, digits[1:])):
            return None  # two digits side by side spell no number (Korean 일일이 "one by one", 오일 "oil")
        suffix = atoms[-1] in spec.multiples
        rest = atoms[:-1] if suffix else atoms
        if not rest or any(a in spec.multiples for a in rest):
            return None
        return _Word(None, None, len(rest), True, suffix, "")


class _Lexicon:
    def __init__(self) -> None:
        self.languages = tuple(_Language(spec) for spec in vocab.spelled_languages())
        words: set[str] = set()
        for spec in vocab.spelled_languages():
            words |= set(spec.values) | set(spec.magnitudes) | spec.parts | set(spec.multiples)
            words |= spec.fractions | spec.fractions_of | spec.fractions_alone
        everyday, day = self._everyday(words)
        # Whole words made of number words of any language (fused: "fortytwo", "zweitausend"); which
        # language reads them is asked word by word. Each number word is taken atomically, longest
        # first (a lookahead and a back-reference: the stdlib engine, many times faster here, has no
        # atomic groups before Python 3.11), so a word is split once and no input backtracks.
        atoms = trie(_primitive(words - everyday))
        self.candidates = re.compile(rf"(?<!\w)(?:(?P<num>(?:(?=(?P<a>{atoms}))(?P=a))+)(?!\w){day})")
        # A sign after the words, not one that opens a numeral of its own ("up to $4", "en € 2,3").
        self.neutral = regex.compile(rf"\s*(?:[{vocab.percent_sign_chars()}]|\p{{Sc}})(?![\s\u00a0]*\p{{N}})")
        self.codes = re.compile(rf"\s*{_alternation(vocab_data.currency_codes())}(?![^\W\d_])(?![\s\u00a0]*\d)")

    def _everyday(self, words: set[str]) -> tuple[set[str], str]:
        """Number words that are everyday words of another language, and the pattern that finds them as numbers.

        Words that are numbers only in languages where they are also everyday words of another ("to",
        "on") are read only before their own percent or magnitude word, or after their own percent
        word ("yüzde on"): the candidate scan finds them only there, so the hundreds of "to" in
        English prose cost no step each.
        """
        listed = {w for lang in self.languages for w in lang.spec.collisions} & words
        everyday = {w for w in listed if (langs := self.read(w)) and all(w in lang.spec.collisions for lang, _ in langs)}
        if not everyday:
            return everyday, ""
        specs = [lang.spec for w in everyday for lang, _ in self.read(w)]
        day = rf"|(?P<day>{trie(everyday)})(?=\s+(?:{trie({v for spec in specs for v in spec.strict})}))"
        before = {b for spec in specs for b in spec.before}
        if before:
            day += rf"|(?:{trie(before)})\s+(?P<after>{trie(everyday)})(?!\w)"
        return everyday, day

    @lru_cache(maxsize=8192)  # noqa: B019 - one lexicon per process (_lexicon is cached)
    def read(self, word: str) -> tuple[tuple[_Language, _Word], ...]:
        return tuple((language, found) for language in self.languages if (found := language.read(word)) is not None)

    @lru_cache(maxsize=8192)  # noqa: B019 - as above
    def reading(self, word: str) -> _Reading | None:
        languages = dict(self.read(word))
        if not languages:
            return None
        words = languages.values()
        return _Reading(
            languages,
            all(_part(w) for w in words),
            all(w.value is None and w.power is not None for w in words),
            any(w.power is not None or _power_of_ten(w.value) for w in words),
        )


@cache
def _lexicon() -> _Lexicon:
    return _Lexicon()


class Spelled(NamedTuple):
    """A spelled-out quantity in a stretch of text: where, its words, and the rule's kind."""

    start: int
    end: int
    text: str
    kind: str

    def span(self) -> tuple[int, int]:
        return self.start, self.end


class _Reading(NamedTuple):
    """What one word is, in every language that reads it (worked out once per word)."""

    languages: dict[_Language, _Word]
    part: bool  # a part of a number in every language (sv "en", fr "vingts")
    bare: bool  # a magnitude without a number in every language ("hundred", "Millionen")
    magnitude: bool  # a magnitude or a power of ten in some language ("cent", "mille", "hundred")


class _Token(NamedTuple):
    start: int
    end: int
    readings: dict[_Language, _Word]
    reading: _Reading


class _Phrase(NamedTuple):
    tokens: list[_Token]
    languages: list[_Language]

    @property
    def start(self) -> int:
        return self.tokens[0].start

    @property
    def end(self) -> int:
        return self.tokens[-1].end


class _Reader:
    """Spelled quantities in one view of a stretch of text (lower case, perhaps with look-alikes folded)."""

    def __init__(self, view: str, original: str, offset: int, unfolded: str | None = None) -> None:
        self.view, self.original, self.offset = view, original, offset
        self.lexicon = _lexicon()
        # A folded view's number words are new only where folding changed them or the words after them.
        self.unfolded = unfolded
        self.everyday: list[Spelled] = []

    def _everyday(self, match: re.Match[str]) -> None:
        group = "day" if match.group("day") is not None else "after"
        start, end = match.span(group)
        languages = [lang for lang, _ in self.lexicon.read(match.group(group))]
        before = any(lang.before is not None and lang.before.search(self.view, max(0, start - 16), start) for lang in languages)
        if before or any(lang.strict.match(self.view, end) for lang in languages):
            self.everyday.append(self._emit(start, end, "phrase"))

    def tokens(self) -> list[_Token]:
        found = []
        view, unfolded = self.view, self.unfolded
        for match in self.lexicon.candidates.finditer(view):
            start, near = match.start(), match.end() + _NEAR
            if unfolded is not None and view[start:near] == unfolded[start:near]:
                continue
            if match.group("num") is None:  # an everyday word before (or after) its own unit word
                self._everyday(match)
                continue
            reading = self.lexicon.reading(match.group("num"))
            if reading is not None:
                found.append(_Token(match.start(), match.end(), reading.languages, reading))
        return found

    def phrases(self, tokens: list[_Token]) -> list[_Phrase | _Token]:
        """Number words joined into phrases of one language; fraction words stay tokens of their own."""
        out: list[_Phrase | _Token] = []
        current: _Phrase | None = None
        for token in tokens:
            numeric = [lang for lang, word in token.readings.items() if word.numeric]
            if not numeric:
                out.append(token)
                current = None
                continue
            if current is not None:
                shared = [lang for lang in current.languages if lang in numeric]
                gap = self.view[current.end : token.start]
                joined = [lang for lang in shared if lang.join.fullmatch(gap)]
                if joined:
                    current.tokens.append(token)
                    current.languages[:] = joined
                    continue
            current = _Phrase([token], numeric)
            out.append(current)
        return out

    def read(self) -> Iterator[Spelled]:
        found = list(self._phrases())
        if self.everyday:
            found.extend(self.everyday)
            found.sort()
        yield from found

    def _phrases(self) -> Iterator[Spelled]:
        items = self.phrases(self.tokens())
        skip_next = False
        for index, item in enumerate(items):
            if skip_next:
                skip_next = False
                continue
            following = items[index + 1] if index + 1 < len(items) else None
            if isinstance(item, _Token):
                found = self._lone_fraction(item)
            else:
                found, skip_next = self._phrase(item, following)
            if found is not None:
                yield found

    def _emit(self, start: int, end: int, kind: str) -> Spelled:
        return Spelled(self.offset + start, self.offset + end, self.original[start:end], kind)

    def _lone_fraction(self, token: _Token) -> Spelled | None:
        """A fraction word without a numerator: alone ("треть"), or after an article and before "of" ("a third of")."""
        for lang, word in token.readings.items():
            if word.fraction == "alone":
                return self._emit(token.start, token.end, "fraction")
            if lang.article is not None and lang.of is not None and lang.of.match(self.view, token.end):
                article = lang.article.search(self.view, max(0, token.start - 12), token.start)
                if article is not None:
                    return self._emit(article.start(), token.end, "fraction")
        return None

    def _phrase(self, phrase: _Phrase, following: _Phrase | _Token | None) -> tuple[Spelled | None, bool]:
        if self._no_number(phrase):
            return None, False
        if following is not None:
            found = self._ratio(phrase, following) if isinstance(following, _Phrase) else self._fraction(phrase, following)
            if found is not None:
                return found, True
        for lang in phrase.languages:
            multiple = self._multiple(phrase, lang)
            if multiple is not None:
                return multiple, False
        if self._unit_follows(phrase) or self._by_itself(phrase):
            return self._emit(self._article_start(phrase), phrase.end, "phrase"), False
        return None, False

    def _no_number(self, phrase: _Phrase) -> bool:
        """Parts of numbers only, the magnitude of a numeral in digits, or the head of an ordinal."""
        view, start, end = self.view, phrase.start, phrase.end
        if all(t.reading.part for t in phrase.tokens):
            return True  # sv "en", fr "vingts"
        if _AFTER_DIGITS.search(view, max(0, start - 2), start):
            return True  # "$1.2 billion": bare_number's
        last = phrase.tokens[-1].readings
        return any(
            ((last[lang].value or 0) >= 20 or last[lang].power is not None)
            and lang.ordinal is not None
            and lang.ordinal.match(view, end) is not None
            for lang in phrase.languages
        )  # "twenty-first", "hundred-and-first"; not "one-third"

    def _ratio(self, phrase: _Phrase, following: _Phrase) -> Spelled | None:
        for lang in phrase.languages:
            ratio = lang.ratio.match(self.view, phrase.end)
            if lang in following.languages and ratio is not None and ratio.end() == following.start:
                return self._emit(phrase.start, following.end, "ratio")
        return None

    def _fraction(self, phrase: _Phrase, following: _Token) -> Spelled | None:
        view = self.view
        gap = view[phrase.end : following.start]
        hyphen = _HYPHEN.fullmatch(gap) is not None
        if not (hyphen or gap.isspace()):
            return None
        numerator = phrase.tokens[-1].readings
        for lang in phrase.languages:
            word = following.readings.get(lang)
            if word is None or not word.fraction:
                continue
            several = (numerator[lang].value or 0) >= 2 or numerator[lang].atoms > 1
            plain = word.fraction in ("plain", "alone")
            if lang.of is None:  # no word for "of" (the genitive says it): "две трети"
                found = several and plain
            else:  # "two-thirds", "two thirds of", "zwei Drittel der"; not "four-quarter trend"
                found = (hyphen and plain) or lang.of.match(view, following.end) is not None
            if found:
                return self._emit(self._article_start(phrase), following.end, "fraction")
        return None

    def _multiple(self, phrase: _Phrase, lang: _Language) -> Spelled | None:
        last = phrase.tokens[-1].readings[lang]
        fused = lang.multiple is not None and last.multiple
        after = None if lang.multiple is None else lang.multiple.match(self.view, phrase.end)
        if not (fused or after):
            return None
        if lang.parts_before is not None and lang.parts_before.search(self.view, max(0, phrase.start - 8), phrase.start):
            return None  # "the reason is twofold": a count of parts
        return self._emit(phrase.start, after.end() if after else phrase.end, "multiple")

    def _unit_follows(self, phrase: _Phrase) -> bool:
        view, end = self.view, phrase.end
        if all(t.reading.bare for t in phrase.tokens) and self._article(phrase) is None:
            return False  # "hundred", "Millionen von Nutzern": vague ("cien", "mille", "sto" are numbers)
        languages = phrase.languages
        if self.lexicon.neutral.match(view, end) or self.lexicon.codes.match(self.original, end):
            return True
        for lang in languages:
            if lang.after.match(view, end) or (lang.points.match(view, end) if lang.spec.points else False):
                return True
            if lang.before is not None and lang.before.search(view, max(0, phrase.start - 16), phrase.start):
                return True
        return False

    def _by_itself(self, phrase: _Phrase) -> bool:
        """A quantity without a unit: a tens word, a compound, a magnitude with a multiplier, a decimal."""
        if self._only_magnitudes(phrase):
            return self._article(phrase) is not None  # "a hundred", "a billion"
        letters = sum(token.end - token.start for token in phrase.tokens)
        gaps = [self.view[a.end : b.start].strip() for a, b in zip(phrase.tokens, phrase.tokens[1:])]
        for lang in phrase.languages:
            if letters < lang.spec.self_min_letters:
                continue
            words = [token.readings[lang] for token in phrase.tokens]
            if any(_large(w) for w in words) or (len(words) > 1 and any(_multiplier(w) for w in words)):
                return True
            if any(gap in lang.spec.decimals for gap in gaps):
                return True
        return False

    def _only_magnitudes(self, phrase: _Phrase) -> bool:
        """Magnitude words without a number before them: "hundred", "Millionen", "cent" (not "yüz milyon")."""
        tokens = phrase.tokens
        return (len(tokens) == 1 and tokens[0].reading.magnitude) or all(t.reading.bare for t in tokens)

    def _article(self, phrase: _Phrase) -> regex.Match[str] | None:
        for lang in phrase.languages:
            if lang.article is not None:
                found = lang.article.search(self.view, max(0, phrase.start - 4), phrase.start)
                if found is not None:
                    return found
        return None

    def _article_start(self, phrase: _Phrase) -> int:
        article = self._article(phrase)
        return phrase.start if article is None else article.start()


# Letters of other scripts drawn as Latin ones matter only beside Latin letters.
_LATIN = re.compile("[a-z]")
# How far after a number word a folded letter may stand and still change its reading (its unit word).
_NEAR = 40
_HYPHEN = re.compile(rf"\s*{_DASH}\s*")
_AFTER_DIGITS = regex.compile(r"\p{N}[\s\u00a0]?$")


def _large(word: _Word) -> bool:
    """A tens word or more that is no bare power of ten ("forty", "zweihundert"), or a compound ("fortytwo")."""
    return ((word.value or 0) >= 20 and not _power_of_ten(word.value)) or word.atoms > 1


def _multiplier(word: _Word) -> bool:
    """In a phrase of several words: a magnitude, a power of ten, or a part ("quatre-vingts", "eine Million")."""
    return word.power is not None or _power_of_ten(word.value) or word.value is None


def _part(word: _Word) -> bool:
    """A word that spells part of a number only (sv "en" of "en miljon", fr "vingts")."""
    return word.value is None and word.power is None and word.atoms < 2 and not word.multiple


def _power_of_ten(value: int | None) -> bool:
    return value is not None and value >= 100 and str(value).strip("0") == "1"


def _lowered(text: str) -> str:
    """``text`` in lower case, each character still one character (so offsets hold)."""
    lowered = text.lower()
    if len(lowered) != len(text):  # "İ" lowers to two characters; it is the only one that does
        lowered = text.replace("\u0130", "i").lower()
    return lowered


class _Finder:
    """``finditer`` over spelled quantities in ``text[pos:endpos]``, as the reader sees the words."""

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[Spelled]:
        segment = text[pos:endpos]
        view = _lowered(segment)
        candidates = _lexicon().candidates
        found = list(_Reader(view, segment, pos).read()) if candidates.search(view) else []
        folded = view if view.isascii() or _LATIN.search(view) is None else _lowered(fold_letters(segment))
        if folded != view:  # letters drawn as Latin ones ("f\u043erty"): read as they look too
            taken = [(f.start, f.end) for f in found]
            for extra in _Reader(folded, segment, pos, view).read():
                if all(extra.end <= a or extra.start >= b for a, b in taken):
                    found.append(extra)
            found.sort()
        yield from found


FINDER = _Finder()


def run(section: Section, evidence: EvidenceSlice, options: Options) -> Iterator[Finding]:
    cards, tags = evidence.card_ids, evidence.metric_tags
    annotated = {m.sentence for m in section.citations if m.vouches and m.id in cards}
    annotated.update(m.sentence for m in section.metric_tags if m.vouches and m.id in tags)
    for spelled, start, end, _sentence in section.find_visible(FINDER, annotated):
        message = f"spelled-out quantity {spelled.text!r} has no valid citation or registered metric tag in its sentence"
        yield section.finding(NAME, start, end, message, rule=f"spelled.{spelled.kind}")


CHECK = Check(NAME, 2, run, __doc__ or "")
