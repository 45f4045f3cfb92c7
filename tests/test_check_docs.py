"""Every check's documented "Fails"/"Passes" examples do what the docstring says.

A check's module docstring shows its examples as reST literal blocks::

    Fails (optional context)::

        markdown, indented four spaces

    Passes::

        markdown

and names the slice they are graded against ("graded against the slice
``tests/cases/slice.json``"). Graded with only that check selected, every
Fails example is reported and no Passes example is. Graded with every check,
a Fails example fires exactly one check more than the Passes example shown
with it: the pair isolates the check it documents.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from helpers import ROOT
from qcgrade import CHECK_NAMES, Options, grade, load_slice
from qcgrade.checks import CHECKS

_HEADER = re.compile(r"^(Fails|Passes)(?: \([^)]*\))?::$")
_SLICE = re.compile(r"graded against the slice ``([^`]+)``")


def examples(doc: str) -> dict[str, list[str]]:
    """The literal blocks under each "Fails"/"Passes" header, dedented, each ending in one newline."""
    found: dict[str, list[str]] = {"Fails": [], "Passes": []}
    lines = doc.splitlines()
    i = 0
    while i < len(lines):
        header = _HEADER.match(lines[i].strip())
        i += 1
        if header is None:
            continue
        block: list[str] = []
        while i < len(lines) and (not lines[i].strip() or lines[i].startswith("    ")):
            block.append(lines[i][4:])
            i += 1
        found[header.group(1)].append("\n".join(block).strip("\n") + "\n")
    return found


def _docs() -> list[Any]:
    return [pytest.param(check.name, check.doc, id=check.name) for check in CHECKS]


def test_there_are_checks_to_document() -> None:
    # Guards the parametrized test below: an empty parameter list would only skip it.
    assert len(_docs()) == len(CHECK_NAMES) >= 8


def test_the_example_parser_reads_blocks_and_stops_at_prose() -> None:
    doc = "Summary.\n\nFails (E009 is no card)::\n\n    a [E009]\n\n    b\n\nProse.\n\nPasses::\n\n    c\n"
    assert examples(doc) == {"Fails": ["a [E009]\n\nb\n"], "Passes": ["c\n"]}


@pytest.mark.parametrize(("name", "doc"), _docs())
def test_documented_examples(name: str, doc: str) -> None:
    where = _SLICE.search(" ".join(doc.split()))
    assert where is not None, f"{name}: the docstring names no slice ('graded against the slice ``...``')"
    slice_path = ROOT / where.group(1)
    assert slice_path.is_file(), f"{name}: no slice {where.group(1)}"
    slice_ = load_slice(slice_path.read_text(encoding="utf-8"))
    found = examples(doc)
    assert found["Fails"] and len(found["Fails"]) == len(found["Passes"]), f"{name}: needs Fails/Passes examples in pairs"
    only = Options(select=frozenset({name}))
    every = Options(tier2=True, grounding=True)  # every tier, grounding included
    for failing, passing in zip(found["Fails"], found["Passes"]):
        assert grade(failing, slice_, only).findings, f"{name} does not fire on its Fails example:\n{failing}"
        assert not grade(passing, slice_, only).findings, f"{name} fires on its Passes example:\n{passing}"
        fired = {f.check for f in grade(failing, slice_, every).findings}
        also = {f.check for f in grade(passing, slice_, every).findings}
        assert fired - also == {name}, f"{name}: the pair differs in {sorted(fired ^ also)}"


def test_the_registry_lists_each_check_as_its_module_defines_it() -> None:
    """CHECKS names each check and its tier without importing it; the module's CHECK must agree."""
    from qcgrade.checks import CHECKS

    for listed in CHECKS:
        assert (listed.check.name, listed.check.tier) == (listed.name, listed.tier)


def test_grading_tier_1_imports_no_tier_2_or_grounding_module() -> None:
    """A tier-1 reward call never loads number words or the card reading (start-up and memory)."""
    import subprocess
    import sys

    code = (
        "import sys, qcgrade; qcgrade.grade('Revenue grew 42% [E1].', {'section': 's', 'cards': [{'id': 'E1', 'stance': 'bull'}]});"
        "loaded = [m for m in sys.modules if m.startswith(('qcgrade.grounding', 'qcgrade.checks.spelled_number',"
        " 'qcgrade.checks.value_mismatch', 'qcgrade.checks.polarity_mismatch'))]; print(loaded)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
