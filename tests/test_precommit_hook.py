"""The pre-commit hook: its manifest, the files it grades (cases/hosts/changed_files.toml), and pre-commit itself.

The last test runs the real ``pre-commit try-repo`` against a temporary git
repository; pre-commit builds its own environment for qcgrade first (tens of
seconds), so it is opt-in: ``pytest -m precommit``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

import helpers
from qcgrade.cli import main
from qcgrade.cli.changed import sections_to_grade

MANIFEST = helpers.ROOT / ".pre-commit-hooks.yaml"
CASES = helpers.load_toml(helpers.CASES / "hosts" / "changed_files.toml")["case"]
CLEAN_MD = helpers.FIXTURES / "appendix-a" / "s3.md"
DEFECT = "\n\nMargins fell 12% last year.\n"
#: Keys pre-commit accepts in a hook definition (pre-commit's manifest schema, 3.x/4.x).
HOOK_KEYS = {
    "id",
    "name",
    "entry",
    "language",
    "alias",
    "files",
    "exclude",
    "types",
    "types_or",
    "exclude_types",
    "additional_dependencies",
    "args",
    "always_run",
    "fail_fast",
    "pass_filenames",
    "description",
    "language_version",
    "log_file",
    "minimum_pre_commit_version",
    "require_serial",
    "stages",
    "verbose",
}


def hooks() -> list[dict[str, Any]]:
    loaded = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert isinstance(loaded, list) and loaded, "the manifest is a non-empty list of hooks"
    return loaded


def test_manifest_has_the_shape_pre_commit_reads() -> None:
    for hook in hooks():
        assert isinstance(hook, dict)
        assert {"id", "name", "entry", "language"} <= set(hook), hook
        assert set(hook) <= HOOK_KEYS, set(hook) - HOOK_KEYS
        assert all(isinstance(hook[k], str) and hook[k] for k in ("id", "name", "entry", "language"))
        assert hook["language"] == "python"  # pre-commit installs this repository with pip
        re.compile(hook.get("files", ""))
        re.compile(hook.get("exclude", "^$"))


def test_manifest_entry_is_an_installed_command() -> None:
    """The entry is the console script pyproject declares, and a subcommand it has."""
    scripts = helpers.load_toml(helpers.ROOT / "pyproject.toml")["project"]["scripts"]
    for hook in hooks():
        program, *command = hook["entry"].split()
        assert program in scripts
        result = CliRunner().invoke(main, [*command, "--help"])
        assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("path", "seen"),
    [
        ("reports/s3.md", True),
        ("reports/s3.json", True),
        ("reports/s3.slice.json", True),
        ("s3.md", True),
        ("setup.py", False),
        ("reports/s3.md.bak", False),
        ("notes.txt", False),
    ],
)
def test_manifest_files_pattern_sees_sections_and_slices(path: str, seen: bool) -> None:
    # pre-commit matches `files` with re.search against the repository-relative path.
    for hook in hooks():
        assert bool(re.search(hook["files"], path)) is seen


def make_tree(root: Path, files: list[str]) -> None:
    clean = CLEAN_MD.read_text(encoding="utf-8")
    slice_text = CLEAN_MD.with_suffix(".json").read_text(encoding="utf-8")
    for name in files:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if name.endswith("README.md"):
            path.write_text("# Reports\n\nThis folder holds 12% of nothing.\n", encoding="utf-8")
        elif name.endswith(".md"):
            path.write_text(clean + (DEFECT if "dirty" in name else ""), encoding="utf-8")
        elif "/config/" in f"/{name}":
            path.write_text('{"colour": "blue"}\n', encoding="utf-8")
        else:
            path.write_text(slice_text, encoding="utf-8")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_check_changed(case: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_tree(tmp_path, case["tree"])
    monkeypatch.chdir(tmp_path)  # pre-commit passes repository-relative paths
    assert [p.as_posix() for p in sections_to_grade(Path(c) for c in case["changed"])] == case["graded"]
    result = CliRunner().invoke(main, ["check-changed", *case["changed"]])
    assert result.exit_code == case["exit"], result.output + result.stderr
    if case["exit"] == 0 and not case["graded"]:
        assert result.stdout == ""


def pre_commit_program() -> str:
    beside = Path(sys.executable).with_name("pre-commit")
    found = str(beside) if beside.exists() else shutil.which("pre-commit")
    if found is None:
        pytest.fail("pre-commit is not installed (pip install pre-commit)")
    return found


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


@pytest.mark.precommit
def test_pre_commit_try_repo_grades_the_changed_sections(tmp_path: Path) -> None:
    """pre-commit installs this repository's hook and runs it on a team's repository."""
    program = pre_commit_program()
    team = tmp_path / "team"
    team.mkdir()
    make_tree(team, ["reports/s1.md", "reports/s1.json", "reports/dirty.md", "reports/dirty.json", "reports/README.md"])
    git(team, "init", "-q")
    git(team, "add", "-A")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "PRE_COMMIT_COLOR": "never"}

    def run(*files: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [program, "try-repo", str(helpers.ROOT), "qcgrade", "--files", *files],
            cwd=team,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )

    passed = run("reports/s1.json", "reports/README.md")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert re.search(r"qcgrade check\.+Passed", passed.stdout), passed.stdout
    failed = run("reports/dirty.md", "reports/s1.md")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert re.search(r"qcgrade check\.+Failed", failed.stdout), failed.stdout
    assert "reports/dirty.md:" in failed.stdout and "bare_number" in failed.stdout
    assert "reports/s1.md:" not in failed.stdout
