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
    higher highest advanced advancing boosted raise raised raises raising"""
)
# ... or smaller (size, down).
_SIZE_DOWN = _forms(
    """fell fall falls falling fallen decline declined declines declining decrease decreased decreases decreasing
    drop dropped drops dropping dip dipped dips dipping slip slipped slips slipping slid slide slides sliding
    shrink shrank shrinks shrinking shrunk contracting contraction narrow narrowed narrows narrowing
    decelerate decelerated decelerates decelerating deceleration plunge plunged plunges plunging tumble tumbled
    slump slumped slumps slumping sank sink sinks sinking halved eroded eroding compressed compression
    lower lowest retreated reduce reduced reduces reducing reduction ease eased eases easing cut cuts cutting"""
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
# Each contextual alternative, with the words it may begin with (as the flattened text has them).
_CONTEXT_ALTERNATIVES: list[tuple[str, str]] = [
    ("up", rf"(?P<up>up)(?=\s+(?:{_FIGURE}|(?:to|from|by)(?!\w))|\s*\|)"),
    ("down", rf"(?P<down>down)(?=\s+(?:{_FIGURE}|(?:to|from|by)(?!\w))|\s*\|)"),
    ("above ahead more", rf"(?P<above>above|ahead\s+of|more\s+than)(?=\s+{_YARDSTICK})"),
    ("below behind less short", rf"(?P<below>below|behind|less\s+than|short\s+of)(?=\s+{_YARDSTICK})"),
    # A figure before a comparison makes it one ("15% below the leader", "30% smaller than").
    ("above larger bigger greater more", rf"(?<={_MEASURE})(?P<more>above|larger|bigger|greater|more)"),
    ("below smaller fewer less", rf"(?<={_MEASURE})(?P<less>below|smaller|fewer|less)"),
    # A comparative adjective compares when "than" follows ("larger than the company's figure").
    ("larger bigger greater", r"(?P<more>larger|bigger|greater)(?=\s+than(?!\w))"),
    ("smaller fewer", r"(?P<less>smaller|fewer)(?=\s+than(?!\w))"),
    # "contracted backlog" is under contract; "margin contracted (sharply) to" shrank.
    (
        "contracted",
        r"(?P<contracted>contracted)(?!\s+(?![\p{L}]+ly(?![\p{L}]))(?!to|by|from|in|on|at|as|and|but|while)\p{L})",
    ),
    # A hedge may stand between a change and its figure ("gain around three points", "lost roughly 3").
    (
        "gain gains gained gaining",
        rf"(?<!(?:net|operating|pre-tax|after-tax|comprehensive|impairment)\s+)(?P<gain>gain(?:s|ed|ing)?)(?=\s+(?:of\s|{_HEDGE}{_FIGURE}))",
    ),
    (
        "loss losses lost lose loses losing",
        rf"(?<!(?:net|operating|pre-tax|after-tax|comprehensive|impairment)\s+)(?P<loss>loss(?:es)?|lost|lose|loses|losing)(?=\s+(?:of\s|{_HEDGE}{_FIGURE}))",
    ),
]
_CONTEXTUAL = "".join("|" + alternative for _words, alternative in _CONTEXT_ALTERNATIVES)
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
# DIRECTION_WORD as it reads at a contextual first word: only the alternatives that may begin
# with it, in the same order. Such a word is no word of the lexicon, and every alternative
# begins with one first word, whole (see _CONTEXT_ALTERNATIVES): where the text does not fold
# oddly (see DirectionReader), the others cannot match there, so the match is the same, for a
# fraction of the work (the full pattern tries every alternative, lookbehinds first).
_AT_CONTEXT_WORD = {
    word: regex.compile(
        r"\b(?<![\w\-])(?:"
        + "|".join(alternative for words, alternative in _CONTEXT_ALTERNATIVES if word in words.split())
        + r")(?![\w\-])",
        regex.IGNORECASE,
    )
    for word in sorted(_CONTEXT_FIRST)
}
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

    def flat_text(self) -> bytes | None:
        """The text flattened (see :func:`_flattened`), or None when it folds oddly (then read it the plain way)."""
        return self._flat()

    def directions(self, start: int, stop: int) -> list[Direction]:
        """Every direction word in ``text[start:stop]``, as ``directions(text, start, stop)`` gives them."""
        flat = self._flat()
        if flat is None:
            return directions(self.text, start, stop)
        return self._read(flat, _flat_candidates(flat, start, stop), start, stop)

    def _read(self, flat: bytes, candidates: list[tuple[int, str]], start: int, stop: int) -> list[Direction]:
        """The directions of ``text[start:stop]``, tried at ``candidates`` (see :func:`_flat_candidates`)."""
        text = self.text
        found: list[Direction] = []
        last = start
        for at, word in candidates:
            end = at + len(word)
            if at >= last and word in _FIRST_WORDS:
                meaning = LEXICON.get(word)
                if (
                    meaning is not None
                    and (at == 0 or (text[at - 1] not in _ASCII_JOINERS and text[at - 1].isascii()))
                    and (end == stop or (text[end] not in _ASCII_JOINERS and text[end].isascii()))
                ):
                    last = end
                    found.append(Direction(at, end, text[at:end], *meaning, _negated_flat(flat, text, start, at)))
                else:
                    match = _AT_CONTEXT_WORD.get(word, DIRECTION_WORD).match(text, at, stop)
                    if match is not None:
                        last = match.end()
                        found.append(_direction(text, start, at, match, _negated_flat(flat, text, start, at)))
            if word in _OUTCOME_FIRST:
                outcome = _OUTCOME_WORD.match(text, at, stop)
                if outcome is not None:
                    found.append(_direction(text, start, at, outcome, _negated_flat(flat, text, start, at)))
        return found


# The words that may begin a direction (or an outcome), flattened, and the same as one scan of the
# ``re`` engine for stretches that hold many of them (see _flat_candidates).
_FIRST_BYTES = frozenset(word.encode() for word in _FIRST_WORDS | _OUTCOME_FIRST)
_FLAT_CANDIDATE = re.compile(rb"\b(?:" + _trie(sorted(_FIRST_WORDS | _OUTCOME_FIRST)).encode() + rb")\b")
# Distinct first words in a stretch past which one scan is cheaper than a search per word.
_FEW_WORDS = 8


def _flat_candidates(flat: bytes, start: int, stop: int) -> list[tuple[int, str]]:
    """(offset, word) of every whole word of ``flat`` that may begin a direction, in ``[start, stop)``, in order.

    What the candidate pattern finds in the lowered text there, and a few
    more: a word next to a non-ASCII letter is whole only in the flattened
    text (neither pattern matches there, see :meth:`DirectionReader._read`).
    A stretch's words are split off in C, and each first word among them is
    found by ``bytes.find``: far cheaper than a pattern tried at every word
    start. A stretch with many distinct first words is scanned once instead,
    so a long one costs a bounded number of passes.
    """
    present = _FIRST_BYTES.intersection(flat[start:stop].split())
    found: list[tuple[int, str]] = []
    if len(present) > _FEW_WORDS:
        for candidate in _FLAT_CANDIDATE.finditer(flat, start, stop):
            at, end = candidate.span()
            if _whole_at(flat, at, end):
                found.append((at, candidate.group().decode()))
        return found
    for word in present:
        text = word.decode()
        found.extend((at, text) for at in whole_word_starts(flat, word, start, stop))
    found.sort()
    return found


def _whole_at(flat: bytes, at: int, end: int) -> bool:
    """Whether ``flat[at:end]`` is a whole word of the flattened text (blanks, or its ends, on both sides)."""
    return (at == 0 or flat[at - 1] == 32) and (end == len(flat) or flat[end] == 32)


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


def first_bytes_saying(kinds: frozenset[tuple[str, int, bool]]) -> tuple[frozenset[bytes], frozenset[bytes]]:
    """:func:`first_words_saying` ``kinds``, unnegated and negated, encoded; kept per set of kinds."""
    found = _SAYING.get(kinds)
    if found is None:
        if len(_SAYING) >= 4096:  # every set of the twelve kinds; a bound for callers that make up others
            _SAYING.clear()
        unnegated = frozenset(word.encode() for word in first_words_saying(kinds))
        negated = frozenset(word.encode() for word in first_words_saying(kinds, negated=True))
        found = _SAYING[kinds] = (unnegated, negated)
    return found


def may_say_in(flat: bytes, start: int, stop: int, unnegated: frozenset[bytes], negated: frozenset[bytes], floor: int) -> bool:
    """False when no direction word starting in ``flat[start:stop]`` may say a kind it is asked about.

    Such a word begins with one of ``unnegated`` (the first words of the
    unnegated kinds), or with one of ``negated`` and has a negation key in
    its window (not before ``floor``). Decided by C-level work on the
    flattened bytes, without a pattern run or a match object per word: every
    candidate word is a whole word of the flattened text (see
    :func:`_flattened`), and a word is negated only when a negation key of
    the flattened text stands in its window (see :func:`_negated_flat`).
    The words are those of ``flat[start : stop + 1]`` (a word is whole when
    it ends by ``stop + 1``). Most sentences that repeat their cards' words
    hold no negation key: one search rules them out; where a key stands, only
    a window that ends at a word of ``negated`` can hold the negation.
    """
    tokens = flat[start : stop + 1].split()
    if not unnegated.isdisjoint(tokens):
        return True
    # A negation window reaches _LOOKBACK characters back: a search from there is linear in the stretch.
    # (The word test first: a set lookup per token is cheaper than the search, and usually settles it.)
    if negated.isdisjoint(tokens) or _FLAT_NEGATION_KEY.search(flat, max(floor, start - _LOOKBACK), stop) is None:
        return False
    # Each window is searched once: linear in the stretch too.
    return any(
        _FLAT_NEGATION_KEY.search(flat, max(floor, at - _LOOKBACK), at) is not None
        for word in negated.intersection(tokens)
        for at in whole_word_starts(flat, word, start, stop + 1)
    )


def whole_word_starts(flat: bytes, word: bytes, start: int, end: int, cut: bool = False) -> Iterator[int]:
    """Where ``word`` stands whole in ``flat`` (see :func:`_whole_at`) within ``flat[start:end]``, in order.

    ``cut``: the stretch's end ends a word too (as for a pattern run with ``end`` as its end).

    Linear in the stretch: each search resumes past the previous find, and
    a whole word cannot start inside another find (there is no blank there).
    """
    at = flat.find(word, start, end)
    while at >= 0:
        stop = at + len(word)
        if _whole_at(flat, at, stop) or (cut and stop == end and (at == 0 or flat[at - 1] == 32)):
            yield at
        at = flat.find(word, at + len(word), end)


def _negated_flat(flat: bytes, text: str, start: int, at: int) -> bool:
    """:func:`_negated`, given the text flattened: a window without a negation key (flattened) needs no search.

    Every negation holds a key of _NEGATION_KEY, and every such key of the
    lowered text is one of _FLAT_NEGATION_KEY in the flattened text at the
    same place (see :func:`_flattened`).
    """
    return _FLAT_NEGATION_KEY.search(flat, max(start, at - _LOOKBACK), at) is not None and _negated(text, start, at)


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


# "118%, down from 124%", "3.2x, up from 2.9x": a level, then where it came from.
_DOWN_UP_FROM = regex.compile(
    rf"(?<![\w.,])(?P<to>{_AMOUNT})[^.;:\n\d]{{0,40}}?(?<!\w)(?:down|up|lower|higher)\s+from\s+(?P<from>{_AMOUNT})",
    regex.IGNORECASE,
)


def implied_directions(text: str) -> list[Direction]:
    """Size directions a text implies by its numbers alone ("to 12.1% from 11.6%": up)."""
    found: list[Direction] = []
    for pattern in (_FROM_TO, _VERSUS, _DOWN_UP_FROM):
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
