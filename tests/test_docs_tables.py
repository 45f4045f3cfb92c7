"""The abbreviation table of docs/reading-rules.md (1.5) is the one in the data: executed, so the two cannot drift.

Each row names its class (```never_final```); its four outcome cells must say
what ``vocab/abbreviations.toml``'s table says for the same columns, and each
of its one-word examples must be read by that class.
"""

from __future__ import annotations

import re

import pytest

from helpers import ROOT
from qcgrade.reading import vocab
from qcgrade.reading.rules.sentence_ends import word_class

_DOC = (ROOT / "docs" / "reading-rules.md").read_text(encoding="utf-8")
_COLUMNS = ("lower", "reference", "quantity", "capital")
# The docs' words for each outcome, as the data's comment defines them.
_OUTCOMES = {
    "stays": "stays",
    "ends": "ends",
    "ends before a clause": "ends_before_clause",
    "ends only before a clause-opening word": "ends_before_opener",
    "ends only before a capitalised clause-opening word": "ends_before_long_opener",
}
# Classes whose examples depend on the words around them (a capital after a capitalised word, a letter after a
# number): their examples are phrases, pinned by tests/test_vocab.py and the case files instead.
_IN_CONTEXT = {"place_title", "et_al", "label", "initial", "letter"}


def _rows() -> list[list[str]]:
    start = _DOC.index("| class | examples |")
    rows = []
    for line in _DOC[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _class(cell: str) -> str:
    found = re.search(r"\(`([a-z_]+)`\)", cell)
    assert found, f"row {cell!r} names no class"
    return found.group(1)


def _outcome(cell: str) -> str:
    plain = re.sub(r"\s*\(.*\)$", "", cell.replace("**", "")).strip()
    assert plain in _OUTCOMES, f"the docs' outcome {cell!r} is none of {sorted(_OUTCOMES)}"
    return _OUTCOMES[plain]


def test_the_table_has_a_row_for_every_class_of_the_data_and_no_other() -> None:
    documented = {_class(row[0]) for row in _rows()}
    assert documented == set(vocab.abbreviation_table()) | {"ordinary"}


@pytest.mark.parametrize("row", _rows(), ids=lambda row: _class(row[0]))
def test_each_row_says_what_the_data_decides(row: list[str]) -> None:
    cls = _class(row[0])
    said = {column: _outcome(cell) for column, cell in zip(_COLUMNS, row[2:])}
    if cls == "ordinary":
        assert set(said.values()) == {"ends"}
        return
    table = vocab.abbreviation_table()[cls]
    assert said == {column: table[column] for column in _COLUMNS}


def _examples() -> list[tuple[str, str]]:
    out = []
    for row in _rows():
        cls = _class(row[0])
        if cls in _IN_CONTEXT:
            continue
        for example in re.findall(r"`([^`]+)`", re.sub(r"\([^)]*\)", "", row[1])):
            if example.endswith(".") and all(part.endswith(".") for part in example.split()):
                out.append((cls, example))
    return out


@pytest.mark.parametrize(("cls", "example"), _examples())
def test_each_example_is_read_by_its_row_class(cls: str, example: str) -> None:
    *parts, last = example.split()
    before = "Sales rose 42% at " + "".join(part + " " for part in parts)
    assert word_class(last[:-1], before) == cls
