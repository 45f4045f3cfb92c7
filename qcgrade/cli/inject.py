"""``qcgrade inject``, ``qcgrade revert`` and ``qcgrade gate``.

Exit codes: ``inject`` 0 done, 2 bad input (including a section that fails
the grader before injection), 3 the class cannot apply to this section;
``revert`` 0 done, 2 bad input or a text edited since the injection;
``gate`` 0 after printing the table, 2 bad input. Errors are one line on
stderr naming the file. Texts are read and written as exact bytes (UTF-8),
so ``revert`` gives back the original file byte for byte.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..auditing.corpus import load_corpus
from ..auditing.gate import gate_steps, run_gate
from ..files import InputError, decode, read_bytes, read_section, read_slice, slice_for
from ..injectors import (
    DEFECTS,
    EXTENDED_DEFECTS,
    InjectionRecord,
    NotApplicable,
    RecordError,
    RevertError,
    UncleanSection,
    inject,
    load_record,
    revert,
)
from ..render.gate import render_text, rich_table
from .app import EXIT_BAD_INPUT, EXIT_NOT_APPLICABLE, fail, friendly
from .options import choose_defects, defects_option, deprecated, output_option, seeds_option
from .output import check_writable, write_output, write_rendered
from .progress import progress_bar


@click.command(name="inject", short_help="Inject one known defect into a clean section.")
@click.argument("section", type=click.Path(path_type=Path, allow_dash=True))
@click.option(
    "--slice", "slice_path", type=click.Path(path_type=Path), help="Evidence slice JSON (default: NAME.json beside NAME.md)."
)
@click.option("--defect", required=True, type=click.Choice(EXTENDED_DEFECTS), help="The defect class to inject.")
@click.option("--seed", type=int, default=0, show_default=True, help="Chooses the place (and variant); same seed, same bytes.")
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path, allow_dash=True),
    help="Write the injected section here ('-' or default: stdout).",
)
@click.option("--record", "record_path", type=click.Path(path_type=Path), help="Write the injection record (JSON) here.")
@friendly
def inject_command(
    section: Path, slice_path: Path | None, defect: str, seed: int, output: Path | None, record_path: Path | None
) -> None:
    """Inject one known defect into a clean SECTION ('-': stdin); --record saves what changed, for revert."""
    if _is_dash(section) and slice_path is None:
        fail("-: a section read from stdin needs --slice")
    if record_path is not None and _is_dash(record_path):
        fail("--record: give a file path ('-' would mix the record into the section on stdout)")
    text = _read_text(section)
    evidence = read_slice(slice_path) if slice_path is not None else slice_for(section)
    try:
        injection = inject(text, evidence, defect, seed)
    except NotApplicable as exc:
        fail(f"{section}: {exc}", EXIT_NOT_APPLICABLE)
        return
    except UncleanSection as exc:
        fail(f"{section}: {exc}", EXIT_BAD_INPUT)
        return
    # The record first: if it cannot be written, no injected text (perhaps
    # written over the original) is left behind without a way back.
    if record_path is not None:
        write_output(record_path, injection.record.to_json())
    write_output(output, injection.text, data=True)


@click.command(name="revert", short_help="Undo an injection byte for byte.")
@click.argument("injected", type=click.Path(path_type=Path, allow_dash=True))
@click.option(
    "--record", "record_path", required=True, type=click.Path(path_type=Path), help="The record written by qcgrade inject."
)
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path, allow_dash=True),
    help="Write the original section here ('-' or default: stdout).",
)
@friendly
def revert_command(injected: Path, record_path: Path, output: Path | None) -> None:
    """Undo an injection byte for byte; refuse (exit 2) if INJECTED ('-': stdin) was edited since."""
    text = _read_text(injected)
    record = _read_record(record_path)
    try:
        original = revert(text, record)
    except RevertError as exc:
        fail(f"{injected}: {exc}", EXIT_BAD_INPUT)
        return
    write_output(output, original, data=True)


@click.command(name="gate", short_help="Inject every defect class into a corpus and grade it.")
@click.argument("corpus", type=click.Path(path_type=Path))
@seeds_option()
@defects_option()
@click.option("--defect", "old_defect", multiple=True, hidden=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@output_option()
@click.option("--grounding", is_flag=True, help="Also grade each injection with the tier-3 grounding checks (extra columns).")
@friendly
def gate_command(
    corpus: Path, seeds: int, defects: str | None, old_defect: tuple[str, ...], fmt: str, output: Path | None, grounding: bool
) -> None:
    """The gate table: inject every class into every clean section of CORPUS and grade it.

    CORPUS is a folder of NAME.md + NAME.json pairs or a JSONL file of
    {"id", "section", "slice"} lines. Sections that fail before injection
    are skipped and listed.
    """
    if old_defect:
        deprecated("--defect", "use --defects " + ",".join(old_defect))
        defects = ",".join([*old_defect, *([defects] if defects else [])])
    named = choose_defects("--defects", defects)
    check_writable(output, "--output")
    items = load_corpus(corpus)
    chosen = tuple(d for d in EXTENDED_DEFECTS if d in named) if named else DEFECTS
    with progress_bar("injecting", gate_steps(items, seeds, chosen)) as advance:
        result = run_gate(items, seeds, chosen, advance, grounding=grounding)
    if fmt == "json":
        write_output(output, json.dumps(result.to_dict(), sort_keys=True, indent=2, ensure_ascii=False) + "\n")
    else:
        write_rendered(output, lambda: render_text(result), lambda: rich_table(result))


def _is_dash(path: Path) -> bool:
    return str(path) == "-"


def _read_text(path: Path) -> str:
    """A section from a file, or from stdin for ``-``, as exact UTF-8 text."""
    if _is_dash(path):
        return decode(path, sys.stdin.buffer.read())
    return read_section(path)


def _read_record(path: Path) -> InjectionRecord:
    raw = read_bytes(path)
    try:
        return load_record(raw)
    except RecordError as exc:
        raise InputError(f"{path}: {exc}") from None
