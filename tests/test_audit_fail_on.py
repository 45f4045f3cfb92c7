"""``qcgrade audit --fail-on VERDICT``: a pipeline can refuse a judge by exit code, without parsing JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import helpers
from qcgrade.cli import main
from qcgrade.curator.theory import VERDICTS, at_least, verdict_name

SECTION = "appendix-a/s3"
# Four command judges, one per verdict, on one section (7 injected items, 1 clean; 0/7 has a
# Wilson upper bound of 0.35, below the cliff 0.45 at tau 0.10):
JUDGES = {
    # knows the clean text: flags every injection and passes the clean section
    "safe": "{python} JUDGE {clean}",
    # flags everything: never a false pass, but kappa = 0
    "starved": "{python} -c \"print('FAIL')\"",
    # qcgrade's own grader misses the two QC-invisible classes: 2/7, an interval reaching the cliff
    "at risk": "qcgrade",
    # passes everything
    "blind curator": "{python} -c \"print('PASS')\"",
}
PERFECT = """
import json, sys
item = json.loads(sys.stdin.read())
clean = open(sys.argv[1], encoding="utf-8").read()
print("PASS" if item["section"] == clean else "FAIL")
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = helpers.copy_fixtures(tmp_path_factory.mktemp("fail-on"), (SECTION,))
    (root.parent / "judge.py").write_text(PERFECT, encoding="utf-8")
    return root


def audit(corpus: Path, verdict: str, *extra: str) -> tuple[int, str, str]:
    judge = (
        JUDGES[verdict]
        .replace("JUDGE", str(corpus.parent / "judge.py"))
        .format(python="{python}", clean=corpus / f"{SECTION}.md")
    )
    cache = corpus.parent / "cache" / verdict.replace(" ", "-")
    result = CliRunner().invoke(main, ["audit", str(corpus), "--judge", judge, "--cache", str(cache), *extra])
    return result.exit_code, result.stdout, result.stderr


def test_each_judge_gets_the_verdict_it_is_meant_to(corpus: Path) -> None:
    for verdict in JUDGES:
        code, out, err = audit(corpus, verdict, "--format", "json")
        assert code == 0, err
        assert json.loads(out)["verdict"] == verdict


@pytest.mark.parametrize("threshold", ["safe", "starved", "at-risk", "blind-curator"])
def test_fail_on_exits_5_at_or_past_the_threshold(corpus: Path, threshold: str) -> None:
    for verdict in JUDGES:
        code, out, err = audit(corpus, verdict, "--fail-on", threshold)
        worse = VERDICTS.index(verdict) <= VERDICTS.index(threshold.replace("-", " "))
        assert code == (5 if worse else 0), (verdict, threshold, err)
        assert f"verdict: {verdict.upper()}" in out  # the report is written either way
        if worse:
            assert err == f"qcgrade: audit verdict '{verdict}' is at or past --fail-on {threshold}\n"
        else:
            assert err == ""


def test_starved_is_below_at_risk(corpus: Path) -> None:
    # Documented: a starved judge is safe from bias, so --fail-on at-risk lets it through.
    assert audit(corpus, "starved", "--fail-on", "at-risk")[0] == 0
    assert audit(corpus, "starved", "--fail-on", "starved")[0] == 5


def test_the_report_file_is_written_before_the_exit(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "audit.json"
    html = tmp_path / "audit.html"
    code, _, _ = audit(corpus, "blind curator", "--fail-on", "at-risk", "--format", "json", "-o", str(out), "--html", str(html))
    assert code == 5
    assert json.loads(out.read_text(encoding="utf-8"))["verdict"] == "blind curator"
    assert html.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("spelling", ["at risk", "AT-RISK", "at_risk", " At  Risk "])
def test_verdict_spellings(spelling: str) -> None:
    assert verdict_name(spelling) == "at risk"


@pytest.mark.parametrize(("value", "needle"), [("at-rsk", "(did you mean 'at-risk'?)"), ("fail", "verdicts, least severe first")])
def test_an_unknown_verdict_is_exit_2_before_any_judging(corpus: Path, value: str, needle: str) -> None:
    result = CliRunner().invoke(main, ["audit", str(corpus), "--judge", "qcgrade", "--fail-on", value])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"qcgrade: error: --fail-on: unknown verdict {value!r}") and needle in result.stderr


def test_at_least_is_the_documented_order() -> None:
    order = ["safe", "starved", "at risk", "blind curator"]
    for i, name in enumerate(order):
        for j, threshold in enumerate(order):
            assert at_least(name, threshold) is (i >= j)


def test_usage_documents_the_order_and_the_exit_code() -> None:
    usage = (helpers.ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
    assert "safe < starved < at risk < blind curator" in usage
    table = usage.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    for code in ("| 0 |", "| 1 |", "| 2 |", "| 3 |", "| 4 |", "| 5 |"):
        assert code in table
    assert "--fail-on" in table
