"""Per-check pass/fail cases, kept as data in tests/cases/<check>.toml."""

from __future__ import annotations

import pytest

from helpers import CASES, load_toml
from qcgrade import CHECK_NAMES, Options, grade


def _cases() -> list:
    params = []
    for name in CHECK_NAMES:
        data = load_toml(CASES / f"{name}.toml")
        for kind in ("pass", "fail"):
            for case in data.get(kind, []):
                params.append(pytest.param(name, kind, case, id=f"{name}:{kind}:{case['name']}"))
    return params


@pytest.mark.parametrize("check", CHECK_NAMES)
def test_every_check_has_pass_and_fail_cases(check: str) -> None:
    path = CASES / f"{check}.toml"
    assert path.is_file(), f"no case file for {check}"
    data = load_toml(path)
    # A misspelt table ("[[case]]") would hold cases no test runs.
    assert set(data) <= {"pass", "fail", "slice"}, f"{check}: unknown tables {sorted(set(data) - {'pass', 'fail', 'slice'})}"
    assert data.get("pass"), f"{check} has no pass case"
    assert data.get("fail"), f"{check} has no fail case"
    for case in data["fail"]:
        assert case.get("findings"), f"{check}: fail case {case['name']!r} pins no finding"


@pytest.mark.parametrize(("check", "kind", "case"), _cases())
def test_case(check: str, kind: str, case: dict, case_slice: dict) -> None:
    text = case["text"]
    options = Options(select=frozenset({check}), **case.get("options", {}))
    report = grade(text, case_slice, options)
    assert report.checks_run == (check,)
    got = [{"line": f.line, "column": f.column, "text": text[f.start : f.end]} for f in report.findings]
    expected = case.get("findings", []) if kind == "fail" else []
    assert got == expected, "\n".join(f"{f.line}:{f.column} {f.check} {f.message}" for f in report.findings)
    for finding in report.findings:
        assert finding.check == check
