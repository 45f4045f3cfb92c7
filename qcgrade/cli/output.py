"""The one output writer: every command writes its result through here.

A destination is a path, or ``-`` (and ``None``) for standard output, so
``-o -``, ``--html -`` and no option at all mean the same thing everywhere.
Text is written as UTF-8 bytes whatever the locale, a reader that goes away
(``| head``) is not an error, and a file that cannot be written is one line
naming it (exit 2).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..errors import InputError


def is_stdout(dest: Path | str | None) -> bool:
    return dest is None or str(dest) == "-"


def check_writable(dest: Path | None, option: str) -> None:
    """Fail before any work on a destination that cannot be written (not after an hour of judge calls)."""
    if is_stdout(dest):
        return
    assert dest is not None
    if dest.is_dir():
        raise InputError(f"{dest}: is a directory, expected a file to write ({option})")
    if not dest.parent.is_dir():
        raise InputError(f"{dest}: cannot write: no directory {dest.parent} ({option})")


def write_output(dest: Path | None, text: str, *, data: bool = False) -> None:
    """Write ``text`` to a file, or to standard output for ``-``/None.

    A report whose reader went away is dropped quietly (the command's exit
    code still carries its verdict); ``data`` that could not be delivered
    (an injected or reverted section) is a failure, exit code 1.
    """
    if is_stdout(dest):
        try:
            sys.stdout.flush()
            sys.stdout.buffer.write(text.encode("utf-8"))
            sys.stdout.buffer.flush()
        except BrokenPipeError:
            discard_stdout()
            if data:
                sys.exit(1)
        return
    assert dest is not None
    try:
        dest.write_bytes(text.encode("utf-8"))
    except OSError as exc:
        raise InputError(f"{dest}: cannot write: {exc.strerror or exc}") from None


def colour_wanted(dest: Path | None = None) -> bool:
    """Colour and rich tables only for standard output on a terminal (NO_COLOR and FORCE_COLOR honoured)."""
    if not is_stdout(dest) or os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty() or bool(os.environ.get("FORCE_COLOR"))


def print_rich(renderable: Any) -> None:
    """Print a rich renderable on standard output, without markup or highlighting of its text."""
    from rich.console import Console

    try:
        Console(highlight=False, soft_wrap=True).print(renderable, end="")
    except BrokenPipeError:
        discard_stdout()


def write_rendered(dest: Path | None, plain: Callable[[], str], rich: Callable[[], Any] | None = None) -> None:
    """The rich form on a terminal, the plain text everywhere else; both say the same."""
    if rich is not None and colour_wanted(dest):
        print_rich(rich())
    else:
        write_output(dest, plain())


def echo_error(message: str) -> None:
    click.echo(message, err=True)


def discard_stdout() -> None:
    """Send whatever is still written to stdout to the null device (its reader is gone)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)
