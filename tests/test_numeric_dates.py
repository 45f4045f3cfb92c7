"""Numeric dates as grounding reads them (cases in tests/grounding/numeric_dates.toml)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import load_toml
from qcgrade.grounding.dates import numeric_date
from qcgrade.grounding.not_values import writes_a_date, written_dates

ROOT = Path(__file__).resolve().parent.parent
CASES = load_toml(ROOT / "tests" / "grounding" / "numeric_dates.toml")


@pytest.mark.parametrize("case", CASES["date"], ids=[f"{c['numeral']}: {c['text']}" for c in CASES["date"]])
def test_a_numeral_is_written_in_a_date_or_not(case: dict) -> None:
    text, numeral = case["text"], case["numeral"]
    start = -1
    for _ in range(case.get("at", 0) + 1):
        start = text.index(numeral, start + 1)
    date = numeric_date(text, start, start + len(numeral))
    got = sorted(list(day) for day in date.days) if date is not None else []
    assert got == case["days"], case
    if date is not None:  # the date holds the numeral, and its year is inside it
        assert date.start <= start and start + len(numeral) <= date.end
        assert date.start <= date.year_start < date.year_end <= date.end


@pytest.mark.parametrize("case", CASES["card"], ids=[c["text"][:40] for c in CASES["card"]])
def test_the_days_a_card_writes(case: dict) -> None:
    got = sorted([year or 0, month, day] for year, month, day in written_dates(case["text"]))
    assert got == sorted(case["dates"]), case
    assert writes_a_date(case["text"]) is bool(case["dates"])


def test_a_card_dates_something_exactly_when_it_writes_a_day() -> None:
    """``written_dates`` and ``writes_a_date`` agree on every card text of the fixtures and the cases."""
    texts = [c["text"] for c in CASES["card"]]
    for path in sorted((ROOT / "fixtures").glob("*/*.json")):
        for card in json.loads(path.read_text(encoding="utf-8")).get("cards", []):
            texts.extend((card["claim"], card["quote"]))
    assert len(texts) > 100
    dated = [text for text in texts if writes_a_date(text)]
    assert dated  # the fixtures hold dated cards ("as at 31 December")
    for text in texts:
        assert bool(written_dates(text)) is writes_a_date(text), text


def test_a_long_run_of_slashed_numbers_stays_linear() -> None:
    """The date test looks back a bounded stretch: a numeral deep in "1/1/1/..." is in no date."""
    text = "1/" * 50_000 + "2025"
    assert numeric_date(text, len(text) - 4, len(text)) is None
    assert numeric_date(text, 50_000, 50_001) is None
    assert written_dates(text) == frozenset()
