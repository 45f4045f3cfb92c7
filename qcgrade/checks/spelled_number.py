"""A quantity spelled out in words sits in a sentence with no valid citation and no registered metric tag (tier 2).

Why it matters: ``bare_number`` reads digits, as the paper's tier 1 does, so
a section could dodge it by spelling its numbers out ("revenue grew
forty-two percent"). A reader reads those words as the number; they need
evidence just the same. The check is tier 2, so the paper's tier 1 stays as
written. A sentence is annotated exactly as for ``bare_number``: one valid,
vouching card citation or registered metric tag anywhere in it covers it.

Scope: quantities, not every number word. A spelled number is flagged when

- a percent, point, currency, multiple or magnitude word follows it
  (``nine per cent``, ``three hundred basis points``, ``two billion dollars``,
  ``quarante-deux pour cent``, ``zweiundvierzig Prozent``);
- it holds a magnitude (``twelve hundred``, ``sixty-five million``,
  ``one hundred and twenty thousand``), a tens word (``twenty``,
  ``forty-two``) or a decimal point (``one point two``); or
- it is a fraction of something (``two-thirds of``, ``a third of``).

Honest prose passes: small numbers without a unit (``one of the two
largest``, ``three segments``, ``twelve months``), vague amounts (``a few``,
``hundreds of stores``, ``millions of users``), ordinals (``second
quarter``, ``twenty-first century``), and ``half``. English number words are
read in full, ratios included (``nine in ten``); French, German, Spanish,
Italian and Portuguese ones before a percent or magnitude word.

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

import regex

from ..evidence import EvidenceSlice
from ..findings import Finding
from ..options import Options
from ..reading.section import Section
from .base import Check

NAME = "spelled_number"

_UNITS = "one two three four five six seven eight nine"
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety"
_MAGNITUDES = "hundred thousand million billion trillion"
_ORDINAL_TAIL = "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth"
_DASH = "[-\u2010\u2011\u2012\u2013]"


def _words(*groups: str) -> str:
    return "|".join(sorted((w for g in groups for w in g.split()), key=len, reverse=True))


_WORD = rf"(?:{_words('zero', _UNITS, _TEENS, _TENS, _MAGNITUDES)})(?!{_DASH}(?:{_ORDINAL_TAIL})\b)"
_JOIN = rf"(?:\s+and\s+|\s+point\s+|{_DASH}|\s+)"
_FRACTION = (
    "halves thirds third quarters quarter fifths fifth sixths sixth sevenths seventh eighths eighth ninths ninth tenths tenth"
)
_ENGLISH = (
    rf"(?P<fraction>\b(?:a|one|{_words(_UNITS, 'ten')}){_DASH}?\s*(?:{_words(_FRACTION)})\b(?=\s+of\b))"
    # A ratio: "nine in ten", "three out of four".
    rf"|(?P<ratio>\b{_WORD}\s+(?:in|out\s+of)\s+{_WORD}\b)"
    rf"|(?P<phrase>\b(?:an?\s+(?=(?:{_words(_MAGNITUDES)})\b))?{_WORD}(?:{_JOIN}{_WORD})*\b)"
)
# French, German and Spanish number words, read before a percent or magnitude word only.
_FRENCH = (
    r"(?:un|une|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|treize|quatorze|quinze|seize"
    r"|vingts?|trente|quarante|cinquante|soixante|cents?|mille|et)"
)
_GERMAN = (
    r"(?:ein|eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwanzig|dreißig|vierzig|fünfzig"
    r"|sechzig|siebzig|achtzig|neunzig|hundert|tausend|und)+"
)
_SPANISH = (
    r"(?:uno|una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|trece|catorce|quince|dieci\w+"
    r"|veinte|veinti\w+|treinta|cuarenta|cincuenta|sesenta|setenta|ochenta|noventa|cien|ciento|mil|y)"
)
# Italian writes compounds as one word ("quarantadue", "ventotto"); Portuguese
# joins with "e" ("quarenta e dois").
_ITALIAN = (
    r"(?:uno|un|due|tre|quattro|cinque|sei|sette|otto|nove|dieci|undici|dodici|tredici|quattordici|quindici"
    r"|sedici|diciassette|diciotto|diciannove|venti|vent|trenta|trent|quaranta|quarant|cinquanta|cinquant"
    r"|sessanta|sessant|settanta|settant|ottanta|ottant|novanta|novant|cento|mille|mila)+"
)
_PORTUGUESE = (
    r"(?:um|uma|dois|duas|três|quatro|cinco|seis|sete|oito|nove|dez|onze|doze|treze|catorze|quatorze|quinze"
    r"|dezesseis|dezasseis|dezessete|dezassete|dezoito|dezenove|dezanove|vinte|trinta|quarenta|cinquenta"
    r"|sessenta|setenta|oitenta|noventa|cem|cento|mil|e)"
)
_OTHER = (
    rf"(?P<other>\b(?:{_FRENCH}(?:{_DASH}|\s+){{0,1}})+(?=\s+(?:pour\s?cent|millions?|milliards?)\b)"
    rf"|\b{_GERMAN}(?=\s+(?:Prozent|Millionen|Milliarden)\b)"
    rf"|\b{_ITALIAN}(?=\s+(?:per\s?cento|milioni|miliardi)\b)"
    rf"|\b{_PORTUGUESE}(?:\s+{_PORTUGUESE})*(?=\s+(?:por\s+cento|milhões|bilhões|mil\s+milhões)\b)"
    rf"|\b{_SPANISH}(?:\s+{_SPANISH})*(?=\s+(?:por\s+ciento|millones|mil\s+millones)\b))"
)
SPELLED = regex.compile(rf"(?i:{_ENGLISH}|{_OTHER})")

# A phrase can only start at a word that is a number word (or "a"/"an" before
# a magnitude or fraction, or a foreign number word near its percent or
# magnitude word): test each word against sets, and match only there. A
# pattern tried at every position is many times slower.
_ENGLISH_PATTERN = regex.compile(rf"(?i:{_ENGLISH})")
_OTHER_PATTERN = regex.compile(rf"(?i:{_OTHER})")
_WORD_RUN = re.compile(r"[^\W\d_]+")
_ENGLISH_WORDS = frozenset(f"zero {_UNITS} {_TEENS} {_TENS} {_MAGNITUDES}".split())
_AFTER_ARTICLE = frozenset(f"{_MAGNITUDES} {_FRACTION}".split())
_NEXT_WORD = re.compile(r"\s+([^\W\d_]+)")
_FOREIGN_WORDS = frozenset(
    "un une deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize vingt vingts "
    "trente quarante cinquante soixante cent cents mille "
    "uno una dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince veinte treinta "
    "cuarenta cincuenta sesenta setenta ochenta noventa cien ciento mil "
    "um uma dois duas três quatro cinco seis sete oito nove dez onze doze treze catorze quatorze quinze "
    "dezesseis dezasseis dezessete dezassete dezoito dezenove dezanove vinte trinta quarenta cinquenta "
    "sessenta setenta oitenta noventa cem cento".split()
)
_GERMAN_WORD = regex.compile(rf"(?i:{_GERMAN})")
_ITALIAN_WORD = regex.compile(rf"(?i:{_ITALIAN})")


_CANDIDATE = re.compile(
    r"\b(?:"
    + "|".join(sorted(_ENGLISH_WORDS, key=len, reverse=True))
    + r"|an?\s+(?:"
    + "|".join(sorted(_AFTER_ARTICLE, key=len, reverse=True))
    + r"))\b"
)
_CANDIDATE_ANY_CASE = regex.compile(_CANDIDATE.pattern, regex.IGNORECASE)
_FOREIGN_HINTS = (
    "pour cent",
    "pourcent",
    "milliard",
    "millions d",
    "por ciento",
    "millones",
    "prozent",
    "millionen",
    "milliarden",
    "per cento",
    "percento",
    "milioni",
    "miliardi",
    "por cento",
    "milhões",
    "bilhões",
)


class _Finder:
    """``finditer`` over number phrases, matching only where one can open.

    English candidates are found in the lower-cased text by the stdlib engine
    (a plain alternation it scans fast); foreign words only in text that holds
    a foreign percent or magnitude word.
    """

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[regex.Match[str]]:
        end = len(text) if endpos is None else endpos
        segment = text[pos:end]
        lowered = segment.lower()
        starts: list[int]
        if len(lowered) == len(segment):
            starts = [pos + m.start() for m in _CANDIDATE.finditer(lowered)]
        else:  # lower-casing changed the length: offsets would drift
            starts = [m.start() for m in _CANDIDATE_ANY_CASE.finditer(text, pos, end)]
        if any(hint in lowered for hint in _FOREIGN_HINTS):
            starts = sorted(set(starts).union(self._foreign_starts(text, pos, end)))
        after = pos
        for start in starts:
            if start < after:
                continue
            match = _ENGLISH_PATTERN.match(text, start, end) or _OTHER_PATTERN.match(text, start, end)
            if match is not None:
                after = match.end()
                yield match

    @staticmethod
    def _foreign_starts(text: str, pos: int, end: int) -> Iterator[int]:
        for word in _WORD_RUN.finditer(text, pos, end):
            lowered = word.group().lower()
            if (
                lowered in _FOREIGN_WORDS
                or lowered.startswith(("dieci", "veinti"))
                or _GERMAN_WORD.fullmatch(lowered) is not None
                or _ITALIAN_WORD.fullmatch(lowered) is not None
            ):
                yield word.start()


FINDER = _Finder()

# What makes any number word a quantity when it follows.
_QUANTITY_AFTER = regex.compile(
    r"\s*(?:[%\u2030\p{Sc}]|(?i:per\s?cent|percent(?:age)?|pct|basis\s+points?|bps?|points?|pts|"
    r"dollars?|euros?|pounds?|sterling|yen|yuan|renminbi|rupees?|francs?|times|fold|"
    r"bn|mn|tn|crores?|lakhs?)\b)"
)
_ONLY_MAGNITUDES = regex.compile(rf"(?i:(?:{_words(_MAGNITUDES)})(?:\s+(?:{_words(_MAGNITUDES)}))*)")
_AFTER_DIGITS = regex.compile(r"\p{N}[\s\u00a0]?$")
_SELF_QUANTITY = regex.compile(rf"(?i:\b(?:{_words(_TENS, _MAGNITUDES)}|point)\b)")


def _is_quantity(kind: str, phrase: str, text: str, start: int, end: int) -> bool:
    if kind != "phrase":
        return True  # fractions of something; foreign words seen before a percent or magnitude
    if _ONLY_MAGNITUDES.fullmatch(phrase) is not None or _AFTER_DIGITS.search(text, max(0, start - 3), start):
        return False  # the magnitude of a number in digits ("$1.2 billion"): bare_number's business
    return _SELF_QUANTITY.search(phrase) is not None or _QUANTITY_AFTER.match(text, end) is not None


def run(section: Section, evidence: EvidenceSlice, options: Options) -> Iterator[Finding]:
    cards, tags = evidence.card_ids, evidence.metric_tags
    annotated = {m.sentence for m in section.citations if m.vouches and m.id in cards}
    annotated.update(m.sentence for m in section.metric_tags if m.vouches and m.id in tags)
    for match, start, end, _sentence in section.find_visible(FINDER, annotated):
        phrase = match.group()
        kind = match.lastgroup or "phrase"
        if _is_quantity(kind, phrase, match.string, match.start(), match.end()):
            message = f"spelled-out quantity {phrase!r} has no valid citation or registered metric tag in its sentence"
            yield section.finding(NAME, start, end, message, rule=f"spelled.{kind}")


CHECK = Check(NAME, 2, run, __doc__ or "")
