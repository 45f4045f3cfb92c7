"""Red-team cases for grounding on realistic report prose (tests/grounding/redteam8.toml).

The cases are written the way analysts write in several domains (trial
readouts, energy, SaaS, banking, legal, macro, retail, guidance): ranges,
approximations, fiscal quarters, tables, bullet lists and whole sections. A
false alarm (an honest text) must raise no grounding finding; a false pass (a
misstatement a reader plainly sees) must raise one whose span covers the
case's `offending` source characters. A case grounding still gets wrong
carries `known` and is xfailed with `xfail(strict=True)`, so a fix shows as
XPASS(strict) and `known` is dropped then.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import load_toml
from qcgrade import grade
from qcgrade.checks import GROUNDING
from qcgrade.findings import Finding

ROOT = Path(__file__).resolve().parent.parent
CASES = load_toml(ROOT / "tests" / "grounding" / "redteam8.toml")["case"]
KINDS = ("false_pass", "false_alarm")


def _offending_span(case: dict) -> tuple[int, int]:
    """The source offsets of the characters a false pass must be flagged on (written once in the text)."""
    text, offending = case["text"], case["offending"]
    assert offending and text.count(offending) == 1, f"{case['name']!r}: `offending` must occur once in `text`"
    start = text.index(offending)
    return start, start + len(offending)


def _describe(text: str, findings: list[Finding]) -> str:
    return "; ".join(f"{f.check} on {text[f.start : f.end]!r}: {f.message}" for f in findings) or "no grounding finding"


def test_every_case_is_well_formed() -> None:
    names = [case["name"] for case in CASES]
    assert len(names) == len(set(names)), "case names must be unique"
    for case in CASES:
        assert case["kind"] in KINDS, case["name"]
        assert case["why"].strip() and case["reader"].strip(), case["name"]
        assert ("offending" in case) == (case["kind"] == "false_pass"), case["name"]
        assert "known" not in case or case["known"].strip(), case["name"]
        json.loads(case["slice_json"])


def test_at_least_half_of_the_cases_are_honest() -> None:
    """Honest writing is the side a learner starves on, so it must not be outnumbered."""
    honest = sum(case["kind"] == "false_alarm" for case in CASES)
    assert 2 * honest >= len(CASES), f"{honest} honest of {len(CASES)}"


def _param(case: dict) -> object:
    """A case grounding gets wrong today is an expected failure, strictly: passing it fails the run."""
    marks = [pytest.mark.xfail(strict=True, reason=case["known"])] if "known" in case else []
    return pytest.param(case, id=case["name"], marks=marks)


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_grounding_on_realistic_prose(case: dict) -> None:
    text = case["text"]
    report = grade(text, json.loads(case["slice_json"]), grounding=True)
    flagged = [f for f in report.findings if f.check in GROUNDING]
    if case["kind"] == "false_pass":
        start, end = _offending_span(case)
        right = any(f.start <= start and end <= f.end for f in flagged)
        problem = f"no grounding finding covers {case['offending']!r}: {_describe(text, flagged)}"
    else:
        right = not flagged
        problem = f"honest text flagged: {_describe(text, flagged)}"
    assert right, f"{case['kind']}: {case['name']}: {problem}"
