"""Reading rules, each pinned by its own cases: tests/reading/<rule id>.toml.

A case is a section text and what a reader of the rendered section reads in
it: ``numbers`` (the numerals, in order, as shown) and ``sentences`` (the
sentences' visible text). ``decided`` names a span the file's rule must have
decided (its trace says so), so a case cannot pass by another rule's doing.
Every rule of :data:`qcgrade.reading.rules.RULES` that reads numerals or ends
sentences has a file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import load_toml
from qcgrade.reading import parse_section
from qcgrade.reading.explain import explain
from qcgrade.reading.rules import RULES, Decision
from qcgrade.reading.rules.numerals import read_numerals
from qcgrade.reading.section import _blank

CASES = Path(__file__).resolve().parent / "reading"
FILES = sorted(CASES.glob("*.toml"))


def _params() -> list[object]:
    return [
        pytest.param(path.stem, case, id=f"{path.stem}:{number}")
        for path in FILES
        for number, case in enumerate(load_toml(path)["case"])
    ]


def test_each_file_names_a_known_rule_and_holds_cases() -> None:
    for path in FILES:
        data = load_toml(path)
        assert data["rule"] == path.stem, path.name
        assert data["rule"] in RULES, f"{path.name}: no rule {data['rule']!r} in qcgrade.reading.rules.RULES"
        assert data["case"], path.name
        assert any("decided" in case for case in data["case"]), f"{path.name}: no case pins the rule's own decision"


def test_every_numeral_rule_has_a_case_file() -> None:
    numeral_rules = {rule for rule in RULES if rule.split(".")[0] in ("numeral", "name", "identifier")}
    missing = numeral_rules - {path.stem for path in FILES} - {"numeral.list_number"}
    assert not missing, f"rules without cases: {sorted(missing)}"


# Sentence-end rules pinned by their own case files (the older ones are pinned by the corpora and tests/test_vocab.py).
_SENTENCE_RULES = (
    "sentence_end.attribution",
    "sentence_end.ordinal",
    "sentence_end.ticker",
    "sentence_end.greek_question",
    "abbreviation.including",
    "abbreviation.et_al",
    "abbreviation.listed",
    "abbreviation.magnitude",
    "abbreviation.currency",
    "abbreviation.reporter",
    "abbreviation.capitals",
    "abbreviation.compound",
    "abbreviation.in_aside",
    "abbreviation.number_taking",
    "abbreviation.legal",
)


def test_every_new_sentence_rule_has_a_case_file() -> None:
    missing = set(_SENTENCE_RULES) - {path.stem for path in FILES}
    assert not missing, f"rules without cases: {sorted(missing)}"


def _trace(text: str) -> list[Decision]:
    """The numeral and sentence-end decisions on ``text``, each with what it decided on as its verdict."""
    section = parse_section(text)
    scan = _blank(section.visible, section._masks) if section._masks else section.visible
    trace: list[Decision] = []
    read_numerals(scan, 0, len(scan), trace)
    numerals = [d._replace(verdict=scan[d.start : d.end]) for d in trace]
    ends = [Decision(e.kind, e.start, e.end, e.shown, e.rule) for e in explain(text) if e.kind == "sentence_end"]
    return [d for d in numerals + ends if d.verdict]  # an empty span decides nothing a case can name


@pytest.mark.parametrize(("rule", "case"), _params())
def test_case(rule: str, case: dict) -> None:
    text = case["text"]
    section = parse_section(text)
    if "numbers" in case:
        assert [n.text for n in section.numerals] == case["numbers"]
    if "sentences" in case:
        assert [s.text for s in section.sentences] == case["sentences"]
    if "decided" in case:
        decided = [d.verdict for d in _trace(text) if d.rule == rule]
        assert any(case["decided"] in span or span in case["decided"] for span in decided), (
            f"{rule} decided none of {case['decided']!r}; it decided {decided}"
        )
