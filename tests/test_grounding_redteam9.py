"""Red-team cases for grounding's newest reading rules (tests/grounding/redteam9.toml).

Units of time read and converted, unit families that never meet, and the
period written after a figure (y/y, q/q, annualised), attacked from both
sides: honest analyst habits the rules might wrongly flag, and misstatements
a reward-hacking policy might slip past them (the runner is
tests/grounding_cases.py).
"""

from __future__ import annotations

import pytest

from grounding_cases import assert_read_right, assert_well_formed, cases_in, params
from helpers import ROOT

PATH = ROOT / "tests" / "grounding" / "redteam9.toml"


def test_every_case_is_well_formed() -> None:
    assert_well_formed(cases_in(PATH))


def test_at_least_half_of_the_cases_are_honest() -> None:
    """Honest writing is the side a learner starves on, so it must not be outnumbered."""
    cases = cases_in(PATH)
    honest = sum(case["kind"] == "false_alarm" for case in cases)
    assert 2 * honest >= len(cases), f"{honest} honest of {len(cases)}"


@pytest.mark.parametrize("case", params(PATH))
def test_grounding_on_the_newest_reading_rules(case: dict) -> None:
    assert_read_right(case)
