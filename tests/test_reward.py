"""reward() is the binary PASS, score() the continuous count; both are grade() and no more."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

import helpers
import qcgrade.evidence
from qcgrade.evidence import SliceError
from qcgrade.grader import grade
from qcgrade.rewards.base import Score, reward, score

SECTION = helpers.FIXTURES / "cloudmeadow-saas" / "s3.md"
CLEAN = SECTION.read_text(encoding="utf-8")
SLICE_JSON = SECTION.with_suffix(".json").read_text(encoding="utf-8")

# One injected defect each: (appended text, the check that must catch it).
DEFECTS = [
    ("\n\nRevenue grew 7% last year.\n", "bare_number"),
    ("\n\nSee the filing [EV-999].\n", "orphan_citation"),
    ("\n\nMargins held at {m_nope}.\n", "unregistered_metric"),
    ("\n\nSee §zz for more.\n", "broken_xref"),
]


@pytest.mark.parametrize(("md", "slice_path"), helpers.fixture_pairs(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_clean_fixture_earns_full_reward(md: Path, slice_path: Path) -> None:
    value = reward(md.read_text(encoding="utf-8"), slice_path.read_text(encoding="utf-8"))
    assert value == 1.0 and type(value) is float


@pytest.mark.parametrize(("defect", "check"), DEFECTS)
def test_one_defect_zeroes_the_reward_and_counts_once(defect: str, check: str) -> None:
    text = CLEAN + defect
    assert reward(text, SLICE_JSON) == 0.0
    result = score(text, SLICE_JSON)
    assert result.violations == 1
    assert result.counts[check] == 1
    assert sum(result.counts.values()) == 1
    assert result.passed is False


def test_score_counts_are_the_reports_counts() -> None:
    text = CLEAN + "".join(defect for defect, _ in DEFECTS) + DEFECTS[0][0]
    report = grade(text, SLICE_JSON)
    result = score(text, SLICE_JSON)
    assert result.violations == len(report.findings) == 5
    assert result.counts == report.counts
    assert list(result.counts) == list(report.checks_run)
    assert result.counts["bare_number"] == 2


@pytest.mark.parametrize("violations", [0, 1, 2, 3, 9])
def test_shaped_is_one_over_one_plus_violations(violations: int) -> None:
    text = CLEAN + DEFECTS[0][0] * violations
    result = score(text, SLICE_JSON)
    assert result.violations == violations
    assert result.shaped == pytest.approx(1.0 / (1.0 + violations))
    assert result.passed is (violations == 0)


def test_shaped_strictly_decreases_with_each_violation() -> None:
    values = [score(CLEAN + DEFECTS[0][0] * n, SLICE_JSON).shaped for n in range(5)]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == 5


def test_tier2_is_off_by_default_and_changes_the_verdict() -> None:
    weak = json.loads(SLICE_JSON)
    weak["cards"][0]["status"] = "weak"  # its sentences carry no hedge word
    assert reward(CLEAN, weak) == 1.0
    assert reward(CLEAN, weak, tier2=True) == 0.0
    tier2 = score(CLEAN, weak, tier2=True)
    assert tier2.counts["unhedged_weak_card"] >= 1
    assert "unhedged_weak_card" not in score(CLEAN, weak).counts


def test_to_dict_is_plain_data() -> None:
    result = score(CLEAN + DEFECTS[1][0], SLICE_JSON)
    out = result.to_dict()
    assert out == {"passed": False, "violations": 1, "shaped": 0.5, "counts": result.counts}
    assert json.loads(json.dumps(out)) == out


def test_score_is_frozen() -> None:
    result = score(CLEAN, SLICE_JSON)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.violations = 3  # type: ignore[misc]
    assert result == Score.from_report(grade(CLEAN, SLICE_JSON))


def test_a_bad_slice_raises_a_slice_error() -> None:
    with pytest.raises(SliceError, match="cards"):
        reward(CLEAN, {"section": "s3", "cards": [{"id": "EV-1", "stance": "sideways"}]})
    with pytest.raises(SliceError, match="invalid JSON"):
        score(CLEAN, "{")


def test_a_non_text_section_raises_type_error() -> None:
    with pytest.raises(TypeError):
        reward(None, SLICE_JSON)  # type: ignore[arg-type]


def test_a_slice_seen_before_is_not_validated_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    original = qcgrade.evidence._validate

    def counting(parsed: object) -> qcgrade.evidence.EvidenceSlice:
        calls.append(parsed)
        return original(parsed)

    monkeypatch.setattr(qcgrade.evidence, "_validate", counting)
    fresh = json.loads(SLICE_JSON)
    fresh["title"] = "a title no other test uses: reward cache"
    as_text = json.dumps(fresh)
    for _ in range(5):
        reward(CLEAN, json.loads(as_text))  # a new dict each time, same content
        score(CLEAN, as_text)
    assert len(calls) == 2  # once for the dict form, once for the text form
