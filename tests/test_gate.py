"""The gate table (the paper's Fig. 2 for qcgrade's grader), span Jaccard, and ``qcgrade gate``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import FIXTURES
from qcgrade import grade
from qcgrade.auditing.corpus import CorpusItem, load_corpus
from qcgrade.auditing.gate import GateResult, gate_steps, run_gate
from qcgrade.cli import main
from qcgrade.injectors import DEFECTS, QC_INVISIBLE, QC_VISIBLE
from qcgrade.render.gate import HEADERS, render_text
from qcgrade.spans import jaccard

CORPUS: list[CorpusItem] = load_corpus(FIXTURES)
FAILING = "## TL;DR\n\n- Revenue grew 30%.\n"


# --- span Jaccard -------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ([(0, 10)], [(0, 10)], 1.0),
        ([(0, 10)], [(5, 15)], 5 / 15),
        ([(0, 10)], [(10, 20)], 0.0),
        ([(0, 4), (6, 10)], [(0, 10)], 8 / 10),
        ([(0, 5), (3, 8)], [(0, 8)], 1.0),  # overlapping spans cover characters once
        ([(2, 2)], [(0, 4)], 0.0),  # an empty span covers nothing
        ([], [], 1.0),
        ([(0, 0)], [(7, 7)], 1.0),  # both cover nothing: a deletion reported as a place
        ([], [(0, 3)], 0.0),
    ],
)
def test_jaccard_is_intersection_over_union_of_covered_characters(a: list, b: list, expected: float) -> None:
    assert jaccard(a, b) == pytest.approx(expected)
    assert jaccard(b, a) == pytest.approx(expected)


# --- the gate on the fixture corpus ------------------------------------------


@pytest.fixture(scope="module")
def result() -> GateResult:
    return run_gate(CORPUS, 2)


def test_the_gate_shows_the_papers_pattern_for_the_deterministic_grader(result: GateResult) -> None:
    rows = {row.defect: row for row in result.rows}
    assert [row.defect for row in result.rows] == list(DEFECTS)
    assert result.sections == len(CORPUS) and result.skipped == []
    for row in result.rows:
        assert row.applied + row.not_applicable == len(CORPUS) * 2
        assert row.not_applicable == 0, row.defect
        assert row.reverted == row.applied
        assert row.places >= len(CORPUS) and row.checked == row.places and row.rejected == 0, row.defect
    for defect in QC_VISIBLE:
        assert rows[defect].flag_rate == 1.0 and rows[defect].exact_check_rate == 1.0
        assert rows[defect].mean_jaccard == pytest.approx(1.0)
    for defect in QC_INVISIBLE:
        assert rows[defect].flag_rate == 0.0 and rows[defect].exact_check_rate is None
        assert rows[defect].mean_jaccard == 0.0


def test_gate_counts_every_step_for_the_progress_bar() -> None:
    steps: list[int] = []
    items = [*CORPUS[:2], CorpusItem("broken", FAILING, CORPUS[0].slice)]
    run_gate(items, 2, ("number_swap", "missing_tldr"), steps.append)
    assert sum(steps) == gate_steps(items, 2, ("number_swap", "missing_tldr")) == 12


def test_sections_that_fail_before_injection_are_skipped_and_listed() -> None:
    items = [CORPUS[0], CorpusItem("bad/one", FAILING, CORPUS[0].slice)]
    result = run_gate(items, 1, ("bare_number",))
    assert result.sections == 1
    fired = tuple(sorted({f.check for f in grade(FAILING, CORPUS[0].slice).findings}))
    assert "bare_number" in fired
    assert [(s.id, s.checks) for s in result.skipped] == [("bad/one", fired)]
    assert result.rows[0].applied == 1
    assert "skipped bad/one: fails before injection" in render_text(result)


def test_not_applicable_is_counted_per_attempt() -> None:
    plain = CorpusItem(
        "plain", "## Overview\n\nThe company sells things.\n", CORPUS[0].slice.model_copy(update={"tldr_min_bullets": 0})
    )
    result = run_gate([plain], 3, ("number_swap", "broken_xref"))
    rows = {row.defect: row for row in result.rows}
    assert rows["number_swap"].not_applicable == 3 and rows["number_swap"].applied == 0
    assert rows["number_swap"].flag_rate is None and rows["number_swap"].mean_jaccard is None
    assert rows["broken_xref"].applied == 3 and rows["broken_xref"].exact_check_rate == 1.0


def test_rejected_places_are_counted_not_hidden() -> None:
    slice_ = CORPUS[0].slice.model_copy(update={"tldr_min_bullets": 1})
    card = min(slice_.card_ids)
    item = CorpusItem("hidden", f"## TL;DR\n\n- Sales rose 5% <!-- then fell --> [{card}].\n", slice_)
    row = run_gate([item], 3, ("claim_negation",)).rows[0]
    assert (row.places, row.checked, row.rejected) == (2, 2, 1)
    assert row.applied == 3 and row.flag_rate == 0.0


def test_gate_rejects_fewer_than_one_seed() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        run_gate(CORPUS[:1], 0)


# --- the command line ---------------------------------------------------------


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_cli_gate_prints_a_plain_ascii_table_when_piped() -> None:
    code, out, err = _run("gate", str(FIXTURES / "cloudmeadow-saas"), "--seeds", "1")
    assert code == 0, err
    assert out.isascii()
    lines = out.splitlines()
    assert lines[0] == "gate: 6 clean sections, 0 skipped, 1 seed(s), 42 injection attempts"
    header = lines.index(next(line for line in lines if line.startswith("defect ")))
    assert lines[header].split() == list(HEADERS)
    assert set(lines[header + 1]) == {"-"}
    rows = [line.split() for line in lines[header + 2 : header + 2 + len(DEFECTS)]]
    assert [r[0] for r in rows] == list(DEFECTS)
    # QC-visibility in words, not only by colour.
    assert [r[1] for r in rows] == ["visible"] * 5 + ["invisible"] * 2
    assert any(line.startswith("QC invisible: ") for line in lines)


def test_cli_gate_json_has_sorted_keys_and_every_class(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    item = CORPUS[0]
    lines = [
        json.dumps({"id": "clean", "section": item.section, "slice": item.slice.model_dump(mode="json")}),
        json.dumps({"id": "dirty", "section": FAILING, "slice": item.slice.model_dump(mode="json")}),
    ]
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = _run(
        "gate", str(corpus), "--seeds", "2", "--format", "json", "--defect", "orphan_citation", "--defect", "number_swap"
    )
    assert code == 0, err
    data = json.loads(out)
    assert out == json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert data["seeds"] == 2 and data["sections"] == 1
    assert [s["id"] for s in data["skipped"]] == ["dirty"]
    assert [c["defect"] for c in data["classes"]] == ["orphan_citation", "number_swap"]
    orphan, swap = data["classes"]
    assert orphan["applied"] == 2 and orphan["exact_check_rate"] == 1.0 and orphan["reverted"] == 2
    assert swap["flag_rate"] == 0.0 and swap["exact_check"] is None


def test_cli_gate_is_deterministic() -> None:
    outputs = {_run("gate", str(FIXTURES / "appendix-a"), "--seeds", "3", "--format", "json")[1] for _ in range(2)}
    assert len(outputs) == 1


@pytest.mark.parametrize(
    ("target", "expected"),
    [("nowhere", "no such file or directory"), ("empty", "no sections found")],
)
def test_cli_gate_bad_corpus_is_exit_2(tmp_path: Path, target: str, expected: str) -> None:
    path = tmp_path / target
    if target == "empty":
        path.mkdir()
    code, out, err = _run("gate", str(path))
    assert code == 2 and out == ""
    assert err.startswith("qcgrade: error: ") and expected in err and err.count("\n") == 1


def test_cli_gate_rejects_zero_seeds() -> None:
    code, _out, _err = _run("gate", str(FIXTURES / "appendix-a"), "--seeds", "0")
    assert code == 2
