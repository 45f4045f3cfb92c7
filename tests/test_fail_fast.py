"""An audit whose judge never works stops after its first N calls, with the judge's own stderr (exit 2)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import FIXTURES
from qcgrade.auditing import audit
from qcgrade.auditing.judges import STDERR_BYTES, STDERR_LINES, stderr_tail
from qcgrade.cli import main
from qcgrade.errors import JudgeUnusable

CORPUS = FIXTURES / "cloudmeadow-saas"

#: A judge command that logs each call to a file, then fails its first FAILS calls (all when FAILS < 0).
JUDGE = """\
import sys
from pathlib import Path
sys.stdin.read()
log = Path(sys.argv[1])
calls = len(log.read_text().splitlines()) if log.exists() else 0
with log.open("a") as handle:
    handle.write("call\\n")
fails = int(sys.argv[2])
if fails < 0 or calls < fails:
    for i in range(30):
        print(f"noise {i}", file=sys.stderr)
    print("Traceback (most recent call last):", file=sys.stderr)
    print("ModuleNotFoundError: No module named 'openai'", file=sys.stderr)
    sys.exit(1)
print("PASS")
"""


def judge_command(tmp_path: Path, fails: int) -> tuple[str, Path]:
    script = tmp_path / "judge.py"
    script.write_text(JUDGE, encoding="utf-8")
    log = tmp_path / "calls.log"
    return f"{sys.executable} {script} {log} {fails}", log


def calls(log: Path) -> int:
    return len(log.read_text(encoding="utf-8").splitlines()) if log.exists() else 0


def run(*args: str):  # noqa: ANN201 - click's Result
    return CliRunner().invoke(main, ["audit", str(CORPUS), *args])


def test_a_judge_that_always_fails_stops_after_n_calls_with_its_stderr(tmp_path: Path) -> None:
    command, log = judge_command(tmp_path, -1)
    result = run("--judge", command, "--fail-fast", "3", "--retries", "1")
    assert result.exit_code == 2
    assert result.stdout == ""  # no report of meaningless numbers
    lines = result.stderr.splitlines()
    assert lines[0] == (
        "qcgrade: error: --judge: the judge's first 3 calls all failed, so the audit stopped; the last one: "
        "exited with status 1: ModuleNotFoundError: No module named 'openai' (--fail-fast 3; 0 judges every item anyway)"
    )
    assert lines[1] == f"the judge's standard error (last {STDERR_LINES} lines):"
    assert lines[2:] == [f"    noise {i}" for i in range(12, 30)] + [
        "    Traceback (most recent call last):",
        "    ModuleNotFoundError: No module named 'openai'",
    ]
    assert calls(log) == 3 * 2  # three items, each tried twice (--retries 1), then nothing more


def test_the_default_is_five_calls(tmp_path: Path) -> None:
    command, log = judge_command(tmp_path, -1)
    result = run("--judge", command, "--retries", "0")
    assert result.exit_code == 2 and "first 5 calls all failed" in result.stderr
    assert calls(log) == 5


def test_fail_fast_0_judges_every_item_and_reports_that_none_succeeded(tmp_path: Path) -> None:
    command, log = judge_command(tmp_path, -1)
    result = run("--judge", command, "--fail-fast", "0", "--retries", "0", "--defects", "orphan_citation")
    assert result.exit_code == 2
    assert "verdict:" in result.stdout  # the full report, as before
    assert "every call failed" in result.stderr
    assert calls(log) > 5


def test_a_judge_that_recovers_within_the_first_calls_runs_to_the_end(tmp_path: Path) -> None:
    command, log = judge_command(tmp_path, 2)
    result = run("--judge", command, "--retries", "0", "--defects", "orphan_citation", "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert '"judge_errors"' in result.stdout
    assert calls(log) > 5


def test_the_python_api_raises_with_the_stderr_and_can_opt_out() -> None:
    def broken(section: str, slice_: dict) -> bool:
        raise RuntimeError("no API key")

    with pytest.raises(JudgeUnusable, match=r"first 5 calls all failed.*raised RuntimeError: no API key"):
        audit(broken, CORPUS)
    report = audit(broken, CORPUS, fail_fast=0, retries=0, defects=["orphan_citation"])
    assert report.judge_errors and all(item.passed is None for item in report.items)
    with pytest.raises(ValueError, match="fail_fast"):
        audit(broken, CORPUS, fail_fast=-1)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"", ""),
        (b"one\ntwo\n\n", "one\ntwo"),
        (b"".join(b"line %d\n" % i for i in range(50)), "\n".join(f"line {i}" for i in range(30, 50))),
        (b"x" * 5000, "..." + "x" * STDERR_BYTES),
        (b"\xff bad bytes\n", "\ufffd bad bytes"),
    ],
    ids=["empty", "short", "last-20-lines", "one-huge-line", "undecodable"],
)
def test_stderr_tail_keeps_the_end(raw: bytes, expected: str) -> None:
    assert stderr_tail(raw) == expected


def test_stderr_tail_keeps_about_2_kb_of_long_lines() -> None:
    raw = b"".join(b"%02d " % i + b"y" * 300 + b"\n" for i in range(20))
    tail = stderr_tail(raw)
    assert len(tail) <= STDERR_BYTES and tail.splitlines()[-1].startswith("19 ")
    assert len(tail.splitlines()) == STDERR_BYTES // 305


@pytest.mark.parametrize("jobs", ["1", "4"])
def test_whether_it_stops_does_not_depend_on_jobs(tmp_path: Path, jobs: str) -> None:
    """The first N items by position decide: item 0 answers, so no stop, however the calls interleave."""
    command, log = judge_command(tmp_path, 0)
    result = run("--judge", command, "--retries", "0", "--jobs", jobs, "--defects", "orphan_citation", "--format", "json")
    assert result.exit_code == 0, result.stderr
    (tmp_path / "always").mkdir()
    always, _ = judge_command(tmp_path / "always", -1)
    stopped = run("--judge", always, "--retries", "0", "--jobs", jobs, "--fail-fast", "4")
    assert stopped.exit_code == 2 and "first 4 calls all failed" in stopped.stderr
