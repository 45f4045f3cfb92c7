"""Reader-view cases for grounding (tests/grounding/reader_view.toml).

Each case pairs what a reader of the rendered markdown sees with the source
text grounding is given (the runner is tests/grounding_cases.py).
"""

from __future__ import annotations

import pytest

from grounding_cases import assert_read_right, assert_well_formed, cases_in, params
from helpers import ROOT

PATH = ROOT / "tests" / "grounding" / "reader_view.toml"


def test_every_case_is_well_formed() -> None:
    assert_well_formed(cases_in(PATH))


@pytest.mark.parametrize("case", params(PATH))
def test_grounding_reads_what_the_reader_sees(case: dict) -> None:
    assert_read_right(case)
