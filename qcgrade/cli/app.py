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
    """A bug in qcgrade: one line and exit code 4; with ``QCGRADE_DEBUG`` set, the traceback first (still 4)."""
    if os.environ.get("QCGRADE_DEBUG"):
        import traceback

        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
        fail(f"internal error: {type(exc).__name__}: {exc}", EXIT_INTERNAL)
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
    "\b\nExit codes: 0 passed, 1 violations, 2 bad input or usage (one line on stderr),\n"
    "3 an injection that cannot apply, 4 an internal error (QCGRADE_DEBUG=1 adds\n"
    "the traceback), 5 an audit verdict at or past --fail-on (docs/usage.md).\n\n"
    "\b\nSee a check's documentation and examples: qcgrade checks NAME."
)


#: ``ctx.meta`` key of the arguments the command line was given (after the program name).
ARGV = "qcgrade.argv"


class _UsageLine(click.UsageError):
    """A usage error as every other error reads: ``qcgrade: error: ...`` on one line, exit 2."""

    def show(self, file: Any = None) -> None:
        click.echo(f"qcgrade: error: {self.format_message()}", err=True)


def one_line(error: click.UsageError) -> _UsageLine:
    """Click's usage error (usage, hint, "Error: ...") as one line naming the command, with a did-you-mean."""
    if isinstance(error, _UsageLine):
        return error
    ctx = error.ctx
    if isinstance(error, click.NoSuchOption) and ctx is not None:
        known = tuple(opt for param in ctx.command.get_params(ctx) for opt in (*param.opts, *param.secondary_opts))
        from ..config import did_you_mean

        problem = f"no such option {error.option_name!r}{did_you_mean(error.option_name, known)}"
    else:
        message = error.format_message().rstrip(".")
        problem = message[:1].lower() + message[1:]
    path = _shown_path(ctx) if ctx is not None else "qcgrade"
    where = path.removeprefix("qcgrade").strip()
    return _UsageLine(f"{where + ': ' if where else ''}{problem}; see '{path} --help'", ctx)


def _shown_path(ctx: click.Context) -> str:
    """The command as users type it: ``qcgrade audit`` (not the default subcommand's ``audit run``),
    named ``qcgrade`` whatever the program was called (``python -m qcgrade``, a test runner)."""
    if getattr(ctx.command, "shown_as_parent", False) and ctx.parent is not None:
        ctx = ctx.parent
    names = []
    while ctx.parent is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(["qcgrade", *reversed(names)])


class CommandGroup(click.Group):
    """A group whose unknown commands get a did-you-mean, and whose usage errors are one line."""

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if not name.startswith("-") and self.get_command(ctx, name) is None and not ctx.resilient_parsing:
            from ..config import did_you_mean

            commands = tuple(self.list_commands(ctx))
            hint = did_you_mean(name, commands)
            raise _UsageLine(f"{_prefix(ctx)}no such command {name!r}{hint}; see '{_shown_path(ctx)} --help'", ctx)
        return super().resolve_command(ctx, args)

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        argv = list(args)
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            raise one_line(exc) from None
        if parent is None:
            ctx.meta[ARGV] = argv  # the command line as given, for reports that record how they were made
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            raise one_line(exc) from None


def _prefix(ctx: click.Context) -> str:
    where = _shown_path(ctx).removeprefix("qcgrade").strip()
    return f"{where}: " if where else ""


class LazyGroup(CommandGroup):
    """A command group that imports a command's module only when that command runs.

    ``qcgrade check`` then never loads the audit, injection and simulation
    machinery (asyncio, the HTML report), which keeps its start-up short.
    ``--help`` lists a group's subcommands under it (``audit compare``).
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

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows: list[tuple[str, str]] = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is None or command.hidden:
                continue
            rows.append((name, command.get_short_help_str(200)))
            if isinstance(command, click.Group):
                for sub in command.list_commands(ctx):
                    child = command.get_command(ctx, sub)
                    if child is not None and not child.hidden and not getattr(child, "shown_as_parent", False):
                        rows.append((f"{name} {sub}", child.get_short_help_str(200)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


COMMANDS = {
    "check": "qcgrade.cli.check:check",
    "check-changed": "qcgrade.cli.changed:check_changed",
    "checks": "qcgrade.cli.check:list_checks",
    "demo": "qcgrade.cli.check:demo",
    "explain": "qcgrade.cli.explain:explain_command",
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
