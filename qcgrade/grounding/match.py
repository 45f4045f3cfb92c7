"""Compare a citing sentence with what its cited cards and tagged metrics state.

The slice side is read once per slice (:func:`facts_for`): each card's
values (claim, quote and the metrics it lists in ``metric_refs``) and its
direction words, each with the clause it sits in. The section side is read
per sentence, and only for sentences whose every marker resolves: a
sentence with an orphan citation or an unregistered tag already fails tier
1, and what an unknown card says cannot be compared.

Which quantity a direction word is about is decided by *anchoring*: a
sentence's direction word is compared only with a card's direction word
whose clause shares a value or a content word with its own clause ("the
margin began to narrow" is not about "deposit costs rose", even in a
sentence that cites that card). A contradiction needs an anchored card
direction that says the opposite and none that agrees.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

import regex

from ..evidence import Card, EvidenceSlice
from ..reading.document import CELL_BREAK
from ..reading.projection import fold_letters
from ..reading.rules.numerals import read_numerals
from ..reading.section import Marker, Numeral, Section
from .dates import NumericDate, WrittenDay, numeric_date
from .directions import (
    DOWN,
    LEXICON,
    OUTCOME,
    QUALITY,
    SIZE,
    UP,
    Direction,
    DirectionReader,
    agrees,
    contradicts,
    directions,
    first_bytes_saying,
    implied_directions,
    may_say_in,
    whole_word_starts,
)
from .not_values import states_no_value, written_dates
from .tables import cell_scale, cells
from .values import (
    APPROXIMATE_BEFORE,
    PERIOD_AFTER,
    Value,
    approximate,
    clause_values,
    derived_values,
    metric_values,
    multiples_as_percents,
    numeral_form,
    period_after,
    period_before,
    periods_meet,
    plain_key,
    range_midpoints,
    read_numeral,
    read_values,
    same_value,
    unit_after,
    verbatim_forms,
)

# Clauses end at punctuation that separates them and at joining words.
# (``\b`` before the words only speeds the scan: ``(?<!\w)`` then a letter is a word boundary.)
_PUNCTUATION_BREAK = regex.compile(r"[,;:()\u2013\u2014]|\s-\s")
_JOINING = "but while whereas although though yet and which after before as".split()
_CLAUSE_BREAK = regex.compile(
    rf"{_PUNCTUATION_BREAK.pattern}|\b(?<!\w)(?:{'|'.join(_JOINING)})(?!\w)",
    regex.IGNORECASE,
)
# The joining words flattened, for clause_breaks.
_JOINING_WORDS = frozenset(word.encode() for word in _JOINING)
_WORD = regex.compile(r"(?<![\w\-])\p{L}[\p{L}\-']{3,}")
# Words too common to say which quantity a clause is about.
_STOPWORDS = frozenset(
    """that this these those there their they them then than with from into onto over under about after before
    year years quarter quarters month months period prior previous last next first second third half full
    were was been being have has had will would could should may might must also only just more less most least
    still even much many some such each other what when where which while whose within without against between
    around near nearly roughly about approximately compared versus same percent basis points point total
    company group business report reported reports says said according annual level levels rate rates
    term terms time times share""".split()
)
_STEM = 5  # characters of a word that identify it ("deposits" ~ "deposit", "margins" ~ "margin")


# _WORD on ASCII text, for the ``re`` engine: there a letter is an ASCII letter and a word
# character an ASCII letter, digit or underscore. A call per clause judged: the stdlib engine
# starts a short search for a fraction of what the ``regex`` module's costs.
_ASCII_WORD = re.compile(r"(?<![A-Za-z0-9_\-])[A-Za-z][A-Za-z\-']{3,}")


def content_words(text: str) -> frozenset[str]:
    """The stems of a clause's content words (no stopwords, no direction words)."""
    stems = set()
    for match in (_ASCII_WORD if text.isascii() else _WORD).finditer(text):
        word = match.group().lower()
        if word in _STOPWORDS or word in LEXICON:
            continue
        stems.add(word[:_STEM])
    return frozenset(stems)


_FUNCTION_WORDS = frozenset(
    """a an the of to by at in on was were is are be been has had have its their his her our and or from with for
    than as so very slightly sharply further also again still only year quarter""".split()
)
_TOKEN = regex.compile(r"[\p{L}][\p{L}\-']*")


def neighbours(text: str, direction: Direction, lo: int, hi: int) -> tuple[str, str]:
    """The stems of the nearest content words before and after a direction word, in its clause.

    "revenue growth forecast" and "revenue decline forecast" share both:
    the same collocation, so the same quantity.
    """
    before = ""
    for token in reversed(_tokens(text, max(lo, direction.start - 40), direction.start)):
        if token.lower() not in _FUNCTION_WORDS:
            before = token.lower()[:_STEM]
            break
    after = ""
    for token in _tokens(text, direction.end, min(hi, direction.end + 40)):
        if token.lower() not in _FUNCTION_WORDS:
            after = token.lower()[:_STEM]
            break
    return before, after


# _TOKEN on ASCII text: its letters are the ASCII ones there, and the ``re`` engine reads a short stretch cheaper.
_ASCII_TOKEN = re.compile(r"[A-Za-z][A-Za-z\-']*")


def _tokens(text: str, start: int, end: int) -> list[str]:
    """``_TOKEN.findall(text, start, end)`` (neither pattern looks outside the stretch)."""
    if text[start:end].isascii():
        return _ASCII_TOKEN.findall(text, start, end)
    return _TOKEN.findall(text, start, end)


def clause_bounds(text: str, start: int, end: int, at: int) -> tuple[int, int]:
    """The clause of ``text[start:end]`` that holds offset ``at``."""
    lo, hi = start, end
    for match in _CLAUSE_BREAK.finditer(text, start, end):
        if match.end() <= at:
            lo = match.end()
        elif match.start() >= at:
            hi = match.start()
            break
    return lo, hi


# _PUNCTUATION_BREAK for the ``re`` engine (the same spans on any text): the ``regex``
# module's ``\s`` is Unicode White_Space, spelled out here, where the stdlib's also takes
# the separators U+001C to U+001F. A sentence judged pays for one search, and the stdlib
# engine starts one for less.
_WHITE_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_PUNCTUATION_BREAK_RE = re.compile(rf"[,;:()\u2013\u2014]|[{_WHITE_SPACE}]-[{_WHITE_SPACE}]")


def clause_breaks(text: str, flat: bytes | None, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of ``_CLAUSE_BREAK.finditer(text, start, end)``, in order.

    ``flat``: the text flattened (see directions._flattened), None when it
    folds oddly. The pattern tries its words (case aside) at every word start;
    instead the punctuation is scanned alone, and the joining words are found
    among the flattened words by ``bytes.find``. Case aside, only the
    characters that fold oddly spell an ASCII word otherwise, and there the
    text is not flattened. No break holds a letter and a joining word holds
    nothing else, so the two never overlap and the pattern's order is theirs.
    """
    if flat is None:
        return [match.span() for match in _CLAUSE_BREAK.finditer(text, start, end)]
    breaks = [match.span() for match in _PUNCTUATION_BREAK_RE.finditer(text, start, end)]
    for word in _JOINING_WORDS.intersection(flat[start:end].split()):
        # Whole, as far as the stretch goes (the pattern takes its end for the text's).
        for at in whole_word_starts(flat, word, start, end, cut=True):
            stop = at + len(word)
            if _joins(text, at, stop, end):
                breaks.append((at, stop))
    breaks.sort()
    return breaks


def _joins(text: str, at: int, stop: int, end: int) -> bool:
    """Whether _CLAUSE_BREAK takes the joining word ``text[at:stop]`` (a whole word of the flattened text).

    Beside ASCII characters it does: they are blanks of the flattened text,
    so no word character. Beside any other the pattern decides (an accented
    letter makes a word character, a dash does not).
    """
    if (at == 0 or text[at - 1].isascii()) and (stop == end or text[stop].isascii()):
        return True
    return _CLAUSE_BREAK.match(text, at, end) is not None


@dataclass(frozen=True)
class CardDirection:
    """A direction word in a card, with the values and content words of its clause."""

    direction: Direction
    clause: str
    values: tuple[Value, ...]
    words: frozenset[str]
    neighbours: tuple[str, str] = ("", "")  # the content words just before and after it
    lexical: bool = True  # a word of the lexicon (not a direction implied by numbers)


@dataclass(frozen=True)
class CardFacts:
    """What one card states: its values (derived ones apart) and its directions."""

    card: Card
    values: tuple[Value, ...]
    derived: tuple[Value, ...]
    directions: tuple[CardDirection, ...]
    numerals: tuple[str, ...] = ()  # the numerals of its claim and quote, as written
    dated: bool = False  # it writes a day (by a month's name or in numbers): days are values in what cites it
    dates: frozenset[WrittenDay] = frozenset()  # the days it writes, named or numeric (see written_dates)


@dataclass(frozen=True)
class SliceFacts:
    """Every card's facts, and every metric's values, read once per slice."""

    cards: dict[str, CardFacts]
    metrics: dict[str, tuple[Value, ...]]
    # What a numeral may match, by (citation group, "{", tags): filled as sentences ask.
    sources: dict[tuple[str, ...], Sources] = field(default_factory=dict)
    card_sources: dict[str, Sources] = field(default_factory=dict)  # the same, for one card and no tag
    # The (axis, sign, negated) of every sentence word that some direction of these cards contradicts, by cards.
    contradicted: dict[tuple[str, ...], frozenset[tuple[str, int, bool]]] = field(default_factory=dict)
    # The same as the words that may begin such a word, flattened (see first_words_contradicted).
    first_words: dict[tuple[str, ...], tuple[frozenset[bytes], frozenset[bytes]] | None] = field(default_factory=dict)

    def contradicted_by(self, cards: tuple[str, ...]) -> frozenset[tuple[str, int, bool]]:
        """What a word must say (axis, sign, negated) for one of ``cards`` to contradict it (see :func:`contradicts`)."""
        kinds = self.contradicted.get(cards)
        if kinds is None:
            said = {(d.direction.axis, d.direction.sign, d.direction.negated) for c in cards for d in self.cards[c].directions}
            kinds = frozenset(
                (axis, sign, negated)
                for axis, card_sign, card_negated in said
                for sign in (UP, DOWN)
                for negated in (False, True)
                if contradicts(Direction(0, 0, "", axis, sign, negated), Direction(0, 0, "", axis, card_sign, card_negated))
            )
            self.contradicted[cards] = kinds
        return kinds

    def first_words_contradicted(self, cards: tuple[str, ...]) -> tuple[frozenset[bytes], frozenset[bytes]] | None:
        """The words (flattened) that may begin a word some of ``cards`` contradicts, unnegated and negated.

        None when the cards contradict no word (they state no direction). Kept
        per slice: every citing sentence asks, by its cards.
        """
        try:
            return self.first_words[cards]
        except KeyError:
            kinds = self.contradicted_by(cards) if cards else None
            found = self.first_words[cards] = first_bytes_saying(kinds) if kinds else None
            return found

    def card_dating(self, date: NumericDate, exclude: frozenset[str]) -> str | None:
        """The first card of the slice (not in ``exclude``) that writes ``date``, if any."""
        for card_id, facts in self.cards.items():
            if card_id not in exclude and date.written_in(facts.dates):
                return card_id
        return None

    def card_stating(self, value: Value, exclude: frozenset[str]) -> str | None:
        """The first card of the slice (not in ``exclude``) that states ``value``, if any."""
        for card_id, facts in self.cards.items():
            if card_id not in exclude and any(same(value, v) for v in facts.values):
                return card_id
        return None


same = same_value


@dataclass(frozen=True)
class Sources:
    """The values a numeral may match: stated and derived, plus all of them as exact keys.

    A numeral whose (mantissa, scale, unit) equals a stated or derived
    value's is that value (no conversion applies within one unit, and
    :func:`same_value` holds at distance zero), so most numerals of a
    faithful sentence are settled by one set lookup. A value written over a
    period (``9% y/y``) has no exact key: the numeral's own period decides.
    """

    stated: tuple[Value, ...]
    derived: tuple[Value, ...]
    exact: frozenset[tuple[object, int, str]]
    # Numeral texts these sources state as written, settled without reading them (see
    # verbatim_forms): "30%" whatever follows it, "412" when the word after it gives a unit of ``free``.
    fixed: frozenset[str] = frozenset()
    free: dict[str, frozenset[tuple[int, str]]] = field(default_factory=dict)
    # The keys of the stated values written over a period only, with their periods ("9% y/y":
    # 9% over a year); and the numeral texts that read as one of them (as ``fixed``) with its periods.
    periodic: dict[tuple[Decimal, int, str], frozenset[str]] = field(default_factory=dict)
    fixed_over: dict[str, frozenset[str]] = field(default_factory=dict)

    def state(self, value: Value) -> bool:
        key = (value.mantissa, value.scale, value.unit)
        if key in self.exact:
            return True
        periods = self.periodic.get(key)
        if periods is not None and any(periods_meet(value.period, period) for period in periods):
            return True  # the same figure, over its period or none
        return any(same(value, v) for v in self.stated) or any(same(value, v) for v in self.derived)


# Quantities whose direction says whether things got better or worse: more
# revenue is better, more cost is worse. A card's "NPL ratio declined" then also
# says the NPL ratio improved, which a sentence's "worsened" contradicts.
_GOOD_WHEN_UP = regex.compile(
    r"(?<![\w\-])(?:revenues?|sales|profits?|earnings|income|margins?|cash\s+flows?|cash\s+generation|ebitda|ebit"
    r"|volumes?|demand|shipments?|orders|bookings|backlog|retention)(?![\w\-])",
    regex.IGNORECASE,
)
_BAD_WHEN_UP = regex.compile(
    r"(?<![\w\-])(?:costs?|expenses?|loss(?:es)?|debt|leverage|npls?|non-performing|delinquenc(?:y|ies)|defaults?"
    r"|churn|burn|impairments?|provisions|charge-offs?|write-offs?|arrears|unemployment"
    r"|dso|days\s+sales\s+outstanding|lead\s+times?)(?![\w\-])",
    regex.IGNORECASE,
)


def quality_of(direction: Direction, text: str, lo: int) -> Direction | None:
    """The better/worse a size direction implies for the quantity its clause names first, if that is known.

    The quantity is the first one named before the word in its clause
    ("net debt to EBITDA increased": debt, so worse).
    """
    if direction.axis != SIZE:
        return None
    good = _GOOD_WHEN_UP.search(text, lo, direction.start)
    bad = _BAD_WHEN_UP.search(text, lo, direction.start)
    if good is None and bad is None:
        return None
    polarity = 1 if bad is None or (good is not None and good.start() < bad.start()) else -1
    return direction._replace(axis=QUALITY, sign=direction.sign * polarity)


def _card_facts(card: Card, metrics: dict[str, tuple[Value, ...]]) -> CardFacts:
    values: list[Value] = []
    found: list[CardDirection] = []
    for text in (card.claim, card.quote):
        values.extend(read_values(text))
        for direction in directions(text):
            lo, hi = clause_bounds(text, 0, len(text), direction.start)
            clause = text[lo:hi]
            near = neighbours(text, direction, lo, hi)
            facts = (clause, tuple(read_values(clause)), content_words(clause), near)
            found.append(CardDirection(direction, *facts))
            quality = quality_of(direction, text, lo)
            if quality is not None:
                found.append(CardDirection(quality, *facts))
        for direction in implied_directions(text):
            lo, hi = clause_bounds(text, 0, len(text), direction.start)
            clause = text[lo:hi]
            facts = (clause, tuple(read_values(clause)), content_words(clause), ("", ""))
            found.append(CardDirection(direction, *facts, lexical=False))
            quality = quality_of(direction, text, lo)
            if quality is not None:
                found.append(CardDirection(quality, *facts, lexical=False))
    values = _over_periods(values)
    for tag in card.metric_refs:
        values.extend(metrics.get(tag, ()))
    numerals = tuple(text[a:b] for text in (card.claim, card.quote) for a, b in read_numerals(text))
    derived = derived_values(values)
    derived.extend(middle for text in (card.claim, card.quote) for middle in range_midpoints(text))
    derived.extend(value for text in (card.claim, card.quote) for value in multiples_as_percents(text))
    for found_here in found:
        direction = found_here.direction
        if direction.axis == SIZE and not direction.negated and not direction.comparison:
            derived.extend(clause_values(found_here.values, direction.sign))
    for text in (card.claim, card.quote):
        # A signed change ("-5%", "+30 bps") says its direction by its sign; it ties by its own value only.
        for start, end in read_numerals(text):
            change = signed_change(text[start:end], text[max(0, start - 4) : start], text[end:][:32])
            if change is not None:
                sign, value = change
                lo, hi = clause_bounds(text, 0, len(text), start)
                said = Direction(start, end, text[start:end], SIZE, sign, False)
                found.append(CardDirection(said, text[lo:hi], (value,), frozenset(), lexical=False))
    dates = written_dates(card.claim) | written_dates(card.quote)
    return CardFacts(card, tuple(values), tuple(derived), tuple(found), numerals, bool(dates), dates)


def _periods_by_key(values: Iterable[Value]) -> dict[tuple[Decimal, int, str], set[str]]:
    """The periods each figure (mantissa, scale, unit) among ``values`` is written over, where one is."""
    periods: dict[tuple[Decimal, int, str], set[str]] = {}
    for value in values:
        if value.period:
            periods.setdefault((value.mantissa, value.scale, value.unit), set()).add(value.period)
    return periods


def _over_periods(values: list[Value]) -> list[Value]:
    """A card's values, each figure written once with a period and once without given that period.

    A claim and its quote restate one fact: "up 30% year on year" and
    "(+30%)" are the same 30%, over a year. A figure written over two
    periods on one card is left as written.
    """
    periods = _periods_by_key(values)
    if not periods:
        return values
    over: list[Value] = []
    for value in values:
        said = periods.get((value.mantissa, value.scale, value.unit)) if not value.period else None
        over.append(value._replace(period=next(iter(said))) if said and len(said) == 1 else value)
    return over


# The signs that open a signed number: plus, hyphen-minus and the minus sign; and the units a
# change is written in (a signed level, "-$5m", says no direction by its sign).
_CHANGE_SIGNS = "+-\u2212"
_CHANGE_UNITS = ("percent", "points", "bp")


def signed_change(written: str, before: str, after: str) -> tuple[int, Value] | None:
    """The direction (UP or DOWN) and value of a signed change ("+5%", "-1.2pp", "\u22125% y/y", "+30 bps"), if it is one.

    A sign says which way only before a change: a percentage, points or
    basis points. A signed level ("-$5m", "-3") may be a loss or a balance,
    and is left to the words around it.
    """
    if written[:1] not in _CHANGE_SIGNS or len(written) < 2 or not written[1].isdigit():
        return None
    value = read_numeral(written, before, after)
    if value is None or value.unit not in _CHANGE_UNITS:
        return None
    return (UP if written[0] == "+" else DOWN), value


_CACHE: OrderedDict[int, tuple[EvidenceSlice, SliceFacts]] = OrderedDict()
_CACHE_SIZE = 64


def facts_for(evidence: EvidenceSlice) -> SliceFacts:
    """The slice's facts, read once per slice object (reward loops reuse a few slices)."""
    key = id(evidence)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is evidence:
        _CACHE.move_to_end(key)
        return hit[1]
    metrics = {m.tag: tuple(metric_values(m.value, m.unit)) for m in evidence.metrics}
    facts = SliceFacts({c.id: _card_facts(c, metrics) for c in evidence.cards}, metrics)
    _CACHE[key] = (evidence, facts)  # the slice is kept alive, so its id is not reused
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return facts


class CitingSentence:
    """A sentence whose every marker resolves, with the cards and metrics it names.

    ``start`` and ``end`` are visible offsets (polarity reads words where a
    reader does), ``group_starts`` and ``tag_spans`` source offsets (numerals
    are owned by source offset); :func:`_seen_sentence` makes a copy all in
    visible offsets.
    """

    __slots__ = ("index", "start", "end", "cards", "tags", "groups", "group_starts", "tag_spans")

    def __init__(
        self,
        index: int,
        start: int,
        end: int,
        cards: tuple[str, ...],
        tags: tuple[str, ...],
        groups: tuple[tuple[str, ...], ...],
        group_starts: tuple[int, ...],
        tag_spans: tuple[tuple[int, str], ...],
    ) -> None:
        self.index = index
        self.start = start  # where the sentence lies in Section.visible, its blanks left out
        self.end = end
        self.cards = cards  # distinct, in order of citation
        self.tags = tags
        self.groups = groups  # the card ids of each citation group
        self.group_starts = group_starts  # where each citation group starts (a source offset, as Marker.start)
        self.tag_spans = tag_spans  # (source start, tag) per registered metric tag

    def owners(self, at: int) -> tuple[str, ...]:
        """The cards a claim at offset ``at`` rests on: the first citation group after it, else the last before."""
        groups = self.groups
        if not groups:
            return self.cards
        i = bisect_left(self.group_starts, at)
        return groups[i] if i < len(groups) else groups[-1]


class _SectionText(NamedTuple):
    """What a reading keeps of its section once it has read the numerals: the text."""

    text: str


class _Reading:
    """What both grounding checks read of one section: its citing sentences, their numerals and values.

    The last reading outlives its grading (see :func:`_reading`), so it lets go of
    the parsed section as soon as it has read what it needs: holding it would keep
    the section's memory, and the next section's grounding would pay for freeing it.
    """

    def __init__(self, section: Section, evidence: EvidenceSlice) -> None:
        self.section: Section | _SectionText = section
        self.section_id = id(section)
        self.text = section.text
        self.evidence = evidence
        self.rows: set[int] = set()  # the citing sentences that are table rows
        self.citing = tuple(_citing_sentences(section, evidence, self.rows))
        self._numerals: dict[int, list[Numeral]] | None = None
        self._numeral_list: list[Numeral] | None = None
        self._values: dict[int, Value | None] = {}
        self._seen: str | None = None
        self._signed: dict[int, list[tuple[Numeral, int]]] | None = None
        self._headers: dict[int, int] | None = None  # a body row's header row, by sentence
        self._tables: dict[int, tuple[list[int], list[int | None]]] = {}  # a row's cell starts and their scales
        self._heads: dict[int, list[int | None]] = {}  # a header row's cells' scales
        if not self.citing:
            self.section = _SectionText(self.text)  # nothing left to read

    def numeral_list(self) -> list[Numeral]:
        """The numerals of the citing sentences, in order (only those sentences are scanned)."""
        if self._numeral_list is None:
            found: list[Numeral] = []
            section = self.section
            if isinstance(section, Section):  # always, when there is a citing sentence
                # Only the citing sentences are scanned: tier 1 reads the others
                # (Section.numerals_outside), so the two together scan the section once.
                found = list(section.numerals_within({c.index for c in self.citing}))
            self._numeral_list = found
            self.section = _SectionText(self.text)
        return self._numeral_list

    def numerals(self) -> dict[int, list[Numeral]]:
        """The numerals of the citing sentences, by sentence."""
        if self._numerals is None:
            by_sentence: dict[int, list[Numeral]] = {c.index: [] for c in self.citing}
            for numeral in self.numeral_list():
                by_sentence[numeral.sentence].append(numeral)
            self._numerals = by_sentence
        return self._numerals

    def signed_changes(self, section: Section) -> dict[int, list[tuple[Numeral, int]]]:
        """The signed changes of the citing sentences (see :func:`signed_change`) and their signs, by sentence."""
        if self._signed is None:
            found: dict[int, list[tuple[Numeral, int]]] = {}
            rows, shown = self.rows, section.visible
            # Most numerals open with a digit and stand in prose: one pass leaves only the others.
            maybe = [n for n in self.numeral_list() if n.text[:1] in _CHANGE_SIGNS or n.sentence in rows]
            for numeral in maybe:
                first = numeral.text[:1]
                # In a table an accountant writes a fall in parentheses: "(5%)" in a y/y column.
                if first in _CHANGE_SIGNS or (first.isdigit() and shown[section.shown_at(numeral) - 1] == "("):
                    value = self.value(numeral, section)
                    if value is None or value.unit not in _CHANGE_UNITS:
                        continue
                    if numeral.text[:1] in _CHANGE_SIGNS:
                        found.setdefault(numeral.sentence, []).append((numeral, UP if numeral.text[0] == "+" else DOWN))
                    elif value.negative:
                        found.setdefault(numeral.sentence, []).append((numeral, DOWN))
            self._signed = found
        return self._signed

    def table_scale(self, section: Section, numeral: Numeral) -> int | None:
        """The scale a table writes for ``numeral`` in one of its body rows (see :mod:`.tables`), if any."""
        if self._headers is None:
            self._headers = section.table_headers() if self.rows else {}
        header = self._headers.get(numeral.sentence)
        if header is None:
            return None
        row = self._tables.get(numeral.sentence)
        if row is None:
            # Each header and each row is read once. Most tables write no scale: a row is split
            # into cells only when its header or its label (the text before its first cell break) has one.
            head = self._heads.get(header)
            if head is None:
                head = self._heads[header] = [cell_scale(cell) for _at, cell in _cells_of(section, header)]
            ((row_start, row_end, _kind),) = section.visible_spans((numeral.sentence,))
            first_break = section.visible.find(CELL_SEPARATOR, row_start, row_end)
            label = cell_scale(section.visible[row_start : first_break if first_break >= 0 else row_end])
            if label is None and not any(head):
                row = self._tables[numeral.sentence] = ([], [])
            else:
                cells_here = _cells_of(section, numeral.sentence)
                corner = head[0] if head else None
                # Per column: its header's scale, else the row label's (not for the label itself), else the corner's.
                scales = [
                    next((s for s in ((head[i] if i < len(head) else None), (label if i else None), corner) if s), None)
                    for i in range(len(cells_here))
                ]
                row = self._tables[numeral.sentence] = ([at for at, _cell in cells_here], scales)
        starts, scales = row
        if not starts:
            return None
        column = bisect_right(starts, section.shown_at(numeral)) - 1
        return scales[column] if 0 <= column < len(scales) else None

    def seen_text(self, section: Section) -> str:
        """The section's visible text with look-alike letters folded: what both checks read words in."""
        if self._seen is None:
            self._seen = fold_letters(section.visible)
        return self._seen

    def value(self, numeral: Numeral, section: Section) -> Value | None:
        """The value a numeral states, read once for both checks (its scale and unit where the reader sees them)."""
        values = self._values
        if numeral.start not in values:
            text, start, end = seen_at(self.seen_text(section), section, numeral)
            value = read_numeral(numeral.text, text[max(0, start - 4) : start], text[end : end + 32])
            if value is not None:
                wider = approximate(value)  # "~$640M" for $642M, when the word is there
                if wider is not value and APPROXIMATE_BEFORE.search(text, max(0, start - 16), start) is not None:
                    value = wider
                if not value.period:  # "q/q growth was 9%": a period named before it, in its clause
                    before = period_before(text, start)
                    if before:
                        value = value._replace(period=before)
            values[numeral.start] = value
        return values[numeral.start]


def _cells_of(section: Section, sentence: int) -> list[tuple[int, str]]:
    """The cells of a table row's sentence, each with its visible start."""
    ((start, end, _kind),) = section.visible_spans((sentence,))
    return [(start + at, cell) for at, cell in cells(section.visible[start:end], CELL_SEPARATOR)]


def seen_at(seen: str, section: Section, numeral: Numeral) -> tuple[str, int, int]:
    """Where a reader sees ``numeral``: ``seen`` (the visible text) and its span there.

    A number the renderer draws (a list's) is not in the visible text: it is
    read in the source.
    """
    start = section.shown_at(numeral)
    end = start + len(numeral.text)
    if section.visible[start:end] == numeral.text:
        return seen, start, end
    return section.text, numeral.start, numeral.end


# What separates a table row's cells in the visible text.
CELL_SEPARATOR = CELL_BREAK.strip()

_LAST: list[_Reading] = []


def _reading(section: Section, evidence: EvidenceSlice) -> _Reading:
    """Both grounding checks ask for the same section in turn: the last reading is kept.

    The reading may have let go of its section, so the section is known by its
    id and its text: while the caller holds the section, a reading with both
    was made from it, or from a section since freed that read the same text
    (and a section is a function of its text).
    """
    last = _LAST[0] if _LAST else None  # read once: another thread may replace it
    if last is not None and last.section_id == id(section) and last.text is section.text and last.evidence is evidence:
        return last
    reading = _Reading(section, evidence)
    _LAST[:] = [reading]
    return reading


def numeral_value(section: Section, evidence: EvidenceSlice, numeral: Numeral) -> Value | None:
    """The value ``numeral`` states (scale, unit, period), read as the grounding checks read it.

    For readers outside grounding (the suggested repairs of :mod:`qcgrade.repair`
    ask which card states a bare number), so that there is one number reader.
    """
    return _reading(section, evidence).value(numeral, section)


def citing_sentences(section: Section, evidence: EvidenceSlice) -> Iterator[CitingSentence]:
    """Sentences that cite a card or tag a metric, every marker of them resolving and vouching."""
    yield from _reading(section, evidence).citing


def _citing_sentences(section: Section, evidence: EvidenceSlice, rows: set[int] | None = None) -> list[CitingSentence]:
    """The citing sentences in order; ``rows`` receives the indices of those that are table rows."""
    citations, metric_tags = section.citations, section.metric_tags
    if not citations and not metric_tags:
        return []
    # Markers come in reading order, so each sentence's markers are one run.
    spoiled: set[int] = set()
    cited = _cited_runs(citations, evidence.card_ids, section.text, spoiled)
    tagged = _tagged_runs(metric_tags, evidence.metric_tags, spoiled) if metric_tags else {}
    if tagged:
        indices = sorted(set(cited).union(tagged).difference(spoiled))
    else:
        indices = [index for index in cited if index not in spoiled] if spoiled else list(cited)
    no_cards: tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[int, ...]] = ((), (), ())
    no_tags: tuple[tuple[str, ...], tuple[tuple[int, str], ...]] = ((), ())
    found: list[CitingSentence] = []
    # About a third of a section's sentences cite: only those are located, in one pass.
    for index, (sentence_start, sentence_end, kind) in zip(indices, section.visible_spans(indices)):
        if kind == "code":
            continue
        if kind == "row" and rows is not None:
            rows.add(index)
        cards, groups, starts = cited.get(index, no_cards)
        tags, spans = tagged.get(index, no_tags) if tagged else no_tags
        found.append(CitingSentence(index, sentence_start, sentence_end, cards, tags, groups, starts, spans))
    return found


# A soft line break as a reader sees it: one blank (the next line's indent and
# blockquote marks are no text).
_SOFT_BREAK = re.compile(r"[ \t]*\r?\n[ \t>]*")


def _cited_runs(
    citations: tuple[Marker, ...], card_ids: frozenset[str], text: str, spoiled: set[int]
) -> dict[int, tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[int, ...]]]:
    """Per sentence (in order): its distinct cards, its citation groups and where each group starts.

    A sentence with a marker that does not vouch or names no card of the
    slice goes into ``spoiled`` instead.
    """
    found: dict[int, tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[int, ...]]] = {}
    count = len(citations)
    i = 0
    while i < count:
        _kind, card, start, end, index, vouches = citations[i]
        j = i + 1
        while j < count and citations[j].sentence == index:
            j += 1
        if j == i + 1:  # the usual claim: one marker
            if vouches and card in card_ids:
                found[index] = ((card,), ((card,),), (start,))
            else:
                spoiled.add(index)
            i = j
            continue
        cards: list[str] = []
        groups: list[list[str]] = []
        starts: list[int] = []
        last_end = -1  # where the last citation group ends
        for _kind, card, start, end, _index, vouches in citations[i:j]:
            if not vouches or card not in card_ids:
                spoiled.add(index)
                continue
            if card not in cards:
                cards.append(card)
            # Markers with only brackets, separators or blanks between them form one group,
            # across a soft line break too (a hard-wrapped group, "[C41, C42,\nC43]").
            gap = text[last_end:start]
            if "\n" in gap:
                gap = _SOFT_BREAK.sub(" ", gap)
            if groups and len(gap) <= 8 and not gap.strip(" ,;[]"):
                groups[-1].append(card)
            else:
                groups.append([card])
                starts.append(start)
            last_end = end
        if cards:
            found[index] = (tuple(cards), tuple(map(tuple, groups)), tuple(starts))
        i = j
    return found


def _tagged_runs(
    metric_tags: tuple[Marker, ...], registered: frozenset[str], spoiled: set[int]
) -> dict[int, tuple[tuple[str, ...], tuple[tuple[int, str], ...]]]:
    """Per sentence: its distinct registered metric tags, and where each tag stands."""
    tags_of: dict[int, list[str]] = {}
    spans_of: dict[int, list[tuple[int, str]]] = {}
    for _kind, tag, start, _end, index, vouches in metric_tags:
        if not vouches or tag not in registered:
            spoiled.add(index)
            continue
        spans_of.setdefault(index, []).append((start, tag))
        tags = tags_of.setdefault(index, [])
        if tag not in tags:
            tags.append(tag)
    return {index: (tuple(tags), tuple(spans_of[index])) for index, tags in tags_of.items()}


@dataclass(frozen=True)
class ValueMiss:
    """A numeral no cited card or named metric states."""

    numeral: Numeral
    value: Value
    cards: tuple[str, ...]  # the cards it rests on (its citation group)
    cited: CitingSentence
    elsewhere: str | None  # a card of the slice that does state it
    # When the numeral is written in a numeric date: the date, and whether the miss is the
    # whole date (a day the dated cards do not write) rather than its year.
    date: NumericDate | None = None
    whole_date: bool = False
    table_scale: int | None = None  # the power of ten its table's header or row label gives it
    # Where the period written after it ends ("9% q/q"), a source offset, when its cards state
    # its figure over another period: then the period is the miss.
    period_end: int | None = None


def value_misses(section: Section, evidence: EvidenceSlice, skip_years: bool = False) -> Iterator[ValueMiss]:
    """Every numeral of a citing sentence that its sources do not state.

    A numeral rests on the citation group that follows it (else the last one
    before it), as a reader attributes it, plus every metric tagged in the
    sentence: "rose 31% [C22]" must be in C22 even when the same sentence
    cites C21 elsewhere.
    """
    reading = _reading(section, evidence)
    if not reading.citing:
        return
    facts = facts_for(evidence)
    numerals = reading.numeral_list()
    if not numerals:
        return
    seen = reading.seen_text(section)
    rows = reading.rows
    citing = {where.index: where for where in reading.citing}
    sentence = -1  # the numerals come in order, a sentence's together
    judged_to = -1  # the end of the last date flagged whole: its other numerals are not flagged again
    for numeral in numerals:
        written = numeral.text
        first_of_sentence = numeral.sentence != sentence
        if first_of_sentence:
            sentence = numeral.sentence
            where = citing[sentence]
            single = len(where.groups) <= 1  # every numeral rests on the same cards
        if first_of_sentence or not single:
            owners = where.owners(numeral.start)
            stated = _stated_by(facts, owners, where.tags)
            fixed, free = stated.fixed, stated.free
        if skip_years and _is_year(written):
            continue
        # Most numerals of a faithful sentence copy a cited card's: one set lookup, no reading
        # (and the word after one is read only when it has no unit of its own).
        if written in fixed:
            continue
        periods = stated.fixed_over.get(written)
        if periods is not None:
            # A figure the cards state over a period only ("30%" of "up 30% y/y"): it is stated
            # unless the sentence writes another period after it.
            text, start, end = seen_at(seen, section, numeral)
            period = period_after(text[end : end + 32]) or period_before(text, start)
            if any(periods_meet(period, said) for said in periods):
                continue
        if rows and numeral.sentence in rows:
            scale = reading.table_scale(section, numeral)
            if scale is not None:
                # "412" under "($bn)": billions, compared with its scale (no later shortcut compares so;
                # a text stated whatever follows it has a scale or unit of its own).
                value = reading.value(numeral, section)
                if value is not None and value.scale == 0 and value.unit == "plain":
                    scaled = value._replace(scale=scale)
                    text, start, end = seen_at(seen, section, numeral)
                    dated = any(facts.cards[card].dated for card in owners)
                    if not stated.state(scaled) and not states_no_value(text, start, end, dated):
                        elsewhere = facts.card_stating(scaled, frozenset(owners))
                        yield ValueMiss(numeral, scaled, owners, where, elsewhere, table_scale=scale)
                    continue
        # The words after it as the reader sees them: "$1.2 **million**" is a million.
        text, start, end = seen_at(seen, section, numeral)
        after = text[end : end + 32]
        units = free.get(written)
        if units is not None and unit_after(after) in units:
            continue
        # Most others are plain and stated as written: one set lookup.
        plain = plain_key(written, after)
        if plain is not None and plain in stated.exact:
            continue
        value = reading.value(numeral, section)
        if value is None or stated.state(value):
            continue
        date = numeric_date(section.text, numeral.start, numeral.end)  # dates are read, and flagged, in the source
        if date is not None:
            if numeral.start >= judged_to:
                miss = _date_miss(facts, owners, where, numeral, value, date, stated, skip_years)
                if miss is not None:
                    judged_to = date.end if miss.whole_date else judged_to
                    yield miss
            continue
        if states_no_value(text, start, end, any(facts.cards[card].dated for card in owners)):
            continue
        elsewhere = facts.card_stating(value, frozenset(owners))
        # The figure its cards state, over another period ("9% q/q" for "9% y/y"): the period is the miss.
        over_another = value.period and stated.state(value._replace(period=""))
        period_end = _period_end(section, text, end) if over_another else None
        yield ValueMiss(numeral, value, owners, where, elsewhere, period_end=period_end)


def _period_end(section: Section, text: str, end: int) -> int | None:
    """Where the period written after a numeral ending at ``end`` of ``text`` ends, a source offset.

    ``text`` is the visible text (or the source, for a number the renderer
    draws: see :func:`seen_at`), as the numeral's value was read there.
    """
    written = PERIOD_AFTER.match(text, end)
    if written is None:
        return None
    return section.to_source(end, written.end())[1] if text is not section.text else written.end()


def _date_miss(
    facts: SliceFacts,
    owners: tuple[str, ...],
    where: CitingSentence,
    numeral: Numeral,
    value: Value,
    date: NumericDate,
    stated: Sources,
    skip_years: bool,
) -> ValueMiss | None:
    """What is wrong with a numeral its sources do not state, written in a numeric date, if anything.

    None when a cited card writes the very day, year and all. Else, as with a
    day beside a month's name: when a cited card dates something, the date
    must be one it writes (in any form; a card's day without a year matches
    any year), else the whole date is the miss; otherwise, or when it is
    written, its month and day state no value, and its year is compared as
    any year.
    """
    cards = [facts.cards[card] for card in owners]
    if any(not date.days.isdisjoint(card.dates) for card in cards):
        return None  # the very day, year and all ("12/31/2025" where a card writes "12/31/25")
    if any(card.dated for card in cards) and not any(date.written_in(card.dates) for card in cards):
        return ValueMiss(numeral, value, owners, where, facts.card_dating(date, frozenset(owners)), date, whole_date=True)
    if numeral.end <= date.year_start or date.year_end <= numeral.start:
        return None  # its month or day
    if skip_years and date.year_end - date.year_start == 4:
        return None
    years = [Value(Decimal(year), Decimal("0.5")) for year in sorted(date.years)]
    if any(stated.state(year) for year in years):
        return None  # "25" of "12/31/25" where the card writes 2025
    year = value if numeral.start == date.year_start else years[-1]  # the year of a dotted date, read as one numeral
    return ValueMiss(numeral, year, owners, where, facts.card_stating(year, frozenset(owners)), date)


def _stated_by(facts: SliceFacts, cards: tuple[str, ...], tags: tuple[str, ...]) -> Sources:
    """What a numeral resting on ``cards`` in a sentence tagging ``tags`` may match (built once per slice)."""
    if len(cards) == 1 and not tags:
        # The usual claim: one card, no tag. Keyed by the card id, whose hash the string keeps.
        stated = facts.card_sources.get(cards[0])
        if stated is None:
            stated = facts.card_sources[cards[0]] = _sources(facts, cards, tags)
        return stated
    key = (*cards, "{", *tags)
    stated = facts.sources.get(key)
    if stated is None:
        stated = facts.sources[key] = _sources(facts, cards, tags)
    return stated


def _sources(facts: SliceFacts, cards: tuple[str, ...], tags: tuple[str, ...]) -> Sources:
    stated: list[Value] = []
    derived: list[Value] = []
    for card_id in cards:
        card = facts.cards[card_id]
        stated.extend(card.values)
        derived.extend(card.derived)
    tagged: list[Value] = []
    for tag in tags:
        tagged.extend(facts.metrics.get(tag, ()))
    stated.extend(tagged)
    if tagged or len(cards) > 1:
        # Values computed across sources: a tagged value against a card's, or two cards'.
        derived.extend(derived_values(stated))
    # A value written over a period ("9% y/y") is no exact key: a numeral meets it only over the
    # same period, or none, which only reading the numeral tells (see same_value).
    exact = frozenset((v.mantissa, v.scale, v.unit) for v in (*stated, *derived) if not v.period)
    # The texts a faithful sentence copies: the cards' numerals, and each stated value's digits.
    texts = {text for card_id in cards for text in facts.cards[card_id].numerals}
    for value in stated:
        texts.update((str(value.mantissa), f"{value.mantissa}%"))
    fixed, free = verbatim_forms(sorted(texts), exact)
    # The other stated values, by key: each over the periods written ("9% y/y" where no 9% has none).
    over = _periods_by_key(v for v in stated if (v.mantissa, v.scale, v.unit) not in exact)
    periodic = {key: frozenset(periods) for key, periods in over.items()}
    return Sources(tuple(stated), tuple(derived), exact, fixed, free, periodic, _fixed_over(sorted(texts), periodic))


def _fixed_over(texts: list[str], periodic: dict[tuple[Decimal, int, str], frozenset[str]]) -> dict[str, frozenset[str]]:
    """The texts that read as a value of ``periodic`` whatever follows them but a period, with its periods."""
    found: dict[str, frozenset[str]] = {}
    for text in texts if periodic else ():
        form = numeral_form(text)
        if form is not None and not form[1]:  # "30%": not "412", which reads its unit from the next word
            periods = periodic.get((form[0].mantissa, form[0].scale, form[0].unit))
            if periods is not None:
                found[text] = periods
    return found


def _is_year(text: str) -> bool:
    return len(text) == 4 and text.isascii() and text.isdigit() and text[:2] in ("19", "20")


@dataclass(frozen=True)
class PolarityMiss:
    """A direction word that contradicts what a cited card says of the same quantity."""

    direction: Direction
    card: str
    card_direction: CardDirection
    cited: CitingSentence


def polarity_misses(section: Section, evidence: EvidenceSlice) -> Iterator[PolarityMiss]:
    """Every direction word of a citing sentence that its cited cards contradict.

    Words are read in the section's visible text, as a reader reads them
    (``r&#111;se``, ``r*o*se``, ``r<span></span>ose`` and a Cyrillic ``o`` all
    say "rose"); each miss is reported at its source offsets.
    """
    reading = _reading(section, evidence)
    if not reading.citing:
        return
    facts = facts_for(evidence)
    masks: list[tuple[int, int]] | None = None  # the markers' spans, sorted once a sentence holds a suspect
    mask_starts: list[int] = []
    seen_text = reading.seen_text(section)
    words = DirectionReader(seen_text)
    flat = words.flat_text()
    signed_at = reading.signed_changes(section)
    for cited in reading.citing:
        # A word can only contradict a card direction: cards that state none leave nothing to read.
        saying = facts.first_words_contradicted(cited.cards)
        if saying is None:
            continue
        # What the sentence's cards contradict holds what any of its groups does: a sentence
        # with no word that may say it has no suspect (a signed change says one by its sign).
        signed = signed_at.get(cited.index)
        if flat is not None and not signed and not may_say_in(flat, cited.start, cited.end, *saying, cited.start):
            continue
        where = _seen_sentence(section, cited)
        if not signed and len(where.groups) > 1 and not _some_group_may_say(words, facts, where):
            continue
        read = words.directions(where.start, where.end)
        if signed:
            shown = section.visible
            changes = []
            for numeral, sign in signed:
                at = section.shown_at(numeral)
                end = at + len(numeral.text)
                if numeral.text[:1] not in _CHANGE_SIGNS:  # "(5%)": the parentheses say it
                    at, end = at - 1, end + 1
                changes.append(Direction(at, end, shown[at:end], SIZE, sign, False))
            read = sorted(read + changes)
        # Only a word some owning card contradicts can be a miss (see judge()); the
        # sentence is indexed only when there is one outside the markers.
        groups = where.groups
        if len(groups) <= 1:
            # One citation group (or none): every word rests on the same cards.
            kinds = facts.contradicted_by(groups[0] if groups else where.cards)
            suspects = [d for d in read if (d.axis, d.sign, d.negated) in kinds]
        else:
            suspects = [d for d in read if _contradicted(facts, where.owners(d.start), d)]
        if not suspects:
            continue
        if masks is None:
            masks = sorted((m.start, m.end) for m in (*section.citations, *section.metric_tags, *section.xrefs))
            mask_starts = [start for start, _end in masks]
        # Markers are known by their source spans: each word read is mapped there (a sentence holds a few).
        to_source = section.to_source
        unmasked = {d.start for d in read if not _masked(masks, mask_starts, *to_source(d.start, d.end))}
        suspects = [d for d in suspects if d.start in unmasked]
        if not suspects:
            continue
        found = [d for d in read if d.start in unmasked]
        own = reading.numerals().get(cited.index, [])
        own_starts = [section.shown_at(n) for n in own]
        reader = _SentenceReader(facts, where, reading, section, seen_text, found, own, own_starts, flat)
        for direction in suspects:
            miss = reader.judge(direction)
            if miss is not None:
                start, end = section.to_source(miss.direction.start, miss.direction.end)
                yield PolarityMiss(miss.direction._replace(start=start, end=end), miss.card, miss.card_direction, cited)


def _seen_sentence(section: Section, cited: CitingSentence) -> CitingSentence:
    """``cited`` in visible offsets: its markers' starts mapped from the source (a lone group's start is
    left as it is: it owns every word of the sentence, wherever it starts)."""
    to_visible = section.to_visible
    groups, spans = cited.groups, cited.tag_spans
    return CitingSentence(
        cited.index,
        cited.start,
        cited.end,
        cited.cards,
        cited.tags,
        groups,
        # One group owns every word wherever it starts (see CitingSentence.owners): nothing to map.
        tuple(to_visible(at) for at in cited.group_starts) if len(groups) > 1 else cited.group_starts,
        tuple((to_visible(at), tag) for at, tag in spans) if spans else spans,
    )


def _some_group_may_say(words: DirectionReader, facts: SliceFacts, where: CitingSentence) -> bool:
    """Whether a word may say what the citation group it rests on contradicts (see :meth:`CitingSentence.owners`).

    A group owns the words that start after the previous group's marker
    and up to its own (the last group, to the sentence end), so each stretch
    is tried with its own group's kinds. A stretch ends at the first blank
    from its marker's start (the marker's word included): no word runs across
    it, and none starts inside the marker's word. Where the stretches would
    overlap, the sentence is read.
    """
    flat = words.flat_text()
    if flat is None:
        return True  # the text folds oddly: the sentence is read
    groups, starts = where.groups, where.group_starts
    lo = where.start
    for i, group in enumerate(groups[:-1]):
        end = flat.find(b" ", starts[i])  # the first blank from the marker's start: no word runs across it
        if end < 0 or starts[i] < lo:
            return True
        if _group_may_say(flat, facts, group, lo, end, where.start):
            return True
        lo = end + 1
    return _group_may_say(flat, facts, groups[-1], lo, where.end, where.start)


def _group_may_say(flat: bytes, facts: SliceFacts, group: tuple[str, ...], start: int, stop: int, floor: int) -> bool:
    """:func:`may_say_in` for a stretch that one group owns, with the words its cards contradict (kept per group)."""
    saying = facts.first_words_contradicted(group)
    return saying is not None and may_say_in(flat, start, stop, *saying, floor)


def _contradicted(facts: SliceFacts, owners: tuple[str, ...], direction: Direction) -> bool:
    """Whether some direction of an owning card contradicts ``direction``.

    Whatever anchors a word, a miss quotes an owning card's direction that
    contradicts it: when none does (the usual faithful sentence), the word
    cannot be a miss and nothing else needs reading. (What contradicts
    depends on axis, sign and negation only: one set lookup per word.)
    """
    return (direction.axis, direction.sign, direction.negated) in facts.contradicted_by(owners)


def _masked(masks: list[tuple[int, int]], starts: list[int], start: int, end: int) -> bool:
    i = bisect_right(starts, end - 1) - 1
    return i >= 0 and masks[i][1] > start


# Nouns that name a change ("the rise", "a gain of 3.5 points").
_CHANGE_NOUNS = frozenset(
    """rise rises fall falls decline declines increase increases decrease decreases drop drops dip dips jump jumps
    surge surges gain gains loss losses growth improvement improvements deterioration contraction expansion slump
    plunge rebound acceleration deceleration""".split()
)
# "that rise", "this decline", "those gains": pointing back.
_POINTING = regex.compile(r"(?<!\w)(?:that|this|these|those)\s+(?:[\p{L}\-]+\s+)?$", regex.IGNORECASE)
# A clause that opens with an article and the change ("..., a gain of 3.5 points"): an apposition.
_OPENING = regex.compile(r"\s*(?:a|an|the)\s+(?:[\p{L}\-]+\s+){0,2}", regex.IGNORECASE)
# "a rise in costs", "the loss of a customer": the noun names its own quantity.
_NAMES_OTHER = regex.compile(
    r"\s+(?:in|of)\s+(?![\p{N}\p{Sc}+\-\u2212~{]|(?:about|around|roughly|nearly|some)\s)", regex.IGNORECASE
)
# What may stand between "and"/"but" and a verb whose subject is left out.
_ELIDED = regex.compile(
    r"\s*(?:(?:will|would|may|might|could|should|can|is|are|was|were|has|have|had|been|be|to|keep|keeps|kept"
    r"|continue|continues|continued|continuing|still|also|further|even|then|likely|expected|set|only|probably)\s+)*",
    regex.IGNORECASE,
)
# Words that say a move goes on, so it is the same move as before.
_GOES_ON = regex.compile(r"(?<!\w)(?:keep|keeps|kept|continues?|continued|continuing|still|further)(?!\w)", regex.IGNORECASE)
_GOES_ON_AFTER = regex.compile(r"\s+(?:further|faster|more\s+quickly|still)(?!\w)", regex.IGNORECASE)

#: A direction word speaks of at most this many values (the nearest ones).
_SCOPE_LIMIT = 8


class _SentenceReader:
    """One citing sentence, indexed once so that judging each direction word is cheap.

    Clause breaks, direction words and numerals are sorted lists searched by
    bisection, and content words are read once per clause, so a sentence
    with thousands of direction words stays linear.
    """

    def __init__(
        self,
        facts: SliceFacts,
        where: CitingSentence,
        reading: _Reading,
        section: Section,
        text: str,
        found: list[Direction],
        own: list[Numeral],
        own_starts: list[int],
        flat: bytes | None = None,
    ) -> None:
        self.facts = facts
        self.where = where  # in offsets of ``text``
        self.reading = reading
        self.section = section
        self.text = text
        self.found = found
        self.starts = [d.start for d in found]
        self.breaks = clause_breaks(self.text, flat, where.start, where.end)
        self.break_starts = [b[0] for b in self.breaks]
        self.break_ends = [b[1] for b in self.breaks]
        self.numerals = own
        self.numeral_starts = own_starts  # where each of ``own`` starts in ``text``
        self.tags = where.tag_spans
        self.tag_starts = [at for at, _tag in where.tag_spans]
        self._words: dict[tuple[int, int], frozenset[str]] = {}
        self._kinds: dict[tuple[str, int, bool], int] | None = None  # counted when a weak tie is tried

    def clause(self, at: int) -> tuple[int, int]:
        where = self.where
        i = bisect_right(self.break_ends, at)  # breaks that end at or before ``at``
        lo = self.break_ends[i - 1] if i else where.start
        j = bisect_left(self.break_starts, at)  # the first break starting at or after ``at``
        hi = self.break_starts[j] if j < len(self.breaks) else where.end
        return lo, max(lo, hi)

    def words(self, lo: int, hi: int) -> frozenset[str]:
        key = (lo, hi)
        if key not in self._words:
            self._words[key] = content_words(self.text[lo:hi])
        return self._words[key]

    def values_between(self, start: int, end: int, nearest_first: bool) -> list[Value]:
        i, j = bisect_left(self.numeral_starts, start), bisect_left(self.numeral_starts, end)
        picked = self.numerals[i:j]
        picked = picked[:_SCOPE_LIMIT] if nearest_first else picked[-_SCOPE_LIMIT:]
        values: list[Value] = []
        for n in picked:
            value = self.reading.value(n, self.section)
            if value is not None:
                values.append(value)
        # A metric tag stands for its value ("CET1 higher at {cet1}").
        a, b = bisect_left(self.tag_starts, start), bisect_left(self.tag_starts, end)
        for _at, tag in self.tags[a:b][:_SCOPE_LIMIT]:
            values.extend(self.facts.metrics.get(tag, ()))
        return values

    def scope_values(self, direction: Direction, lo: int, hi: int) -> list[Value]:
        """The values a direction word speaks of: up to the next direction word, else back to the previous one.

        "Cement fell 4% to 11.2 M tonnes, price up 9%": "fell" speaks of 4% and 11.2.
        Nothing next to the word: the clause's values speak for it ("higher | down to 1.1%").
        """
        # A gain or loss word is read twice at one place (size and outcome): neighbours start elsewhere.
        k, m = bisect_left(self.starts, direction.start), bisect_right(self.starts, direction.start)
        after = self.starts[m] if m < len(self.starts) and self.starts[m] < hi else hi
        before = self.starts[k - 1] if k > 0 and self.starts[k - 1] > lo else lo
        values = self.values_between(direction.end, after, True) or self.values_between(before, direction.start, False)
        if values or (lo, hi) == (before, after):
            return values
        return self.values_between(lo, hi, True)

    def judge(self, direction: Direction) -> PolarityMiss | None:
        facts, where = self.facts, self.where
        owners = where.owners(direction.start)
        if not _contradicted(facts, owners, direction):
            return None
        if _moves_a_date(self.text, direction):
            return None
        lo, hi = self.clause(direction.start)
        on_axis = [
            (card_id, card_direction)
            for card_id in owners
            for card_direction in facts.cards[card_id].directions
            if card_direction.direction.axis == direction.axis
        ]
        if direction.word[:1] in _CHANGE_SIGNS or direction.word[:1] == "(":
            # A signed change ("-5%") is about its own figure: only that figure ties it.
            value = self.own_value(direction)
            by_own = [(card_id, d) for card_id, d in on_axis if value is not None and any(same(value, c) for c in d.values)]
            return _verdict(direction, by_own, where)
        # "gains" and "losses" name many things in one sentence, and "smaller than autos"
        # compares with something else than last year: only the same figure ties them.
        by_value_only = direction.axis == OUTCOME or direction.comparison
        if not by_value_only:
            # The same collocation ("revenue growth forecast") ties more surely than anything
            # else: when it ties, values and words are not read (a gap between levels is tied
            # only by its own figure).
            near = neighbours(self.text, direction, lo, hi)
            by_neighbour = [
                (card_id, card_direction)
                for card_id, card_direction in on_axis
                if card_direction.lexical
                and not card_direction.direction.comparison
                and _same_collocation(near, card_direction.neighbours)
            ]
            if by_neighbour:
                return _verdict(direction, by_neighbour, where)
        antecedent = self.antecedent(direction, lo, hi)
        values = self.values_tied(direction, lo, hi, antecedent)
        by_value = [
            (card_id, card_direction)
            for card_id, card_direction in on_axis
            if values and card_direction.values and any(same(v, c) for v in values for c in card_direction.values)
        ]
        # A shared value ties more surely than words: when one ties, content words are not read.
        if by_value or by_value_only:
            return _verdict(direction, by_value, where)
        words = self.words(lo, hi)
        if antecedent is not None:
            words = words | self.words(antecedent[0], antecedent[1])
        by_words = [
            (card_id, card_direction)
            for card_id, card_direction in on_axis
            # One shared word ("EBITDA", "demand") is too weak a tie: ask for two.
            if not card_direction.direction.comparison and len(words & card_direction.words) >= 2
        ]
        return _verdict(direction, by_words or self.sole_direction(direction, words), where)

    def own_value(self, direction: Direction) -> Value | None:
        """The value of the numeral a signed change is (it starts where the change does)."""
        at = direction.start + (direction.word[:1] == "(")  # "(5%)": the numeral is inside
        i = bisect_left(self.numeral_starts, at)
        if i < len(self.numerals) and self.numeral_starts[i] == at:
            return self.reading.value(self.numerals[i], self.section)
        return None

    def values_tied(
        self, direction: Direction, lo: int, hi: int, antecedent: tuple[int, int, Direction | None] | None
    ) -> list[Value]:
        """The values a direction word speaks of, its antecedent's included."""
        values = self.scope_values(direction, lo, hi)
        if antecedent is not None:
            # "fell 22%, but most of that rise ...": the word speaks of its antecedent's quantity.
            a_lo, a_hi, earlier = antecedent
            if earlier is not None:
                values = values + self.scope_values(earlier, a_lo, a_hi)
            else:
                values = values + self.values_between(a_lo, a_hi, True)
        return values

    def antecedent(self, direction: Direction, lo: int, hi: int) -> tuple[int, int, Direction | None] | None:
        """The earlier clause this one refers back to (and its direction word), if it does.

        Two ways English does it: a change named by a noun with a pointing or
        opening article ("..., the first decline", "most of that rise"), and a
        clause whose subject is left out after "and"/"but" and that says the
        move goes on ("... rose, and will keep rising", "smaller but growing
        faster"). A plain "but fell in Q4" is not read this way: it may well
        be about another period.
        """
        text = self.text
        word = direction.word.lower()
        if word in _CHANGE_NOUNS:
            pointed = _POINTING.search(text[max(lo, direction.start - 40) : direction.start])
            opening = _OPENING.fullmatch(text, lo, direction.start)
            if (pointed is None and opening is None) or _NAMES_OTHER.match(text, direction.end, hi):
                return None
            # The change it names is the nearest one said before its clause.
            k = bisect_left(self.starts, lo) - 1
            while k >= 0 and self.found[k].end > lo:
                k -= 1
            if k < 0:
                return None
            earlier = self.found[k]
            return (*self.clause(earlier.start), earlier)
        i = bisect_right(self.break_ends, lo) - 1
        if i < 0 or self.break_ends[i] != lo:
            return None
        joiner = text[self.break_starts[i] : self.break_ends[i]].lower()
        if joiner not in ("and", "but", "yet") or not _ELIDED.fullmatch(text, lo, direction.start):
            return None
        if not (_GOES_ON.search(text, lo, direction.start) or _GOES_ON_AFTER.match(text, direction.end, hi)):
            return None
        # The left-out subject is the previous clause's.
        a_lo, a_hi = self.clause(self.break_starts[i])
        return a_lo, a_hi, None

    def sole_direction(self, direction: Direction, words: frozenset[str]) -> list[tuple[str, CardDirection]]:
        """A weak tie, used when nothing stronger holds: one card, one way, one shared word.

        The word's claim rests on a single card whose directions on this axis
        all agree, the clauses share a content word, and no other direction
        word of the sentence on this axis says what the card says (if one
        does, that one is about the card's quantity and this one about
        something else).
        """
        owners = self.where.owners(direction.start)
        if len(owners) != 1:
            return []
        on_axis = [
            d
            for d in self.facts.cards[owners[0]].directions
            if d.direction.axis == direction.axis and d.lexical and not d.direction.comparison
        ]
        if not on_axis or not any(words & d.words for d in on_axis):
            return []
        first = on_axis[0].direction
        if any(d.direction.sign != first.sign or d.direction.negated != first.negated for d in on_axis):
            return []
        kinds = self._kinds
        if kinds is None:
            # Counted once per sentence (a plain dict: cheaper to build than a Counter for a few words).
            kinds = self._kinds = {}
            for d in self.found:
                said = (d.axis, d.sign, d.negated)
                kinds[said] = kinds.get(said, 0) + 1
        agreeing = kinds.get((first.axis, first.sign, first.negated), 0) - (1 if agrees(direction, first) else 0)
        if agreeing > 0:
            return []
        return [(owners[0], on_axis[0])]


# A schedule that moves: "slipped to 2028", "slid into 2027", "advanced to early 2026". The
# word says when, not how much, so it contradicts no size a card states.
_SCHEDULE_WORDS = frozenset("slip slips slipped slipping slide slides slid sliding advanced advancing".split())
_TO_A_YEAR = regex.compile(
    r"\s+(?:back\s+)?(?:to|into|until|till|beyond|past)\s+(?:(?:early|mid|late|end)[\s-]+(?:of\s+)?)?"
    r"(?:19|20)[0-9]{2}(?![0-9]|[.,][0-9]|\s*(?:%|per\s*cent|[a-z]*illion|bn|mn|m\b|k\b))",
    regex.IGNORECASE,
)


def _moves_a_date(text: str, direction: Direction) -> bool:
    """Whether a direction word moves a date ("First hydrogen slipped to 2028"), not a quantity."""
    return direction.word.lower() in _SCHEDULE_WORDS and _TO_A_YEAR.match(text, direction.end) is not None


def _verdict(direction: Direction, anchored: list[tuple[str, CardDirection]], where: CitingSentence) -> PolarityMiss | None:
    """A miss: an anchored card direction says the opposite, and none says the same."""
    if any(agrees(direction, d.direction) for _card, d in anchored):
        return None
    for card_id, card_direction in anchored:
        if contradicts(direction, card_direction.direction):
            return PolarityMiss(direction, card_id, card_direction, where)
    return None


def _same_collocation(ours: tuple[str, str], theirs: tuple[str, str]) -> bool:
    """Both neighbours agree (an absent one agrees with anything), and at least one is there."""
    (before, after), (their_before, their_after) = ours, theirs
    agree_before = not before or not their_before or before == their_before
    agree_after = not after or not their_after or after == their_after
    shared = bool(before and before == their_before) or bool(after and after == their_after)
    return shared and agree_before and agree_after
