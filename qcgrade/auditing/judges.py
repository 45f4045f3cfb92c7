"""Judges under audit: the verdict protocol and the three ways to supply a judge.

A judge answers one question per item: does this section pass? qcgrade accepts

* a **command** (``"python my_judge.py"``), run once per item without a shell:
  one JSON object ``{"section": "...", "slice": {...}}`` on standard input;
  on standard output either a JSON object ``{"verdict": "pass"|"fail",
  "spans": [[start, end], ...], "reason": "..."}`` (``spans`` and
  ``reason`` optional) or a first line ``PASS``/``FAIL`` (later lines are
  its reason); a reason is kept as the verdict's note, shown, never scored;
* a **Python callable** ``(section_text, slice_dict) -> result``, plain or
  ``async``, where ``result`` is a ``bool`` (True = pass), a
  ``(bool, spans)`` pair, a dict shaped like the command's JSON output, a
  ``"PASS"``/``"FAIL"`` string, or a :class:`Verdict`;
* ``"qcgrade"``: the built-in reference judge, qcgrade's own tier-1 grader,
  whose spans are its findings' spans;
* ``"openai:MODEL"``: a model behind any server speaking the Chat Completions
  API (:mod:`.openai_judge`, needs the ``llm`` extra);
* ``"example"``: the bundled example judge (``qcgrade/auditing/example_judge.py``),
  run as a command with the Python that runs qcgrade.

In a command, a first word ``{python}`` stands for the Python that runs
qcgrade (``sys.executable``), so ``"{python} my_judge.py"`` finds the same
installed packages as qcgrade without activating its virtual environment.

Anything else -- a non-zero exit, a timeout, unparseable output, an exception
in a callable, a result of the wrong type -- raises :class:`JudgeError`. The
runner retries it and then reports it separately; it is never scored as a pass
or a fail, because either choice would bias exactly the rates being measured.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import shlex
import signal
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from ..errors import JudgeError, JudgeSetupError
from ..grader import grade
from ..options import Options

# The protocol lives a layer down (so the LLM judge can use it without importing this module);
# its names stay importable from here, where callers have always found them.
from .protocol import Judge, Span, Usage, Verdict, coerce, note_text, one_line, parse_output


class ReferenceJudge(Judge):
    """qcgrade's own tier-1 grader as a judge: the audit's reference point.

    Fails exactly the sections the deterministic checks fail, so it catches
    every QC-visible defect and, by construction, no QC-invisible one.
    """

    def __init__(self, options: Options | None = None) -> None:
        from .. import __version__

        self.options = options or Options()
        # With grounding it also sees misquoted numbers and flipped directions.
        extra = " + grounding" if self.options.grounding else ""
        self.identity = f"qcgrade {__version__} tier-1{extra} grader"

    async def judge(self, section: str, slice_: dict[str, Any], pool: Executor) -> Verdict:
        # In-process and fast: running it inline keeps the event loop simple.
        report = grade(section, slice_, self.options)
        spans = tuple(sorted((f.start, f.end) for f in report.findings))
        # Its answer in words: the findings, one per line, as `qcgrade check` would name them.
        note = note_text("\n".join(f"{f.line}:{f.column} {f.check}: {f.message}" for f in report.findings))
        return Verdict(report.passed, spans, note=note)


class CallableJudge(Judge):
    """A Python function (plain or ``async``) as a judge.

    Plain functions run on the runner's thread pool, so ``jobs > 1`` calls
    them concurrently (they must be thread-safe). ``timeout`` applies to
    ``async`` functions only: a running thread cannot be stopped safely, so a
    plain function that hangs hangs the audit.
    """

    def __init__(
        self, func: Callable[[str, dict[str, Any]], Any], identity: str | None = None, timeout: float | None = None
    ) -> None:
        self.func = func
        self.timeout = timeout
        # An instance with ``async def __call__`` is async too.
        self.is_async = inspect.iscoroutinefunction(func) or inspect.iscoroutinefunction(type(func).__call__)
        name = getattr(func, "__qualname__", type(func).__qualname__)
        self.identity = identity or f"python:{getattr(func, '__module__', '?')}.{name}"

    async def judge(self, section: str, slice_: dict[str, Any], pool: Executor) -> Verdict:
        try:
            if self.is_async:
                result = await asyncio.wait_for(_guarded_await(self.func(section, slice_)), self.timeout)
            else:
                loop = asyncio.get_running_loop()
                result = await loop.run_in_executor(pool, _guarded_call, self.func, section, slice_)
                if inspect.isawaitable(result):  # e.g. a lambda wrapping a coroutine function
                    result = await asyncio.wait_for(_guarded_await(result), self.timeout)
        except _Raised as raised:  # the judge's own bug or outage: reported, retried, never scored
            exc = raised.error
            if isinstance(exc, JudgeError):
                raise exc from None
            raise JudgeError(f"raised {type(exc).__name__}: {one_line(str(exc))}") from None
        except asyncio.TimeoutError:
            # Only wait_for can get here: the judge's own TimeoutError arrives wrapped in _Raised.
            raise JudgeError(f"timed out after {self.timeout:g}s") from None
        return coerce(result)


class _Raised(Exception):
    """Carries an exception raised *by the judge*, so it is never mistaken for our own timeout."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def _guarded_call(func: Callable[[str, dict[str, Any]], Any], section: str, slice_: dict[str, Any]) -> Any:
    try:
        return func(section, slice_)
    except Exception as exc:  # re-raised as _Raised, reported per item
        raise _Raised(exc) from exc


async def _guarded_await(value: Awaitable[Any]) -> Any:
    try:
        return await value
    except Exception as exc:  # re-raised as _Raised, reported per item
        raise _Raised(exc) from exc


class CommandJudge(Judge):
    """An external program as a judge, per the command protocol.

    Run without a shell (``shlex.split``), in its own process group on POSIX
    so that a timeout kills the judge and anything it started.
    """

    def __init__(self, argv: Sequence[str], timeout: float | None = 60.0, identity: str | None = None) -> None:
        if not argv:
            raise ValueError("empty judge command")
        self.argv = tuple(argv)
        self.timeout = timeout
        self.identity = identity or shlex.join(self.argv)
        self._live: set[subprocess.Popen[bytes]] = set()
        self._lock = threading.Lock()

    @classmethod
    def from_string(cls, command: str, timeout: float | None = 60.0, identity: str | None = None) -> CommandJudge:
        return cls(shlex.split(command), timeout, identity)

    async def judge(self, section: str, slice_: dict[str, Any], pool: Executor) -> Verdict:
        payload = json.dumps({"section": section, "slice": slice_}, ensure_ascii=False, sort_keys=True)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(pool, self._run, payload.encode("utf-8") + b"\n")

    def _run(self, payload: bytes) -> Verdict:
        posix = os.name == "posix"
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=posix,
            )
        except OSError as exc:
            raise JudgeError(f"cannot run {self.argv[0]!r}: {exc.strerror or exc}") from None
        with self._lock:
            self._live.add(proc)
        try:
            out, err = proc.communicate(payload, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            _kill(proc, posix)
            raise JudgeError(f"timed out after {self.timeout:g}s (killed)") from None
        finally:
            with self._lock:
                self._live.discard(proc)
        stderr = stderr_tail(err)
        if proc.returncode != 0:
            last = stderr.splitlines()[-1:] if stderr else []
            detail = f": {one_line(last[0])}" if last else ""
            raise JudgeError(f"exited with status {proc.returncode}{detail}", stderr)
        try:
            return parse_output(out.decode("utf-8"))
        except UnicodeDecodeError:
            raise JudgeError("output is not UTF-8", stderr) from None
        except JudgeError as exc:  # what it wrote on stderr may say why its output is wrong
            raise JudgeError(str(exc), stderr) from None

    def abort(self) -> None:
        """Kill every judge process still running (their threads then return)."""
        with self._lock:
            live = list(self._live)
        for proc in live:
            _signal(proc, os.name == "posix")


#: How much of a judge's standard error is kept for the person reading the error.
STDERR_LINES, STDERR_BYTES = 20, 2048


def stderr_tail(raw: bytes) -> str:
    """The end of a judge's standard error: its last 20 lines, and at most about 2 KB of them."""
    lines = raw.decode("utf-8", "replace").rstrip().splitlines()[-STDERR_LINES:]
    while len(lines) > 1 and sum(len(line) + 1 for line in lines) > STDERR_BYTES:
        lines.pop(0)
    if lines and len(lines[0]) > STDERR_BYTES:
        lines[0] = "..." + lines[0][-STDERR_BYTES:]
    return "\n".join(lines)


def _signal(proc: subprocess.Popen[bytes], posix: bool) -> None:
    try:
        if posix:
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError):
        pass


def _kill(proc: subprocess.Popen[bytes], posix: bool) -> None:
    _signal(proc, posix)
    try:
        proc.communicate(timeout=5)
    except subprocess.TimeoutExpired:  # a grandchild escaped the group and holds the pipe
        pass


REFERENCE = "qcgrade"
EXAMPLE = "example"
PYTHON = "{python}"


def example_command() -> list[str]:
    """The bundled example judge as an argv: this Python running the file (no qcgrade import per call)."""
    return [sys.executable, str(Path(__file__).with_name("example_judge.py"))]


def command_argv(command: str) -> list[str]:
    """A judge command line as an argv: ``example`` expanded, a leading ``{python}`` made ``sys.executable``.

    Raises ``ValueError`` for unbalanced quoting or an empty command.
    """
    if command.strip() == EXAMPLE:
        return example_command()
    argv = shlex.split(command)
    if not argv:
        raise ValueError("empty judge command")
    if argv[0] == PYTHON:
        argv[0] = sys.executable
    return argv


#: ``openai:MODEL`` selects :class:`qcgrade.auditing.openai_judge.OpenAIJudge`.
OPENAI_PREFIX = "openai:"


def openai_judge(model: str, **options: Any) -> Judge:
    """An :class:`~qcgrade.auditing.openai_judge.OpenAIJudge`, or one line saying how to install its extra."""
    try:
        from .openai_judge import OpenAIJudge
    except ImportError as exc:
        if (exc.name or "").split(".")[0] in ("httpx", "httpcore", "anyio", "h11"):
            raise JudgeSetupError("the openai judge needs httpx: pip install 'qcgrade[llm]'") from None
        raise
    return OpenAIJudge(model, **options)


def make_judge(spec: Any, *, timeout: float | None = 60.0, identity: str | None = None) -> Judge:
    """A :class:`Judge` from what a user passes.

    ``"qcgrade"`` is the reference judge; ``"openai:MODEL"`` a Chat
    Completions model with default options (pass an ``OpenAIJudge`` for
    others); ``"example"`` the bundled example judge; any other string is a
    command line (see :func:`command_argv`);
    a list/tuple of strings is an argv; a callable is a Python judge; a
    :class:`Judge` is used as is.
    """
    if isinstance(spec, Judge):
        return spec
    if isinstance(spec, str):
        if spec.strip() == REFERENCE:
            return ReferenceJudge()
        if spec.strip().startswith(OPENAI_PREFIX):
            return openai_judge(spec.strip()[len(OPENAI_PREFIX) :], timeout=timeout, identity=identity)
        if spec.strip() == EXAMPLE:
            # A fixed identity: the cache key must not depend on where the venv lives.
            return CommandJudge(example_command(), timeout, identity or "qcgrade example judge")
        argv = command_argv(spec)
        if identity is None and spec.split()[0] == PYTHON:
            # Named as written, so the cache key does not depend on where the venv lives.
            identity = " ".join(spec.split())
        return CommandJudge(argv, timeout, identity)
    if isinstance(spec, (list, tuple)) and spec and all(isinstance(a, str) for a in spec):
        return CommandJudge(spec, timeout, identity)
    if callable(spec):
        return CallableJudge(spec, identity, timeout)
    raise TypeError(f"a judge must be a callable, a command string or 'qcgrade', got {type(spec).__name__}")


__all__ = [
    "EXAMPLE",
    "OPENAI_PREFIX",
    "PYTHON",
    "REFERENCE",
    "STDERR_BYTES",
    "STDERR_LINES",
    "CallableJudge",
    "CommandJudge",
    "Judge",
    "JudgeError",
    "JudgeSetupError",
    "ReferenceJudge",
    "Span",
    "Usage",
    "Verdict",
    "coerce",
    "command_argv",
    "example_command",
    "make_judge",
    "openai_judge",
    "parse_output",
    "stderr_tail",
]
