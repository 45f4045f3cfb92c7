"""`qcgrade check` text output: each finding with its line of source and the span marked under it."""

from __future__ import annotations

import io
import re
import time

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Console

from helpers import CASES, load_toml
from qcgrade import grade
from qcgrade.findings import Finding, Graded, Report, Ungraded
from qcgrade.render import text
from qcgrade.render.excerpt import ELLIPSIS, WIDTH, cells, excerpt, shown
from qcgrade.spans import LineIndex

SLICE = (CASES / "slice.json").read_text(encoding="utf-8")
CASE_DATA = load_toml(CASES / "excerpts.toml")["case"]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.mark.parametrize("case", CASE_DATA, ids=[c["name"] for c in CASE_DATA])
def test_excerpt_case(case: dict) -> None:
    line = case["text"]
    if "mark" in case:
        start = line.index(case["mark"])
        end = start + len(case["mark"])
    else:
        start, end = case["start"], case["end"]
    shown_ = excerpt(line, 0, len(line), start, end, case.get("width", WIDTH))
    assert (shown_.source, shown_.marker) == (case["source"], case["marker"])


def _finding(source: str, start: int, end: int, check: str = "bare_number") -> Finding:
    index = LineIndex(source)
    line, column = index.position(start)
    end_line, end_column = index.position(end)
    return Finding(check, "a message", start, end, line, column, end_line, end_column)


def test_a_finding_is_its_location_line_then_source_then_carets() -> None:
    section = "**TL;DR**\n\n- Revenue grew 30% [E001].\n- Share 18% [E002].\n\nRevenue grew 30%.\n"
    out = text.render([Graded("r.md", grade(section, SLICE))])
    assert out == (
        "r.md:6:14: bare_number number '30%' has no valid citation or registered metric tag in its sentence [numeral.digits]\n"
        "  6 | Revenue grew 30%.\n"
        "    |              ^^^\n"
        "\n"
        "failed: 1 violation in 1 of 1 section (bare_number 1)\n"
    )


def test_a_span_across_lines_is_marked_to_the_line_end_and_says_it_continues() -> None:
    source = "First line.\nA claim that starts here\nand ends here.\n"
    start = source.index("starts")
    end = source.index("ends") + 4
    report = Report((_finding(source, start, end, "missing_stance"),), ("missing_stance",), source)
    lines = text.render([Graded("m.md", report)]).splitlines()
    assert lines[1] == "  2 | A claim that starts here"
    assert lines[2] == "    |              ^^^^^^^^^^^ ...continues to line 3"


def test_crlf_line_ends_are_not_shown() -> None:
    source = "Title\r\nRevenue grew 30%.\r\nMore.\r\n"
    start = source.index("30%")
    report = Report((_finding(source, start, start + 3),), ("bare_number",), source)
    lines = text.render([Graded("w.md", report)]).splitlines()
    assert lines[1:3] == ["  2 | Revenue grew 30%.", "    |              ^^^"]


def test_the_gutter_is_as_wide_as_the_largest_line_number() -> None:
    source = "x\n" * 120 + "Revenue grew 30%.\n"
    start = source.index("30%")
    report = Report((_finding(source, 0, 1), _finding(source, start, start + 3)), ("bare_number",), source)
    lines = text.render([Graded("g.md", report)]).splitlines()
    assert lines[1] == "    1 | x" and lines[5] == "  121 | Revenue grew 30%."


def test_a_report_without_its_text_lists_findings_without_source() -> None:
    finding = Finding("bare_number", "a message", 3, 6, 1, 4, 1, 7)
    out = text.render([Graded("t.md", Report((finding,), ("bare_number",)))])
    assert out.splitlines() == ["t.md:1:4: bare_number a message", "failed: 1 violation in 1 of 1 section (bare_number 1)"]


def test_an_ungraded_section_is_one_error_line_and_the_summary_says_so() -> None:
    clean = Graded("a.md", Report((), ("bare_number",), "ok"))
    out = text.render([clean, Ungraded("b.md", "not UTF-8 text (byte 0xff at offset 1)")])
    assert out.splitlines() == [
        "b.md: error: not UTF-8 text (byte 0xff at offset 1)",
        "error: 1 of 2 sections could not be graded; passed: 1 section, 0 violations",
    ]


def test_the_terminal_shows_the_same_characters_as_the_pipe() -> None:
    section = "Le chiffre d'affaires a progressé de 30 %.\n売上は 4.5% 増加した [E009]。\n"
    results = [Graded("u.md", grade(section, SLICE)), Ungraded("v.md", "no slice")]
    buffer = io.StringIO()
    Console(file=buffer, width=200, force_terminal=True, color_system="standard").print(
        text.render_rich(results), end="", soft_wrap=True
    )
    coloured = buffer.getvalue()
    assert "\x1b[" in coloured
    assert ANSI.sub("", coloured) == text.render(results)


def _drawn(segment: str) -> str:
    return "".join(shown(ch) for ch in segment)


@settings(max_examples=300, deadline=None)
# A cut span whose ellipsis starts like the span's own last character (".").
@example(line="aaaaaaaaaaaaaaaa数数.", at=14, length=5, width=20)
@given(
    st.text(alphabet=st.sampled_from("ab 数😀\t\u0301\u202e\x1b."), max_size=300),
    st.integers(0, 300),
    st.integers(0, 40),
    st.integers(20, 100),
)
def test_carets_sit_under_the_span_whatever_the_characters(line: str, at: int, length: int, width: int) -> None:
    start = min(at, len(line))
    end = min(start + length, len(line))
    result = excerpt(line, 0, len(line), start, end, width)
    lead = len(result.marker) - len(result.marker.lstrip(" "))
    carets = result.marker[lead:]
    assert carets and set(carets) == {"^"}
    # Somewhere the source is exactly `lead` cells wide, and the span is drawn right there.
    span = _drawn(line[start:end])
    splits = [k for k in range(len(result.source) + 1) if cells(result.source[:k]) == lead]
    assert splits
    rests = [result.source[k:] for k in splits]
    if any(rest.startswith(span) for rest in rests) and len(carets) == max(1, cells(span)):
        pass  # drawn whole, the carets exactly under it
    else:  # a span wider than the line, cut and ended with an ellipsis the carets run to
        assert result.source.endswith(ELLIPSIS)
        assert any(span.startswith(rest[: -len(ELLIPSIS)]) for rest in rests)
        assert lead + len(carets) == cells(result.source)
    assert cells(result.source) <= max(width, 17) + 2  # a wide character may straddle the budget's end
    assert "\t" not in result.source and "\x1b" not in result.source and "\u202e" not in result.source


def _render_seconds(copies: int) -> float:
    line = "Revenue grew 30% and costs 12% while share held. " * copies
    source = line + "\n"
    starts = [m.start() for m in re.finditer(r"\d+%", source)]
    report = Report(tuple(_finding(source, s, s + 3) for s in starts), ("bare_number",), source)
    began = time.perf_counter()
    text.render([Graded("big.md", report)])
    return time.perf_counter() - began


@pytest.mark.timing
def test_rendering_a_long_paragraph_with_many_findings_stays_linear() -> None:
    """Ten times the text and ten times the findings on one line: about ten times the time, not a hundred."""
    _render_seconds(200)  # warm up
    small = min(_render_seconds(1_000) for _ in range(3))
    large = min(_render_seconds(10_000) for _ in range(3))
    assert large / small < 30, (small, large)
