"""The command group and what every command shares: errors, exit codes, output.

Exit codes: 0 passed, 1 violations, 2 bad input or usage (one line on stderr
naming the file and the problem), 3 an injection that cannot apply,
4 an internal error.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any, TypeVar

import click

from ..evidence import SliceError
from ..files import InputError
from ..findings import Graded
from ..grader import UnknownCheckError
from ..render import RENDERERS

F = TypeVar("F", bound=Callable[..., Any])

EXIT_PASSED, EXIT_VIOLATIONS, EXIT_BAD_INPUT, EXIT_NOT_APPLICABLE, EXIT_INTERNAL = 0, 1, 2, 3, 4


def fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    click.echo(f"qcgrade: error: {message}", err=True)
    sys.exit(code)


def friendly(func: F) -> F:
    """Turn expected errors into one line and an exit code, never a traceback."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (InputError, SliceError, UnknownCheckError) as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            fail("interrupted", 130)
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except Exception as exc:  # a bug in qcgrade: still one line, distinct code
            if os.environ.get("QCGRADE_DEBUG"):
                raise
            fail(f"internal error: {type(exc).__name__}: {exc} (set QCGRADE_DEBUG=1 for a traceback)", EXIT_INTERNAL)

    return wrapper  # type: ignore[return-value]


def emit(results: Sequence[Graded], fmt: str) -> None:
    """Print results in a format; colour only for text on a terminal."""
    if fmt == "text" and _colour_wanted():
        from rich.console import Console

        from ..render.text import render_rich

        Console(highlight=False, soft_wrap=True).print(render_rich(results), end="")
        return
    click.echo(RENDERERS[fmt](results), nl=False)


def _colour_wanted() -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty() or bool(os.environ.get("FORCE_COLOR"))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="qcgrade")
def main() -> None:
    """Deterministic QC grader for cited report sections, and defect injection to audit judges."""
