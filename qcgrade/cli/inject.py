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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from ..corpus import load_corpus
from ..files import InputError, decode, read_bytes, read_section, read_slice, slice_for
from ..gate import (
    GateResult,
    Progress,
    gate_steps,
    headline,
    render_text,
    run_gate,
    skipped_lines,
    table_rows,
)
from ..injectors import (
    DEFECT_SETS,
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
from .app import EXIT_BAD_INPUT, EXIT_NOT_APPLICABLE, _colour_wanted, fail, friendly


@click.command(name="inject")
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
        _write(record_path, injection.record.to_json())
    _emit_text(output, injection.text)


@click.command(name="revert")
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
    _emit_text(output, original)


@click.command(name="gate")
@click.argument("corpus", type=click.Path(path_type=Path))
@click.option(
    "--seeds", type=click.IntRange(min=1), default=5, show_default=True, help="Injections per class and section (seeds 0..K-1)."
)
@click.option(
    "--defect",
    "defects",
    multiple=True,
    type=click.Choice(EXTENDED_DEFECTS),
    help="Only these classes (repeatable; default: the --defects set).",
)
@click.option(
    "--defects",
    "defect_set",
    type=click.Choice(sorted(DEFECT_SETS)),
    default="paper",
    show_default=True,
    help="The paper's seven classes, or the extended set (adds citation_swap).",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--grounding", is_flag=True, help="Also grade each injection with the tier-3 grounding checks (extra columns).")
@friendly
def gate_command(corpus: Path, seeds: int, defects: tuple[str, ...], defect_set: str, fmt: str, grounding: bool) -> None:
    """The gate table: inject every class into every clean section of CORPUS and grade it.

    CORPUS is a folder of NAME.md + NAME.json pairs or a JSONL file of
    {"id", "section", "slice"} lines. Sections that fail before injection
    are skipped and listed.
    """
    items = load_corpus(corpus)
    chosen = tuple(d for d in EXTENDED_DEFECTS if d in defects) if defects else DEFECT_SETS[defect_set]
    with _progress(gate_steps(items, seeds, chosen)) as advance:
        result = run_gate(items, seeds, chosen, advance, grounding=grounding)
    if fmt == "json":
        click.echo(json.dumps(result.to_dict(), sort_keys=True, indent=2, ensure_ascii=False))
    elif _colour_wanted():
        _print_rich(result)
    else:
        click.echo(render_text(result), nl=False)


def _is_dash(path: Path) -> bool:
    return str(path) == "-"


def _read_text(path: Path) -> str:
    """A section from a file, or from stdin for ``-``, as exact UTF-8 text."""
    if _is_dash(path):
        return decode(path, sys.stdin.buffer.read())
    return read_section(path)


def _emit_text(output: Path | None, text: str) -> None:
    if output is None or _is_dash(output):
        _stdout(text)
    else:
        _write(output, text)


def _read_record(path: Path) -> InjectionRecord:
    raw = read_bytes(path)
    try:
        return load_record(raw)
    except RecordError as exc:
        raise InputError(f"{path}: {exc}") from None


def _write(path: Path, text: str) -> None:
    try:
        path.write_bytes(text.encode("utf-8"))
    except OSError as exc:
        raise InputError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _stdout(text: str) -> None:
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.buffer.flush()


@contextmanager
def _progress(total: int) -> Iterator[Progress | None]:
    """A progress bar on stderr when it is a terminal; nothing otherwise."""
    if not sys.stderr.isatty() or total == 0:
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.progress import Progress as Bar

    bar = Bar(
        TextColumn("injecting"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with bar:
        task = bar.add_task("gate", total=total)
        yield lambda steps: bar.advance(task, steps)


def _print_rich(result: GateResult) -> None:
    """The same table for a terminal: compact, QC-invisible classes in magenta, nothing cut."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, soft_wrap=True)
    console.print(headline(result))
    short: tuple[str, ...] = ("defect", "applied", "n/a", "flag", "exact", "jaccard", "reverted", "places", "rejected")
    if result.grounding:
        short += ("+g flag", "+g exact", "g jaccard")
    rows = [(cells[0], *cells[2:]) for cells in table_rows(result)]
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, collapse_padding=True)
    for i, name in enumerate(short):
        width = max(len(name), *(len(r[i]) for r in rows)) if rows else len(name)
        table.add_column(name, justify="left" if i == 0 else "right", no_wrap=True, min_width=width)
    for row, cells in zip(result.rows, rows):
        table.add_row(*cells, style=None if row.visible else "magenta")
    console.print(table)
    console.print("flag: share flagged; exact: only its own check; magenta: QC-invisible classes", style="dim")
    for line in skipped_lines(result):
        console.print(line, style="yellow")
