"""The HTML audit report: self-contained, escaped, carries the numbers, renders in a browser."""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from qcgrade.auditing import audit, retirement_curve
from qcgrade.auditing.items import corpus_entries
from qcgrade.auditing.measure import rate
from qcgrade.cli import main
from qcgrade.curator.curve import JudgePoint
from qcgrade.curator.simulate import simulate
from qcgrade.curator.stats import wilson_interval
from qcgrade.render.audit_html import at_risk_from, audit_page, simulation_page

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
ENTRIES = [e for e in corpus_entries(FIXTURES) if e.id in ("brinewave-lines/s1", "voltaris-cells/s2")]
# A few rounds keep the sweep fast; the shape is tested in test_simulate*.py.
QUICK = {"rounds": 3, "tasks_per_round": 200}


class Page(HTMLParser):
    """Every start tag with its attributes, plus the visible text."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def count(self, tag: str) -> int:
        return sum(1 for t, _ in self.tags if t == tag)

    def charts(self) -> int:
        return sum(1 for t, attrs in self.tags if t == "svg" and attrs.get("class") == "chart")


def assert_self_contained(html: str) -> Page:
    page = Page(html)
    assert page.count("script") == 0 and page.count("link") == 0 and page.count("img") == 0
    assert page.count("iframe") == 0 and page.count("object") == 0 and page.count("embed") == 0
    for _tag, attrs in page.tags:
        for name in attrs:
            assert name not in ("src", "href", "xlink:href", "srcset", "action") and not name.startswith("on")
    assert "url(" not in html and "@import" not in html and "http" not in html
    return page


def _report(judge: Any = "qcgrade", **kw: Any) -> Any:
    return audit(judge, ENTRIES, **kw)


def test_audit_page_is_self_contained_and_shows_the_numbers() -> None:
    report = _report()
    html = audit_page(report)
    page = assert_self_contained(html)
    assert page.charts() == 2  # Fig. 2 bars and the Fig. 5 axis
    text = " ".join(page.text)
    assert f"rho_fp = {report.rho_fp.value:.3f}" in text
    assert f"rho_pf = {report.rho_pf.value:.3f}" in text and f"kappa = {report.kappa:.3f}" in text
    assert f"cliff (1 - tau)/2 = {report.cliff:.3f}" in text
    assert report.per_class  # else the loop below checks nothing
    for name, row in report.per_class.items():
        assert name in text and f"{row.flag.value:.3f}  (n={row.flag.n})" in text
    for region in ("safe", "at risk", "blind curator"):
        assert region in text
    assert html == audit_page(_report())  # same audit, same bytes


def test_outside_text_is_escaped() -> None:
    hostile = "<script>alert(1)</script>&<img src=x onerror=y>"
    report = _report(lambda text, slice_: {"verdict": "pass"}, identity=hostile)
    html = audit_page(report)
    assert_self_contained(html)
    assert hostile not in html and "&lt;script&gt;alert(1)&lt;/script&gt;&amp;&lt;img" in html


def test_judge_errors_and_skips_are_listed() -> None:
    def broken(text: str, slice_: dict[str, Any]) -> bool:
        raise TimeoutError("<upstream> timed out")

    html = audit_page(_report(broken, retries=0, fail_fast=0))
    page = assert_self_contained(html)
    text = " ".join(page.text)
    assert "Judge errors (16, not scored)" in text and "raised TimeoutError: <upstream> timed out" in text


def test_curve_is_drawn_with_the_judge_on_it() -> None:
    report = _report(lambda text, slice_: True)
    point = JudgePoint(
        "always pass", report.rho_fp.value, (report.rho_fp.ci_low, report.rho_fp.ci_high), report.rho_pf.value, report.verdict
    )
    curve = retirement_curve(tau=report.tau, judge=point, **QUICK)
    page = assert_self_contained(audit_page(report, curve))
    assert page.charts() == 3
    assert f"judge: rho_fp 1.000, {curve.judge_retirements:.2f} retired" in " ".join(page.text)
    assert page.count("polyline") == 2  # bias and noise


def test_simulation_page() -> None:
    result = simulate(rho_fp=0.2, seed=1, **QUICK)
    page = assert_self_contained(simulation_page(result))
    assert page.charts() == 1 and page.count("polyline") == 4
    text = " ".join(page.text)
    assert "genuine retirements" in text and "cap evictions" in text
    assert str(result.genuine_retirements) in text


@pytest.mark.parametrize("n", [0, 1, 7, 40, 300])
def test_at_risk_region_starts_where_the_interval_reaches_the_cliff(n: int) -> None:
    cliff = 0.45
    start = at_risk_from(rate(0, n), cliff)
    assert 0.0 <= start <= cliff
    if n == 0:
        assert start == 0.0
        return
    k = round(start * n)
    assert wilson_interval(k, n)[1] >= cliff or start == cliff
    if k > 0:
        assert wilson_interval(k - 1, n)[1] < cliff


def test_cli_writes_the_html(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus" / "brinewave-lines"
    corpus.mkdir(parents=True)
    for suffix in (".md", ".json"):
        shutil.copy(FIXTURES / "brinewave-lines" / f"s1{suffix}", corpus / f"s1{suffix}")
    out = tmp_path / "audit.html"
    result = CliRunner().invoke(main, ["audit", "--judge", "qcgrade", str(corpus.parent), "--html", str(out), "--curve"])
    assert result.exit_code == 0, result.stderr
    page = assert_self_contained(out.read_text(encoding="utf-8"))
    assert page.charts() == 3
    bad = CliRunner().invoke(
        main, ["audit", "--judge", "qcgrade", str(corpus.parent), "--html", str(tmp_path / "missing-dir" / "a.html")]
    )
    assert bad.exit_code == 2 and bad.stderr.startswith("qcgrade: error: ") and "cannot write" in bad.stderr
