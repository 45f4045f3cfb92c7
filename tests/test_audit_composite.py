"""`--composite`: the judge, qcgrade and "pass only if both pass", measured side by side on the same items."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from helpers import FIXTURES
from qcgrade import Options
from qcgrade.auditing import audit
from qcgrade.auditing.composite import composite_outcomes
from qcgrade.auditing.items import build_items, corpus_entries
from qcgrade.auditing.judges import Verdict
from qcgrade.auditing.runner import Outcome
from qcgrade.cli import main
from qcgrade.render.audit_html import audit_page
from qcgrade.render.audit_text import render

SECTIONS = ("appendix-a/s3", "brinewave-lines/s1", "brinewave-lines/s2", "voltaris-cells/s2")


def entries() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (i, (FIXTURES / f"{i}.md").read_text(encoding="utf-8"), json.loads((FIXTURES / f"{i}.json").read_text()))
        for i in SECTIONS
    ]


def test_the_rule_pass_only_if_both_pass() -> None:
    p, f = Verdict(True), Verdict(False, ((1, 2),))
    judge = [Outcome(p), Outcome(p), Outcome(Verdict(False)), Outcome(None, "timed out", 2)]
    qc = [Outcome(p), Outcome(f), Outcome(f), Outcome(p)]
    out = composite_outcomes(judge, qc)
    assert [o.verdict.passed if o.verdict else None for o in out] == [True, False, False, None]
    assert out[1].verdict is not None and out[1].verdict.spans == ((1, 2),)  # qcgrade's spans locate the failure
    assert out[3].error == "timed out"  # a judge error is never decided by qcgrade alone


def test_a_lenient_judge_is_pulled_back_to_qcgrade() -> None:
    """Always pass: alone it sits at rho_fp = 1; the composite inherits exactly qcgrade's rates."""
    report = audit(lambda text, slice_: True, entries(), composite=True)
    assert report.composite is not None
    signals = report.composite.signals
    judge, qc, both = (signals[n].report for n in ("judge", "qcgrade", "composite"))
    assert judge.rho_fp.value == 1.0 and judge.verdict == "blind curator"
    assert (both.rho_fp, both.rho_pf) == (qc.rho_fp, qc.rho_pf)
    # qcgrade misses exactly the QC-invisible classes, so that is the composite's rho_fp.
    invisible = sum(1 for i in report.items if i.kind in ("claim_negation", "number_swap"))
    injected = sum(1 for i in report.items if i.kind != "clean")
    assert both.rho_fp.count == invisible and both.rho_fp.n == injected
    assert judge is not qc and report.rho_fp == judge.rho_fp  # the top-level report stays the judge's own


def test_a_judge_that_sees_meaning_completes_qcgrade() -> None:
    """A judge that fails exactly the QC-invisible defects: each alone misses something, the composite nothing."""
    items = build_items(corpus_entries(entries()), (0,))
    invisible = {i.text for i in items.items if i.kind in ("claim_negation", "number_swap")}
    report = audit(lambda text, slice_: text not in invisible, entries(), composite=True)
    assert report.composite is not None
    judge, qc, both = (report.composite.signals[n].report for n in ("judge", "qcgrade", "composite"))
    assert judge.rho_fp.value > 0.5 and 0 < qc.rho_fp.value < 0.5
    assert both.rho_fp.value == 0.0 and both.rho_pf.value == 0.0 and both.kappa == 1.0
    assert both.verdict != judge.verdict


def test_json_keys_are_stable_and_items_carry_three_verdicts() -> None:
    report = audit(lambda text, slice_: "[E001]" in text, entries(), composite=True)
    data = report.to_dict()["composite"]
    assert sorted(data) == ["items", "qcgrade_options", "rule", "signals"]
    assert list(data["signals"]) == ["judge", "qcgrade", "composite"]
    for signal in data["signals"].values():
        assert sorted(signal) == [
            "identity", "kappa", "per_class", "rho_fp", "rho_fp_invisible", "rho_fp_visible", "rho_pf",
            "verdict", "verdict_reason",
        ]  # fmt: skip
        assert sorted(signal["rho_fp"]) == ["ci_high", "ci_low", "count", "n", "value"]
    assert data["qcgrade_options"]["tier2"] is False
    by_id = {i["id"]: i for i in data["items"]}
    for item in report.items:
        row = by_id[item.id]
        verdict = "pass" if item.passed else "fail"
        assert row["judge"] == verdict
        assert row["composite"] == ("pass" if row["judge"] == row["qcgrade"] == "pass" else "fail")
    assert json.dumps(report.to_dict(), sort_keys=True) == json.dumps(
        audit(lambda text, slice_: "[E001]" in text, entries(), composite=True).to_dict(), sort_keys=True
    )


def test_qcgrade_side_takes_grading_options() -> None:
    """The composite grades with the Options given (e.g. tier 2 now, a grounding tier when it exists)."""
    tier1 = audit(lambda t, s: True, entries(), composite=True)
    tier2 = audit(lambda t, s: True, entries(), composite=Options(tier2=True))
    assert tier1.composite is not None and tier2.composite is not None
    assert tier2.to_dict()["composite"]["qcgrade_options"]["tier2"] is True
    assert tier2.composite.signals["qcgrade"].report.rho_pf.value >= tier1.composite.signals["qcgrade"].report.rho_pf.value
    with pytest.raises(TypeError, match="composite must be True or an Options"):
        audit(lambda t, s: True, entries(), composite="yes")


def test_without_the_flag_nothing_changes() -> None:
    report = audit(lambda t, s: True, entries())
    assert report.composite is None and "composite" not in report.to_dict()
    assert "composite (" not in render(report) and "Judge, qcgrade and both" not in audit_page(report)


def test_text_and_html_show_all_three_against_the_cliff(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    for ident in SECTIONS:
        for suffix in (".md", ".json"):
            target = corpus / f"{ident}{suffix}"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes((FIXTURES / f"{ident}{suffix}").read_bytes())
    judge = tmp_path / "lenient.py"
    judge.write_text("import sys\nsys.stdin.read()\nprint('PASS')\n", encoding="utf-8")
    page = tmp_path / "audit.html"
    result = CliRunner().invoke(
        main, ["audit", str(corpus), "--judge", f"{sys_executable()} {judge}", "--composite", "-j", "4", "--html", str(page)]
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    start = lines.index("composite (pass only if the judge and qcgrade both pass), on the same items:")
    header, *rows = lines[start + 1 : start + 5]
    assert header.split()[:2] == ["signal", "rho_fp"]
    assert [r.split()[0] for r in rows] == ["judge", "qcgrade", "composite"]
    assert rows[0].split()[1] == "1.000" and rows[0].endswith("blind curator")
    assert rows[1].split()[1] == rows[2].split()[1]
    html = page.read_text(encoding="utf-8")
    assert "Judge, qcgrade and both against the retirement cliff" in html
    axis = html[html.index("Judge, qcgrade and both against") :]
    for name in ("judge: 1.000", "qcgrade: ", "composite: "):
        assert name in axis
    assert html.count("<circle") >= 3 + 1  # three marks on the composite axis, plus the judge's own axis


def sys_executable() -> str:
    import sys

    return sys.executable


def test_grounding_goes_into_qcgrades_side_of_the_composite(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    for ident in SECTIONS:
        for suffix in (".md", ".json"):
            target = corpus / f"{ident}{suffix}"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes((FIXTURES / f"{ident}{suffix}").read_bytes())
    judge = tmp_path / "lenient.py"
    judge.write_text("import sys\nsys.stdin.read()\nprint('PASS')\n", encoding="utf-8")
    base = ["audit", str(corpus), "--judge", f"{sys_executable()} {judge}", "-j", "4", "--format", "json"]
    runner = CliRunner()
    tier1 = json.loads(runner.invoke(main, [*base, "--composite"]).stdout)["composite"]
    grounded = json.loads(runner.invoke(main, [*base, "--composite", "--grounding"]).stdout)["composite"]
    assert tier1["qcgrade_options"]["grounding"] is False and grounded["qcgrade_options"]["grounding"] is True
    assert "grounding" in grounded["signals"]["qcgrade"]["identity"]
    fp1 = tier1["signals"]["composite"]["rho_fp"]
    fp3 = grounded["signals"]["composite"]["rho_fp"]
    assert fp3["n"] == fp1["n"] and fp3["count"] < fp1["count"]  # grounding sees some of the meaning defects
    refused = runner.invoke(main, base[:-2] + ["--grounding"])
    assert refused.exit_code == 2 and "use it with --judge qcgrade or --composite" in refused.stderr
