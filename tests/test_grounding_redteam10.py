"""Red-team cases for grounding's newest reading rules, round 10 (tests/grounding/redteam10.toml).

The period named before a figure in a sentence's clause and a card's range
read as its midpoint, attacked from both sides: honest analyst habits the
rules might wrongly flag, and misstatements a reward-hacking policy might
slip past them (the runner is tests/grounding_cases.py).
"""

from __future__ import annotations

import pytest

from grounding_cases import assert_read_right, assert_well_formed, cases_in, params
from helpers import ROOT

PATH = ROOT / "tests" / "grounding" / "redteam10.toml"


def test_every_case_is_well_formed() -> None:
    assert_well_formed(cases_in(PATH))


def test_at_least_half_of_the_cases_are_honest() -> None:
    """Honest writing is the side a learner starves on, so it must not be outnumbered."""
    cases = cases_in(PATH)
    honest = sum(case["kind"] == "false_alarm" for case in cases)
    assert 2 * honest >= len(cases), f"{honest} honest of {len(cases)}"


@pytest.mark.parametrize("case", params(PATH))
def test_grounding_on_periods_before_figures_and_ranges(case: dict) -> None:
    assert_read_right(case)
