"""Direction words: which way a sentence says a quantity moved, negation included.

Two axes, because English has two: *size* (grew, fell, widened, narrowed,
higher, lower: the quantity got bigger or smaller) and *quality* (improved,
worsened, beat, missed: it got better or worse). A narrowing loss is
smaller and better at once, so words are only ever compared on one axis;
"the loss narrowed" never contradicts "the loss improved".

A direction can be negated ("did not fall", "no longer growing", "failed to
improve"): a negated word asserts only that the quantity did *not* move that
way, so it contradicts a source that says it did, and nothing else.

The lexicon is written from ordinary financial English, inflections spelled
out, and is wider than any injector's word list on purpose. Every pattern
is a bounded alternation of literal words, so scans are linear.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

import regex

from .values import Value, read_numeral

SIZE, QUALITY, OUTCOME = "size", "quality", "outcome"
UP, DOWN = 1, -1


def _forms(spec: str) -> list[str]:
    return spec.split()


# Verbs and adjectives that say a quantity got bigger (size, up) ...
_SIZE_UP = _forms(
    """grew grow grows growing grown growth rose rise rises rising risen increase increased increases increasing
    climb climbed climbs climbing jump jumped jumps jumping surge surged surges surging soar soared soaring
    expand expanded expands expanding expansion widen widened widens widening accelerate accelerated accelerates
    accelerating acceleration rebound rebounded rebounding swell swelled swelling doubled tripled spiked
    higher highest advanced advancing boosted"""
)
# ... or smaller (size, down).
_SIZE_DOWN = _forms(
    """fell fall falls falling fallen decline declined declines declining decrease decreased decreases decreasing
    drop dropped drops dropping dip dipped dips dipping slip slipped slips slipping slid slide slides sliding
    shrink shrank shrinks shrinking shrunk contracting contraction narrow narrowed narrows narrowing
    decelerate decelerated decelerates decelerating deceleration plunge plunged plunges plunging tumble tumbled
    slump slumped slumps slumping sank sink sinks sinking halved eroded eroding compressed compression
    lower lowest retreated"""
)
# Better (quality, up) and worse (quality, down).
_QUALITY_UP = _forms(
    """improve improved improves improving improvement strengthen strengthened strengthens strengthening
    stronger better beat beats outperform outperformed outperforms outperforming upgrade upgraded upgrades"""
)
_QUALITY_DOWN = _forms(
    """worsen worsened worsens worsening worse deteriorate deteriorated deteriorates deteriorating deterioration
    weaken weakened weakens weakening weaker missed underperform underperformed underperforms underperforming
    downgrade downgraded downgrades"""
)

LEXICON: dict[str, tuple[str, int]] = {}
for _words, _axis, _sign in (
    (_SIZE_UP, SIZE, UP),
    (_SIZE_DOWN, SIZE, DOWN),
    (_QUALITY_UP, QUALITY, UP),
    (_QUALITY_DOWN, QUALITY, DOWN),
):
    for _word in _words:
        LEXICON[_word] = (_axis, _sign)

# Words that are directions only in some company: "up"/"down" before a
# figure or to/from/by ("down 6%", "up to 3.1%") or alone in a table cell; "above"/"below" before a
# figure or a yardstick ("below 3%", "above consensus", never "discussed
# below"); "gain"/"loss" as a change ("a loss of 3.5 points"), never an
# accounting line ("net loss of 12 M").
_FIGURE = r"(?:\p{N}|\p{Sc}|[+\-\u2212~]|\{|(?:one|two|three|four|five|six|seven|eight|nine|ten|twice|half)(?!\w))"
# An amount just before a word: "15% ", "3 points ", "20 bp ", "30 per cent ".
_MEASURE = r"(?:%|\p{N}\s?(?:points?|pts|pp|bps?)|\p{N}\s(?:per\s?cent|percent))\s"
# Words that hedge a figure without changing what it measures.
_HEDGE = r"(?:(?:roughly|around|about|nearly|almost|some|approximately|up\s+to|over|~)\s*)?"
_YARDSTICK = (
    r"(?:the\s+|its\s+|our\s+)?(?:"
    + _FIGURE
    + r"|consensus|guidance|expectations|estimates?|targets?|forecasts?|plan|budget|peers)"
)
_CONTEXTUAL = (
    rf"|(?P<up>up)(?=\s+(?:{_FIGURE}|(?:to|from|by)(?!\w))|\s*\|)"
    rf"|(?P<down>down)(?=\s+(?:{_FIGURE}|(?:to|from|by)(?!\w))|\s*\|)"
    rf"|(?P<above>above|ahead\s+of|more\s+than)(?=\s+{_YARDSTICK})"
    rf"|(?P<below>below|behind|less\s+than|short\s+of)(?=\s+{_YARDSTICK})"
    # A figure before a comparison makes it one ("15% below the leader", "30% smaller than").
    rf"|(?<={_MEASURE})(?P<more>above|larger|bigger|greater|more)"
    rf"|(?<={_MEASURE})(?P<less>below|smaller|fewer|less)"
    # A comparative adjective compares when "than" follows ("larger than the company's figure").
    r"|(?P<more>larger|bigger|greater)(?=\s+than(?!\w))"
    r"|(?P<less>smaller|fewer)(?=\s+than(?!\w))"
    # "contracted backlog" is under contract; "margin contracted (sharply) to" shrank.
    r"|(?P<contracted>contracted)(?!\s+(?![\p{L}]+ly(?![\p{L}]))(?!to|by|from|in|on|at|as|and|but|while)\p{L})"
    # A hedge may stand between a change and its figure ("gain around three points", "lost roughly 3").
    rf"|(?<!(?:net|operating|pre-tax|after-tax|comprehensive|impairment)\s+)(?P<gain>gain(?:s|ed|ing)?)(?=\s+(?:of\s|{_HEDGE}{_FIGURE}))"
    rf"|(?<!(?:net|operating|pre-tax|after-tax|comprehensive|impairment)\s+)(?P<loss>loss(?:es)?|lost|lose|loses|losing)(?=\s+(?:of\s|{_HEDGE}{_FIGURE}))"
)
_CONTEXT_MEANING = {
    "up": (SIZE, UP),
    "down": (SIZE, DOWN),
    "above": (SIZE, UP),
    "below": (SIZE, DOWN),
    "contracted": (SIZE, DOWN),
    "gain": (SIZE, UP),
    "loss": (SIZE, DOWN),
    "more": (SIZE, UP),
    "less": (SIZE, DOWN),
}
# A gap between two levels ("15% below the leader"), not a move over time: it
# is tied to a sentence only by a shared figure (see match.py).
_COMPARISONS = frozenset({"more", "less"})


def _trie(words: list[str]) -> str:
    """An alternation of literal words with shared prefixes factored out ("gr(?:ew|ow(?:s|th)?)").

    Matches what the plain alternation matches: a direction word must end at
    a word boundary, so at most one word of the lexicon can match at a place
    and the order of alternatives cannot matter. The regex engine walks a
    trie many times faster than two hundred alternatives.
    """
    root: dict[str, dict] = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}
    return _trie_node(root)


def _trie_node(node: dict[str, dict]) -> str:
    branches = [regex.escape(ch) + _trie_node(node[ch]) for ch in sorted(node) if ch]
    if not branches:
        return ""
    if "" in node:
        branches.append("")  # a word may end here
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


DIRECTION_WORD = regex.compile(
    # ``\b`` first: every alternative starts with a letter, and the engine skips to word starts fast.
    r"\b(?<![\w\-])(?:(?P<word>" + _trie(sorted(LEXICON)) + r")" + _CONTEXTUAL + r")(?![\w\-])",
    regex.IGNORECASE,
)
# A negation within the three words before a direction word.
_NEGATION = regex.compile(
    r"(?:(?<![\w])(?:not|no|never|neither|nor|without|no\s+longer|failed\s+to|fail\s+to|stopped|ceased|halted)|n['\u2019]t)"
    # At most two words between, none closing a clause ("did not grow; they slid").
    r"(?:\s+[^\s;,.:!?]+){0,2}\s+$",
    regex.IGNORECASE,
)
_LOOKBACK = 48  # characters: enough for three short words, and a bound on the scan


class Direction(NamedTuple):
    """A direction word: where it is, its axis and sign, and whether it is negated."""

    start: int
    end: int
    word: str
    axis: str
    sign: int
    negated: bool
    comparison: bool = False  # a gap between levels ("30% smaller than"), not a move


# Every alternative of DIRECTION_WORD begins with one of these words, whole.
# The first words of the contextual alternatives, by the meaning of every
# alternative that begins with them (_CONTEXT_MEANING of its group): "more"
# begins both "more than" (above) and "15% more" (more), which say the same.
_CONTEXT_FIRST_MEANING: dict[str, tuple[str, int]] = {
    **dict.fromkeys("up above ahead more gain gains gained gaining larger bigger greater".split(), (SIZE, UP)),
    **dict.fromkeys(
        "down below behind less short contracted loss losses lost lose loses losing smaller fewer".split(), (SIZE, DOWN)
    ),
}
_CONTEXT_FIRST = frozenset(_CONTEXT_FIRST_MEANING)
_FIRST_WORDS = frozenset(LEXICON) | _CONTEXT_FIRST
_RUN = regex.compile(r"\w+")


# The third axis: what a result was, a gain or a loss, whatever it is called
# ("unrealised gains" against "unrealised losses"; a gain booked on what a card
# calls a write-off). Nouns only: "gained 5%" is a size.
_OUTCOME_WORD = regex.compile(
    r"\b(?<![\w\-])(?:(?P<up>gains?)|(?P<down>loss(?:es)?|write-?offs?|write-?downs?|impairments?))(?![\w\-])",
    regex.IGNORECASE,
)
# Every match of _OUTCOME_WORD begins with one of these words, whole ("write" of "write-off"), by its meaning.
_OUTCOME_FIRST_MEANING: dict[str, tuple[str, int]] = {
    **dict.fromkeys("gain gains".split(), (OUTCOME, UP)),
    **dict.fromkeys("loss losses write writeoff writeoffs writedown writedowns impairment impairments".split(), (OUTCOME, DOWN)),
}
_OUTCOME_FIRST = frozenset(_OUTCOME_FIRST_MEANING)
# Candidate words in lowercased ASCII text: one pass of the ``re`` engine, which
# skips to a possible first letter in C (far cheaper than a Python loop over words).
_CANDIDATE = re.compile(r"\b(?:" + _trie(sorted(_FIRST_WORDS | _OUTCOME_FIRST)) + r")\b")


# The only characters that case-fold onto ASCII letters (long s, Kelvin sign) or
# lowercase to two characters (dotted capital I): text without them can be lowered
# and scanned for ASCII words offset for offset.
_FOLDS_ODDLY = "\u017f\u212a\u0130"


def _lowered(text: str) -> str | None:
    """``text.lower()`` when its offsets and words are those of ``text`` (see _FOLDS_ODDLY), else None."""
    if text.isascii() or not any(odd in text for odd in _FOLDS_ODDLY):
        return text.lower()
    return None


def _candidates(text: str, start: int, stop: int) -> Iterator[tuple[int, str]]:
    """(offset, lowercased word) of every word run in ``text[start:stop]`` that may begin a direction.

    Every run that is one of the first words is yielded (and others may be;
    the patterns decide). Text with a character that folds oddly has every
    non-ASCII run yielded too, case folding being the regex engine's business.
    """
    lowered = _lowered(text[start:stop])
    if lowered is not None:
        for found in _CANDIDATE.finditer(lowered):
            yield start + found.start(), found.group()
        return
    for run in _RUN.finditer(text, start, stop):
        word = run.group()
        if not word.isascii() or word.lower() in _FIRST_WORDS or word.lower() in _OUTCOME_FIRST:
            yield run.start(), word.lower() if word.isascii() else ""


def _direction_matches(text: str, start: int, stop: int) -> Iterator[regex.Match[str]]:
    """What ``DIRECTION_WORD.finditer(text, start, stop)`` yields, tried only at likely words.

    A match starts a run of word characters and its first word is that whole
    run, so the pattern is tried only at :func:`_candidates`.
    """
    for _at, match in _matches(text, start, stop):
        if match.re is DIRECTION_WORD:
            yield match


# Characters that make a word character or a hyphen next to a direction word, in ASCII.
_ASCII_JOINERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


class DirectionReader:
    """The direction words of many sentences of one text: what :func:`directions` gives, read faster.

    Each range read is lowercased (with the character before it, for the
    word boundary) and candidate words are found there by the ``re``
    engine. A candidate that is a word of the
    lexicon, between ASCII characters that join no word, is what the
    pattern's first alternative matches there, so it is taken without
    running the pattern; any other candidate is tried with it. Text with a
    character that folds oddly is read the plain way.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.plain = False  # the text folds oddly: read each range the plain way
        self.flat: bytes | None = None

    def _flat(self) -> bytes | None:
        """The text as :func:`_flattened` gives it, or None when it folds oddly."""
        flat = self.flat
        if flat is None and not self.plain:
            text = self.text
            self.plain = not text.isascii() and any(odd in text for odd in _FOLDS_ODDLY)
            if not self.plain:
                flat = self.flat = _flattened(text)
        return flat

    def directions_saying(self, start: int, stop: int, kinds: frozenset[tuple[str, int, bool]]) -> list[Direction] | None:
        """:meth:`directions`, or None when no direction word there can say one of ``kinds`` (see :meth:`may_say`)."""
        return self.directions(start, stop) if self.may_say(start, stop, kinds) else None

    def may_say(self, start: int, stop: int, kinds: frozenset[tuple[str, int, bool]], sentence_start: int | None = None) -> bool:
        """False when no direction word starting in ``text[start:stop]`` says one of ``kinds`` (axis, sign, negated).

        Decided by C-level work on the flattened bytes, without a pattern run
        or a match object per word: the words there (every candidate is one,
        see :func:`_flattened`) include none that begins a word saying one of
        the unnegated kinds, and none that begins one of the negated kinds or
        no negation key stands where it could negate one (from ``start``, or
        within reach of it but not before ``sentence_start``). A word is
        whole there when it ends by ``stop + 1``.
        """
        flat = self._flat()
        if flat is None:
            return True
        unnegated, negated = _first_bytes_saying(kinds)
        tokens = flat[start : stop + 1].split()
        if not unnegated.isdisjoint(tokens):
            return True
        if negated.isdisjoint(tokens):
            return False
        # A negation window reaches _LOOKBACK characters back: a search from there is linear in the stretch.
        reach = start if sentence_start is None else max(sentence_start, start - _LOOKBACK)
        return _FLAT_NEGATION_KEY.search(flat, reach, stop) is not None

    def blank_from(self, at: int) -> int | None:
        """The first offset from ``at`` where the flattened text is blank (no word runs across it), if any."""
        flat = self._flat()
        found = -1 if flat is None else flat.find(b" ", at)
        return None if found < 0 else found

    def directions(self, start: int, stop: int) -> list[Direction]:
        """Every direction word in ``text[start:stop]``, as ``directions(text, start, stop)`` gives them."""
        if self._flat() is None:
            return directions(self.text, start, stop)
        # The character before the range (the word boundary at its start is the text's), and
        # one past it: a word that runs past the end, cut there, still ends past it (and is
        # skipped). Lowered apart, a stretch of text that does not fold oddly keeps its offsets.
        base = max(start - 1, 0)
        lowered = self.text[base : stop + 1].lower()
        return self._read(lowered, base, start, stop)

    def _read(self, lowered: str, base: int, start: int, stop: int) -> list[Direction]:
        """The directions of ``text[start:stop]``; ``lowered`` is ``text[base:]`` lowercased, at least to ``stop + 1``."""
        text = self.text
        found: list[Direction] = []
        last = start
        for candidate in _CANDIDATE.finditer(lowered, start - base, stop + 1 - base):
            at = candidate.start() + base
            if at >= stop:
                break
            end = candidate.end() + base
            if end > stop:
                continue
            word = candidate.group()
            if at >= last and word in _FIRST_WORDS:
                meaning = LEXICON.get(word)
                if (
                    meaning is not None
                    and (at == 0 or (text[at - 1] not in _ASCII_JOINERS and text[at - 1].isascii()))
                    and (end == stop or (text[end] not in _ASCII_JOINERS and text[end].isascii()))
                ):
                    last = end
                    found.append(Direction(at, end, text[at:end], *meaning, _negated_in(lowered, text, start, at, base)))
                else:
                    match = DIRECTION_WORD.match(text, at, stop)
                    if match is not None:
                        last = match.end()
                        found.append(_direction(text, start, at, match, _negated_in(lowered, text, start, at, base)))
            if word in _OUTCOME_FIRST:
                outcome = _OUTCOME_WORD.match(text, at, stop)
                if outcome is not None:
                    found.append(_direction(text, start, at, outcome, _negated_in(lowered, text, start, at, base)))
        return found


def _matches(
    text: str, start: int, stop: int, candidates: list[tuple[int, str]] | None = None
) -> Iterator[tuple[int, regex.Match[str]]]:
    """Matches of DIRECTION_WORD (as its finditer gives them) and of _OUTCOME_WORD, by place.

    ``candidates``: the (offset, lowercased word) to try, when already found.
    """
    last = start
    for at, word in _candidates(text, start, stop) if candidates is None else candidates:
        if at >= last and (not word or word in _FIRST_WORDS):  # not inside the previous match ("ahead of")
            match = DIRECTION_WORD.match(text, at, stop)
            if match is not None:
                last = match.end()
                yield at, match
        if not word or word in _OUTCOME_FIRST:
            outcome = _OUTCOME_WORD.match(text, at, stop)
            if outcome is not None:
                yield at, outcome


def first_words_saying(kinds: frozenset[tuple[str, int, bool]], negated: bool = False) -> frozenset[str]:
    """The candidate words that may begin a direction word saying one of ``kinds`` (axis, sign, negated).

    Those of the kinds that are unnegated, or (``negated``) negated. A
    lexicon word says its own meaning, the first word of a contextual
    alternative the meaning of its alternatives, and an outcome word its
    outcome (a first word may begin both: "gains").
    """
    said = {(axis, sign) for axis, sign, is_negated in kinds if is_negated == negated}
    return frozenset(
        word
        for meanings in (LEXICON, _CONTEXT_FIRST_MEANING, _OUTCOME_FIRST_MEANING)
        for word, meaning in meanings.items()
        if meaning in said
    )


def directions(text: str, start: int = 0, end: int | None = None) -> list[Direction]:
    """Every direction word in ``text[start:end]``, in order (a gain or loss word also once on the outcome axis).

    For many sentences of one text, :class:`DirectionReader` gives the same faster.
    """
    stop = len(text) if end is None else end
    return [_direction(text, start, at, match) for at, match in _matches(text, start, stop)]


def _negated(text: str, start: int, at: int) -> bool:
    """Whether a negation stands within the three words before ``at`` (not before ``start``)."""
    return _NEGATION.search(text[max(start, at - _LOOKBACK) : at]) is not None


# What every negation of _NEGATION holds, lowercased, with the blank that must
# follow it: a window (or sentence) without any needs no search. One stdlib scan,
# which skips to these first letters in C (most keys share the first "n").
_NEGATION_KEY = re.compile(r"n(?:ot|o|ever|either|or|'t|\u2019t)\s|without\s|fail(?:ed)?\s|stopped\s|ceased\s|halted\s")


# Flattening: a byte per character, the ASCII characters that make words kept
# (capitals made small), every other one a blank ("?" first, for what ASCII lacks).
_FLAT = bytes(ord(chr(b).lower()) if b < 128 and (chr(b).isalnum() or chr(b) == "_") else 32 for b in range(256))


def _flattened(text: str) -> bytes:
    """``text`` a byte per character, offset for offset: its ASCII word characters lowercased, all else blank.

    A candidate word (ASCII letters between characters that are not word
    characters) of text that does not fold oddly is a whole blank-separated
    word of the flattened text at the same offsets, and a negation key
    (lowercase, see _NEGATION_KEY) is one of _FLAT_NEGATION_KEY there.
    """
    return text.encode("ascii", "replace").translate(_FLAT)


# _NEGATION_KEY as it reads flattened: apostrophes and every blank are one blank.
_FLAT_NEGATION_KEY = re.compile(rb"n(?:ot|o|ever|either|or| t) |without |fail(?:ed)? |stopped |ceased |halted ")
_SAYING: dict[frozenset[tuple[str, int, bool]], tuple[frozenset[bytes], frozenset[bytes]]] = {}


def _first_bytes_saying(kinds: frozenset[tuple[str, int, bool]]) -> tuple[frozenset[bytes], frozenset[bytes]]:
    """:func:`first_words_saying` ``kinds``, unnegated and negated, encoded; kept per set of kinds."""
    found = _SAYING.get(kinds)
    if found is None:
        if len(_SAYING) >= 4096:  # every set of the twelve kinds; a bound for callers that make up others
            _SAYING.clear()
        unnegated = frozenset(word.encode() for word in first_words_saying(kinds))
        negated = frozenset(word.encode() for word in first_words_saying(kinds, negated=True))
        found = _SAYING[kinds] = (unnegated, negated)
    return found


def _negated_in(lowered: str, text: str, start: int, at: int, base: int = 0) -> bool:
    """:func:`_negated`, given ``text[base:].lower()`` offset for offset (see _FOLDS_ODDLY), ``base`` <= ``start``."""
    window = _NEGATION_KEY.search(lowered, max(start, at - _LOOKBACK) - base, at - base)
    return window is not None and _negated(text, start, at)


def _direction(text: str, start: int, at: int, match: regex.Match[str], negated: bool | None = None) -> Direction:
    if negated is None:
        negated = _negated(text, start, at)
    if match.re is _OUTCOME_WORD:
        return Direction(at, match.end(), match.group(), OUTCOME, UP if match.lastgroup == "up" else DOWN, negated)
    kind = match.lastgroup or "word"
    if kind == "word":
        axis, sign = LEXICON[match.group().lower()]
    else:
        axis, sign = _CONTEXT_MEANING[kind]
    return Direction(at, match.end(), match.group(), axis, sign, negated, kind in _COMPARISONS)


# "to 12.1% from 11.6%" and "from 11.6% to 12.1%": the numbers say which way,
# whatever the verb (a card may say "improved" and mean "rose").
_AMOUNT = r"[\p{Sc}]?\p{N}[\p{N}.,]*(?:%|\s?(?:bp|bps|pp|x|[kKmMbB]n?|million|billion|months?|years?|[A-Z]{3})(?![\p{L}]))?"
_FROM_TO = regex.compile(
    rf"(?<!\w)(?:to\s+(?P<to>{_AMOUNT})[^.;:\n]{{0,40}}?(?<!\w)from\s+(?P<from>{_AMOUNT})"
    rf"|from\s+(?P<from2>{_AMOUNT})\s+to\s+(?P<to2>{_AMOUNT}))",
    regex.IGNORECASE,
)
# "61% in community practices versus 89%": the first is below the second.
_VERSUS = regex.compile(
    rf"(?<![\w.,])(?P<to>{_AMOUNT})[^.;:\n\d]{{0,40}}?(?<!\w)(?:versus|vs\.?|compared\s+with|against)"
    rf"[^.;:\n\d]{{0,24}}?(?P<from>{_AMOUNT})",
    regex.IGNORECASE,
)


def implied_directions(text: str) -> list[Direction]:
    """Size directions a text implies by its numbers alone ("to 12.1% from 11.6%": up)."""
    found: list[Direction] = []
    for pattern in (_FROM_TO, _VERSUS):
        for match in pattern.finditer(text):
            new = "to" if match.group("to") else "to2"
            old = "from" if match.group("from") else "from2"
            a = _amount_value(match.group(new), text[match.end(new) :][:32])
            b = _amount_value(match.group(old), text[match.end(old) :][:32])
            if a is None or b is None or a.scaled == b.scaled:
                continue
            sign = UP if a.scaled > b.scaled else DOWN
            found.append(Direction(match.start(), match.end(), match.group(), SIZE, sign, False))
    found.sort()
    return found


def _amount_value(amount: str, after: str) -> Value | None:
    """The value of an amount ("12.1%", "1.2 B"), its unit read from the rest of it."""
    parts = amount.split(maxsplit=1)
    if not parts:
        return None
    rest = (" " + parts[1] if len(parts) > 1 else "") + after
    return read_numeral(parts[0], "", rest)


def contradicts(stated: Direction, source: Direction) -> bool:
    """Whether ``stated`` says the opposite of ``source`` on the same axis.

    Opposite signs, neither negated ("grew" against "fell"); or the same
    sign with exactly one negated ("did not fall" against "fell"). Two
    negations assert nothing either way.
    """
    if stated.axis != source.axis:
        return False
    if not stated.negated and not source.negated:
        return stated.sign != source.sign
    if stated.negated != source.negated:
        return stated.sign == source.sign
    return False


def agrees(stated: Direction, source: Direction) -> bool:
    """Whether ``stated`` says what ``source`` says on the same axis."""
    return stated.axis == source.axis and stated.sign == source.sign and stated.negated == source.negated
