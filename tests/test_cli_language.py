"""One command-line language (flake8 and ruff are the models): the same spelling, defaults and errors everywhere."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import helpers
from qcgrade.checks import CHECKS
from qcgrade.cli import main
from qcgrade.cli.app import COMMANDS


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


# --- did-you-mean, exit 2, one line -----------------------------------------------------


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["chek"], "qcgrade: error: no such command 'chek' (did you mean 'check'?); see 'qcgrade --help'"),
        (["bach", "x"], "qcgrade: error: no such command 'bach' (did you mean 'batch'?); see 'qcgrade --help'"),
        (
            ["check", "--tier3", "x.md"],
            "qcgrade: error: check: no such option '--tier3' (did you mean '--tier2'?); see 'qcgrade check --help'",
        ),
        (
            ["audit", "fixtures", "--judg", "qcgrade"],
            "qcgrade: error: audit: no such option '--judg' (did you mean '--judge'?); see 'qcgrade audit --help'",
        ),
        (
            ["audit", "comapre", "a.json", "b.json"],
            "qcgrade: error: audit: no such command or corpus 'comapre' (did you mean 'compare'?); see 'qcgrade audit --help'",
        ),
        (
            ["audit", "compare", "a.json", "b.json", "--signl", "judge"],
            "qcgrade: error: audit compare: no such option '--signl' (did you mean '--signal'?); see 'qcgrade audit compare --help'",
        ),
        (["--bogus"], "qcgrade: error: no such option '--bogus'; see 'qcgrade --help'"),
        (
            ["batch", "x.jsonl", "--extend-selet", "bare_number"],
            "qcgrade: error: batch: no such option '--extend-selet' (did you mean '--extend-select'?); see 'qcgrade batch --help'",
        ),
        (["check"], "qcgrade: error: check: missing argument 'PATHS...'; see 'qcgrade check --help'"),
        (
            ["checks", "bare_numbr"],
            "qcgrade: error: checks: unknown check 'bare_numbr' (did you mean 'bare_number'?); known checks: "
            + ", ".join(c.name for c in CHECKS),
        ),
    ],
)
def test_unknown_commands_and_options_are_one_line_with_a_did_you_mean(args: list[str], line: str) -> None:
    code, out, err = run(*args)
    assert (code, out) == (2, "")
    assert err == line + "\n"


def test_in_a_fresh_process_too() -> None:
    result = subprocess.run([sys.executable, "-m", "qcgrade", "chek"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr == "qcgrade: error: no such command 'chek' (did you mean 'check'?); see 'qcgrade --help'\n"


# --- one default, one help text ------------------------------------------------------------


def option_line(command: str, option: str) -> str:
    code, out, _ = run(*command.split(), "--help")
    assert code == 0
    # The option's help, unwrapped: from its name to the next option.
    text = " ".join(out.split())
    found = re.search(rf"{re.escape(option)} (.*?) (?:--|-[a-z],)", text)
    assert found, (command, option, text)
    return found.group(1)


def test_seeds_has_one_default_and_one_meaning_across_commands() -> None:
    lines = {command: option_line(command, "--seeds") for command in ("gate", "audit", "items")}
    assert len(set(lines.values())) == 1, lines
    assert "[default: 1]" in lines["gate"]


def test_gate_without_seeds_is_gate_with_the_default(tmp_path: Path) -> None:
    corpus = helpers.copy_fixtures(tmp_path, ("appendix-a/s3",))
    plain = run("gate", str(corpus), "--format", "json")
    explicit = run("gate", str(corpus), "--format", "json", "--seeds", "1")
    assert plain == explicit and plain[0] == 0
    assert json.loads(plain[1])["seeds"] == 1


def test_items_replay_refuses_an_explicit_seeds_even_the_default(tmp_path: Path) -> None:
    corpus = helpers.copy_fixtures(tmp_path, ("appendix-a/s3",))
    items = tmp_path / "items.jsonl"
    assert run("items", str(corpus), "-o", str(items))[0] == 0
    code, _, err = run("audit", "--items", str(items), "--judge", "qcgrade", "--seeds", "1")
    assert code == 2 and "drop --seeds and --defects" in err


# --- every command listed, audit compare included --------------------------------------


def test_help_lists_every_command_and_audit_compare() -> None:
    code, out, _ = run("--help")
    assert code == 0
    listed = re.findall(r"^  ([a-z-]+(?: [a-z]+)?)  ", out.split("Commands:")[1], flags=re.M)
    assert listed == sorted([*COMMANDS, "audit compare"])
    assert "audit run" not in out
    # Descriptions are whole sentences, not cut off mid-word.
    assert "..." not in out.split("Commands:")[1]


# --- qcgrade checks NAME ----------------------------------------------------------------


@pytest.mark.parametrize("check", CHECKS, ids=[c.name for c in CHECKS])
def test_checks_name_shows_the_documentation_with_both_examples(check: object) -> None:
    name = check.name  # type: ignore[attr-defined]
    code, out, _ = run("checks", name)
    assert code == 0
    assert out.startswith(f"{name} (tier {check.tier}")  # type: ignore[attr-defined]
    assert re.search(r"^Fails( \(.*\))?::$", out, flags=re.M) and re.search(r"^Passes( \(.*\))?::$", out, flags=re.M)
    assert check.summary in out  # type: ignore[attr-defined]


def test_checks_without_a_name_lists_them_all() -> None:
    code, out, _ = run("checks")
    assert code == 0 and [line.split()[0] for line in out.splitlines()] == [c.name for c in CHECKS]


# --- batch writes to stdout unless -o is given ----------------------------------------


def test_batch_without_output_writes_to_stdout(tmp_path: Path) -> None:
    code, out, err = run("batch", str(helpers.FIXTURES / "sections.jsonl"), "-j", "1")
    assert code == 0, err
    assert len(out.splitlines()) == 37 and all(json.loads(line)["passed"] for line in out.splitlines())
    assert err == "graded 37 lines: 37 passed, 0 failed, 0 errors\n"


# --- an internal error is exit 4, with or without QCGRADE_DEBUG ----------------------------

BUG = (
    "import sys, qcgrade.cli.check as c\n"
    "def broken(*a, **k): raise RuntimeError('a bug')\n"
    "c.grade = broken\n"
    "from qcgrade.cli import main\n"
    "sys.argv = ['qcgrade', 'check', sys.argv[1], '--slice', sys.argv[2]]\n"
    "main()\n"
)


@pytest.mark.parametrize("debug", ["", "1"])
def test_an_internal_error_exits_4_even_with_debug(debug: str, tmp_path: Path) -> None:
    import os

    section = helpers.FIXTURES / "appendix-a" / "s3.md"
    env = {**os.environ, "QCGRADE_DEBUG": debug}
    result = subprocess.run(
        [sys.executable, "-c", BUG, str(section), str(section.with_suffix(".json"))],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 4, result.stderr
    last = result.stderr.splitlines()[-1]
    assert last.startswith("qcgrade: error: internal error: RuntimeError: a bug")
    if debug:
        assert "Traceback (most recent call last)" in result.stderr and "in broken" in result.stderr
    else:
        assert "Traceback" not in result.stderr and "(set QCGRADE_DEBUG=1 for a traceback)" in last
