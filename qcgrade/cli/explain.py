"""``qcgrade explain``: every reading decision about a section, with the rule that made it."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import InputError
from ..files import decode, read_section, read_slice, slice_beside
from .app import friendly
from .options import output_option
from .output import check_writable, write_output


@click.command(name="explain")
@click.argument("path", type=click.Path(path_type=Path, allow_dash=True))
@click.option(
    "--slice",
    "slice_path",
    type=click.Path(path_type=Path),
    help="Evidence slice JSON (default: NAME.json beside NAME.md, if any).",
)
@click.option("--format", "fmt", type=click.Choice(["json", "text"]), default="text", show_default=True)
@output_option()
@friendly
def explain_command(path: Path, slice_path: Path | None, fmt: str, output: Path | None) -> None:
    """Show how the reader read a section: each numeral, sentence end, marker and TL;DR with its rule id.

    With a slice (given, or NAME.json beside NAME.md) it also says which
    markers are valid and which numbers no valid marker covers. The rule ids
    are those of docs/reading-rules.md; findings name the same ids.
    """
    from ..reading.explain import explain
    from ..render.explain import render_json, render_text

    check_writable(output, "--output")
    if str(path) == "-":
        text = decode("-", sys.stdin.buffer.read())
    elif path.is_dir():
        raise InputError(f"{path}: explain reads one section; name a .md file")
    else:
        text = read_section(path)
    beside = slice_beside(path) if slice_path is None and str(path) != "-" else None
    evidence = read_slice(slice_path) if slice_path is not None else (read_slice(beside) if beside is not None else None)
    decisions = explain(text, evidence)
    render = render_json if fmt == "json" else render_text
    write_output(output, render(str(path), decisions))
