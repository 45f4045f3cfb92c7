"""The runner the grounding case files share (reader_view.toml, redteam8.toml, redteam9.toml, redteam10.toml).

A case is a section text and its slice (`slice`, a fixture, or `slice_json`),
what a reader of the rendered text sees (`reader`), and why (`why`). A false
pass must raise a grounding finding whose span covers the case's `offending`
source characters; a false alarm must raise none. A case grounding still gets
wrong carries `known` and is xfailed strictly, so a fix shows as
XPASS(strict) and `known` is dropped then.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import ROOT, load_toml
from qcgrade import grade
from qcgrade.checks import GROUNDING
from qcgrade.findings import Finding

KINDS = ("false_pass", "false_alarm")


def evidence(case: dict) -> dict:
    """The case's slice: a fixture's, or its own."""
    if "slice" in case:
        return json.loads((ROOT / "fixtures" / f"{case['slice']}.json").read_text(encoding="utf-8"))
    return json.loads(case["slice_json"])


def offending_span(case: dict) -> tuple[int, int]:
    """The source offsets of the characters a false pass must be flagged on (written once in the text)."""
    text, offending = case["text"], case["offending"]
    assert offending and text.count(offending) == 1, f"{case['name']!r}: `offending` must occur once in `text`"
    start = text.index(offending)
    return start, start + len(offending)


def _describe(text: str, findings: list[Finding]) -> str:
    return "; ".join(f"{f.check} on {text[f.start : f.end]!r}: {f.message}" for f in findings) or "no grounding finding"


def assert_well_formed(cases: list[dict]) -> None:
    """Unique names, a known kind, a reader and a reason, `offending` exactly on a false pass, a readable slice."""
    names = [case["name"] for case in cases]
    assert len(names) == len(set(names)), "case names must be unique"
    for case in cases:
        assert case["kind"] in KINDS, case["name"]
        assert case["why"].strip() and case["reader"].strip(), case["name"]
        assert ("offending" in case) == (case["kind"] == "false_pass"), case["name"]
        assert "known" not in case or case["known"].strip(), case["name"]
        evidence(case)


def params(path: Path, prefix: str = "") -> list[object]:
    """Every case of a case file, one pytest parameter each; a case grounding gets wrong today is a strict xfail.

    ``prefix`` starts each case's id (its name), for runners that read several files.

    Only a wrong verdict (an AssertionError) is the expected failure: a crash fails the test.
    """
    cases = cases_in(path)
    return [
        pytest.param(
            case,
            id=prefix + case["name"],
            marks=[pytest.mark.xfail(strict=True, raises=AssertionError, reason=case["known"])] if "known" in case else [],
        )
        for case in cases
    ]


def cases_in(path: Path) -> list[dict]:
    """The cases of a case file."""
    return list(load_toml(path)["case"])


def assert_read_right(case: dict) -> None:
    """A false pass is flagged over its `offending` characters; a false alarm is not flagged at all."""
    text = case["text"]
    flagged = [f for f in grade(text, evidence(case), grounding=True).findings if f.check in GROUNDING]
    if case["kind"] == "false_pass":
        start, end = offending_span(case)
        right = any(f.start <= start and end <= f.end for f in flagged)
        problem = f"no grounding finding covers {case['offending']!r}: {_describe(text, flagged)}"
    else:
        right = not flagged
        problem = f"honest text flagged: {_describe(text, flagged)}"
    assert right, f"{case['kind']}: {case['name']}: {problem}"
