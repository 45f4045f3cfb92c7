"""The HTML audit report: self-contained, escaped, carries the numbers, renders in a browser."""

from __future__ import annotations

import re
import shutil
from html import escape
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
from qcgrade.render.audit_text import summary_lines

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


# --- what the judge got wrong, the run, the terms ------------------------------------------

HOSTILE_TAIL = '\n<script>alert("qc")</script>\n\nSee <b onclick="x()">&amp; this</b> too.\n'


def _items_and_report(judge: Any, entries: list[Any] | None = None, **kw: Any) -> tuple[Any, Any]:
    """The audit and its items (the CLI keeps them the same way, through on_items)."""
    kept: list[Any] = []
    report = audit(judge, entries or ENTRIES, on_items=kept.append, **kw)
    return kept[0].items, report


def test_false_passes_are_shown_with_their_sections_and_the_injected_span_marked() -> None:
    items, report = _items_and_report(lambda text, slice_: True)  # passes everything
    html = audit_page(report, items=items)
    assert_self_contained(html)
    injected = [i for i in items if i.kind != "clean"]
    assert f"Passed wrongly: {len(injected)} of {len(injected)} injected items" in html
    assert "Failed wrongly: 0 of" in html
    for item in injected:
        assert f"<code>{item.id}</code>" in html
        for start, end in item.targets:
            if end > start:
                assert f'<mark class="injected">{escape(item.text[start:end])}</mark>' in html, item.id
            else:
                assert '<span class="cut">[deleted here]</span>' in html
        assert f"<del>{escape(item.record.original_text[:40])}" in html
    assert html.count("the judge said <b>pass</b>") == len(injected)


def test_false_fails_show_what_the_judge_flagged_and_its_words() -> None:
    def fails_everything(text: str, slice_: dict[str, Any]) -> dict[str, Any]:
        return {"verdict": "fail", "spans": [[0, 9]], "reason": "too <confident> & terse"}

    items, report = _items_and_report(fails_everything)
    html = audit_page(report, items=items)
    clean = [i for i in items if i.kind == "clean"]
    assert f"Failed wrongly: {len(clean)} of {len(clean)} clean items" in html
    for item in clean:
        assert f'<mark class="judge">{escape(item.text[0:9])}</mark>' in html
    assert html.count("too &lt;confident&gt; &amp; terse") == len(clean)
    assert "Passed wrongly: 0 of" in html


def test_section_and_judge_text_are_escaped(tmp_path: Path) -> None:
    base = next(e for e in ENTRIES if e.id == "brinewave-lines/s1")
    hostile = [type(base)(base.id, base.text + HOSTILE_TAIL, base.slice)]
    items, report = _items_and_report(lambda text, slice_: "PASS\n<script>evil()</script>", hostile)
    assert items and all(HOSTILE_TAIL in i.text for i in items if i.kind == "clean")
    html = audit_page(report, items=items)
    assert_self_contained(html)  # no script tag, no event handler, whatever the section or the judge wrote
    assert "&lt;script&gt;alert(&quot;qc&quot;)&lt;/script&gt;" in html
    assert "&lt;b onclick=&quot;x()&quot;&gt;&amp;amp; this&lt;/b&gt;" in html
    assert "&lt;script&gt;evil()&lt;/script&gt;" in html


def test_marks_overlap_and_deletions_are_shown() -> None:
    from qcgrade.render.audit_html import _marked

    assert _marked("abcdef", [(1, 4)], [(3, 6)]) == (
        'a<mark class="injected">bc</mark><mark class="injected judge">d</mark><mark class="judge">ef</mark>'
    )
    assert _marked("a<b", [(1, 1)], []) == 'a<span class="cut">[deleted here]</span>&lt;b'
    assert _marked("ab", [(2, 2)], [(0, 99)]) == '<mark class="judge">ab</mark><span class="cut">[deleted here]</span>'


def test_the_header_counts_seeds_as_given() -> None:
    one = audit_page(_report(seeds=1))
    assert "1 seed (0)" in one and "seeds 0" not in one
    assert "2 sections, 3 seeds (0-2)" in audit_page(_report(seeds=3))


def test_the_run_details_and_the_glossary() -> None:
    import qcgrade
    from qcgrade.render.audit_html import GLOSSARY, RunDetails

    report = _report()
    html = audit_page(report, run=RunDetails(command="qcgrade audit corpus --judge qcgrade"))
    text = " ".join(Page(html).text)
    assert "The run" in text and qcgrade.__version__ in text and report.judge in text
    assert "qcgrade audit corpus --judge qcgrade" in text and "run at" not in text
    assert "Glossary" in text
    for term in ("Prop. 1' floor terms", "rho_fp", "rho_pf", "kappa", "cliff", "span Jaccard", "QC-visible", "starved"):
        assert any(term in name + " " + meaning for name, meaning in GLOSSARY), term
    # Every term the summary uses is explained.
    assert "Prop. 1' floor terms" in " ".join(summary_lines(report))


def test_cli_html_is_deterministic_and_stamped_only_when_asked(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus" / "brinewave-lines"
    corpus.mkdir(parents=True)
    for suffix in (".md", ".json"):
        shutil.copy(FIXTURES / "brinewave-lines" / f"s1{suffix}", corpus / f"s1{suffix}")
    pages = []
    for name in ("a.html", "b.html"):
        args = ["audit", str(corpus.parent), "--judge", "qcgrade", "--seeds", "1", "--html", str(tmp_path / name), "-o", "-"]
        assert CliRunner().invoke(main, args).exit_code == 0
        pages.append((tmp_path / name).read_text(encoding="utf-8"))
    assert pages[0] == pages[1].replace("b.html", "a.html")  # only the command line differs
    assert "1 seed (0)" in pages[0] and "seeds 0" not in pages[0]
    assert "qcgrade audit " in pages[0] and "--judge qcgrade --seeds 1 --html" in pages[0]
    assert "Passed wrongly:" in pages[0] and '<pre class="section">' in pages[0]  # the CLI passes the items
    stamped = tmp_path / "c.html"
    args = ["audit", str(corpus.parent), "--judge", "qcgrade", "--html", str(stamped), "--timestamp", "-o", "-"]
    assert CliRunner().invoke(main, args).exit_code == 0
    assert re.search(r"run at</td><td><code>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00<", stamped.read_text(encoding="utf-8"))
    bad = CliRunner().invoke(main, ["audit", str(corpus.parent), "--judge", "qcgrade", "--timestamp"])
    assert bad.exit_code == 2 and "--timestamp: the time goes into the HTML report" in bad.stderr
