"""``qcgrade check``, ``qcgrade checks`` and ``qcgrade demo``."""

from __future__ import annotations

import inspect
import os
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..checks import CHECKS
from ..errors import InputError
from ..evidence import EvidenceSlice, load_slice
from ..files import decode, discover_sections, read_bytes, read_section, read_slice, slice_for
from ..findings import Graded, Report, Result, Ungraded, graded_only, ungraded_only
from ..grader import grade
from ..options import Options
from ..render import RENDERERS, json_format
from .app import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_PASSED, EXIT_VIOLATIONS, discard_stdout, emit, fail, friendly
from .config import grading_options, resolve_options
from .options import output_option
from .output import check_writable, echo_error, write_output

if TYPE_CHECKING:
    from ..repair import Repaired


@click.command(short_help="Grade section files (or folders) against their slices.")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, allow_dash=True))
@click.option(
    "--slice", "slice_path", type=click.Path(path_type=Path), help="Evidence slice JSON (default: NAME.json beside each NAME.md)."
)
@click.option("--format", "fmt", type=click.Choice(sorted(RENDERERS)), default="text", show_default=True)
@output_option()
@click.option(
    "--suggest",
    "suggest_repairs",
    is_flag=True,
    help="Show the repairs qcgrade knows for the findings (the card to cite, the id meant) in every format; off by default.",
)
@click.option(
    "--fix",
    is_flag=True,
    help="Apply the unambiguous suggested repairs and rewrite each section file in place (only files that change, "
    "atomically); the report is then of the repaired files. Implies --suggest.",
)
@grading_options
@friendly
def check(
    paths: tuple[Path, ...],
    slice_path: Path | None,
    fmt: str,
    output: Path | None,
    suggest_repairs: bool,
    fix: bool,
    config_path: Path | None,
    **flags: Any,
) -> None:
    """Grade section files (or directories of them; '-': stdin) against their evidence slices.

    In a directory or a list of files, a section that cannot be graded (not
    UTF-8, no slice beside it, an invalid slice) is reported as an error in
    the output, in every format, and the rest are graded; the exit code is
    then 2.

    --fix changes files, and only when asked: each section whose unambiguous
    repairs leave fewer violations is rewritten in place (a temporary file
    beside it, renamed over it, so a reader never sees half a file; a file
    changed by someone else since it was read is left alone). Everything
    outside the repaired spans stays byte for byte. stderr names each
    rewritten file and what changed in it.
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
        if fix:
            raise InputError("-: --fix rewrites section files in place; a section read from stdin has no file (use --suggest)")
        text = decode("-", sys.stdin.buffer.read())
        results.append(Graded("-", _graded(text, evidence, options, suggest_repairs)))
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
                used = evidence or slice_for(path)
                if fix:
                    results.append(Graded(str(path), _fixed(path, text, used, options).report))
                else:
                    results.append(Graded(str(path), _graded(text, used, options, suggest_repairs)))
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


def _graded(text: str, evidence: EvidenceSlice, options: Options, with_repairs: bool) -> Report:
    report = grade(text, evidence, options)
    if not with_repairs:
        return report
    from ..repair import suggest  # grounding's card reading loads only when repairs are asked for

    return suggest(report, evidence)


def _fixed(path: Path, text: str, evidence: EvidenceSlice, options: Options) -> Repaired:
    """Repair one section file in place when its repairs leave fewer violations; say what changed on stderr."""
    from ..repair import repair

    repaired = repair(text, evidence, options)
    if repaired.changed:
        _replace_file(path, text, repaired.text)
        counts: dict[str, int] = {}
        for applied in repaired.applied:
            counts[applied.finding.check] = counts.get(applied.finding.check, 0) + 1
        detail = ", ".join(f"{check} {n}" for check, n in sorted(counts.items()))
        changes = "; ".join(a.suggestion.message for a in repaired.applied)
        echo_error(f"qcgrade: {path}: fixed {len(repaired.applied)} ({detail}): {changes}")
    return repaired


def _replace_file(path: Path, was: str, text: str) -> None:
    """Write ``text`` over ``path`` atomically, unless the file no longer holds ``was``."""
    target = path.resolve()  # a symbolic link keeps pointing at the repaired file
    if read_bytes(target) != was.encode("utf-8"):
        raise InputError(f"{path}: changed while it was being graded; not fixed")
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".qcgrade-fix")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(text.encode("utf-8"))
        os.chmod(temporary, target.stat().st_mode & 0o7777)
        os.replace(temporary, target)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise InputError(f"{path}: cannot rewrite: {exc.strerror or exc}") from None


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
