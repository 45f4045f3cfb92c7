"""``qcgrade check``, ``qcgrade checks`` and ``qcgrade demo``."""

from __future__ import annotations

import inspect
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import click

from ..checks import CHECKS
from ..errors import InputError
from ..evidence import load_slice
from ..files import decode, discover_sections, read_section, read_slice, slice_for
from ..findings import Graded, Result, Ungraded, graded_only, ungraded_only
from ..grader import grade
from ..render import RENDERERS, json_format
from .app import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_PASSED, EXIT_VIOLATIONS, discard_stdout, emit, fail, friendly
from .config import grading_options, resolve_options
from .options import output_option
from .output import check_writable, echo_error, write_output


@click.command(short_help="Grade section files (or folders) against their slices.")
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
    """Grade section files (or directories of them; '-': stdin) against their evidence slices.

    In a directory or a list of files, a section that cannot be graded (not
    UTF-8, no slice beside it, an invalid slice) is reported as an error in
    the output, in every format, and the rest are graded; the exit code is
    then 2.
    """
    options, _ = resolve_options(config_path, **flags)
    check_writable(output, "--output")
    evidence = read_slice(slice_path) if slice_path is not None else None
    results: list[Result] = []
    if any(str(p) == "-" for p in paths):
        if evidence is None:
            raise InputError("-: a section read from stdin needs --slice")
        if len(paths) > 1:
            raise InputError("-: stdin is one section; give it alone, not with other paths")
        text = decode("-", sys.stdin.buffer.read())
        results.append(Graded("-", grade(text, evidence, options)))
    files = [p for p in paths if str(p) != "-"]
    # One file named on its own that cannot be graded is one line on stderr (exit 2);
    # in a folder or a list, a bad section is an error record beside the others.
    alone = len(files) == 1 and not files[0].is_dir()
    for given in files:
        try:
            found = discover_sections([given])
        except InputError as exc:
            if alone:
                raise
            results.append(Ungraded(str(given), _without_path(str(exc), given)))
            continue
        for path in found:
            try:
                text = read_section(path)
                results.append(Graded(str(path), grade(text, evidence or slice_for(path), options)))
            except InputError as exc:
                if alone:
                    raise
                results.append(Ungraded(str(path), _without_path(str(exc), path)))
    if not results:
        fail(", ".join(str(p) for p in paths) + ": no section files (*.md) found")
    if fmt == "json" and (len(paths) > 1 or any(p.is_dir() for p in paths)):
        # A directory or several files: always the list shape, however many sections.
        write_output(output, json_format.render_sections(results))
    else:
        emit(results, fmt, output)
    errors = ungraded_only(results)
    if errors:
        if fmt != "text" or output is not None:
            # The errors are in the report; say so where a person watching the run looks.
            first = errors[0]
            more = f" (and {len(errors) - 1} more, listed in the report)" if len(errors) > 1 else ""
            echo_error(f"qcgrade: error: {first.path}: {first.error}{more}")
        sys.exit(EXIT_BAD_INPUT)
    sys.exit(EXIT_PASSED if all(r.report.passed for r in graded_only(results)) else EXIT_VIOLATIONS)


def _without_path(message: str, path: Path) -> str:
    """An error message without the leading ``path: `` that the report line already shows."""
    prefix = f"{path}: "
    return message[len(prefix) :] if message.startswith(prefix) else message


@click.command(name="checks", short_help="List the checks, or show one's documentation and examples.")
@click.argument("names", nargs=-1, metavar="[NAME]...")
@friendly
def list_checks(names: tuple[str, ...]) -> None:
    """List every check with its one-line documentation; with NAMEs, show each one's documentation.

    A check's documentation says what it checks, why it matters, and gives
    a section that fails it and one that passes.
    """
    if not names:
        width = max(len(c.name) for c in CHECKS)
        for c in CHECKS:
            click.echo(f"{c.name:<{width}}  tier {c.tier}  {c.summary}")
        return
    from ..config import did_you_mean

    by_name = {c.name: c for c in CHECKS}
    for name in names:
        if name not in by_name:
            hint = did_you_mean(name, tuple(by_name))
            raise InputError(f"checks: unknown check {name!r}{hint}; known checks: {', '.join(by_name)}")
    pages = [check_page(by_name[name].name, by_name[name].tier, by_name[name].doc) for name in dict.fromkeys(names)]
    write_output(None, "\n".join(pages))


def check_page(name: str, tier: int, doc: str) -> str:
    """A check's documentation as ``qcgrade checks NAME`` prints it: name and tier, then its docstring."""
    tiers = {1: "tier 1, the paper's QC reward", 2: "tier 2 (--tier2)", 3: "tier 3, grounding (--grounding)"}
    return f"{name} ({tiers.get(tier, f'tier {tier}')})\n\n{inspect.cleandoc(doc)}\n"


@click.command(short_help="Grade the bundled example: a clean section and a failing one.")
@click.option("--format", "fmt", type=click.Choice(sorted(RENDERERS)), default="text", show_default=True)
@friendly
def demo(fmt: str) -> None:
    """Grade the bundled example: a clean section and a failing one."""
    base = resources.files("qcgrade") / "demo"
    evidence = load_slice(base.joinpath("slice.json").read_bytes())
    results: list[Result] = []
    for name in ("clean.md", "failing.md"):
        resource = base.joinpath(name)
        text = resource.read_text(encoding="utf-8")
        results.append(Graded(openable_path(resource, f"qcgrade/demo/{name}"), grade(text, evidence, tier2=True)))
    if fmt == "text":
        for result in graded_only(results):
            try:
                click.echo(f"== {result.path}: {'PASS' if result.report.passed else 'FAIL'}")
            except BrokenPipeError:
                discard_stdout()
            emit([result], fmt)
    else:
        # One parseable document: a heading line would break every machine format.
        emit(results, fmt)
    clean, failing = graded_only(results)
    ok = clean.report.passed and not failing.report.passed
    sys.exit(EXIT_PASSED if ok else EXIT_INTERNAL)


def openable_path(resource: object, fallback: str) -> str:
    """A path to a packaged file that the user can open from where they are.

    Relative to the current directory when the file lies below it (a
    checkout: ``qcgrade/demo/failing.md``), absolute otherwise (an installed
    package); ``fallback`` names it inside the package when it is no file on
    disk at all (a zipped install).
    """
    if not isinstance(resource, Path):
        return fallback
    real = resource.resolve()
    try:
        return str(real.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(real)
