"""The shortcuts polarity_mismatch takes for speed give what the long way gives.

Each shortcut is compared with the pattern or function it stands for, on the
fixture sections and on text built (by a seeded generator and by hypothesis)
to crowd the places where the two could part: contextual direction words
beside figures, yardsticks and hyphens; every white-space character around
a dash; words beside digits, underscores, hyphens and apostrophes.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import ROOT, fixture_sections
from qcgrade.evidence import load_slice
from qcgrade.grounding import directions, match
from qcgrade.grounding.directions import (
    _AT_CONTEXT_WORD,
    _CONTEXT_ALTERNATIVES,
    _CONTEXT_FIRST,
    _CONTEXT_FIRST_MEANING,
    _CONTEXT_MEANING,
    DIRECTION_WORD,
    _flat_candidates,
)
from qcgrade.injectors import inject
from qcgrade.reading.section import parse_section

FIXTURES = fixture_sections()

# Contextual words and what decides them: figures, measures, yardsticks, "than", "of",
# the accounting words that rule out "gain"/"loss", hedges, hyphens, capitals, table cells.
_CONTEXT_PIECES = [
    *sorted(_CONTEXT_FIRST),
    *"UP Down MORE Less Above BELOW Gains LOSSES Larger".split(),
    *"than of to from by the its our consensus guidance estimates target peers plan budget".split(),
    *"net operating pre-tax impairment comprehensive roughly around about nearly some up to over ~".split(),
    *"5% 15% 3 points 20 bp 30 per cent 4pp two half {m} $3 -2 +1 \u22121 1.2".split(),
    *"sharply slowly to by in and but while backlog revenue margin".split(),
    *["|", "-", "_", "up-", "-down", "more_", "\u00e9", "caf\u00e9", "\n", ",", ".", "%"],
]


def _built_texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    gaps = [" ", " ", " ", "  ", "", "\u00a0", "\n"]
    return ["".join(rng.choice(_CONTEXT_PIECES) + rng.choice(gaps) for _ in range(rng.randint(1, 30))) for _ in range(count)]


def _context_word_sites(text: str) -> list[tuple[int, str]]:
    """Every candidate word of ``text`` that only the contextual alternatives may match (see DirectionReader._read)."""
    flat = directions.DirectionReader(text).flat_text()
    if flat is None:
        return []  # the text folds oddly: it is read the plain way, with the full pattern
    return [(at, word) for at, word in _flat_candidates(flat, 0, len(text)) if word in _AT_CONTEXT_WORD]


def _check_context_words(text: str) -> tuple[int, int]:
    """Compare the per-word pattern with the full one at every contextual word, to the end and cut short."""
    matched = tried = 0
    for at, word in _context_word_sites(text):
        for stop in {len(text), min(len(text), at + len(word) + 3), min(len(text), at + 12)}:
            full = DIRECTION_WORD.match(text, at, stop)
            small = _AT_CONTEXT_WORD[word].match(text, at, stop)
            expected = None if full is None else (full.span(), full.lastgroup, full.group())
            got = None if small is None else (small.span(), small.lastgroup, small.group())
            assert got == expected, (text, at, stop, word)
            tried += 1
            matched += full is not None
    return matched, tried


def test_the_alternatives_are_the_pattern_and_say_their_first_words_meanings() -> None:
    """The alternatives spell DIRECTION_WORD's contextual part; each first word means what the alternatives it begins mean."""
    contextual = "".join("|" + alternative for _words, alternative in _CONTEXT_ALTERNATIVES)
    assert DIRECTION_WORD.pattern.endswith(contextual + r")(?![\w\-])")
    assert {word for words, _alternative in _CONTEXT_ALTERNATIVES for word in words.split()} == _CONTEXT_FIRST
    for words, alternative in _CONTEXT_ALTERNATIVES:
        names = set(regex.compile(alternative).groupindex)
        for word in words.split():
            assert {_CONTEXT_MEANING[name] for name in names} == {_CONTEXT_FIRST_MEANING[word]}, (word, alternative)


def test_an_alternative_matches_only_at_the_words_it_is_listed_with() -> None:
    """What the per-word patterns rest on: no alternative matches at a first word it is not listed with."""
    alone = [
        (set(words.split()), regex.compile(r"\b(?<![\w\-])(?:" + alternative + r")(?![\w\-])", regex.IGNORECASE))
        for words, alternative in _CONTEXT_ALTERNATIVES
    ]
    listed = 0
    texts = [p.read_text(encoding="utf-8") for p in FIXTURES] + _built_texts(600, seed=19)
    for text in texts:
        flat = directions.DirectionReader(text).flat_text()
        if flat is None:
            continue
        for at, word in _flat_candidates(flat, 0, len(text)):
            for words, pattern in alone:
                found = pattern.match(text, at) is not None
                assert not found or word in words, (text, at, word, pattern.pattern)
                listed += found
    assert listed > 300


def test_context_word_patterns_match_as_the_full_pattern_on_the_fixtures() -> None:
    matched = tried = 0
    for path in FIXTURES:
        found, seen = _check_context_words(path.read_text(encoding="utf-8"))
        matched, tried = matched + found, tried + seen
    assert tried > 200 and 0 < matched < tried


def test_context_word_patterns_match_as_the_full_pattern_on_built_text() -> None:
    matched = tried = 0
    for text in _built_texts(1500, seed=17):
        found, seen = _check_context_words(text)
        matched, tried = matched + found, tried + seen
    assert tried > 5000 and matched > 1000 and tried - matched > 1000


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(_CONTEXT_PIECES), max_size=24),
    st.lists(st.sampled_from(["", " ", "  ", "\u00a0", "\n", "\t"]), min_size=24, max_size=24),
)
def test_context_word_patterns_match_as_the_full_pattern_on_hypothesis_text(pieces: list[str], gaps: list[str]) -> None:
    _check_context_words("".join(piece + gap for piece, gap in zip(pieces, gaps)))


# Every character either engine may take for white space, and a few that neither does.
_SPACES = [chr(c) for c in range(0x110000) if chr(c).isspace() or regex.match(r"\s", chr(c))] + ["x", "\u200b", "_"]


def _punctuation_breaks_both_ways(text: str, start: int, end: int) -> None:
    expected = [m.span() for m in match._PUNCTUATION_BREAK.finditer(text, start, end)]
    assert [m.span() for m in match._PUNCTUATION_BREAK_RE.finditer(text, start, end)] == expected, (text, start, end)


def test_punctuation_breaks_read_alike_around_every_white_space() -> None:
    """A dash between two characters is a break for both engines, or for neither (U+001C..U+001F are the trap)."""
    breaks = 0
    for before in _SPACES:
        for after in _SPACES:
            text = f"a{before}-{after}b, c"
            _punctuation_breaks_both_ways(text, 0, len(text))
            breaks += regex.search(r"\s-\s", text) is not None
    spaces = sum(regex.match(r"\s", c) is not None for c in _SPACES)
    assert breaks == spaces**2
    assert "\x1c" in _SPACES and spaces < len(_SPACES) - 3  # the stdlib's own spaces are tried too


def test_punctuation_breaks_read_alike_on_fixtures_and_built_text() -> None:
    rng = random.Random(23)
    pieces = [",", ";", ":", "(", ")", "\u2013", "\u2014", "-", " - ", "x", "word", *rng.sample(_SPACES, 12)]
    texts = [p.read_text(encoding="utf-8") for p in FIXTURES]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 40))) for _ in range(3000)]
    for text in texts:
        for start in (0, len(text) // 3):
            _punctuation_breaks_both_ways(text, start, len(text) - start // 2)


# Words beside everything that decides where one starts and ends in ASCII text.
_WORD_PIECES = [*"revenue Margin net-debt don't it's ab abc abcd x2 2x _abcd abcd_ -abcd abcd- ''abcd".split(), *" ,.1_-'", "  "]


def _clauses() -> list[str]:
    """Clauses of the fixture sections (as the judge reads them) and built ASCII text."""
    found = []
    for path in FIXTURES:
        text = path.read_text(encoding="utf-8")
        for sentence in parse_section(text).sentences:
            found.extend(text[lo:hi] for lo, hi in _clause_spans(text, sentence.start, sentence.end))
    rng = random.Random(29)
    found += ["".join(rng.choice(_WORD_PIECES) for _ in range(rng.randint(1, 20))) for _ in range(3000)]
    return found


def _clause_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    breaks = [m.span() for m in match._CLAUSE_BREAK.finditer(text, start, end)]
    edges = [start, *(edge for span in breaks for edge in span), end]
    return [(edges[i], edges[i + 1]) for i in range(0, len(edges), 2)]


def _content_words_the_long_way(text: str) -> frozenset[str]:
    stems = set()
    for found in match._WORD.finditer(text):
        word = found.group().lower()
        if word not in match._STOPWORDS and word not in directions.LEXICON:
            stems.add(word[: match._STEM])
    return frozenset(stems)


def test_content_words_of_ascii_text_are_the_patterns() -> None:
    ascii_clauses = words = 0
    for clause in _clauses():
        expected = _content_words_the_long_way(clause)
        assert match.content_words(clause) == expected, clause
        ascii_clauses += clause.isascii()
        words += len(expected)
    assert ascii_clauses > 2000 and words > 2000


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([*_WORD_PIECES, "\u00e9", "caf\u00e9", "\u0131"]), max_size=16).map("".join))
def test_content_words_on_hypothesis_text(text: str) -> None:
    assert match.content_words(text) == _content_words_the_long_way(text)


# The long way for the whole check: no sentence ruled out before reading, every one read with
# the plain pattern (what polarity_misses does for a text that folds oddly).
def _misses(
    section_text: str, evidence: object, long_way: bool, monkeypatch: pytest.MonkeyPatch, every_suspect: bool = False
) -> list[tuple]:
    """What polarity_misses finds; ``every_suspect``: each word it judges counts as a miss (so every suspect is seen)."""
    with monkeypatch.context() as patched:
        if long_way:
            patched.setattr(directions.DirectionReader, "flat_text", lambda self: None)
            patched.setattr(directions.DirectionReader, "_flat", lambda self: None)
        if every_suspect:
            patched.setattr(match._SentenceReader, "judge", _judged_a_miss)
        section = parse_section(section_text)
        found = match.polarity_misses(section, evidence)  # type: ignore[arg-type]
        return [(m.direction, m.card, m.card_direction.direction, m.cited.index) for m in found]


def _judged_a_miss(reader: match._SentenceReader, direction: directions.Direction) -> match.PolarityMiss:
    """A judge that finds every word it is asked about a miss: what reaches it is what the filters let through."""
    said = match.CardDirection(direction, "", (), frozenset())
    return match.PolarityMiss(direction, "", said, reader.where)


_SLICES = sorted((ROOT / "fixtures").rglob("*.json"))
# Sentences of one or more citation groups, dense in direction words of both signs, negated
# or not, the negation near the word, far from it, or in another sentence.
_SECTION_PIECES = [
    *"revenue the margin costs volumes prices of and in 2024 5% 11% 18% was to from".split() * 6,
    *"rose fell grew declined higher lower up down increased narrowed widened improved worsened".split() * 3,
    *["did not", "never", "no longer", "failed to", "didn't", "cannot", "without"],
    *["[C1]", "[C2]", "[C3]", "[C1][C2]", "[C2], [C3]"] * 4,
    *[".", ";", ",", "\n\n", "|"],
]


@pytest.mark.parametrize("path", _SLICES, ids=lambda p: p.parent.name)
def test_polarity_misses_are_the_long_ways_on_fixtures_and_injections(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every fixture section of the slice, and its injections: the same misses with and without the shortcuts."""
    evidence = load_slice(path.read_bytes())
    texts = [path.with_suffix(".md").read_text(encoding="utf-8")]
    for defect in ("claim_negation", "number_swap", "citation_swap"):
        for seed in range(4):
            try:
                texts.append(inject(texts[0], evidence, defect, seed).text)
            except ValueError:  # the defect does not apply to this section
                continue
    for text in texts:
        assert _misses(text, evidence, False, monkeypatch) == _misses(text, evidence, True, monkeypatch)
        for negated in (text, _negated_throughout(text)):
            assert _misses(negated, evidence, False, monkeypatch, True) == _misses(negated, evidence, True, monkeypatch, True)
    assert len(texts) > 1


def _negated_throughout(text: str) -> str:
    """The text with its commonest direction words negated: suspects that only a negation makes."""
    for word in ("rose", "fell", "grew", "declined", "increased", "decreased", "improved", "higher", "lower"):
        text = text.replace(f" {word} ", f" did not {word} ")
    return text


def test_the_fixture_injections_hold_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above sees misses, not only sections without any."""
    missed = 0
    for path in _SLICES:
        evidence = load_slice(path.read_bytes())
        text = path.with_suffix(".md").read_text(encoding="utf-8")
        for seed in range(4):
            try:
                missed += len(_misses(inject(text, evidence, "claim_negation", seed).text, evidence, False, monkeypatch))
            except ValueError:
                continue
    assert missed > 5


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    path=st.sampled_from(_SLICES),
    pieces=st.lists(st.sampled_from(_SECTION_PIECES), max_size=60),
    rng=st.randoms(use_true_random=False),
)
def test_polarity_misses_are_the_long_ways_on_built_sections(
    path: Path, pieces: list[str], rng: random.Random, monkeypatch: pytest.MonkeyPatch
) -> None:
    evidence = load_slice(path.read_bytes())
    ids = [card.id for card in evidence.cards]
    text = " ".join(pieces)
    for i in range(3):
        text = text.replace(f"C{i + 1}]", f"{rng.choice(ids)}]")
    assert _misses(text, evidence, False, monkeypatch) == _misses(text, evidence, True, monkeypatch)
    assert _misses(text, evidence, False, monkeypatch, True) == _misses(text, evidence, True, monkeypatch, True)
