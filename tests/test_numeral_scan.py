"""The numeral scan's shortcuts read exactly what the plain scan reads.

A section's numerals are found stretch by stretch: the scan starts a little
before the first place a numeral may be (:class:`NumeralStarts`, mostly a
stdlib search) with the cheapest pattern for the stretch. Here each shortcut
is compared with the plain reading: ``NUMERAL_TRIGGER`` and the percent-word
search for where to start, and ``NUMERAL.finditer`` over the whole text for
what is read.
"""

from __future__ import annotations

import random
from pathlib import Path

import regex
from hypothesis import example, given
from hypothesis import strategies as st

from qcgrade.reading.names import is_name, names_by_pattern
from qcgrade.reading.numerals import (
    CLEAR_BEFORE,
    DIGIT_SHAPES,
    NOT_TRIGGERS,
    NUMERAL,
    NUMERAL_TRIGGER,
    PLAIN_NUMERAL,
    NumeralStarts,
    _plain_numeral,
    digit_shapes,
    non_ascii_chars,
    numeral_pattern,
    percent_word_at,
)
from qcgrade.reading.section import _blank, parse_section

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted(p for p in (ROOT / "fixtures").rglob("*.md") if p.name != "README.md") + sorted(
    (ROOT / "tests" / "corpora").rglob("*.md")
)

# Pieces that sit at the edges of the shortcuts: triggers of every kind,
# look-alikes, percent words in every case and spacing, near misses of them,
# characters left out of the stdlib scan, and one that lowercases to two.
PIECES = [
    "42",
    "4",
    "٤٢",
    "四十二",
    "\U0001f51f",
    "%",
    "\u2031",
    "\u066a",
    "$",
    "\u20ac",
    "\U0001ec8f",
    ",",
    ", ",
    ",O",
    ",\u0417",
    "l",
    "O",
    "IO",
    "lO",
    "\u0417\u041e",
    "percent",
    "PerCent",
    "per cent",
    "per\u00a0cent",
    "PCT",
    "pct",
    "recent",
    "cent",
    "percentage",
    " ",
    "\u00a0",
    "\u2029",
    "\u2063",
    "\u2014",
    "\u201c",
    "\u0130",
    "\u212a",
    "revenue",
    "FY25",
    ".",
    "-",
]


def _reference_first(text: str, start: int, end: int) -> int:
    trigger = NUMERAL_TRIGGER.search(text, start, end)
    first = trigger.start() if trigger is not None else end
    word = percent_word_at(text, start, first)
    if word >= 0:
        return word
    return first if trigger is not None else -1


def _built(pieces: list[str], seed: int, count: int, longest: int) -> list[str]:
    """``count`` texts of 1 to ``longest`` pieces, glued or spaced, then the corpus."""
    rng = random.Random(seed)
    built = [rng.choice(("", " ")).join(rng.choice(pieces) for _ in range(rng.randint(1, longest))) for _ in range(count)]
    return built + [p.read_text(encoding="utf-8") for p in CORPUS]


def _stretches(text: str, rng: random.Random) -> list[tuple[int, ...]]:
    """The whole text and three random stretches of it."""
    return [(0, len(text))] + [tuple(sorted(rng.sample(range(len(text) + 1), 2))) for _ in range(3) if len(text) > 1]


def _texts() -> list[str]:
    return _built(PIECES, 11, 3000, 30)


def test_characters_left_out_of_the_stdlib_scan_are_no_triggers() -> None:
    for char in NOT_TRIGGERS:
        assert NUMERAL_TRIGGER.match(char + "O") is None, hex(ord(char))
        assert regex.match(r"[\p{N}\p{Sc}]", char) is None, hex(ord(char))


def test_where_a_numeral_may_start_matches_the_trigger_and_percent_word_search() -> None:
    rng = random.Random(3)
    for text in _texts():
        starts = NumeralStarts(text)
        for start, end in _stretches(text, rng):
            assert starts.first(start, end) == _reference_first(text, start, end), (text[start:end][:200], start, end)


@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join), st.integers(0, 40), st.integers(0, 40))
@example("lO percent of revenue, and growing", 0, 34)
@example("IO\u2031 of revenue", 0, 15)
def test_numeral_starts_property(text: str, a: int, b: int) -> None:
    start, end = sorted((min(a, len(text)), min(b, len(text))))
    assert NumeralStarts(text).first(start, end) == _reference_first(text, start, end)


def _plain_numerals(text: str) -> list[tuple[int, int]]:
    """What the section reads, the plain way: NUMERAL over the whole text with markers blanked, names left out."""
    section = parse_section(text)
    scan = _blank(section._folded, section._masks) if section._masks else section._folded
    to_source = section._doc.projection.to_source
    found = []
    for match in NUMERAL.finditer(scan):
        start, end = match.span()
        if end - start <= 4 and is_name(scan, start, end):
            continue
        found.append(to_source(start, end))
    return found


def test_section_numerals_are_the_plain_scan() -> None:
    for text in _texts():
        section = parse_section(text)
        drawn = {(n.start, n.end) for n in section._drawn_numerals()}
        read = [(n.start, n.end) for n in section.numerals if (n.start, n.end) not in drawn]
        assert read == _plain_numerals(text), text[:200]


def test_numerals_hidden_by_an_earlier_comma_or_a_rare_percent_sign_are_read() -> None:
    """Two false passes the old trigger let through: a comma after "lO percent", and "‱"."""
    for text, shown in (("Cloud is lO percent of revenue, and growing.", "lO"), ("Cloud is IO\u2031 of revenue.", "IO\u2031")):
        assert [text[n.start : n.end] for n in parse_section(text).numerals] == [shown]


LOOKALIKE_PIECES = [
    "42",
    "4.2",
    "1,000",
    "IO",
    "lO",
    "O",
    "l",
    "S",
    "B",
    "\u0417\u041e",
    "\U0001d40e",
    "٤",
    "%",
    "\u2031",
    "$",
    "$ ",
    "\u20ac",
    "\u00a3",
    ",",
    ", ",
    ".",
    " ",
    "\u00a0",
    "percent",
    " per cent",
    "total",
    "also",
    "\u2014",
    "\u201c",
    "bn",
    "x",
    "-",
    "_",
    "e.g.",
    "U.S.",
]


def _lookalike_texts() -> list[str]:
    return _built(LOOKALIKE_PIECES, 19, 6000, 16)


def test_the_pattern_chosen_for_a_text_reads_what_numeral_reads() -> None:
    """numeral_pattern's choice (no look-alike alternatives for most text) changes no match."""
    for text in _lookalike_texts():
        chosen = numeral_pattern(text)
        expected = [m.span() for m in NUMERAL.finditer(text)]
        assert ([] if chosen is None else [m.span() for m in chosen.finditer(text)]) == expected, text


def test_a_numeral_with_a_sign_or_separator_is_never_a_name() -> None:
    """is_name's first shortcut (an ASCII numeral that is not all letters and digits) changes no answer."""
    pieces = [
        "Gen ",
        "Basel ",
        "Series ",
        "Form ",
        "Wren-",
        "3Q",
        "10-K",
        "42",
        "4",
        "%",
        "$",
        ".",
        ",",
        "-",
        "B",
        " ",
        "24",
        "x",
    ]
    rng = random.Random(23)
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))) for _ in range(4000)]
    texts += [p.read_text(encoding="utf-8") for p in CORPUS]
    answers = []
    for text in texts:
        for match in NUMERAL.finditer(text):
            start, end = match.span()
            if end - start <= 4:
                answers.append(is_name(text, start, end))
                assert answers[-1] == names_by_pattern(text, start, end), text
    assert len(answers) > 1000 and any(answers) and not all(answers)  # names and quantities both met


# Around where a numeral of the digit shapes starts: signs and currency signs
# before digits of several scripts, glued prefixes and names, and prose.
DIGIT_PIECES = [
    "42",
    "4",
    "1,200",
    "3.5",
    "٤٢",
    "\U0001d7d2",
    "4\u20e3",
    "-",
    "+",
    "\u2212",
    "\u00b1",
    "$",
    "\u20ac",
    "\U0001ec8f",
    "%",
    "bn",
    "x",
    "FY",
    "USD",
    "Wren-",
    "Scope ",
    "Q",
    "_",
    "'",
    ".",
    ",",
    " ",
    "\u00a0",
    "\u2014",
    "\u201c",
    "\u00e9",
    "revenue",
]


def _digit_texts() -> list[str]:
    return _built(DIGIT_PIECES, 23, 4000, 24)


def _same_as_finditer(text: str, start: int, end: int) -> None:
    expected = [m.span() for m in DIGIT_SHAPES.finditer(text, start, end)]
    assert digit_shapes(text, start, end) == expected, (text[start:end][:200], start, end)


def test_digit_shapes_skips_only_where_no_numeral_starts() -> None:
    """digit_shapes (the stdlib engine finds the next digit) matches what finditer matches, stretch by stretch."""
    rng = random.Random(29)
    for text in _digit_texts():
        for start, end in _stretches(text, rng):
            _same_as_finditer(text, start, end)


@given(st.lists(st.sampled_from(DIGIT_PIECES), max_size=30).map("".join), st.integers(0, 30), st.integers(0, 30))
@example("-$42", 0, 4)
@example("x\u00b1\u20ac3", 1, 5)
def test_digit_shapes_property(text: str, a: int, b: int) -> None:
    start, end = sorted((min(a, len(text)), min(b, len(text))))
    _same_as_finditer(text, start, end)


# Around a plain ASCII numeral, which the stdlib engine reads alone: the
# characters before it that no guard looks for and those that one does,
# category words (in any case, "Fig.", a letter of another script that may
# lengthen one), period and filing shapes, apostrophe groups, and characters
# after it that may go on with it (a non-ASCII digit, a mark, a no-break space).
PLAIN_PIECES = [
    "42",
    "7",
    "1'000",
    "'",
    "'12",
    "3.5",
    "12,5",
    "%",
    "$",
    "-",
    "+",
    "Q",
    "H",
    "K",
    "FY",
    "bn",
    "k",
    "tn",
    " million",
    "crore",
    "USD",
    "x",
    "CET",
    "(",
    "\u2063",
    "\u2029",
    "\u2014",
    "\u201c",
    "\u00a0",
    " ",
    ".",
    ",",
    "Scope ",
    "scope ",
    "TIER ",
    "Phase\u00a0",
    "Fig. ",
    "Cla\u017f\u017f ",
    "Wren-",
    "HX-",
    "over ",
    "\u0664",
    "\u0301",
    "\u00e9",
    "\u20ac",
    "_",
]


def _plain_texts() -> list[str]:
    return _built(PLAIN_PIECES, 31, 6000, 16)


def test_plain_numerals_are_what_the_regex_engine_reads() -> None:
    """digit_shapes reads plain ASCII numerals with the stdlib engine alone; the spans stay finditer's."""
    rng = random.Random(37)
    answers: list[bool] = []
    for text in _plain_texts():
        for start, end in _stretches(text, rng):
            _same_as_finditer(text, start, end)
            at = start
            while (digit := regex.compile("[0-9]").search(text, at, end)) is not None:
                answers.append(_plain_numeral(text, at, digit.start(), end) is not None)
                at = digit.end()
    # Both ways are met often: the stdlib engine reads some numerals alone, and leaves others to the regex engine.
    assert answers.count(True) > 2000 and answers.count(False) > 2000


@given(st.lists(st.sampled_from(PLAIN_PIECES), max_size=24).map("".join), st.integers(0, 40), st.integers(0, 40))
@example("Scope 3 and Fig. 2", 0, 18)
@example("3Q24 and 10-K", 0, 13)
@example("(1'000\u0664", 0, 6)
@example("(12'34\u0664 ", 0, 8)
@example("(12'3\u06645", 0, 7)
def test_plain_numerals_property(text: str, a: int, b: int) -> None:
    start, end = sorted((min(a, len(text)), min(b, len(text))))
    _same_as_finditer(text, start, end)


def test_what_comes_before_or_after_a_plain_numeral_is_what_the_guards_ignore() -> None:
    """CLEAR_BEFORE holds nothing a guard of the digit shapes looks for before a numeral; of NOT_TRIGGERS,
    PLAIN_NUMERAL reads a numeral before those that cannot go on with it (all but the no-break space)."""
    looked_at = regex.compile(r"[\p{L}\p{M}\p{N}\p{Sc}_.,'\u2019\-\u2010\u2011+\u2212\u00b1]")
    for char in CLEAR_BEFORE:
        assert looked_at.match(char) is None, hex(ord(char))
    goes_on = regex.compile(r"[\p{L}\p{M}\p{N}\p{Sc}.,\u00a0\u202f\u2009%\u2030\u2031\u066a\ufe6a\u0609\u060a]")
    for char in NOT_TRIGGERS:
        # PLAIN_NUMERAL reads a numeral before the character only when nothing after it may go on with it.
        assert (PLAIN_NUMERAL.match("(1" + char, 1) is None) == (goes_on.match(char) is not None), hex(ord(char))


@given(
    st.lists(st.sampled_from([*PIECES, "\ud800", "\udfff", "\U0001f4af", "\U0001ec8f", "a", "\u00e9", "\x7f"]), max_size=30).map(
        "".join
    )
)
@example("\ud83d\ude00 lone surrogates \udc00 and a pair")
def test_non_ascii_chars_are_what_the_text_holds(text: str) -> None:
    """non_ascii_chars (encode, drop ASCII bytes, decode) is the set a loop over the text builds."""
    assert non_ascii_chars(text) == {c for c in text if not c.isascii()} - set(NOT_TRIGGERS)
