"""The red-team corpus: disguised violations that a reader of the rendered section sees.

Each file ``tests/corpora/redteam/<family>.toml`` holds ``[[case]]`` entries
(see that directory's README). A grading case must make ``expect_check`` fire,
with a finding whose span covers ``expect_text`` when one is given. A slice
case either expects a :class:`SliceError` naming a did-you-mean, or is a
control whose unknown fields must be ignored.

Every case is regression data: it must fail with the right check. A case
whose hostile reading a reader cannot tell from an honest one carries
``decided`` (the reason); its reading is pinned the other way round, so a
change is noticed. Nothing here is skipped or xfailed.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import ROOT, load_toml
from qcgrade import grade
from qcgrade.evidence import SliceError

CORPUS = Path(__file__).resolve().parent / "corpora" / "redteam"
MIN_CASES_PER_FAMILY = 6

_GRADING_KEYS = {"name", "text", "expect_check", "expect_text", "slice", "tier2", "gap", "note", "decided"}
_SLICE_KEYS = {"name", "slice_json", "text", "expect_error", "expect_suggestion", "ignored", "gap", "note"}


def _families() -> list[Path]:
    return sorted(CORPUS.glob("*.toml"))


def _all_cases() -> list[tuple[str, dict[str, Any]]]:
    return [(path.stem, case) for path in _families() for case in load_toml(path).get("case", [])]


def _params(slice_cases: bool, decided: bool = False) -> list[Any]:
    return [
        pytest.param(family, case, id=f"{family}:{case['name']}")
        for family, case in _all_cases()
        if ("slice_json" in case) == slice_cases and ("decided" in case) == decided
    ]


def _slice_text(case: dict[str, Any]) -> str:
    return (CORPUS / case.get("slice", "slice.json")).read_text(encoding="utf-8")


def _describe(text: str, findings: Any) -> str:
    if not findings:
        return "qcgrade passes the section (no finding at all)"
    return "findings: " + "; ".join(f"{f.check} {text[f.start : f.end]!r}" for f in findings)


def test_corpus_shape() -> None:
    """Every family is big enough, every case well-formed, every name unique in its family."""
    families = _families()
    assert len(families) >= 10, [p.name for p in families]
    total = 0
    for path in families:
        data = load_toml(path)
        cases = data.get("case", [])
        assert len(cases) >= MIN_CASES_PER_FAMILY, f"{path.name}: {len(cases)} cases"
        names = [c["name"] for c in cases]
        assert len(names) == len(set(names)), f"{path.name}: duplicate case names"
        for case in cases:
            keys = _SLICE_KEYS if "slice_json" in case else _GRADING_KEYS
            assert set(case) <= keys, f"{path.name}:{case['name']}: unknown keys {set(case) - keys}"
            if "slice_json" in case:
                assert ("expect_error" in case) != ("ignored" in case), f"{path.name}:{case['name']}"
            else:
                assert case["expect_check"] and case["text"], f"{path.name}:{case['name']}"
                if "expect_text" in case:
                    assert case["expect_text"] in case["text"], f"{path.name}:{case['name']}: expect_text not in text"
        total += len(cases)
    assert total >= 120, total


@pytest.mark.parametrize(("family", "case"), _params(slice_cases=False))
def test_disguised_violation_fails(family: str, case: dict[str, Any]) -> None:
    text = case["text"]
    report = grade(text, _slice_text(case), tier2=case.get("tier2", False))
    wanted = case["expect_check"]
    hits = [f for f in report.findings if f.check == wanted]
    assert hits, f"{wanted} did not fire; {_describe(text, report.findings)}"
    needle = case.get("expect_text")
    if needle:
        spans = []
        at = text.find(needle)
        while at >= 0:
            spans.append((at, at + len(needle)))
            at = text.find(needle, at + 1)
        covered = any(f.start <= s and f.end >= e for f in hits for s, e in spans)
        assert covered, f"no {wanted} finding covers {needle!r}; {_describe(text, report.findings)}"


@pytest.mark.parametrize(("family", "case"), _params(slice_cases=False, decided=True))
def test_decided_reading_holds(family: str, case: dict[str, Any]) -> None:
    """A case whose hostile and honest readings a reader cannot tell apart, decided for the honest one.

    ``decided`` gives the reason (and docs/reading-rules.md the decision); the
    test pins today's reading, so a change to it is seen and argued again.
    """
    text = case["text"]
    report = grade(text, _slice_text(case), tier2=case.get("tier2", False))
    wanted = case["expect_check"]
    assert case["decided"].strip(), "a decided case states its reason"
    assert not [f for f in report.findings if f.check == wanted], (
        f"the decided reading changed; {_describe(text, report.findings)}"
    )


_DEFAULT_TEXT = "Revenue grew 30% [E001]; churn rose 9% [E004]."


def _without(data: dict[str, Any], path: str) -> dict[str, Any]:
    """``data`` with the field at ``path`` (``notes``, ``cards[0].x_source``) removed."""
    out = copy.deepcopy(data)
    node: Any = out
    parts = path.split(".")
    for part in parts[:-1]:
        name, _, index = part.partition("[")
        node = node[name]
        if index:
            node = node[int(index.rstrip("]"))]
    del node[parts[-1]]
    return out


@pytest.mark.parametrize(("family", "case"), _params(slice_cases=True))
def test_slice_field_typo(family: str, case: dict[str, Any]) -> None:
    text = case.get("text", _DEFAULT_TEXT)
    raw = case["slice_json"]
    if "expect_error" in case:
        with pytest.raises(SliceError) as info:
            grade(text, raw)
        message = str(info.value)
        assert case["expect_error"].lower() in message.lower(), message
        assert case["expect_suggestion"] in message, message
        return
    # A control: genuinely unknown fields are ignored, the verdict is that of the slice without them.
    data = json.loads(raw)
    stripped = data
    for path in case["ignored"]:
        stripped = _without(stripped, path)
    got = grade(text, raw)
    want = grade(text, stripped)
    assert [(f.check, f.start, f.end) for f in got.findings] == [(f.check, f.start, f.end) for f in want.findings]


def test_slice_typo_exits_2_on_the_command_line(tmp_path: Path) -> None:
    """The first typo case, through ``qcgrade check``: exit 2 and a did-you-mean on stderr."""
    case = next(c for _, c in _all_cases() if "slice_json" in c and "expect_error" in c)
    (tmp_path / "section.md").write_text(case.get("text", _DEFAULT_TEXT), encoding="utf-8")
    (tmp_path / "slice.json").write_text(case["slice_json"], encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "qcgrade", "check", "section.md", "--slice", "slice.json"]
    run = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    assert "did you mean" in run.stderr.lower(), run.stderr
    assert case["expect_suggestion"] in run.stderr, run.stderr
