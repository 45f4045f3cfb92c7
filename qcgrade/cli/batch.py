"""``qcgrade batch``: grade a JSON Lines file of sections on every core.

Exit codes: 0 when every line was graded (failing sections are results, not
errors), 2 when some lines could not be graded (each is an error record in
the output) or when the input or output file cannot be used at all, 4 when
a line hit a bug in qcgrade (also an error record; the other lines go on).
A progress bar with rate and ETA goes to stderr when stderr is a terminal.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, Any

import click

from ..files import InputError
from ..scale.batch import BatchSummary, default_workers, grade_jsonl
from .app import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_PASSED, fail, friendly
from .config import grading_options, resolve_options
from .options import count, deprecated, jobs_option
from .progress import progress_bar


@click.command(short_help="Grade a JSON Lines file of sections on every core.")
@click.argument("input_path", metavar="INPUT.jsonl", type=click.Path(path_type=Path, allow_dash=True))
@click.option(
    "--output",
    "-o",
    "output_path",
    type=click.Path(path_type=Path, allow_dash=True),
    help="Write one JSON line per input line here ('-' or default: stdout).",
)
@jobs_option(None, "Worker processes (default: the number of CPUs; 1 grades in this process).")
@click.option("--workers", "old_workers", type=count(1), default=None, hidden=True)
@grading_options
@friendly
def batch(
    input_path: Path, output_path: Path | None, jobs: int | None, old_workers: int | None, config_path: Path | None, **flags: Any
) -> None:
    """Grade INPUT.jsonl lines {"id", "section", "slice" | "slice_path"}, writing results in input order.

    Results go to standard output unless -o is given; the summary line always
    goes to standard error.
    """
    output_path = output_path or Path("-")
    if old_workers is not None:
        deprecated("--workers", "use -j/--jobs")
        jobs = jobs or old_workers
    workers = jobs
    options, _ = resolve_options(config_path, **flags)
    from_stdin, to_stdout = str(input_path) == "-", str(output_path) == "-"
    if not from_stdin and not to_stdout and _same_file(input_path, output_path):
        fail(f"{output_path}: is the input file; writing it would destroy the input")
    summary = BatchSummary()
    with ExitStack() as stack:
        source = _reading(sys.stdin.buffer if from_stdin else stack.enter_context(_open_input(input_path)), input_path)
        sink = _utf8_stdout(stack) if to_stdout else stack.enter_context(_open_output(output_path))
        total = None if from_stdin else _size(input_path)
        base_dir = Path.cwd() if from_stdin else input_path.parent
        advance = stack.enter_context(progress_bar("grading", total, unit="lines"))
        on_chunk = (lambda lines, nbytes: advance(nbytes, count=lines)) if advance else None
        results = grade_jsonl(source, options, base_dir=base_dir, workers=workers or default_workers(), on_chunk=on_chunk)
        try:
            for result in results:
                _put(sink, result.json + "\n", output_path)
                summary.add(result)
            _put(sink, "", output_path, flush=True)
        except BrokenPipeError:
            # The reader (`| head`) went away: say so once, without a traceback
            # at exit when Python flushes the dead pipe again.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            fail(f"{output_path}: output closed after {summary.total} lines")
    if summary.total == 0:
        fail(f"{input_path}: no JSON lines to grade")
    lines = "line" if summary.total == 1 else "lines"
    errors = "error" if summary.errors == 1 else "errors"
    line = f"graded {summary.total} {lines}: {summary.passed} passed, {summary.failed} failed, {summary.errors} {errors}"
    if summary.first_error:
        line += f" (first: {summary.first_error})"
    click.echo(line, err=True)  # a status line, not data: stderr, wherever the results go
    sys.exit(EXIT_INTERNAL if summary.internal_errors else EXIT_PASSED if summary.ok else EXIT_BAD_INPUT)


def _reading(handle: IO[bytes], path: Path) -> Iterator[bytes]:
    """The lines of the input; a read error (EIO, a vanished disk) names the file."""
    try:
        yield from handle
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _put(sink: IO[str], text: str, path: Path, *, flush: bool = False) -> None:
    """Write to the output; a full disk or an I/O error names the file (a closed pipe is handled by the caller)."""
    try:
        sink.write(text)
        if flush:
            sink.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise InputError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _utf8_stdout(stack: ExitStack) -> IO[str]:
    # The output is UTF-8 JSON Lines whatever the terminal's or locale's encoding.
    sys.stdout.flush()
    wrapper = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n")
    stack.callback(wrapper.detach)  # flushes, and leaves sys.stdout open
    return wrapper


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and a.samefile(b)
    except OSError:
        return False


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size if path.is_file() else None
    except OSError:
        return None


@contextmanager
def _open_input(path: Path) -> Iterator[IO[bytes]]:
    if path.is_dir():
        raise InputError(f"{path}: is a directory, expected a JSON Lines file")
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    with handle:
        yield handle


@contextmanager
def _open_output(path: Path) -> Iterator[IO[str]]:
    try:
        handle = path.open("w", encoding="utf-8", newline="\n")
    except OSError as exc:
        raise InputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    with handle:
        yield handle
