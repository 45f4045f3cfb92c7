"""``qcgrade check``, ``qcgrade checks`` and ``qcgrade demo``."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import Any

import click

from ..checks import CHECKS
from ..errors import InputError
from ..evidence import load_slice
from ..files import decode, discover_sections, read_section, read_slice, slice_for
from ..findings import Graded
from ..grader import grade
from ..render import RENDERERS, json_format
from .app import EXIT_INTERNAL, EXIT_PASSED, EXIT_VIOLATIONS, discard_stdout, emit, fail, friendly
from .config import grading_options, resolve_options
from .options import output_option
from .output import check_writable, write_output


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, allow_dash=True))
@click.option(
    "--slice", "slice_path", type=click.Path(path_type=Path), help="Evidence slice JSON (default: NAME.json beside each NAME.md)."
)
@click.option("--format", "fmt", type=click.Choice(sorted(RENDERERS)), default="text", show_default=True)
@output_option()
@grading_options
@friendly
def check(
    paths: tuple[Path, ...], slice_path: Path | None, fmt: str, output: Path | None, config_path: Path | None, **flags: Any
) -> None:
    """Grade section files (or directories of them; '-': stdin) against their evidence slices."""
    options, _ = resolve_options(config_path, **flags)
    check_writable(output, "--output")
    evidence = read_slice(slice_path) if slice_path is not None else None
    results: list[Graded] = []
    if any(str(p) == "-" for p in paths):
        if evidence is None:
            raise InputError("-: a section read from stdin needs --slice")
        if len(paths) > 1:
            raise InputError("-: stdin is one section; give it alone, not with other paths")
        text = decode("-", sys.stdin.buffer.read())
        results.append(Graded("-", grade(text, evidence, options)))
    for path in discover_sections([p for p in paths if str(p) != "-"]):
        text = read_section(path)
        results.append(Graded(str(path), grade(text, evidence or slice_for(path), options)))
    if not results:
        fail(", ".join(str(p) for p in paths) + ": no section files (*.md) found")
    if fmt == "json" and (len(paths) > 1 or any(p.is_dir() for p in paths)):
        # A directory or several files: always the list shape, however many sections.
        write_output(output, json_format.render_sections(results))
    else:
        emit(results, fmt, output)
    sys.exit(EXIT_PASSED if all(r.report.passed for r in results) else EXIT_VIOLATIONS)


@click.command(name="checks")
@friendly
def list_checks() -> None:
    """List every check with its one-line documentation."""
    width = max(len(c.name) for c in CHECKS)
    for c in CHECKS:
        click.echo(f"{c.name:<{width}}  tier {c.tier}  {c.summary}")


@click.command()
@click.option("--format", "fmt", type=click.Choice(sorted(RENDERERS)), default="text", show_default=True)
@friendly
def demo(fmt: str) -> None:
    """Grade the bundled example: a clean section and a failing one."""
    base = resources.files("qcgrade") / "demo"
    evidence = load_slice(base.joinpath("slice.json").read_bytes())
    results = []
    for name in ("clean.md", "failing.md"):
        text = base.joinpath(name).read_text(encoding="utf-8")
        results.append(Graded(f"demo/{name}", grade(text, evidence, tier2=True)))
    if fmt == "text":
        for result in results:
            try:
                click.echo(f"== {result.path}: {'PASS' if result.report.passed else 'FAIL'}")
            except BrokenPipeError:
                discard_stdout()
            emit([result], fmt)
    else:
        # One parseable document: a heading line would break every machine format.
        emit(results, fmt)
    ok = results[0].report.passed and not results[1].report.passed
    sys.exit(EXIT_PASSED if ok else EXIT_INTERNAL)
