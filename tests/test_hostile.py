"""Hostile input is normal input: every degenerate section gets a verdict, fast.

Time limits here are generous multiples of what a shared 2-core machine needs;
the scaling test is what catches super-linear behaviour.
"""

from __future__ import annotations

import json
import time

import pytest

from helpers import CASES, FIXTURES
from qcgrade import grade

SLICE = json.loads((CASES / "slice.json").read_text(encoding="utf-8"))
CLEAN = (FIXTURES / "voltaris-cells" / "s1.md").read_text(encoding="utf-8")


def _timed(text: str, grounding: bool = False) -> float:
    start = time.perf_counter()
    report = grade(text, SLICE, tier2=True, grounding=grounding)
    elapsed = time.perf_counter() - start
    assert report.checks_run  # a verdict, not an exception
    return elapsed


HOSTILE = {
    "5 MB section": lambda: (CLEAN + "\n\n") * (5_000_000 // (len(CLEAN) + 2)),
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
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_gets_a_verdict_in_seconds(name: str) -> None:
    assert _timed(HOSTILE[name]()) < 30.0


@pytest.mark.parametrize(
    "unit",
    ["_a", "[a](", "| 1 | [E001] |\n", "&#", "<a ", "a. ", "Revenue grew 4.2% [E001]. Costs 7. ", "4\u200b", "[E001] 42 "],
)
def test_cost_grows_linearly(unit: str) -> None:
    """Doubling the input twice must not much more than quadruple the time."""
    small = _best_of(unit * 20_000)
    large = _best_of(unit * 80_000)
    assert large / small < 8.0, (unit, small, large)


def _best_of(text: str, rounds: int = 3) -> float:
    return min(_timed(text) for _ in range(rounds))


# Grounding (tier 3) reads citing sentences closely: the same bounds must hold.
GROUNDING_HOSTILE = {
    "20k citing sentences": lambda: "Revenue rose 30% to $1.2 B [E001]. " * 20_000,
    "one sentence, 50k numerals": lambda: "31% " * 50_000 + "[E001].",
    "one sentence, 50k direction words": lambda: "fell " * 50_000 + "30% [E001].",
    "50k negations": lambda: "did not " * 50_000 + "rise 30% [E001].",
    "50k citation groups": lambda: "rose 30% [E001] " * 50_000 + ".",
    "long digit run cited": lambda: "9" * 200_000 + " [E001].",
    "100k versus": lambda: "30% versus " * 30_000 + "[E001].",
}


@pytest.mark.parametrize("name", sorted(GROUNDING_HOSTILE))
def test_grounding_hostile_input_gets_a_verdict_in_seconds(name: str) -> None:
    assert _timed(GROUNDING_HOSTILE[name](), grounding=True) < 30.0


@pytest.mark.parametrize(
    "unit", ["Revenue fell 31% to $1.3 B [E001]. ", "fell 31% ", "did not rise ", "rose 30% [E001] ", "30% versus 9% [E004], "]
)
def test_grounding_cost_grows_linearly(unit: str) -> None:
    small = min(_timed(unit * 5_000, grounding=True) for _ in range(3))
    large = min(_timed(unit * 20_000, grounding=True) for _ in range(3))
    assert large / small < 8.0, (unit, small, large)
