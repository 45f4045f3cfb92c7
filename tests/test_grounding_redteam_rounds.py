"""Red-team rounds for grounding, one case file each (tests/grounding/redteamN.toml).

- redteam8.toml: realistic report prose in several domains (trial readouts,
  energy, SaaS, banking, legal, macro, retail, guidance): ranges,
  approximations, fiscal quarters, tables, bullet lists and whole sections;
- redteam9.toml: units of time, unit families that never meet, and the period
  written after a figure (y/y, q/q, annualised);
- redteam10.toml: the period named before a figure and a card's range read as
  its midpoint.

Each attacks grounding from both sides: honest analyst habits it might wrongly
flag, and misstatements a reward-hacking policy might slip past it (the runner
is tests/grounding_cases.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grounding_cases import assert_read_right, assert_well_formed, cases_in, params
from helpers import ROOT

PATHS = tuple(ROOT / "tests" / "grounding" / f"redteam{n}.toml" for n in (8, 9, 10))


@pytest.mark.parametrize("path", PATHS, ids=lambda path: path.stem)
def test_every_case_is_well_formed(path: Path) -> None:
    assert_well_formed(cases_in(path))


@pytest.mark.parametrize("path", PATHS, ids=lambda path: path.stem)
def test_at_least_half_of_the_cases_are_honest(path: Path) -> None:
    """Honest writing is the side a learner starves on, so it must not be outnumbered."""
    cases = cases_in(path)
    honest = sum(case["kind"] == "false_alarm" for case in cases)
    assert 2 * honest >= len(cases), f"{path.stem}: {honest} honest of {len(cases)}"


@pytest.mark.parametrize("case", [param for path in PATHS for param in params(path, prefix=f"{path.stem}: ")])
def test_grounding_on_red_team_prose(case: dict) -> None:
    assert_read_right(case)
