"""The gate table reads the same on a terminal and in a pipe: same columns, same headers, same words."""

from __future__ import annotations

import io
import re

import pytest
from click.testing import CliRunner
from rich.console import Console

from helpers import FIXTURES
from qcgrade.auditing.corpus import CorpusItem, load_corpus
from qcgrade.auditing.gate import GateResult, run_gate
from qcgrade.cli import main
from qcgrade.injectors import DEFECTS, QC_INVISIBLE
from qcgrade.render.gate import GROUNDING_HEADERS, GROUNDING_LEGEND, HEADERS, LEGEND, render_text, rich_table

CORPUS = load_corpus(FIXTURES / "cloudmeadow-saas")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def result() -> GateResult:
    failing = CorpusItem("dirty/one", "Revenue grew 30%.\n", CORPUS[0].slice)
    return run_gate([*CORPUS[:2], failing], 1)


def terminal_text(result: GateResult, width: int) -> str:
    out = io.StringIO()
    Console(file=out, width=width, highlight=False, color_system=None).print(rich_table(result), soft_wrap=True)
    return out.getvalue()


@pytest.mark.parametrize("width", [80, 120])
def test_the_terminal_table_is_the_piped_table_with_a_drawn_rule(result: GateResult, width: int) -> None:
    assert terminal_text(result, width).replace("─", "-") == render_text(result)


def test_the_table_fits_80_columns_and_names_visibility_in_words(result: GateResult) -> None:
    lines = render_text(result).splitlines()
    assert max(len(line) for line in lines if not line.startswith("skipped ")) <= 80
    assert lines[2].split() == list(HEADERS)
    words = {line.split()[0]: line.split()[1] for line in lines[4 : 4 + len(DEFECTS)]}
    assert words == {d: "invisible" if d in QC_INVISIBLE else "visible" for d in DEFECTS}
    for line in LEGEND:
        assert line in lines
    assert lines[-1].startswith("skipped dirty/one: fails before injection (bare_number, missing_tldr;")


def test_the_cli_table_on_a_terminal_has_colour_and_the_piped_words() -> None:
    args = ["gate", str(FIXTURES / "cloudmeadow-saas"), "--seeds", "1"]
    piped = CliRunner().invoke(main, args)
    coloured = CliRunner().invoke(main, args, env={"FORCE_COLOR": "1", "NO_COLOR": "", "COLUMNS": "80"})
    assert piped.exit_code == coloured.exit_code == 0
    assert "\x1b[" in coloured.stdout and "\x1b[" not in piped.stdout
    assert ANSI.sub("", coloured.stdout).replace("─", "-") == piped.stdout


def test_grounding_columns_are_the_same_on_a_terminal_and_in_a_pipe_even_past_80_columns() -> None:
    result = run_gate(CORPUS[:2], 1, grounding=True)
    text = render_text(result)
    header = text.splitlines()[2]
    positions = [header.index(name) for name in (*HEADERS, *GROUNDING_HEADERS)]
    assert positions == sorted(positions) and header.endswith(GROUNDING_HEADERS[-1])
    for line in GROUNDING_LEGEND:
        assert line in text.splitlines()
    # Wider than 80 columns: the terminal gets every column whole, not a squeezed or dropped one.
    assert terminal_text(result, 80).replace("─", "-") == text
