"""Every shell and Python example in README.md runs as written, from the repository root.

The README is what a new user copies. Each ```sh block is run line by line
(``\\`` continues a line) and each ```python block as a script, in a scratch
folder that mirrors the repository root (its top-level entries linked in), so
files the examples write (audit.html, items.jsonl) never land in the checkout.
A command's expected exit code is written beside it as ``# exits N``; without
one it must exit 0. A block preceded by ``<!-- not run: reason -->`` is
skipped with that reason (the set-up commands, which CI itself runs, and
examples that need a paid API key).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

_FENCE = re.compile(r"(?:<!--\s*not run:\s*(?P<why>.*?)\s*-->\s*\n)?```(?P<lang>[a-z]*)\n(?P<body>.*?)\n```", re.S)
_EXITS = re.compile(r"#\s*exits?\s+(\d+)\b")


@dataclass(frozen=True)
class Example:
    lang: str
    body: str
    line: int
    skip: str | None

    @property
    def name(self) -> str:
        return f"README.md:{self.line}:{self.lang}"


def examples(text: str) -> list[Example]:
    found = []
    for match in _FENCE.finditer(text):
        if match["lang"] in ("sh", "python"):
            line = text.count("\n", 0, match.start("body")) + 1
            found.append(Example(match["lang"], match["body"], line, match["why"]))
    return found


def commands(body: str) -> list[tuple[str, int]]:
    """Shell lines with their expected exit codes; comments and blank lines dropped."""
    out: list[tuple[str, int]] = []
    pending = ""
    for raw in body.splitlines():
        line = raw.rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        expected = _EXITS.search(line)
        out.append((line, int(expected.group(1)) if expected else 0))
    return out


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder that looks like the repository root to the examples."""
    folder = tmp_path_factory.mktemp("readme")
    for entry in ROOT.iterdir():
        if entry.name not in (".git", ".venv") and not entry.name.startswith(".venv"):
            (folder / entry.name).symlink_to(entry)
    return folder


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # `qcgrade` and `python` resolve to this interpreter's environment, as after activating it.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.pop("OPENAI_API_KEY", None)
    env["NO_COLOR"] = "1"
    return env


ALL = examples(README.read_text(encoding="utf-8"))


def test_the_readme_has_examples_to_run() -> None:
    assert sum(len(commands(e.body)) for e in ALL if e.skip is None and e.lang == "sh") >= 8
    assert any(e.skip is None and e.lang == "python" for e in ALL)


@pytest.mark.parametrize("example", ALL, ids=[e.name for e in ALL])
def test_readme_example_runs_as_written(example: Example, scratch: Path) -> None:
    if example.skip is not None:
        pytest.skip(example.skip)
    if example.lang == "python":
        result = subprocess.run(
            [sys.executable, "-c", example.body], cwd=scratch, env=_env(), capture_output=True, text=True, timeout=300
        )
        assert result.returncode == 0, f"{example.name}\n{result.stderr[-3000:]}"
        return
    for line, expected in commands(example.body):
        result = subprocess.run(
            ["bash", "-c", f"set -o pipefail; {line}"],
            cwd=scratch,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert result.returncode == expected, f"{example.name}: {line}\nexit {result.returncode}\n{result.stderr[-3000:]}"
        assert "Traceback" not in result.stderr, f"{example.name}: {line}\n{result.stderr[-3000:]}"


def test_the_readme_shows_the_demo_output_as_printed(scratch: Path) -> None:
    """The sample output beside the failing demo is what qcgrade prints today, byte for byte."""
    result = subprocess.run(
        ["qcgrade", "check", "qcgrade/demo/failing.md", "--slice", "qcgrade/demo/slice.json"],
        cwd=scratch,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert f"```\n{result.stdout.rstrip()}\n```" in README.read_text(encoding="utf-8")
