"""Suggested repairs (qcgrade.repair) and ``check --suggest`` / ``--fix``.

The corpus test takes every clean fixture section, puts one defect in it
(the injectors' sites for bare_number; typed variants of its ids for the
id checks), and requires of every repair ``repair`` applies that the
section then passes and that nothing outside the edit changed.
"""

from __future__ import annotations

import json
import os
import unicodedata
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

import helpers
from qcgrade import grade
from qcgrade.cli import main
from qcgrade.evidence import load_slice
from qcgrade.findings import Report
from qcgrade.injectors.engine import valid_sites
from qcgrade.reading.section import parse_section
from qcgrade.repair import repair, suggest
from qcgrade.repair.near_ids import fold, nearest

SLICE = json.loads((helpers.CASES / "slice.json").read_text(encoding="utf-8"))
SARIF_SCHEMA = json.loads((helpers.ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
TLDR = "TL;DR – revenue grew [E001]; – share near 18% [E002].\n\n"


def suggested(text: str) -> Report:
    return suggest(grade(text, SLICE), SLICE)


def only_suggestions(report: Report, check: str) -> list[tuple[str, bool]]:
    return [(s.message, s.applies) for f in report.findings if f.check == check for s in f.suggestions]


# --- what is suggested -----------------------------------------------------------


def test_grading_alone_suggests_nothing() -> None:
    report = grade(TLDR + "Margins rose to 41%.\n", SLICE)
    assert report.findings and all(f.suggestions == () for f in report.findings)
    assert all("suggestions" not in f.to_dict() for f in report.findings)


def test_bare_number_suggests_the_card_that_states_the_value_at_the_sentence_end() -> None:
    text = TLDR + "Margins rose to 41% last year.\n"
    report = suggested(text)
    (finding,) = [f for f in report.findings if f.check == "bare_number"]
    (fix,) = finding.suggestions
    assert (fix.message, fix.replacement, fix.applies) == ("cite [E003]", " [E003]", True)
    assert text[: fix.start].endswith("last year") and text[fix.start :].startswith(".")


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Churn rose to 9%.", [("cite [E004]", True)]),
        ("Revenue grew 30% to $1.2 B.", [("cite [E001]", True), ("cite [E001]", True)]),  # both numbers: one card
        ("Churn rose to 9% while margins rose to 41%.", [("cite [E004]", False), ("cite [E003]", False)]),  # two cards
        ("Churn rose to 9% across 12 stores.", [("cite [E004]", False)]),  # 12 is in no card: never cited around
        ("Gross margin reached 41% in the year.", [("cite [E003]", True)]),
        ("The comparable figure a year earlier was 9%.", [("cite [E004]", False)]),  # no word in common with E004
        ("Churn was 9 stores.", []),  # the value, but not in its unit
        ("Churn rose to 9% [E0O4].", [("cite [E004]", False)]),  # a broken citation is repaired, not cited around
    ],
)
def test_bare_number_cites_only_when_one_card_states_every_number_of_the_sentence(
    sentence: str, expected: list[tuple[str, bool]]
) -> None:
    assert only_suggestions(suggested(TLDR + sentence + "\n"), "bare_number") == expected


def test_bare_number_in_code_gets_no_suggestion() -> None:
    assert only_suggestions(suggested(TLDR + "```\nchurn 9%\n```\n"), "bare_number") == []


@pytest.mark.parametrize(
    ("written", "known", "offered", "sure"),
    [
        ("E001", ["E001"], ["E001"], True),
        ("e-001", ["E001", "E002"], ["E001"], True),  # case and separators
        ("E1", ["E001", "E002"], ["E001"], True),  # leading zeros
        ("\u0395001", ["E001"], ["E001"], True),  # a Greek Epsilon
        ("\uff25\uff10\uff10\uff11", ["E001"], ["E001"], True),  # full width
        ("m_revnue", ["m_revenue", "m_share"], ["m_revenue"], True),  # a letter dropped from a name
        ("C50", ["C40", "C41"], ["C40"], False),  # one edit, but in the digits: another card
        ("fleet_teu_adj", ["fleet_teu"], ["fleet_teu"], False),  # alike, not one edit: maybe another metric
        ("E009", ["E001", "E002", "E003", "E004"], [], False),  # four ids one edit away: no guide
        ("s9", ["s5", "sec-2"], ["s5"], False),
        ("zzz", ["E001"], [], False),
    ],
)
def test_nearest_ids(written: str, known: list[str], offered: list[str], sure: bool) -> None:
    assert nearest(written, known) == (offered, sure)


def test_fold_is_what_a_reader_cannot_tell_apart() -> None:
    assert fold("E-001") == fold("e001") == fold("E1") == fold(unicodedata.normalize("NFKC", "\uff25\uff11"))
    assert fold("E10") != fold("E1")


@pytest.mark.parametrize(
    ("text", "check", "expected"),
    [
        ("Revenue grew [e001].", "orphan_citation", [("did you mean [E001]?", True)]),
        ("Revenue reached {m_Rev}.", "unregistered_metric", [("did you mean {m_rev}?", True)]),
        ("See §S-5 for rivals.", "broken_xref", [("did you mean §s5?", True)]),
        ("See §s9 for rivals.", "broken_xref", [("did you mean §s5?", False)]),
        ("Revenue grew [E009].", "orphan_citation", []),
    ],
)
def test_id_checks_suggest_the_id_meant(text: str, check: str, expected: list[tuple[str, bool]]) -> None:
    assert only_suggestions(suggested(TLDR + text + "\n"), check) == expected


# --- applying: the section passes and nothing else changes -------------------------


def unchanged_outside(before: str, after: str, edits: list[tuple[int, int, str]]) -> bool:
    """``after`` is ``before`` with exactly these edits (offsets in the text as each edit saw it)."""
    text = before
    for start, end, replacement in edits:
        text = text[:start] + replacement + text[end:]
    return text == after


def clean_fixtures() -> list[tuple[Path, str, Any]]:
    out = []
    for md, slice_path in helpers.fixture_pairs():
        text = md.read_text(encoding="utf-8")
        evidence = load_slice(slice_path.read_bytes())
        if grade(text, evidence).passed:
            out.append((md, text, evidence))
    return out


CLEAN = clean_fixtures()


def typo_variants(text: str, evidence: Any) -> list[tuple[str, str]]:
    """Each id marker of a clean section written the way a hurried writer might: (check, defective text)."""
    section = parse_section(text)
    variants = []
    for marker in section.citations:
        if marker.id in evidence.card_ids and marker.id.isascii() and marker.id.lower() != marker.id:
            variants.append(("orphan_citation", text[: marker.start] + marker.id.lower() + text[marker.end :]))
    for marker in section.metric_tags:
        tag = marker.id
        if tag in evidence.metric_tags and len(fold(tag)) >= 5 and tag[-2].isalpha():
            at = marker.start + text[marker.start : marker.end].index(tag) + len(tag) - 2
            variants.append(("unregistered_metric", text[:at] + text[at + 1 :]))  # a letter dropped
    for marker in section.xrefs:
        if marker.id in evidence.xref_ids and marker.id.islower():
            at = marker.start + text[marker.start : marker.end].index(marker.id)
            variants.append(("broken_xref", text[:at] + marker.id.upper() + text[at + len(marker.id) :]))
    return variants


@pytest.mark.slow
@pytest.mark.parametrize(("md", "text", "evidence"), CLEAN, ids=[f"{p.parent.name}/{p.name}" for p, _t, _e in CLEAN])
def test_every_applied_repair_leaves_a_passing_section_and_changes_nothing_else(md: Path, text: str, evidence: Any) -> None:
    cases = [("bare_number", site.edits[0].apply(text)) for site in valid_sites(text, evidence, "bare_number")]
    cases += typo_variants(text, evidence)
    applied = 0
    for check, defective in cases:
        assert any(f.check == check for f in grade(defective, evidence).findings)
        repaired = repair(defective, evidence)
        if check != "bare_number":
            assert repaired.applied, (
                check,
                [f.suggestions for f in grade(defective, evidence).findings],
            )  # a typo is always repaired
        if not repaired.applied:
            continue
        applied += 1
        assert repaired.report.passed, (check, repaired.report.findings)
        edits = [(a.suggestion.start, a.suggestion.end, a.suggestion.replacement) for a in repaired.applied]
        assert unchanged_outside(defective, repaired.text, edits)
        if check != "bare_number":
            assert repaired.text == text  # a typed id is put back exactly as it was
        else:
            # The citation comes back (perhaps at the sentence's end): the same cards are cited.
            cited = sorted(m.id for m in parse_section(repaired.text).citations)
            assert cited == sorted(m.id for m in parse_section(text).citations)
    assert applied or not cases


def test_repair_applies_corrected_ids_before_adding_citations() -> None:
    text = TLDR + "Revenue grew 30% [\u0395001] and {m_Rev} (see §S-5).\n\nChurn hit **9%**\n"
    repaired = repair(text, SLICE)
    assert repaired.text == TLDR + "Revenue grew 30% [E001] and {m_rev} (see §s5).\n\nChurn hit **9%** [E004]\n"
    assert repaired.report.passed
    assert [a.finding.check for a in repaired.applied] == ["orphan_citation", "unregistered_metric", "broken_xref", "bare_number"]


def test_repair_leaves_alone_what_it_cannot_make_better() -> None:
    text = TLDR + "Revenue grew 30% [E009] in 12 stores.\n"
    repaired = repair(text, SLICE)
    assert repaired.text == text and not repaired.applied and not repaired.changed


# --- the command line ---------------------------------------------------------------


@pytest.fixture
def section(tmp_path: Path) -> Path:
    (tmp_path / "s3.json").write_text(json.dumps(SLICE), encoding="utf-8")
    md = tmp_path / "s3.md"
    md.write_bytes((TLDR + "Margins rose to 41% last year.\r\n\r\nSee §S-5 [e001] for rivals.\n").encode("utf-8"))
    return md


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def test_check_shows_no_suggestion_unless_asked(section: Path) -> None:
    plain = run("check", str(section))
    assert plain.exit_code == 1 and "help:" not in plain.stdout
    assert "suggestions" not in run("check", str(section), "--format", "json").stdout


def test_check_suggest_in_text_json_and_sarif(section: Path) -> None:
    before = section.read_bytes()
    text = run("check", str(section), "--suggest")
    assert text.exit_code == 1
    assert "= help: cite [E003] (--fix applies this)" in text.stdout
    assert "= help: did you mean §s5? (--fix applies this)" in text.stdout
    data = json.loads(run("check", str(section), "--suggest", "--format", "json").stdout)
    (bare,) = [v for v in data["violations"] if v["check"] == "bare_number"]
    assert bare["suggestions"] == [
        {
            "applies": True,
            "end": bare["suggestions"][0]["start"],
            "message": "cite [E003]",
            "replacement": " [E003]",
            "start": bare["suggestions"][0]["start"],
        }
    ]
    sarif = json.loads(run("check", str(section), "--suggest", "--format", "sarif").stdout)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(sarif)
    fixes = {r["ruleId"]: r["fixes"] for r in sarif["runs"][0]["results"] if "fixes" in r}
    assert set(fixes) == {"bare_number", "broken_xref", "orphan_citation"}
    (replacement,) = fixes["orphan_citation"][0]["artifactChanges"][0]["replacements"]
    assert replacement["insertedContent"]["text"] == "E001"
    region = replacement["deletedRegion"]
    assert before.decode("utf-8")[region["charOffset"] : region["charOffset"] + region["charLength"]] == "e001"
    assert section.read_bytes() == before  # --suggest never writes


def test_check_fix_rewrites_in_place_only_the_repaired_spans(section: Path) -> None:
    before = section.read_bytes()
    result = run("check", str(section), "--fix")
    assert result.exit_code == 0, result.output
    after = section.read_bytes()
    assert after == before.replace(b"last year.", b"last year [E003].").replace(b"\xc2\xa7S-5 [e001]", b"\xc2\xa7s5 [E001]")
    assert b"\r\n" in after  # line endings kept
    assert f"{section}: fixed 3" in result.stderr
    assert set(os.listdir(section.parent)) == {"s3.json", "s3.md"}  # no temporary file left behind
    again = run("check", str(section), "--fix")
    assert again.exit_code == 0 and section.read_bytes() == after and "fixed" not in again.stderr


def test_check_fix_through_a_symbolic_link_repairs_the_file_it_points_to(section: Path) -> None:
    link = section.parent / "link.md"
    link.symlink_to(section.name)
    (section.parent / "link.json").write_text(json.dumps(SLICE), encoding="utf-8")
    assert run("check", str(link), "--fix").exit_code == 0
    assert link.is_symlink() and b"[E003]" in section.read_bytes()


def test_check_fix_refuses_stdin() -> None:
    result = CliRunner().invoke(main, ["check", "-", "--slice", str(helpers.CASES / "slice.json"), "--fix"], input="x")
    assert result.exit_code == 2 and "--fix rewrites section files in place" in result.stderr


def test_check_fix_leaves_a_file_with_nothing_to_repair_untouched(tmp_path: Path) -> None:
    (tmp_path / "s3.json").write_text(json.dumps(SLICE), encoding="utf-8")
    md = tmp_path / "s3.md"
    md.write_text(TLDR + "Revenue grew 30% [E009] in 12 stores.\n", encoding="utf-8")
    stamp = md.stat().st_mtime_ns
    result = run("check", str(md), "--fix")
    assert result.exit_code == 1 and md.stat().st_mtime_ns == stamp and "fixed" not in result.stderr
