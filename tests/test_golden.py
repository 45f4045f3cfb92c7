"""The golden dump of findings (tests/golden/findings.txt) is current.

A change to what the grader reads must leave every finding over every kept
input byte-identical, except the findings it means to change: regenerate the
dump with ``python tests/golden/golden.py`` and the commit's diff lists them.
"""

from __future__ import annotations

import sys

import pytest

from helpers import ROOT

sys.path.insert(0, str(ROOT / "tests" / "golden"))

import golden  # noqa: E402


@pytest.mark.slow
def test_golden_findings_are_current() -> None:
    now = golden.dump()
    before = golden.GOLDEN.read_text(encoding="utf-8")
    if now != before:
        import difflib

        diff = "\n".join(
            list(difflib.unified_diff(before.splitlines(), now.splitlines(), "findings.txt", "now", n=0, lineterm=""))[:60]
        )
        pytest.fail(f"findings changed; if meant, run `python tests/golden/golden.py` and list them in the commit:\n{diff}")


def test_golden_inputs_have_unique_names() -> None:
    names = [name for name, _, _ in golden.inputs()]
    assert len(names) == len(set(names)) > 1000
