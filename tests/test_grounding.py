"""Grounding (tier 3) as data: no false alarm on honest text, catches on misstatements.

* every clean fixture section raises no grounding finding;
* tests/grounding/paraphrases.toml: faithful rewrites that must stay clean;
* tests/grounding/misstatements.toml: hand-written misquotes, made without
  the injectors' word lists; their catch rate is reported on its own and
  must be at least 0.80;
* the gate with grounding: number_swap flagged at least 0.95, the five
  visible classes still exactly their own check.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import load_toml
from qcgrade import grade
from qcgrade.auditing.corpus import load_corpus
from qcgrade.auditing.gate import run_gate
from qcgrade.checks import GROUNDING
from qcgrade.injectors import QC_VISIBLE

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DATA = Path(__file__).resolve().parent / "grounding"
SECTIONS = sorted(p for p in FIXTURES.glob("*/*.md"))


def _slice(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


def _evidence(case: dict) -> dict:
    """A case's slice: a fixture's, by name (`slice`), or one written out in the case (`slice_json`)."""
    if "slice_json" in case:
        return json.loads(case["slice_json"])
    return _slice(case["slice"])


def _cases(file: str) -> list:
    return [pytest.param(case, id=case["name"]) for case in load_toml(DATA / file)["case"]]


@pytest.mark.parametrize("path", SECTIONS, ids=[f"{p.parent.name}/{p.stem}" for p in SECTIONS])
def test_no_grounding_finding_on_a_clean_fixture(path: Path) -> None:
    report = grade(path.read_text(encoding="utf-8"), _slice(f"{path.parent.name}/{path.stem}"), grounding=True, tier2=True)
    assert report.passed, "\n".join(f"{f.line}:{f.column} {f.check} {f.message}" for f in report.findings)
    assert set(GROUNDING) <= set(report.checks_run)


@pytest.mark.parametrize("case", _cases("paraphrases.toml"))
def test_a_faithful_paraphrase_stays_clean(case: dict) -> None:
    report = grade(case["text"], _evidence(case), {"grounding": True, "select": GROUNDING})
    assert report.passed, "\n".join(f"{f.line}:{f.column} {f.check} {f.message}" for f in report.findings)


def _caught(case: dict) -> bool:
    return not grade(case["text"], _evidence(case), {"grounding": True, "select": GROUNDING}).passed


def test_hand_written_misstatements_are_caught_at_least_80_percent() -> None:
    cases = load_toml(DATA / "misstatements.toml")["case"]
    missed = [c["name"] for c in cases if not _caught(c)]
    rate = 1 - len(missed) / len(cases)
    print(f"\nhand-written misstatements caught: {len(cases) - len(missed)}/{len(cases)} = {rate:.3f}; missed: {missed}")
    assert rate >= 0.80, f"catch rate {rate:.3f}; missed {missed}"


@pytest.mark.parametrize("case", _cases("misstatements.toml"))
def test_a_caught_misstatement_names_its_number_or_word(case: dict) -> None:
    report = grade(case["text"], _evidence(case), {"grounding": True, "select": GROUNDING})
    for finding in report.findings:
        # Span honesty: the span is the numeral or the direction word, and it is in the text.
        assert 0 <= finding.start < finding.end <= len(case["text"])
        assert finding.related is not None
    if report.findings and case["check"] == "value_mismatch":
        assert any(f.check == "value_mismatch" for f in report.findings)


def test_tier1_verdicts_never_change_without_grounding() -> None:
    for case in load_toml(DATA / "misstatements.toml")["case"]:
        plain = grade(case["text"], _evidence(case))
        assert not any(f.check in GROUNDING for f in plain.findings)


@pytest.fixture(scope="module")
def gate_result():  # type: ignore[no-untyped-def]
    return run_gate(load_corpus(FIXTURES), seeds=2, grounding=True)


def test_gate_grounding_catches_number_swaps(gate_result) -> None:  # type: ignore[no-untyped-def]
    row = next(r for r in gate_result.rows if r.defect == "number_swap")
    assert row.flag_rate == 0.0  # tier 1 alone is blind, as in the paper
    assert row.grounding_flag_rate is not None and row.grounding_flag_rate >= 0.95


def test_gate_grounding_leaves_visible_classes_alone(gate_result) -> None:  # type: ignore[no-untyped-def]
    assert not gate_result.grounding_false_alarms
    for row in gate_result.rows:
        if row.defect in QC_VISIBLE:
            assert row.grounding_exact_check_rate == 1.0, row.defect


def test_gate_grounding_claim_negation_floor(gate_result) -> None:  # type: ignore[no-untyped-def]
    # Measured 0.811 over these 2 seeds and 0.822 over 5 (the target is 0.80).
    row = next(r for r in gate_result.rows if r.defect == "claim_negation")
    assert row.flag_rate == 0.0
    assert row.grounding_flag_rate is not None and row.grounding_flag_rate >= 0.80
