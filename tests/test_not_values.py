"""Grounding's numerals that state no value, and look-alikes that still do (cases in tests/grounding/not_values.toml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import load_toml
from qcgrade.grounding.not_values import states_no_value

CASES = load_toml(Path(__file__).resolve().parent / "grounding" / "not_values.toml")["case"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['numeral']}: {c['text'][:40]}" for c in CASES])
def test_a_numeral_states_a_value_or_not(case: dict) -> None:
    text, numeral = case["text"], case["numeral"]
    start = -1
    for _ in range(case.get("at", 0) + 1):
        start = text.index(numeral, start + 1)
    assert states_no_value(text, start, start + len(numeral)) is (not case["value"]), case


def test_a_long_run_without_blanks_stays_linear() -> None:
    """The code test looks at most a bounded stretch either side of the numeral."""
    text = "IN-" + "1-" * 50_000 + "7"
    assert states_no_value(text, 3, 4) is False  # the run is longer than any code: read as written
