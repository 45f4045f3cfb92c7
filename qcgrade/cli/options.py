"""Options every command spells the same way.

One convention across the command line: list options are comma lists
(``--defects a,b``, ``--select``, ``--ignore``), ``-j/--jobs`` is
parallelism, ``-o/--output`` and ``--html`` take ``-`` for standard output,
and the corpus is a positional argument. Old spellings keep working for one
release with a deprecation message on stderr.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from ..errors import InputError
from .app import fail

F = TypeVar("F", bound=Callable[..., Any])


class Bounded(click.ParamType):
    """A number in a range; a bad value is a one-line error (exit 2), not click's usage screen."""

    def __init__(self, integer: bool, low: float | None, high: float | None, what: str) -> None:
        self.integer, self.low, self.high, self.what = integer, low, high, what
        self.name = what

    def _parse(self, value: Any) -> float | int | None:
        if isinstance(value, bool):
            return None
        if isinstance(value, int) or (isinstance(value, float) and not self.integer):
            return value
        try:
            return int(str(value).strip()) if self.integer else float(str(value).strip())
        except ValueError:  # not a number: reported below as the option's error
            return None

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = self._parse(value)
        ok = number is not None and math.isfinite(number)
        ok = ok and number is not None and (self.low is None or number >= self.low) and (self.high is None or number <= self.high)
        if not ok:
            opts = list(param.opts) if param is not None else []
            name = next((o for o in opts if o.startswith("--")), opts[0] if opts else "value")
            # Raised while click parses, outside the command's error handling.
            fail(f"{name}: expected {self.what}, got {value!r}")
        return float(number) if not self.integer and number is not None else number


RATE = Bounded(False, 0.0, 1.0, "a number in [0, 1]")
POSITIVE_SECONDS = Bounded(False, 1e-3, None, "a number of seconds >= 0.001")


def count(least: int) -> Bounded:
    return Bounded(True, least, None, f"an integer >= {least}")


def comma_list(value: str | Sequence[str] | None) -> list[str] | None:
    """``"a, b,,c"`` -> ``["a", "b", "c"]``; several occurrences of the option are joined."""
    if value is None:
        return None
    parts = [value] if isinstance(value, str) else list(value)
    return [name.strip() for part in parts for name in part.split(",") if name.strip()]


def choose(option: str, value: str | Sequence[str] | None, known: Sequence[str], what: str) -> list[str] | None:
    """Names from a comma list, each checked against ``known`` (with a did-you-mean); None when not given."""
    names = comma_list(value)
    if names is None:
        return None
    if not names:
        raise InputError(f"{option}: name at least one {what}")
    from ..config import did_you_mean

    for name in names:
        if name not in known:
            raise InputError(f"{option}: unknown {what} {name!r}{did_you_mean(name, tuple(known))}; known: {', '.join(known)}")
    return list(dict.fromkeys(names))


def deprecated(old: str, instead: str) -> None:
    """Say once, on stderr, that an old spelling still works but will go."""
    click.echo(f"qcgrade: warning: {old} is deprecated and will be removed in the next release; {instead}", err=True)


def jobs_option(default: int | None, help: str) -> Callable[[F], F]:
    return click.option("-j", "--jobs", type=count(1), default=default, show_default=default is not None, help=help)


def output_option(help: str = "Write the result here ('-' or default: stdout).") -> Callable[[F], F]:
    return click.option("-o", "--output", "output", type=click.Path(allow_dash=True, path_type=Path), help=help)


def choose_defects(option: str, value: str | Sequence[str] | None) -> list[str] | None:
    """Defect classes from a comma list; the names of a defect set (``paper``, ``extended``) stand for their classes."""
    from ..injectors import DEFECT_SETS, EXTENDED_DEFECTS

    names = comma_list(value)
    if names is None:
        return None
    expanded = [cls for name in names for cls in DEFECT_SETS.get(name, (name,))]
    return choose(option, expanded if names else value, EXTENDED_DEFECTS, "defect class")


#: ``--seeds``'s one default, for ``gate``, ``audit`` and ``items`` alike: one injection of
#: each class per clean section (an LLM judge is paid per item; ask for more with --seeds).
SEEDS = 1


def seeds_option() -> Callable[[F], F]:
    """``--seeds N``: seeds 0..N-1, the same option and default on every command that injects."""
    return click.option(
        "--seeds",
        type=count(1),
        default=SEEDS,
        show_default=True,
        help="Seeds 0..N-1: each defect class is injected N times into every clean section "
        "(and an audit asks about each clean section N times).",
    )


def defects_option() -> Callable[[F], F]:
    """``--defects a,b`` (or a set name: ``paper``, ``extended``); read with :func:`choose_defects`."""
    return click.option(
        "--defects", help="Comma-separated defect classes, or 'extended' for all eight (default: the paper's seven)."
    )


def html_option(help: str) -> Callable[[F], F]:
    """``--html FILE``: a self-contained page; ``-`` writes it to standard output."""
    return click.option("--html", "html_path", type=click.Path(path_type=Path, allow_dash=True), help=help)
