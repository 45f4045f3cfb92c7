"""Every exception qcgrade raises on purpose, in one tree.

Catch :class:`QcgradeError` to handle anything qcgrade reports about its
input; anything else escaping qcgrade is a bug. The command line maps the
base class to exit code 2 (:class:`NotApplicable` to 3) and any other
exception to 4. Messages are one line that names the file (or field) and
the problem.

::

    QcgradeError
    ├── InputError            a file, row or value qcgrade cannot read or use
    │   ├── ConfigError       a bad qcgrade.toml / [tool.qcgrade] table
    │   └── RowError          a JSON Lines row that cannot be used (batch, corpus)
    ├── SliceError            an evidence slice that does not validate
    ├── UnknownCheckError     a check name qcgrade does not have
    ├── UnknownDefectError    a defect class name qcgrade does not have
    ├── InjectionError        injecting or reverting a defect went wrong
    │   ├── NotApplicable     the class has no place in this section
    │   ├── UncleanSection    the section fails the grader before injection
    │   ├── RecordError       an injection record that cannot be used
    │   └── RevertError       the text was edited since the injection
    ├── JudgeError            one judge call failed (crash, timeout, bad answer)
    ├── JudgeUnusable         the judge's first calls all failed; the audit stopped
    ├── JudgeSetupError       the judge cannot be used at all (no API key, server
    │                         unreachable, unknown model), found before any item
    └── SectionFailure        a section failed its checks (also an AssertionError,
                              so test runners report it as a failed assertion)

The classes that were ``ValueError`` subclasses before this tree existed
still are, so ``except ValueError`` in callers keeps working.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .findings import Finding, Report


class QcgradeError(Exception):
    """Base of every exception qcgrade raises on purpose."""


class InputError(QcgradeError):
    """Bad input: the message is one line that names the file and the problem."""


class ConfigError(InputError):
    """A configuration that cannot be used: ``<file>: <key>: <problem>``."""


class RowError(InputError, ValueError):
    """A JSON Lines row that cannot be used: ``field: problem``, without file or line.

    ``id`` is the row's id when it was read before the problem was found, so
    an error record can still say which row it was.
    """

    def __init__(self, message: str, id: str | int | None = None) -> None:
        super().__init__(message)
        self.id = id

    def __reduce__(self) -> tuple[Any, ...]:  # picklable, for worker processes
        return (type(self), (str(self), self.id))


class SliceError(QcgradeError, ValueError):
    """A slice that cannot be used, with one human line: ``field: problem``."""


class UnknownCheckError(QcgradeError, ValueError):
    """A check name in ``select``/``ignore`` that qcgrade does not have."""


class UnknownDefectError(QcgradeError, ValueError):
    """A defect name qcgrade does not have."""


class InjectionError(QcgradeError, ValueError):
    """Injecting a defect into a section, or reverting one, went wrong."""


class NotApplicable(InjectionError):
    """The defect class cannot apply to this section (CLI exit code 3)."""

    def __init__(self, defect: str, reason: str) -> None:
        super().__init__(f"{defect} cannot apply: {reason}")
        self.defect = defect
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:  # picklable, for worker processes
        return (type(self), (self.defect, self.reason))


class UncleanSection(InjectionError):
    """The section fails the grader before injection; qcgrade injects only into clean ones."""

    def __init__(self, findings: tuple[Finding, ...]) -> None:
        checks = ", ".join(sorted({f.check for f in findings}))
        super().__init__(
            f"section does not pass the grader before injection ({len(findings)} finding(s): {checks}); "
            "defects are injected only into clean sections"
        )
        self.findings = findings

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.findings,))


class RecordError(InjectionError):
    """An injection record that cannot be used; the message is one line."""


class RevertError(InjectionError):
    """The text no longer holds what the record says was injected."""


class JudgeError(QcgradeError):
    """One judge call went wrong; the message is one line saying how.

    ``stderr`` keeps the end of what a command judge wrote to its standard
    error (its own traceback or complaint), for the person who has to fix it.
    """

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.stderr = stderr

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self), self.stderr))


class JudgeUnusable(QcgradeError):
    """The judge failed every one of its first calls, so the audit stopped instead of measuring nothing.

    The message is one line; ``stderr`` holds the end of the judge's own
    standard error from the last failed call, when it wrote any.
    """

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.stderr = stderr

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self), self.stderr))


class JudgeSetupError(QcgradeError, ValueError):
    """The judge cannot be used at all (no API key, server unreachable, unknown model): one line, before any item."""


class SectionFailure(QcgradeError, AssertionError):
    """A section that failed its checks; ``report`` holds the findings."""

    def __init__(self, message: str, report: Report) -> None:
        super().__init__(message)
        self.report = report


__all__ = [
    "ConfigError",
    "InjectionError",
    "InputError",
    "JudgeError",
    "JudgeSetupError",
    "JudgeUnusable",
    "NotApplicable",
    "QcgradeError",
    "RecordError",
    "RevertError",
    "RowError",
    "SectionFailure",
    "SliceError",
    "UncleanSection",
    "UnknownCheckError",
    "UnknownDefectError",
]
