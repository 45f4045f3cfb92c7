"""The one finding type every check produces and every renderer consumes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A repair qcgrade knows for a finding: put ``replacement`` in place of ``text[start:end]``.

    Offsets are into the section text, like a finding's (``start == end``
    inserts). ``message`` says it for a person ("cite [E001]"). ``applies``
    is True when the repair is unambiguous (one card states the value, one
    id is near), which is what ``qcgrade check --fix`` applies; the others
    are offered, never applied. See :mod:`qcgrade.repair`.
    """

    message: str
    start: int
    end: int
    replacement: str
    applies: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "applies": self.applies,
            "end": self.end,
            "message": self.message,
            "replacement": self.replacement,
            "start": self.start,
        }


@dataclass(frozen=True, slots=True)
class Finding:
    """One violation: which check, what, and exactly where in the original text.

    ``start``/``end`` are character offsets into the section text (end exclusive),
    so ``text[start:end]`` is the offending text. ``line``/``column`` (1-based) and
    ``end_line``/``end_column`` (exclusive) are derived from them in one place,
    :class:`qcgrade.spans.LineIndex`. ``suggestions`` stays empty unless
    repairs were asked for (:func:`qcgrade.repair.suggest`).
    """

    check: str
    message: str
    start: int
    end: int
    line: int
    column: int
    end_line: int
    end_column: int
    related: str | None = None
    #: The rule that fired: a reading rule of docs/reading-rules.md ("numeral.lookalike") or the check's own
    #: decision ("value.not_stated"); the check name stays the stable identifier.
    rule: str | None = None
    suggestions: tuple[Suggestion, ...] = ()

    def sort_key(self) -> tuple[int, int, str, str]:
        return (self.start, self.end, self.check, self.message)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "check": self.check,
            "message": self.message,
            "start": self.start,
            "end": self.end,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
        }
        if self.related is not None:
            out["related"] = self.related
        if self.rule is not None:
            out["rule"] = self.rule
        if self.suggestions:
            out["suggestions"] = [s.to_dict() for s in self.suggestions]
        return out


@dataclass(frozen=True, slots=True)
class Report:
    """The verdict on one section: findings sorted by position, then check name."""

    findings: tuple[Finding, ...]
    checks_run: tuple[str, ...]
    text: str = field(default="", repr=False, compare=False)

    @property
    def passed(self) -> bool:
        return not self.findings

    @property
    def counts(self) -> dict[str, int]:
        counts = {name: 0 for name in self.checks_run}
        for finding in self.findings:
            counts[finding.check] = counts.get(finding.check, 0) + 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "violations": [f.to_dict() for f in self.findings],
            "counts": self.counts,
        }


@dataclass(frozen=True, slots=True)
class Graded:
    """A report together with the path (or id) of the section it grades."""

    path: str
    report: Report


@dataclass(frozen=True, slots=True)
class Ungraded:
    """A section that could not be graded (unreadable text, a missing or invalid slice), and why.

    ``error`` is one line that does not repeat ``path``; a run over a folder
    reports it beside the sections it did grade instead of stopping.
    """

    path: str
    error: str

    def to_dict(self) -> dict[str, Any]:
        return {"error": self.error, "path": self.path}


#: What grading one path gives: a report, or the reason there is none.
Result = Graded | Ungraded


def graded_only(results: Sequence[Result]) -> list[Graded]:
    return [r for r in results if isinstance(r, Graded)]


def ungraded_only(results: Sequence[Result]) -> list[Ungraded]:
    return [r for r in results if isinstance(r, Ungraded)]
