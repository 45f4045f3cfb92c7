"""The command group and what every command shares: errors, exit codes, output.

Exit codes (docs/usage.md, "Exit codes", is the one list): 0 passed,
1 violations, 2 bad input or usage (one line on stderr naming the file and
the problem), 3 an injection that cannot apply, 4 an internal error, 5 an
audit verdict at or past ``--fail-on``, 130 interrupted.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Sequence
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from ..errors import NotApplicable, QcgradeError
from ..findings import Result
from ..render import RENDERERS
from .output import discard_stdout, write_output, write_rendered

F = TypeVar("F", bound=Callable[..., Any])

EXIT_PASSED, EXIT_VIOLATIONS, EXIT_BAD_INPUT, EXIT_NOT_APPLICABLE, EXIT_INTERNAL = 0, 1, 2, 3, 4
#: ``qcgrade audit --fail-on``: the judge's verdict is that bad or worse (the report is still written).
EXIT_VERDICT = 5


def fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    click.echo(f"qcgrade: error: {message}", err=True)
    sys.exit(code)


def friendly(func: F) -> F:
    """Turn expected errors into one line and an exit code, never a traceback."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except NotApplicable as exc:
            fail(str(exc), EXIT_NOT_APPLICABLE)
        except QcgradeError as exc:
            # Everything qcgrade reports about its input; any other exception is a bug.
            fail(str(exc))
        except KeyboardInterrupt:
            fail("interrupted", 130)
        except (click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except BrokenPipeError:
            # The reader went away (`| head`): click exits quietly, no error line.
            raise
        except OSError as exc:
            if exc.filename is None and exc.errno not in _OUTPUT_ERRNOS:
                _internal(exc)
            else:
                # Not a bug: a full disk, a dead terminal. The files qcgrade opens
                # name themselves (InputError); an unnamed failure of this kind
                # comes from writing standard output.
                discard_stdout()
                problem = exc.strerror or str(exc)
                fail(f"{exc.filename}: {problem}" if exc.filename else f"stdout: cannot write: {problem}")
        except Exception as exc:
            _internal(exc)

    return wrapper  # type: ignore[return-value]


#: Write failures of the machine, not of qcgrade: full disk or quota, file too big, I/O error.
_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def _internal(exc: Exception) -> None:
    """A bug in qcgrade: still one line, with its own exit code."""
    if os.environ.get("QCGRADE_DEBUG"):
        raise exc
    fail(f"internal error: {type(exc).__name__}: {exc} (set QCGRADE_DEBUG=1 for a traceback)", EXIT_INTERNAL)


def emit(results: Sequence[Result], fmt: str, dest: Path | None = None) -> None:
    """Write results in a format; colour only for text on a terminal.

    A reader that goes away (``| head``) is not an error: the rest of the
    output is dropped and the command still exits with its verdict.
    """
    if fmt == "text":

        def rich() -> object:
            from ..render.text import render_rich

            return render_rich(results)

        write_rendered(dest, lambda: RENDERERS["text"](results), rich)
    else:
        write_output(dest, RENDERERS[fmt](results))


EXIT_CODES_HELP = (
    "Exit codes: 0 passed, 1 violations, 2 bad input or usage (one line on stderr), "
    "3 an injection that cannot apply, 4 an internal error (QCGRADE_DEBUG=1 shows the traceback), "
    "5 an audit verdict at or past --fail-on."
)


class LazyGroup(click.Group):
    """A command group that imports a command's module only when that command runs.

    ``qcgrade check`` then never loads the audit, injection and simulation
    machinery (asyncio, the HTML report), which keeps its start-up short.
    """

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})  # command name -> "module:attribute"

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            import importlib

            module, attribute = self.lazy[cmd_name].split(":")
            command = getattr(importlib.import_module(module), attribute)
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)


COMMANDS = {
    "check": "qcgrade.cli.check:check",
    "check-changed": "qcgrade.cli.changed:check_changed",
    "checks": "qcgrade.cli.check:list_checks",
    "demo": "qcgrade.cli.check:demo",
    "batch": "qcgrade.cli.batch:batch",
    "config": "qcgrade.cli.config:show_config",
    "audit": "qcgrade.cli.audit:audit",
    "items": "qcgrade.cli.items:items_command",
    "simulate": "qcgrade.cli.audit:simulate_command",
    "inject": "qcgrade.cli.inject:inject_command",
    "revert": "qcgrade.cli.inject:revert_command",
    "gate": "qcgrade.cli.inject:gate_command",
}


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXIT_CODES_HELP)
@click.version_option(package_name="qcgrade")
def main() -> None:
    """Deterministic QC grader for cited report sections, and defect injection to audit judges."""
