"""The audit and simulation pages in a real browser, at a desktop width and a phone width.

Headless Chromium (tests/browser.py) loads each page at 1280x900 and 390x844,
measures the layout and saves a full-page screenshot: the page never scrolls
sideways, every chart fits its column, and chart text is drawn at least as
large as the body text, with every label inside its chart.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest
from browser import Browser, find_browser

from helpers import FIXTURES
from qcgrade import grade
from qcgrade.auditing import audit, retirement_curve
from qcgrade.auditing.items import corpus_entries
from qcgrade.curator.curve import JudgePoint
from qcgrade.curator.simulate import simulate
from qcgrade.render.audit_html import RunDetails, audit_page, simulation_page

BROWSER = find_browser()
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(BROWSER is None, reason="no headless Chromium on PATH (apt-get install chromium); .ci/run installs it"),
]

WIDTHS = [(1280, 900), (390, 844)]
ENTRIES = [e for e in corpus_entries(FIXTURES) if e.id in ("brinewave-lines/s1", "voltaris-cells/s2")]
QUICK = {"rounds": 3, "tasks_per_round": 200}
#: A judge command as long as real ones get: it must wrap, not widen the page.
LONG_NAME = "python " + "/very/long/path/to/the/judges" * 6 + "/judge.py --model some-model-name --temperature 0"

MEASURE = """(() => {
  const body = parseFloat(getComputedStyle(document.body).fontSize);
  const charts = [...document.querySelectorAll('svg.chart')].map(svg => {
    const box = svg.getBoundingClientRect();
    const column = svg.parentElement.getBoundingClientRect();
    const texts = [...svg.querySelectorAll('text')].map(t => {
      const r = t.getBoundingClientRect();
      const m = t.getScreenCTM();
      return {text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b),
              left: r.left - box.left, right: box.right - r.right};
    });
    return {width: box.width, column: column.width, texts: texts};
  });
  const heading = document.querySelector('h1').getBoundingClientRect().height;
  return {innerWidth: innerWidth, scrollWidth: document.documentElement.scrollWidth, body: body, charts: charts,
          heading: heading};
})()"""


def png_width(path: Path) -> int:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return int(struct.unpack(">I", data[16:20])[0])


def pages() -> dict[str, str]:
    kept: list[Any] = []
    report = audit(lambda text, slice_: grade(text, slice_).passed, ENTRIES, identity=LONG_NAME, on_items=kept.append)
    point = JudgePoint("judge", report.rho_fp.value, (report.rho_fp.ci_low, report.rho_fp.ci_high), report.rho_pf.value)
    curve = retirement_curve(tau=report.tau, judge=point, **QUICK)
    page = audit_page(report, curve, items=kept[0].items, run=RunDetails(command=f"qcgrade audit corpus --judge '{LONG_NAME}'"))
    assert '<pre class="section">' in page  # the misjudged items with their sections, measured open
    return {
        "audit": page.replace('<details class="item">', '<details class="item" open>'),
        "simulation": simulation_page(simulate(rho_fp=0.2, seed=1, **QUICK), curve),
    }


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], tuple[dict[str, Any], Path]]:
    root = tmp_path_factory.mktemp("pages")
    assert BROWSER is not None
    browser = Browser(BROWSER, root / "profile")
    out = {}
    try:
        for name, html in pages().items():
            page = root / f"{name}.html"
            page.write_text(html, encoding="utf-8")
            for width, height in WIDTHS:
                browser.open(page.as_uri(), width, height)
                shot = root / f"{name}-{width}.png"
                browser.screenshot(shot)
                out[(name, width)] = (browser.evaluate(MEASURE), shot)
    finally:
        browser.close()
    return out


CASES = [(name, width) for name in ("audit", "simulation") for width, _ in WIDTHS]


@pytest.mark.parametrize(("name", "width"), CASES)
def test_the_page_never_scrolls_sideways(measured: dict, name: str, width: int) -> None:
    layout, shot = measured[(name, width)]
    assert layout["innerWidth"] == width
    assert layout["scrollWidth"] <= layout["innerWidth"], layout["scrollWidth"]
    assert png_width(shot) == width  # the full-page screenshot is no wider than the screen
    assert shot.stat().st_size > 20_000  # charts and tables, not a blank page


def test_a_long_judge_name_wraps(measured: dict) -> None:
    layout, _ = measured[("audit", 390)]
    assert layout["heading"] > 3 * layout["body"]  # several lines, inside the screen


@pytest.mark.parametrize(("name", "width"), CASES)
def test_charts_fit_their_column_and_their_text_is_body_size(measured: dict, name: str, width: int) -> None:
    layout, _ = measured[(name, width)]
    charts = layout["charts"]
    assert len(charts) == (3 if name == "audit" else 2)
    for chart in charts:
        assert chart["width"] <= chart["column"] + 0.5
        assert chart["texts"]
        for text in chart["texts"]:
            assert text["size"] >= layout["body"] - 0.01, text  # drawn size, after any scaling
            assert text["left"] >= -1 and text["right"] >= -1, text  # inside the chart, not cut off
