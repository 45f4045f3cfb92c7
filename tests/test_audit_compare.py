"""`qcgrade audit compare`: McNemar's exact test and the paired difference on the shared items."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from helpers import FIXTURES, ROOT, load_toml
from qcgrade.auditing import audit
from qcgrade.auditing.compare import compare, load_side, mcnemar_exact, paired_difference
from qcgrade.auditing.item_file import dump_items, load_items
from qcgrade.auditing.items import build_items, corpus_entries
from qcgrade.cli import main
from qcgrade.errors import InputError

STATS = load_toml(ROOT / "tests" / "data" / "paired_stats.toml")
SECTIONS = ("appendix-a/s3", "brinewave-lines/s1", "voltaris-cells/s2")


@pytest.mark.parametrize("case", STATS["mcnemar"], ids=lambda c: c["name"])
def test_mcnemar_exact(case: dict[str, Any]) -> None:
    assert mcnemar_exact(case["b"], case["c"]) == pytest.approx(case["p"], rel=1e-12)
    assert mcnemar_exact(case["c"], case["b"]) == pytest.approx(case["p"], rel=1e-12)  # two-sided


@pytest.mark.parametrize("case", STATS["newcombe"], ids=lambda c: c["name"])
def test_newcombe_paired_interval(case: dict[str, Any]) -> None:
    d, low, high = paired_difference(case["both"], case["a_only"], case["b_only"], case["neither"])
    assert (round(d, 4), round(low, 4), round(high, 4)) == (case["value"], case["low"], case["high"])
    # Swapping A and B mirrors the interval.
    md, mlow, mhigh = paired_difference(case["both"], case["b_only"], case["a_only"], case["neither"])
    assert (md, mlow, mhigh) == pytest.approx((-d, -high, -low))


def test_the_paired_interval_covers_the_truth_about_95_percent_of_the_time() -> None:
    """Coverage over simulated correlated pairs (seeded): the interval is neither far too wide nor too narrow."""
    rng = random.Random(12)
    hits, trials = 0, 400
    p_a, p_b, n = 0.3, 0.2, 150
    for _ in range(trials):
        cells = [0, 0, 0, 0]
        for _ in range(n):
            shared = rng.random()  # a common latent draw makes the pairs correlated
            a = shared < p_a if rng.random() < 0.7 else rng.random() < p_a
            b = shared < p_b if rng.random() < 0.7 else rng.random() < p_b
            cells[(0 if a else 2) + (0 if b else 1)] += 1
        both, a_only, b_only, neither = cells
        _, low, high = paired_difference(both, a_only, b_only, neither)
        hits += low <= p_a - p_b <= high
    assert 0.91 <= hits / trials <= 0.99, hits / trials


def _item_set(tmp_path: Path) -> Path:
    entries = [
        (i, (FIXTURES / f"{i}.md").read_text(encoding="utf-8"), json.loads((FIXTURES / f"{i}.json").read_text()))
        for i in SECTIONS
    ]
    path = tmp_path / "items.jsonl"
    path.write_text(dump_items(build_items(corpus_entries(entries), (0,)), (0,)), encoding="utf-8")
    return path


def _coin(seed: str, p_pass: float) -> Any:
    import hashlib

    def judge(text: str, slice_: dict[str, Any]) -> bool:
        digest = hashlib.sha256(f"{seed}\x00{text}".encode()).digest()
        return int.from_bytes(digest[:8], "big") / 2**64 < p_pass

    return judge


def _write(report: Any, path: Path) -> Path:
    path.write_text(json.dumps(report.to_dict(), sort_keys=True), encoding="utf-8")
    return path


def test_compare_counts_discordant_pairs_item_by_item(tmp_path: Path) -> None:
    items = load_items(_item_set(tmp_path))
    lenient = audit(_coin("a", 0.8), items, composite=True)
    strict = audit("qcgrade", items, composite=True)
    a = load_side(_write(lenient, tmp_path / "a.json").read_bytes(), "a.json")
    b = load_side(_write(strict, tmp_path / "b.json").read_bytes(), "b.json")
    result = compare(a, b)
    # Recount from the two reports' items, independently of compare().
    verdicts_a = {i.id: i.passed for i in lenient.items}
    verdicts_b = {i.id: i.passed for i in strict.items}
    injected = [i.id for i in lenient.items if i.kind != "clean"]
    a_only = sum(1 for i in injected if verdicts_a[i] and not verdicts_b[i])
    b_only = sum(1 for i in injected if verdicts_b[i] and not verdicts_a[i])
    fp = result.false_pass
    assert (fp.a_only, fp.b_only, fp.a.n) == (a_only, b_only, len(injected))
    assert fp.a.value == lenient.rho_fp.value and fp.b.value == strict.rho_fp.value
    assert fp.p_value == mcnemar_exact(a_only, b_only) < 0.05
    d, low, high = fp.difference
    assert d == pytest.approx(lenient.rho_fp.value - strict.rho_fp.value)
    assert 0 < low < d < high
    assert result.false_fail.a.n == lenient.rho_pf.n == len(SECTIONS)
    assert result.shared == len(lenient.items)
    # The composite of the lenient judge is qcgrade-or-stricter on every item.
    side = load_side((tmp_path / "a.json").read_bytes(), "a.json", "composite")
    vs = compare(side, b, "composite")
    assert vs.false_pass.a_only == 0 and vs.false_pass.a.value <= strict.rho_fp.value


def test_compare_cli_text_and_json(tmp_path: Path) -> None:
    items = load_items(_item_set(tmp_path))
    first = _write(audit(_coin("a", 0.7), items), tmp_path / "a.json")
    second = _write(audit(_coin("b", 0.4), items), tmp_path / "b.json")
    runner = CliRunner()
    text = runner.invoke(main, ["audit", "compare", str(first), str(second)])
    assert text.exit_code == 0, text.output
    assert "rho_fp, false passes (injected items" in text.stdout and "McNemar exact p = " in text.stdout
    as_json = runner.invoke(main, ["audit", "compare", str(first), str(second), "--format", "json"])
    data = json.loads(as_json.stdout)
    assert sorted(data) == ["a", "b", "false_fail", "false_pass", "only_a", "only_b", "shared", "signal"]
    assert sorted(data["false_pass"]) == [
        "a", "a_only", "b", "b_only", "both", "difference", "mcnemar_p", "n", "neither",
    ]  # fmt: skip
    assert data["false_pass"]["a"]["value"] > data["false_pass"]["b"]["value"]
    again = runner.invoke(main, ["audit", "compare", str(first), str(second), "--format", "json"])
    assert again.stdout == as_json.stdout


def test_compare_refuses_different_items_under_one_id(tmp_path: Path) -> None:
    items = load_items(_item_set(tmp_path))
    report = audit("qcgrade", items).to_dict()
    other = json.loads(json.dumps(report))
    other["items"][1]["text_sha256"] = "0" * 64
    (tmp_path / "a.json").write_text(json.dumps(report), encoding="utf-8")
    (tmp_path / "b.json").write_text(json.dumps(other), encoding="utf-8")
    result = CliRunner().invoke(main, ["audit", "compare", str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    assert result.exit_code == 2 and "judged different items under the id" in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "signal", "message"),
    [
        (b"not json", "judge", "not JSON"),
        (b'{"rho_fp": 0.1}', "judge", "not an audit report"),
        (b'{"judge": "j", "items": [{"id": "x", "class": "clean", "verdict": "maybe"}]}', "judge", "verdict must be"),
        (b'{"judge": "j", "items": []}', "composite", "run without --composite"),
    ],
)
def test_bad_compare_inputs_are_one_line(tmp_path: Path, content: bytes, signal: str, message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    with pytest.raises(InputError, match=message):
        load_side(bad.read_bytes(), str(bad), signal)
    result = CliRunner().invoke(main, ["audit", "compare", str(bad), str(bad), "--signal", signal])
    assert result.exit_code == 2 and message in result.stderr


def test_audit_group_keeps_the_run_as_its_default(tmp_path: Path) -> None:
    runner = CliRunner()
    help_text = runner.invoke(main, ["audit", "--help"], prog_name="qcgrade").stdout
    assert "Usage: qcgrade audit [OPTIONS] [CORPUS]" in help_text and "qcgrade audit compare A.json B.json" in help_text
    compare_help = runner.invoke(main, ["audit", "compare", "--help"], prog_name="qcgrade").stdout
    assert "Usage: qcgrade audit compare [OPTIONS] A.json B.json" in compare_help
    corpus = tmp_path / "c"
    corpus.mkdir()
    for suffix in (".md", ".json"):
        (corpus / f"s3{suffix}").write_bytes((FIXTURES / "appendix-a" / f"s3{suffix}").read_bytes())
    ran = runner.invoke(main, ["audit", str(corpus), "--judge", "qcgrade", "--format", "json"])
    assert ran.exit_code == 0 and json.loads(ran.stdout)["judge"].startswith("qcgrade ")
