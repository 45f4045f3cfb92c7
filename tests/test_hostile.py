"""Hostile input is normal input: every degenerate section gets a verdict, fast.

"Fast" is relative, measured in the same run: a hostile section may cost at
most a constant factor more than ordinary prose of the same length graded
just before it, so a busy machine slows both and cannot fail the test. The
scaling test is what catches super-linear behaviour.
"""

from __future__ import annotations

import json
import time

import pytest

from helpers import FIXTURES, best_time
from qcgrade import grade
from qcgrade.evidence import load_slice
from qcgrade.grounding.match import _card_facts

CLEAN = (FIXTURES / "voltaris-cells" / "s1.md").read_text(encoding="utf-8")

pytestmark = pytest.mark.timing

# Measured here, the worst hostile input costs about 40x ordinary prose per
# character (100k underscores, 100k link openers); anything quadratic at these
# sizes costs thousands of times more.
_PROSE_FACTOR = 200
# Ordinary prose for the yardstick: enough to dwarf fixed costs, cheap to grade.
_PROSE_SAMPLE = 100_000


def _timed(text: str, slice_: dict, grounding: bool = False) -> float:
    start = time.perf_counter()
    report = grade(text, slice_, tier2=True, grounding=grounding)
    elapsed = time.perf_counter() - start
    assert report.checks_run  # a verdict, not an exception
    return elapsed


def _prose_seconds_per_char(slice_: dict) -> float:
    prose = ((CLEAN + "\n\n") * (_PROSE_SAMPLE // (len(CLEAN) + 2) + 1))[:_PROSE_SAMPLE]
    return _best_of(prose, slice_, rounds=2) / len(prose)


HOSTILE = {
    "5 MB section": lambda: (CLEAN + "\n\n") * (5_000_000 // (len(CLEAN) + 2)),
    # Footnote marks in superscripts: each is matched once, its attributes scanned to the next bracket.
    "50k footnote marks": lambda: "Revenue grew.<sup>1</sup> " * 50_000,
    "100k unclosed superscripts": lambda: "<sup 1 " * 100_000,
    "100k unmatched [": lambda: "[" * 100_000,
    "100k unmatched {": lambda: "{" * 100_000,
    "100k [ and spaces": lambda: "[ " * 100_000,
    "1 MB of digits": lambda: "7" * 1_000_000,
    "1 MB of digit groups": lambda: "1," * 500_000,
    "deeply nested lists": lambda: "".join("  " * i + "- x 42\n" for i in range(3000)),
    "deeply nested quotes": lambda: ">" * 100_000 + " 42",
    "100k emphasis markers": lambda: "*" * 100_000,
    "100k underscores": lambda: "_a" * 100_000,
    "100k comment openers": lambda: "<!--" * 100_000,
    "100k backticks": lambda: "`" * 100_000 + "x",
    "100k tag openers": lambda: "<a " * 100_000,
    "100k link openers": lambda: "[a](" * 100_000,
    "100k entities": lambda: "&#" * 100_000,
    "100k backslashes": lambda: "\\" * 100_000,
    "100k sentence ends": lambda: "a. " * 100_000,
    "100k abbreviations": lambda: "e.g. " * 100_000,
    "100k section signs": lambda: "§" * 100_000,
    "20k table rows": lambda: "| a | b |\n|---|---|\n" + "| 1 | [E001] |\n" * 20_000,
    "100k spaces then a break": lambda: " " * 100_000 + "\n\n<div>\n\n</div>",
    "HTML block of tags": lambda: "<div>\n" + "<span>42 &amp; " * 50_000 + "\n</div>",
    "100k TL;DR items": lambda: "TL;DR – a; " * 50_000,
    "zero-width flood": lambda: "4\u200b" * 100_000,
    # Reading rules of issue 9: uncapped and wrapped groups, tails, quotations, abbreviations.
    "one 1 MB bracket group": lambda: "[" + "E001, " * 170_000 + "E047]",
    "100k nested bracket openers": lambda: "[a [b] " * 50_000,
    "100k marker-only tails": lambda: "x. [E001] " * 100_000,
    "100k quotation marks": lambda: '"a. ' * 100_000 + "[E001]",
    "100k ellipses": lambda: "a... " * 100_000,
    "100k initials": lambda: "U.S. A. " * 50_000,
    # Sentence ends of issue 22: spaced abbreviations, ordinals, tickers, asides, attributions, numbers after a stop.
    "100k spaced abbreviation parts": lambda: "z. B. " * 100_000,
    "100k ordinals": lambda: "im 2. Quartal " * 50_000,
    "100k tickers": lambda: "7203.T " * 100_000,
    "100k parentheses before an aside's stop": lambda: "a " + "(" * 100_000 + " 1 × tgl.) 5 %",
    "50k asides closed by a stop": lambda: "Dosis (36 mg tgl.) 12,4 % " * 50_000,
    "20k attributed quotations": lambda: "> Revenue grew 30%.\n>\n> — CEO, Q3 call [E001]\n\n" * 20_000,
    "100k locators before amounts": lambda: "vol. 9% Tex. 9 Fed. $1 " * 30_000,
    "100k Greek question marks": lambda: "42%; Ναι " * 100_000,
    "100k look-alike brackets": lambda: "\u27e8E047 " * 100_000,
    "100k hiding tags in code spans": lambda: "`<style>` " * 100_000,
    "20k header-labelled tables": lambda: "| Week 76 (95% CI) | Source |\n|---|---|\n| 1 | [E001] |\n\n" * 20_000,
    # Number shapes (docs/reading-rules.md, "Numbers").
    "1 MB of look-alike letters": lambda: "IlOo" * 250_000 + "%",
    "100k look-alike groups": lambda: "l,OOO" * 100_000,
    "100k marks on one digit": lambda: "4" + "\u0332" * 100_000 + "%",
    "100k CJK numerals": lambda: "四" * 100_000 + "%",
    "100k reversed lists": lambda: "<ol reversed><li>x" * 100_000,
    "100k percent words after look-alikes": lambda: "lO percent " * 100_000,
    "20k list numbers": lambda: "".join(f"{i + 2}. percent of x\n" for i in range(20_000)),
    "100k nested list markers on a line": lambda: "1. " * 30_000 + "percent",
    "50k footnote shapes": lambda: "[^45]% " * 50_000,
    "50k drawn attributes": lambda: '<input value="42%"> ' * 50_000,
    "CSS content flood": lambda: "<style>" + 'p::after{content:"42%"} ' * 50_000 + "</style>",
    "100k spelled words": lambda: "one hundred and " * 100_000 + "percent",
    "100k hyphenated names": lambda: "Wren-" * 100_000 + "8B",
    # Red-team pass 5: a chain of one-letter initials (the dotted-initialism
    # lookbehind once read the whole chain back at every stop: cubic).
    "100k one-letter initials": lambda: "l." * 100_000,
    "50k look-alike decimals before a magnitude": lambda: "lO.l bn " * 50_000,
    "100k spaced look-alike percents": lambda: "IO % " * 100_000,
    # Tags a browser draws inline show nothing: groups, ids, words and numbers join across them,
    # and each such tag is a possible sentence end placed by looking around it.
    "50k groups split by inline tags": lambda: "x [<x-a></x-a>E999] " * 50_000,
    "100k inline tags in one group": lambda: "[" + "<x-a>" * 100_000 + "E999]",
    "50k ids split by inline tags": lambda: "x [E0<x></x>01] 42 " * 50_000,
    "100k inline tags in one word": lambda: "a<x-a></x-a>" * 100_000,
    "100k inline tags in one number": lambda: "4" + "<x-a></x-a>4" * 100_000,
    "50k numbers split by inline tags": lambda: "4<x-a></x-a>2% " * 50_000,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_costs_at_most_a_constant_times_prose(name: str, case_slice: dict) -> None:
    text = HOSTILE[name]()
    per_char = _prose_seconds_per_char(case_slice)
    elapsed = _timed(text, case_slice)
    ratio = elapsed / (per_char * len(text))
    assert ratio < _PROSE_FACTOR, f"{name}: {elapsed:.2f} s, {ratio:.0f}x prose of the same length"


@pytest.mark.parametrize(
    "unit",
    [
        "_a",
        "[a](",
        "| 1 | [E001] |\n",
        "&#",
        "<a ",
        "a. ",
        "Revenue grew 4.2% [E001]. Costs 7. ",
        "4\u200b",
        "[E001] 42 ",
        '"Rev 4%. Up. " [E001],\n',
        "x. [E001] Dr. A. ",
        "[E001,\nE002 ",
        "IO% l,OOO ",
        "42. percent\n",
        "forty-two percent ",
        '<input value="4"> ',
        "Rs42 crore 3200億円 ",
        "l.",
        "lO.l bn IO % lO\npercent $lObn ",
        "x [<x-a></x-a>E999] 42 ",
        "a<x-a></x-a>b 4<x></x>2% [E0<x></x>01] ",
        "z. B. im 2. Quartal (36 mg tgl.) 7203.T Tex. 9% Mrd. Euro u.a. Die 42%; Ναι ",
        "> Revenue grew 30%.\n>\n> — CEO [E001]\n\n",
    ],
)
def test_cost_grows_linearly(unit: str, case_slice: dict) -> None:
    """Doubling the input twice must not much more than quadruple the time."""
    small_text, large_text = unit * 20_000, unit * 80_000
    # Best of five with the collector paused: the smallest inputs take tens of
    # milliseconds, where one burst of load on a shared machine skews a ratio.
    small = best_time(lambda: grade(small_text, case_slice, tier2=True), runs=5)
    large = best_time(lambda: grade(large_text, case_slice, tier2=True), runs=5)
    assert large / small < 8.0, (unit, small, large)


def _best_of(text: str, slice_: dict, rounds: int = 3) -> float:
    return min(_timed(text, slice_) for _ in range(rounds))


# Grounding (tier 3) reads citing sentences closely: the same bounds must hold.
GROUNDING_HOSTILE = {
    "20k citing sentences": lambda: "Revenue rose 30% to $1.2 B [E001]. " * 20_000,
    "one sentence, 50k numerals": lambda: "31% " * 50_000 + "[E001].",
    "one sentence, 50k direction words": lambda: "fell " * 50_000 + "30% [E001].",
    "50k negations": lambda: "did not " * 50_000 + "rise 30% [E001].",
    "50k citation groups": lambda: "rose 30% [E001] " * 50_000 + ".",
    # Read group by group (a word the whole sentence's cards contradict at its end), no negation anywhere.
    "50k citation groups, read group by group": lambda: "rose 30% [E001] " * 50_000 + "fell.",
    "long digit run cited": lambda: "9" * 200_000 + " [E001].",
    "100k versus": lambda: "30% versus " * 30_000 + "[E001].",
    # Every numeral a would-be miss that the date and reference tests look around.
    "20k references and dates": lambda: "412 F. Supp. 3d 77, 91 \u00b6 38 IN-24-3-7 on 28 September [E001]. " * 20_000,
    "one code of 100k joined numbers": lambda: "ref. IN-" + "24-" * 100_000 + "7 [E001].",
    # A table's scale (grounding/tables.py): each row split once, however many numbers it holds.
    "a cited table row of 20k numbers under a scale": lambda: (
        "| USD bn |" + " x |" * 20_000 + "\n|---|" + "---|" * 20_000 + "\n| Revenue [E001] |" + " 412 |" * 20_000 + "\n"
    ),
    "5k cited table rows under a scale": lambda: "| Item ($bn) | FY25 |\n|---|---|\n" + "| Revenue [E001] | 412 |\n" * 5_000,
    # Direction words are read in the visible text: look-alike letters folded, markup and entities mapped back.
    "20k look-alike and marked-up direction words": lambda: "Revenue r\u043ese, r*o*se, r&#111;se 30% [E001]. " * 20_000,
    "one sentence, 50k entity-spelled words": lambda: "f&#101;ll " * 50_000 + "30% [E001].",
    # Numeric dates (grounding/dates.py): each numeral of a run looks back a bounded stretch.
    "100k slashed numbers cited": lambda: "1/" * 100_000 + "2025 [E001].",
    "20k numeric dates cited": lambda: "on 12/30/2025, 31.12.2024 and 2025-12-31 " * 20_000 + "[E001].",
}


@pytest.mark.parametrize("name", sorted(GROUNDING_HOSTILE))
def test_grounding_hostile_input_costs_at_most_a_constant_times_prose(name: str, case_slice: dict) -> None:
    text = GROUNDING_HOSTILE[name]()
    per_char = _prose_seconds_per_char(case_slice)
    elapsed = _timed(text, case_slice, grounding=True)
    ratio = elapsed / (per_char * len(text))
    assert ratio < _PROSE_FACTOR, f"{name}: {elapsed:.2f} s, {ratio:.0f}x prose of the same length"


@pytest.mark.parametrize(
    "unit",
    [
        "Revenue fell 31% to $1.3 B [E001]. ",
        "fell 31% ",
        "did not rise ",
        "rose 30% [E001] ",
        "30% versus 9% [E004], ",
        "412 F. Supp. 3d 77, 91 on 28 September [E001]; ",
        "Revenue f\u0435ll **3**1% to $1.3 B [E001]. ",
        "12/30/2025 31.12.2024 1/1/1/1 [E001]; ",
    ],
)
def test_grounding_cost_grows_linearly(unit: str, case_slice: dict) -> None:
    """Quadrupling the input must not much more than quadruple the time.

    Inputs of some hundreds of kilobytes: at a few milliseconds a burst of
    load on a shared machine skews a ratio more than any real growth could.
    """
    repeats = 400_000 // len(unit)  # about 400 KB however long the unit
    small_text, large_text = unit * (repeats // 4), unit * repeats
    small = best_time(lambda: grade(small_text, case_slice, tier2=True, grounding=True), runs=3)
    large = best_time(lambda: grade(large_text, case_slice, tier2=True, grounding=True), runs=3)
    assert large / small < 8.0, (unit, small, large)


# A card's text is read once per slice (grounding/match.py, facts_for): its values, ranges, periods,
# dates and directions must stay linear in its length too.
HOSTILE_CARD_TEXT = {
    "a run of dashed numbers": "5-",
    "a run of 'between' with no range": "between 1 and ",
    "blanks after 'between'": "between " + " " * 50,
    "numbers with periods after them": "9% y/y, 2% q/q 3% annualised ",
    "units of time": "18 months 1.5 years 6 wks ",
    "spelled numbers and units": "three years five times ",
    "a run of dashed spaced numbers": "5 - ",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_CARD_TEXT))
def test_reading_a_card_grows_linearly(name: str, case_slice: dict) -> None:
    """Quadrupling a card's text must not much more than quadruple the time to read its facts."""
    unit = HOSTILE_CARD_TEXT[name]

    def read(repeats: int) -> float:
        slice_ = dict(case_slice, cards=[dict(case_slice["cards"][0], claim=unit * repeats, quote=unit)])
        evidence = load_slice(json.dumps(slice_))
        return best_time(lambda: [_card_facts(card, {}) for card in evidence.cards], runs=3)

    repeats = 100_000 // len(unit)
    small, large = read(repeats // 4), read(repeats)
    assert large / small < 8.0, (name, small, large)
