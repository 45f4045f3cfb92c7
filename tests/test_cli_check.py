"""`qcgrade check`, `checks` and `demo`: exit codes, formats and one-line errors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import CASES, FIXTURES, ROOT
from qcgrade.cli import main

SLICE = CASES / "slice.json"
CLEAN = FIXTURES / "appendix-a" / "s3.md"
CLEAN_SLICE = FIXTURES / "appendix-a" / "s3.json"
FAILING = ROOT / "qcgrade" / "demo" / "failing.md"
DEMO_SLICE = ROOT / "qcgrade" / "demo" / "slice.json"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_clean_section_exits_0(tmp_path: Path) -> None:
    code, out, err = run("check", str(CLEAN), "--slice", str(CLEAN_SLICE))
    assert code == 0, out + err
    assert out.strip().endswith("passed: 1 section, 0 violations")


def test_violations_exit_1_with_path_line_col_lines(tmp_path: Path) -> None:
    section = tmp_path / "s3.md"
    section.write_text("Revenue grew 30%.\n", encoding="utf-8")
    code, out, _ = run("check", str(section), "--slice", str(SLICE))
    assert code == 1
    assert f"{section}:1:14: bare_number number '30%'" in out
    assert f"{section}:1:1: missing_tldr" in out


def test_json_is_sorted_and_byte_identical(tmp_path: Path) -> None:
    section = tmp_path / "s.md"
    section.write_text("Revenue grew 30% [E009].\n", encoding="utf-8")
    first = run("check", str(section), "--slice", str(SLICE), "--format", "json")
    second = run("check", str(section), "--slice", str(SLICE), "--format", "json")
    assert first == second
    payload = json.loads(first[1])
    assert list(payload) == sorted(payload)
    assert payload["passed"] is False
    assert {v["check"] for v in payload["violations"]} == {"orphan_citation", "bare_number", "missing_tldr"}
    assert payload["counts"]["orphan_citation"] == 1


def test_tier2_flag_adds_the_disciplines(tmp_path: Path) -> None:
    section = tmp_path / "s.md"
    section.write_text("**TL;DR**\n\n- Share is 18% [E002].\n- Churn [E004].\n", encoding="utf-8")
    code, out, _ = run("check", str(section), "--slice", str(SLICE), "--format", "json")
    assert code == 0, out
    code, out, _ = run("check", str(section), "--slice", str(SLICE), "--format", "json", "--tier2")
    assert code == 1
    assert {v["check"] for v in json.loads(out)["violations"]} == {"unhedged_weak_card", "missing_stance"}


def test_slice_found_beside_the_section(tmp_path: Path) -> None:
    shutil.copy(CLEAN, tmp_path / "a.md")
    shutil.copy(CLEAN_SLICE, tmp_path / "a.json")
    shutil.copy(CLEAN, tmp_path / "b.md")
    shutil.copy(CLEAN_SLICE, tmp_path / "b.slice.json")
    code, out, err = run("check", str(tmp_path))
    assert code == 0, out + err
    assert "passed: 2 sections" in out


def test_select_and_ignore(tmp_path: Path) -> None:
    section = tmp_path / "s.md"
    section.write_text("Revenue grew 30% [E009].\n", encoding="utf-8")
    code, out, _ = run("check", str(section), "--slice", str(SLICE), "--select", "orphan_citation", "--format", "json")
    assert code == 1 and {v["check"] for v in json.loads(out)["violations"]} == {"orphan_citation"}
    code, out, _ = run("check", str(section), "--slice", str(SLICE), "--ignore", "orphan_citation,bare_number,missing_tldr")
    assert code == 0


def _bad_input_cases(tmp_path: Path) -> list[tuple[list[str], str]]:
    good = tmp_path / "good.md"
    good.write_text("Fine.\n", encoding="utf-8")
    binary = tmp_path / "binary.md"
    binary.write_bytes(b"Revenue \xff\xfe grew\n")
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{ not json", encoding="utf-8")
    bad_stance = tmp_path / "s3.json"
    data = json.loads(SLICE.read_text(encoding="utf-8"))
    data["cards"][1]["stance"] = "sideways"
    bad_stance.write_text(json.dumps(data), encoding="utf-8")
    not_utf8_slice = tmp_path / "latin.json"
    not_utf8_slice.write_bytes(b'{"section": "s\xe9"}')
    lonely = tmp_path / "x.md"
    lonely.write_text("Hi.\n", encoding="utf-8")
    return [
        (["check", str(tmp_path / "missing.md"), "--slice", str(SLICE)], "missing.md: no such file"),
        (["check", str(good), "--slice", str(tmp_path / "missing.json")], "missing.json: no such file"),
        (["check", str(binary), "--slice", str(SLICE)], "binary.md: not UTF-8 text (byte 0xff at offset 8)"),
        (["check", str(good), "--slice", str(bad_json)], "bad.json: invalid JSON"),
        (["check", str(good), "--slice", str(bad_stance)], "s3.json: cards[1].stance: Input should be 'bull' or 'bear'"),
        (["check", str(good), "--slice", str(not_utf8_slice)], "latin.json: not UTF-8 text"),
        (["check", str(good), "--slice", str(tmp_path)], "is a directory, expected a slice JSON file"),
        (["check", str(lonely)], "x.md: no slice given and no x.json"),
        (["check", str(good), "--slice", str(SLICE), "--select", "nope"], "unknown check 'nope'"),
    ]


def test_every_bad_input_exits_2_with_one_line(tmp_path: Path) -> None:
    for args, expected in _bad_input_cases(tmp_path):
        code, out, err = run(*args)
        assert code == 2, (args, out, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith("qcgrade: error: ") and expected in lines[0], (expected, lines[0])
        assert "Traceback" not in err


def test_usage_errors_exit_2() -> None:
    code, _, err = run("check")
    assert code == 2 and err == "qcgrade: error: check: missing argument 'PATHS...'; see 'qcgrade check --help'\n"
    code, _, _ = run("check", str(CLEAN), "--format", "yaml")
    assert code == 2


def test_checks_lists_every_check_with_its_doc() -> None:
    code, out, _ = run("checks")
    assert code == 0
    for name in (
        "orphan_citation",
        "unregistered_metric",
        "bare_number",
        "broken_xref",
        "missing_tldr",
        "unhedged_weak_card",
        "missing_stance",
        "coverage_floor",
    ):
        assert name in out
    assert "A citation names a card that is not in the evidence slice." in out


def test_demo_shows_a_pass_and_a_fail() -> None:
    code, out, err = run("demo")
    assert code == 0, out + err
    assert "demo/clean.md: PASS" in out and "demo/failing.md: FAIL" in out


def test_demo_paths_open_from_where_the_user_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """From the checkout: the path relative to it; from anywhere else: the absolute path of the real file."""
    monkeypatch.chdir(ROOT)
    _, out, _ = run("demo")
    assert "== qcgrade/demo/failing.md: FAIL" in out
    assert "\nqcgrade/demo/failing.md:8:282: bare_number" in out
    monkeypatch.chdir(tmp_path)
    _, out, _ = run("demo")
    shown = [line.split(":")[0] for line in out.splitlines() if ":8:282: " in line]
    assert shown == [str(FAILING.resolve())]
    assert Path(shown[0]).read_text(encoding="utf-8") == FAILING.read_text(encoding="utf-8")


@pytest.mark.skipif(sys.platform == "win32", reason="uses a POSIX pipe")
def test_piped_output_has_no_colour_and_no_color_is_honoured(tmp_path: Path) -> None:
    section = tmp_path / "s.md"
    section.write_text("Revenue grew 30%.\n", encoding="utf-8")
    for env in ({}, {"FORCE_COLOR": "1", "NO_COLOR": "1"}):
        result = subprocess.run(
            [sys.executable, "-m", "qcgrade", "check", str(section), "--slice", str(SLICE)],
            capture_output=True,
            text=True,
            env={**os.environ, **env},
            check=False,
        )
        assert result.returncode == 1
        assert "\x1b[" not in result.stdout
    coloured = subprocess.run(
        [sys.executable, "-m", "qcgrade", "check", str(section), "--slice", str(SLICE)],
        capture_output=True,
        text=True,
        env={**os.environ, "FORCE_COLOR": "1", "NO_COLOR": ""},
        check=False,
    )
    assert "\x1b[" in coloured.stdout


def _with_closed_stdout(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str]:
    """Run qcgrade with stdout a pipe whose reader is already gone (like `| head` after one line)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "qcgrade", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, **(env or {})},
            check=False,
            timeout=120,
        )
    finally:
        os.close(write_end)
    return result.returncode, result.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="uses a POSIX pipe")
@pytest.mark.parametrize(
    ("args", "env", "code"),
    [
        (["check", str(CLEAN), "--slice", str(CLEAN_SLICE)], {}, 0),
        (["check", str(FAILING), "--slice", str(DEMO_SLICE)], {}, 1),
        (["check", str(FAILING), "--slice", str(DEMO_SLICE)], {"FORCE_COLOR": "1", "NO_COLOR": ""}, 1),
        (["check", str(FAILING), "--slice", str(DEMO_SLICE), "--format", "sarif"], {}, 1),
        (["demo"], {}, 0),
        (["config"], {}, 1),
        (["inject", str(CLEAN), "--defect", "number_swap"], {}, 1),
    ],
)
def test_a_reader_that_goes_away_is_no_error(args: list[str], env: dict[str, str], code: int) -> None:
    """`qcgrade ... | head`: no 'internal error', no traceback; check and demo keep their verdict."""
    returncode, err = _with_closed_stdout(args, env)
    assert err == ""
    assert returncode == code


@pytest.mark.parametrize("fmt", ["json", "sarif", "junit"])
def test_demo_in_a_machine_format_is_one_parseable_document(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import xml.etree.ElementTree as ElementTree

    monkeypatch.chdir(ROOT)
    code, out, err = run("demo", "--format", fmt)
    assert code == 0, err
    assert "==" not in out
    if fmt == "json":
        payload = json.loads(out)
        assert [s["path"] for s in payload["sections"]] == ["qcgrade/demo/clean.md", "qcgrade/demo/failing.md"]
        assert [s["passed"] for s in payload["sections"]] == [True, False]
    elif fmt == "sarif":
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in json.loads(out)["runs"][0]["results"]}
        assert uris == {"qcgrade/demo/failing.md"}
    else:
        assert ElementTree.fromstring(out).get("tests") == "2"


def test_demo_in_github_format_has_no_heading_lines() -> None:
    code, out, _ = run("demo", "--format", "github")
    assert code == 0
    assert all(line.startswith(("::error ", "qcgrade: ")) for line in out.splitlines()), out


def test_a_directory_without_sections_names_itself(tmp_path: Path) -> None:
    code, out, err = run("check", str(tmp_path))
    assert code == 2 and out == ""
    assert err == f"qcgrade: error: {tmp_path}: no section files (*.md) found\n"


@pytest.mark.parametrize(
    "flags",
    [
        ["--select", "bare_number", "--ignore", "bare_number"],
        ["--ignore", "orphan_citation,unregistered_metric,bare_number,broken_xref,missing_tldr"],
    ],
)
def test_a_selection_that_leaves_no_check_is_an_error_not_a_pass(tmp_path: Path, flags: list[str]) -> None:
    section = tmp_path / "s.md"
    section.write_text("Revenue grew 30% [E009].\n", encoding="utf-8")
    code, out, err = run("check", str(section), "--slice", str(SLICE), *flags)
    assert code == 2 and out == ""
    assert err == "qcgrade: error: --select/--ignore: no check left to run (ignore removes every selected check)\n"


def test_top_level_help_documents_the_exit_codes() -> None:
    code, out, _ = run("--help")
    flat = " ".join(out.split())
    assert code == 0
    assert "Exit codes: 0 passed, 1 violations, 2 bad input or usage" in flat
    assert "3 an injection that cannot apply, 4 an internal error" in flat


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
@pytest.mark.parametrize(
    "args",
    [
        ["check", str(CLEAN), "--slice", str(CLEAN_SLICE)],
        ["checks"],
        ["config"],
        ["gate", str(FIXTURES / "appendix-a"), "--seeds", "1"],
    ],
)
def test_a_full_disk_on_stdout_is_one_line_exit_2(args: list[str]) -> None:
    with open("/dev/full", "w", encoding="utf-8") as full:
        result = subprocess.run(
            [sys.executable, "-m", "qcgrade", *args], stdout=full, stderr=subprocess.PIPE, text=True, check=False, timeout=120
        )
    assert result.returncode == 2
    assert result.stderr == "qcgrade: error: stdout: cannot write: No space left on device\n"


def test_json_for_a_directory_is_always_the_list_shape(tmp_path: Path) -> None:
    shutil.copy(CLEAN, tmp_path / "only.md")
    shutil.copy(CLEAN_SLICE, tmp_path / "only.json")
    code, out, _ = run("check", str(tmp_path), "--format", "json")
    assert code == 0
    payload = json.loads(out)
    assert payload["passed"] is True
    assert [s["path"] for s in payload["sections"]] == [str(tmp_path / "only.md")]
    code, out, _ = run("check", str(tmp_path / "only.md"), "--format", "json")
    assert set(json.loads(out)) == {"counts", "passed", "violations"}
