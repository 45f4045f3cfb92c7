"""Red-team cases for grounding's leniency rules (tests/grounding/redteam.toml).

A false pass must be flagged, a false alarm must stay clean; a case still
got wrong carries `open` with its reason, and must still be got wrong (so a
fix shows, and the reason is dropped with it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import load_toml
from qcgrade import grade
from qcgrade.checks import GROUNDING

ROOT = Path(__file__).resolve().parent.parent
CASES = load_toml(ROOT / "tests" / "grounding" / "redteam.toml")["case"]


def _evidence(case: dict) -> dict:
    if "slice" in case:
        return json.loads((ROOT / "fixtures" / f"{case['slice']}.json").read_text(encoding="utf-8"))
    return json.loads(case["slice_json"])


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_a_red_team_case_is_read_as_the_reader_reads_it(case: dict) -> None:
    report = grade(case["text"], _evidence(case), grounding=True)
    flagged = [f"{f.check}: {f.message}" for f in report.findings if f.check in GROUNDING]
    right = bool(flagged) if case["kind"] == "false_pass" else not flagged
    assert case["kind"] in ("false_pass", "false_alarm") and case["why"].strip()
    if "open" in case:
        assert case["open"].strip() and not right, f"fixed: drop `open` from {case['name']!r}"
    else:
        assert right, f"{case['kind']}: {case['name']}: {flagged or 'no grounding finding'}"
