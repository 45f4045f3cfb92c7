"""Properties that hold for every input: no crash, same bytes, honest spans."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from qcgrade import Options, grade

ALL_CHECKS = Options(tier2=True)

_markdownish = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("[]{}()<>!*_`~#|-+.;:,&\\§%$ \n\t\r0123456789ESmx_/\"'=")),
        st.characters(),
    ),
    max_size=400,
)
_snippets = st.lists(
    st.sampled_from(
        [
            "[E001]",
            "[E002, E9]",
            "{m_rev}",
            "{m_no}",
            "§s5",
            "§s9",
            "42",
            "3.5%",
            "TL;DR",
            "- ",
            "\n\n",
            "\n",
            "**",
            "`",
            "<!--",
            "-->",
            "<div>",
            "</div>",
            "&#52;",
            "\\[",
            "| a | b |\n|---|---|\n",
            "```\n",
            "> ",
            "١٢",
            "４２",
            "\u200b",
            "e.g. ",
            ". ",
            "FY25 ",
        ]
    ),
    max_size=40,
).map("".join)
_texts = st.one_of(_markdownish, _snippets, st.tuples(_snippets, _markdownish).map("".join))


def _position(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset].replace("\r\n", "\n").replace("\r", "\n")
    line = before.count("\n") + 1
    return line, len(before) - (before.rfind("\n") + 1) + 1


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_texts)
# Found by this property: NUL (read as U+FFFD) in a list item put the finding two characters early.
@example(text="- a\0 [E9]\n")
@example(text="1. \0 [E9]")
def test_grading_never_raises_and_spans_are_honest(case_slice: dict, text: str) -> None:
    report = grade(text, case_slice, ALL_CHECKS)
    previous = None
    for finding in report.findings:
        assert 0 <= finding.start <= finding.end <= len(text)
        # Line and column agree with a naive recount (CRLF-safe: offsets of
        # a CRLF pair's \n share the \r's line).
        if not (finding.start and text[finding.start - 1 : finding.start + 1] == "\r\n"):
            assert (finding.line, finding.column) == _position(text, finding.start)
        span = text[finding.start : finding.end]
        if span:
            assert not span[0].isspace() and not span[-1].isspace(), (finding, span)
        key = finding.sort_key()
        assert previous is None or previous <= key
        previous = key


@settings(max_examples=200, deadline=None)
@given(
    text=st.lists(
        st.sampled_from(["Revenue grew ", "42", "% ", "[E001]", "[E009]", "{m_x}", "§s9", ". ", "7 "]), max_size=20
    ).map("".join)
)
# One input that reaches both branches below, whatever the generator draws.
@example(text="Revenue grew 42% [E009]. 7 {m_x} and §s9. ")
def test_plain_text_spans_quote_exactly_what_is_reported(case_slice: dict, text: str) -> None:
    report = grade(text, case_slice)
    for finding in report.findings:
        span = text[finding.start : finding.end]
        if finding.check == "bare_number":
            assert f"number {span!r}" in finding.message
        elif finding.related is not None:
            assert finding.related in span


@settings(max_examples=150, deadline=None)
@given(text=_texts)
def test_grading_is_deterministic(case_slice: dict, text: str) -> None:
    first = grade(text, case_slice, ALL_CHECKS)
    second = grade(text, case_slice, ALL_CHECKS)
    assert first.to_dict() == second.to_dict()


def test_json_output_identical_across_processes_and_hash_seeds(tmp_path: Path, case_slice_path: Path) -> None:
    section = tmp_path / "s.md"
    section.write_text("Revenue grew 42% [E009]. {m_x} and §s9.\n", encoding="utf-8")
    outputs = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "qcgrade",
                "check",
                str(section),
                "--slice",
                str(case_slice_path),
                "--format",
                "json",
                "--tier2",
            ],
            capture_output=True,
            env=env,
            check=False,
        )
        assert result.returncode == 1, result.stderr
        outputs.add(result.stdout)
    assert len(outputs) == 1


@settings(max_examples=150, deadline=None)
@given(_texts, st.sets(st.integers(0, 30), max_size=10))
def test_numerals_outside_matches_the_full_list(text: str, skip: set[int]) -> None:
    from qcgrade.reading.section import parse_section

    lazy = list(parse_section(text).numerals_outside(skip))
    full = [n for n in parse_section(text).numerals if n.sentence not in skip]
    assert lazy == full


# Grounding (tier 3): the same properties with the grounding checks on.
GROUNDED = Options(tier2=True, grounding=True)
_grounding_words = st.lists(
    st.sampled_from(
        [
            "Revenue ",
            "margin ",
            "rose ",
            "fell ",
            "did not ",
            "no longer ",
            "up ",
            "down ",
            "higher ",
            "versus ",
            "to ",
            "from ",
            "30% ",
            "31% ",
            "$1.2 B ",
            "1,200 million ",
            "per cent ",
            "13 bp ",
            "(4.5) ",
            "٣٠% ",
            "[E001]",
            "[E003]",
            "[E004, E001]",
            "{m_rev}",
            ", ",
            "; ",
            ". ",
            "| ",
            "\n",
        ]
    ),
    max_size=30,
).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(_texts, _grounding_words))
def test_grounding_spans_are_honest_and_deterministic(case_slice: dict, text: str) -> None:
    from qcgrade.checks import GROUNDING

    report = grade(text, case_slice, GROUNDED)
    again = grade(text, case_slice, GROUNDED)
    assert report.to_dict() == again.to_dict()
    plain = grade(text, case_slice, ALL_CHECKS)
    # Grounding only ever adds findings: tier 1 and 2 verdicts are untouched.
    assert [f for f in report.findings if f.check not in GROUNDING] == list(plain.findings)
    for finding in report.findings:
        if finding.check not in GROUNDING:
            continue
        span = text[finding.start : finding.end]
        assert span and not span[0].isspace() and not span[-1].isspace(), (finding, span)
        assert finding.related is not None
        # The span is the numeral (or word) the message names, as the reader
        # sees it: the source may spell it with markup or an entity ("&#50;").
        named = (
            finding.message.split(" is not")[0] if finding.check == "value_mismatch" else finding.message.split(" contradicts")[0]
        )
        shown_as_written = named in (span, repr(span))
        assert shown_as_written or any(ch in span for ch in "&\\*_`<\u200b"), (finding, span)


# The reading families of issue 9, generated: a terminator of any script, a
# wrapped or look-alike group, a marker-only tail. See docs/reading-rules.md.

_STERMS = st.sampled_from(list("!?‼‽⁇⁈⁉⸮؟۔।॥።。｡︒﹖﹗"))
_CLOSERS = st.sampled_from(["", '"', "”", "“", "»", "«", "’", "‘", "›", ")", "]"])
_OPENERS = st.sampled_from(["The board", "It", "Costs", "A plan", "Management", "取締役会は", "وافق"])
_ONLY = Options(select=frozenset({"bare_number"}))


@settings(max_examples=200, deadline=None)
@given(_STERMS, _CLOSERS, st.sampled_from([" ", "\n", "  "]), _OPENERS)
def test_a_citation_never_vouches_for_the_sentence_before_it(
    case_slice: dict, term: str, closer: str, space: str, opener: str
) -> None:
    """Whatever the script of the terminator and the style of the closing quote."""
    text = f"Revenue grew 42%{term}{closer}{space}{opener} approved the plan [E001]."
    findings = grade(text, case_slice, _ONLY).findings
    assert [text[f.start : f.end] for f in findings] == ["42%"], text


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([" ", "\n", "  ", ""]), st.sampled_from(["[E001]", "[E001, E003]", "{m_rev}", "[E001;\nE003]"]))
def test_a_marker_only_tail_belongs_to_the_sentence_before(case_slice: dict, space: str, tail: str) -> None:
    cited = f"Revenue grew 42%.{space or ' '}{tail} Churn rose 9%."
    assert [cited[f.start : f.end] for f in grade(cited, case_slice, _ONLY).findings] == ["9%"], cited


_IDS = st.lists(st.sampled_from(["E001", "E002", "E003", "E004"]), min_size=0, max_size=80)


@settings(max_examples=150, deadline=None)
@given(_IDS, st.sampled_from([", ", ",\n", "; ", ";\n", ",\n  "]), st.integers(0, 80))
def test_an_orphan_in_a_wrapped_or_long_group_is_reported(case_slice: dict, ids: list[str], separator: str, at: int) -> None:
    ids = ids[:]
    ids.insert(min(at, len(ids)), "E047")
    text = f"Revenue grew [{separator.join(ids)}]."
    findings = grade(text, case_slice, Options(select=frozenset({"orphan_citation"}))).findings
    assert [text[f.start : f.end] for f in findings] == ["E047"], text


def _bracket_pairs() -> list[tuple[str, str]]:
    from qcgrade.reading.projection import _OPENING_BRACKETS

    return [(chr(c), chr(c + 1)) for c in _OPENING_BRACKETS] + [("[", "]"), ("【", "】"), ("［", "］")]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(_bracket_pairs()), st.sampled_from(["E047", "E001a", "E 047", "E04\u20e37", "E047\u1d43", "E0O1"]))
def test_look_alike_brackets_and_near_miss_ids_are_orphans(case_slice: dict, pair: tuple[str, str], near_miss: str) -> None:
    text = f"Revenue grew {pair[0]}{near_miss}{pair[1]}."
    findings = grade(text, case_slice, Options(select=frozenset({"orphan_citation"}))).findings
    assert [f.check for f in findings] == ["orphan_citation"], text
