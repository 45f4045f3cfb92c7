"""`qcgrade check DIR` with bad items: the rest is graded, each bad item is an error in every format, exit 2."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from jsonschema import Draft4Validator

from helpers import CASES, FIXTURES
from qcgrade.cli import main

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
CLEAN = FIXTURES / "appendix-a" / "s3.md"
SLICE = CASES / "slice.json"

#: The bad items of the folder, and the problem each must be reported with.
BAD = {
    "no-slice.md": "no slice given and no no-slice.json or no-slice.slice.json beside it (use --slice)",
    "binary.md": "not UTF-8 text (byte 0xff at offset 8)",
    "bad-slice.md": "bad-slice.json: invalid JSON",
}


def make_folder(root: Path) -> Path:
    folder = root / "reports"
    folder.mkdir()
    shutil.copy(CLEAN, folder / "a-clean.md")
    shutil.copy(CLEAN.with_suffix(".json"), folder / "a-clean.json")
    (folder / "b-dirty.md").write_text("Revenue grew 30%.\n", encoding="utf-8")
    shutil.copy(SLICE, folder / "b-dirty.json")
    (folder / "no-slice.md").write_text("Fine.\n", encoding="utf-8")
    (folder / "binary.md").write_bytes(b"Revenue \xff\xfe grew\n")
    shutil.copy(SLICE, folder / "binary.json")
    (folder / "bad-slice.md").write_text("Fine.\n", encoding="utf-8")
    (folder / "bad-slice.json").write_text("{ not json", encoding="utf-8")
    return folder


def check(root: Path, *args: str) -> Result:
    import os

    old = Path.cwd()
    os.chdir(root)
    try:
        return CliRunner().invoke(main, ["check", *args])
    finally:
        os.chdir(old)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    make_folder(tmp_path)
    return tmp_path


def test_text_grades_the_rest_and_reports_each_bad_item_on_one_line(root: Path) -> None:
    result = check(root, "reports")
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    for name, problem in BAD.items():
        error_lines = [line for line in lines if line.startswith(f"reports/{name}: error: ")]
        assert len(error_lines) == 1 and problem in error_lines[0], (name, lines)
    assert any(line.startswith("reports/b-dirty.md:1:14: bare_number") for line in lines)
    assert lines[-1].startswith("error: 3 of 5 sections could not be graded; failed: 2 violations in 1 of 2 sections")
    assert result.stderr == ""  # already on stdout, once


def test_json_has_an_error_record_in_the_list(root: Path) -> None:
    result = check(root, "reports", "--format", "json")
    assert result.exit_code == 2
    payload = json.loads(result.stdout)
    assert payload["passed"] is False
    by_path = {s["path"]: s for s in payload["sections"]}
    assert sorted(by_path) == sorted(f"reports/{n}" for n in [*BAD, "a-clean.md", "b-dirty.md"])
    for name, problem in BAD.items():
        record = by_path[f"reports/{name}"]
        assert set(record) == {"path", "error"} and problem in record["error"]
    assert by_path["reports/a-clean.md"]["passed"] is True
    assert by_path["reports/b-dirty.md"]["counts"]["bare_number"] == 1
    # A person watching the run sees it too, on stderr: one line.
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("qcgrade: error: reports/bad-slice.md: ")


def test_sarif_has_a_tool_notification_per_bad_item_and_validates(root: Path) -> None:
    result = check(root, "reports", "--format", "sarif")
    assert result.exit_code == 2
    log = json.loads(result.stdout)
    assert sorted(Draft4Validator(SCHEMA).iter_errors(log), key=str) == []
    run = log["runs"][0]
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    notes = invocation["toolExecutionNotifications"]
    uris = [n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for n in notes]
    assert uris == ["reports/bad-slice.md", "reports/binary.md", "reports/no-slice.md"]
    for note in notes:
        assert note["level"] == "error"
    assert BAD["binary.md"] in notes[1]["message"]["text"]
    # The sections that could be graded still give their results.
    assert {r["ruleId"] for r in run["results"]} == {"bare_number", "missing_tldr"}


def test_sarif_of_a_clean_run_says_the_run_succeeded(root: Path) -> None:
    result = check(root, "reports/a-clean.md", "reports/b-dirty.md", "--format", "sarif")
    assert result.exit_code == 1
    log = json.loads(result.stdout)
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": True}]
    assert sorted(Draft4Validator(SCHEMA).iter_errors(log), key=str) == []


def test_junit_has_an_error_testcase(root: Path) -> None:
    result = check(root, "reports", "--format", "junit")
    assert result.exit_code == 2
    suite = ET.fromstring(result.stdout).find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("5", "1", "3")
    errors = {case.get("name"): case.find("error") for case in suite.iter("testcase") if case.find("error") is not None}
    assert sorted(errors) == sorted(BAD)
    for name, problem in BAD.items():
        error = errors[name]
        assert error is not None and problem in (error.get("message") or "")


def test_github_has_an_error_annotation_per_bad_item(root: Path) -> None:
    result = check(root, "reports", "--format", "github")
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    for name, problem in BAD.items():
        (line,) = [x for x in lines if x.startswith(f"::error file=reports/{name},")]
        assert "title=qcgrade (not graded)::" in line and problem in line
    assert lines[-1].startswith("qcgrade: error: 3 of 5 sections could not be graded; failed: 2 violations")


def test_an_output_file_still_gets_the_report_and_stderr_names_the_problem(root: Path) -> None:
    result = check(root, "reports", "--format", "sarif", "-o", "out.sarif")
    assert result.exit_code == 2
    log = json.loads((root / "out.sarif").read_text(encoding="utf-8"))
    assert len(log["runs"][0]["invocations"][0]["toolExecutionNotifications"]) == 3
    assert "(and 2 more, listed in the report)" in result.stderr


def test_a_missing_file_among_several_is_an_error_record(root: Path) -> None:
    result = check(root, "reports/b-dirty.md", "reports/gone.md")
    assert result.exit_code == 2
    assert "reports/gone.md: error: no such file or directory" in result.stdout.splitlines()
    assert "reports/b-dirty.md:1:14: bare_number" in result.stdout


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_single_bad_file_is_still_one_line_on_stderr(root: Path, name: str) -> None:
    result = check(root, f"reports/{name}", "--format", "sarif")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and BAD[name] in result.stderr
