"""CI output formats: SARIF 2.1.0 (validated against the official schema), GitHub annotations, JUnit XML."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft4Validator

from qcgrade import CHECKS, Options, grade
from qcgrade.cli import main
from qcgrade.findings import Finding, Graded, Report
from qcgrade.render import RENDERERS, github, junit, sarif

SCHEMA_FILE = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
SCHEMA = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
VALIDATOR = Draft4Validator(SCHEMA)

SLICE = {
    "section": "s1",
    "tldr_min_bullets": 2,
    "cards": [{"id": "E001", "stance": "bull"}, {"id": "E002", "stance": "bear", "status": "weak"}],
    "metrics": [{"tag": "m_rev", "value": "1.2"}],
}
# Astral-plane characters before the findings: columns must count code points.
DIRTY = "🚀📈 Revenue grew 30% last year.\nMargins [E009] fell 4% [E002].\n\n§nowhere is cited {m_bogus}.\n"
CLEAN = "TL;DR: - Revenue rose {m_rev} [E001]; - Margins may have fallen [E002].\n"


def graded(path: str, text: str, tier2: bool = True) -> Graded:
    return Graded(path, grade(text, SLICE, tier2=tier2))


RESULTS = [graded("reports/dirty one.md", DIRTY), graded("reports/clean.md", CLEAN)]


def test_the_fixture_really_has_violations_of_many_kinds() -> None:
    checks = {f.check for f in RESULTS[0].report.findings}
    assert {"bare_number", "orphan_citation", "missing_tldr", "unregistered_metric", "broken_xref"} <= checks
    assert RESULTS[1].report.passed


# --- SARIF -----------------------------------------------------------------------


def test_the_shipped_schema_is_the_unmodified_official_one() -> None:
    # tests/data/README.md records where it comes from and this digest.
    digest = hashlib.sha256(SCHEMA_FILE.read_bytes()).hexdigest()
    assert digest == "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"
    assert SCHEMA["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    assert SCHEMA["$schema"] == "http://json-schema.org/draft-04/schema#"


@pytest.mark.parametrize(
    "results", [RESULTS, RESULTS[1:], [], [graded("a.md", "")]], ids=["mixed", "clean", "none", "empty-text"]
)
def test_sarif_validates_against_the_official_schema(results: list[Graded]) -> None:
    log = json.loads(sarif.render(results))
    errors = sorted(VALIDATOR.iter_errors(log), key=str)
    assert errors == []
    assert log["version"] == "2.1.0"


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("locations", 0, "physicalLocation", "region", "startLine"), 0),
        (("locations", 0, "physicalLocation", "region", "charLength"), -1),
        (("message",), {}),
    ],
)
def test_the_shipped_schema_is_strict_enough_to_catch_mistakes(path: tuple, value: object) -> None:
    log = json.loads(sarif.render(RESULTS))
    broken = copy.deepcopy(log)
    target = broken["runs"][0]["results"][0]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    assert list(VALIDATOR.iter_errors(broken)), "the schema accepted an invalid SARIF log"


def test_sarif_rules_come_from_the_checks_docs() -> None:
    driver = json.loads(sarif.render(RESULTS))["runs"][0]["tool"]["driver"]
    assert driver["name"] == "qcgrade"
    assert [rule["id"] for rule in driver["rules"]] == [check.name for check in CHECKS]
    for rule, check in zip(driver["rules"], CHECKS):
        assert rule["shortDescription"]["text"] == check.summary
        assert rule["fullDescription"]["text"] == check.doc.strip()
        assert rule["defaultConfiguration"]["level"] == "error"


def test_sarif_regions_point_at_the_offending_text() -> None:
    run = json.loads(sarif.render(RESULTS))["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    lines = DIRTY.split("\n")
    findings = RESULTS[0].report.findings
    assert len(run["results"]) == len(findings)
    for result, finding in zip(run["results"], findings):
        assert result["ruleId"] == finding.check
        assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == finding.check
        assert result["message"]["text"] == finding.message
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"] == "reports/dirty%20one.md"
        region = location["region"]
        offending = DIRTY[region["charOffset"] : region["charOffset"] + region["charLength"]]
        assert offending == DIRTY[finding.start : finding.end]
        if region["startLine"] == region["endLine"]:
            # 1-based code-point columns, end exclusive: the same text again.
            line = lines[region["startLine"] - 1]
            assert line[region["startColumn"] - 1 : region["endColumn"] - 1] == offending
    bare = [r for r in run["results"] if r["ruleId"] == "bare_number"]
    assert bare[0]["locations"][0]["physicalLocation"]["region"]["startColumn"] == len("🚀📈 Revenue grew ") + 1


def fingerprints(text: str, path: str = "r.md") -> list[str]:
    report = grade(text, SLICE, Options(select=frozenset({"bare_number"})))
    log = json.loads(sarif.render([Graded(path, report)]))
    return [r["partialFingerprints"][sarif.FINGERPRINT_KEY] for r in log["runs"][0]["results"]]


def test_fingerprints_survive_lines_inserted_above_and_tell_repeats_apart() -> None:
    text = "Sales rose 5% [E001]. Costs rose 5% too.\nAnd again 5% here.\n"
    moved = "\n\nA new heading\n\n" + text
    before, after = fingerprints(text), fingerprints(moved)
    assert len(before) == 2  # the two uncited '5%'
    assert before == after  # same alerts, although their lines moved
    assert len(set(before)) == 2  # same text twice, two identities
    assert set(fingerprints(text, "elsewhere.md")).isdisjoint(before)


def test_sarif_is_byte_identical_across_runs() -> None:
    assert sarif.render(RESULTS) == sarif.render([graded("reports/dirty one.md", DIRTY), graded("reports/clean.md", CLEAN)])


def test_artifact_uri_percent_encodes_reserved_characters() -> None:
    assert sarif.artifact_uri("a dir/s#1?.md") == "a%20dir/s%231%3F.md"
    assert sarif.artifact_uri("dir\\win\\s.md") == "dir/win/s.md"
    assert sarif.artifact_uri("données/é.md") == "donn%C3%A9es/%C3%A9.md"


# --- GitHub annotations -----------------------------------------------------------

ANNOTATION = re.compile(r"^::error (?P<props>[^:]*)::(?P<message>.*)$")


def unescape(value: str) -> str:
    """The Actions runner's decoding, for checking the round trip."""
    for code, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        value = value.replace(code, char)
    return value


def props(line: str) -> dict[str, str]:
    match = ANNOTATION.match(line)
    assert match, line
    return dict(item.split("=", 1) for item in match["props"].split(","))


def test_github_annotations_carry_positions_and_title() -> None:
    out = github.render(RESULTS).splitlines()
    findings = RESULTS[0].report.findings
    assert len(out) == len(findings) + 1
    for line, finding in zip(out, findings):
        p = props(line)
        assert unescape(p["file"]) == "reports/dirty one.md"
        assert (int(p["line"]), int(p["endLine"])) == (finding.line, finding.end_line)
        assert (int(p["col"]), int(p["endColumn"])) == (finding.column, finding.end_column)
        assert unescape(p["title"]) == f"qcgrade ({finding.check}, {finding.rule})"  # the check, and the rule that fired
        assert unescape(ANNOTATION.match(line)["message"]) == finding.message
    assert out[-1] == f"qcgrade: failed: {len(findings)} violations in 1 of 2 sections"


def hostile_result(path: str, message: str, line: int = 1, end_line: int = 1) -> Graded:
    finding = Finding("bare_number", message, 0, 3, line, 2, end_line, 5)
    return Graded(path, Report((finding,), ("bare_number",), "abc"))


def test_the_docs_show_github_annotations_as_they_are_printed() -> None:
    readme = (Path(__file__).resolve().parent.parent / "docs" / "usage.md").read_text(encoding="utf-8")
    documented = re.search(r"`::error ([^`]*?)::message`", readme)
    assert documented is not None
    shown = [prop.split("=")[0] for prop in documented.group(1).split(",")]
    one_line = next(f for f in graded("a.md", DIRTY).report.findings if f.line == f.end_line)
    printed = github.annotation("a.md", one_line)[len("::error ") :].split("::")[0]
    assert shown == [prop.split("=")[0] for prop in printed.split(",")]


def test_github_escapes_delimiters_and_drops_columns_across_lines() -> None:
    out = github.render([hostile_result("a,b:c%d.md", "50% off\r\nnext: line", 3, 4)]).splitlines()
    assert out[0] == "::error file=a%2Cb%3Ac%25d.md,line=3,endLine=4,title=qcgrade (bare_number)::50%25 off%0D%0Anext: line"


@given(st.text())
def test_github_escaping_round_trips_and_leaves_no_delimiters(value: str) -> None:
    prop, data = github.escape_property(value), github.escape_data(value)
    assert not set(",:\r\n") & set(prop)
    assert not set("\r\n") & set(data)
    assert unescape(prop) == value and unescape(data) == value


def test_github_summary_mentions_the_annotation_limit_only_when_it_bites() -> None:
    many = [hostile_result(f"s{i}.md", "m") for i in range(11)]
    assert "GitHub shows the first 10 annotations" in github.render(many).splitlines()[-1]
    assert "GitHub shows" not in github.render(many[:10]).splitlines()[-1]
    assert github.render(RESULTS[1:]) == "qcgrade: passed: 1 section, 0 violations\n"


# --- JUnit ------------------------------------------------------------------------


def test_junit_has_one_testcase_per_section_and_lists_violations() -> None:
    root = ET.fromstring(junit.render(RESULTS))
    assert root.tag == "testsuites"
    (suite,) = root.findall("testsuite")
    assert suite.get("name") == "qcgrade"
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "1", "0")
    dirty, clean = suite.findall("testcase")
    assert (dirty.get("classname"), dirty.get("name"), dirty.get("file")) == ("reports", "dirty one.md", "reports/dirty one.md")
    assert clean.find("failure") is None
    failure = dirty.find("failure")
    assert failure is not None
    findings = RESULTS[0].report.findings
    assert failure.get("message", "").startswith(f"{len(findings)} violations: ")
    assert (failure.text or "").splitlines() == [
        f"reports/dirty one.md:{f.line}:{f.column}: {f.check} {f.message} [{f.rule}]" for f in findings
    ]


def test_junit_stays_well_formed_with_hostile_paths_and_messages() -> None:
    nasty = hostile_result('dir/<x> & "y"\x01\x1b.md', "bad ]]> <tag> & \x00 \ud800 end")
    document = junit.render([nasty])
    root = ET.fromstring(document)  # raises on ill-formed XML
    case = root.find("testsuite/testcase")
    assert case is not None
    assert case.get("file") == 'dir/<x> & "y"\\x01\\x1b.md'
    failure = case.find("failure")
    assert failure is not None and "bad ]]> <tag> & \\x00 \\ud800 end" in (failure.text or "")
    assert junit.render([nasty]) == document


# --- the command line ---------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["sarif", "github", "junit"])
def test_check_renders_a_directory_in_every_ci_format(tmp_path: Path, fmt: str) -> None:
    (tmp_path / "sections").mkdir()
    for name, text in (("a.md", DIRTY), ("b.md", CLEAN)):
        (tmp_path / "sections" / name).write_text(text, encoding="utf-8")
        (tmp_path / "sections" / name).with_suffix(".json").write_text(json.dumps(SLICE), encoding="utf-8")
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(main, ["check", "sections", "--format", fmt, "--tier2"])
    finally:
        os.chdir(old)
    assert result.exit_code == 1, result.stderr
    expected = RENDERERS[fmt]([graded("sections/a.md", DIRTY), graded("sections/b.md", CLEAN)])
    assert result.stdout == expected
