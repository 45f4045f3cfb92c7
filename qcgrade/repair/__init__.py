"""Suggested repairs: what to change so that a finding goes away, where qcgrade knows it.

Off by default: grading never computes them (:func:`qcgrade.grade` findings
carry no suggestions, so every output stays as it was). :func:`suggest` adds
them to a report's findings:

- ``bare_number``: cite the card that states the number (:mod:`.cite_cards`);
- ``orphan_citation``, ``broken_xref``, ``unregistered_metric``: the card id,
  allowed section or registered tag the written one is near (:mod:`.near_ids`).

:func:`repair` applies the unambiguous ones (``Suggestion.applies``), one at
a time, each kept only when grading the changed text finds fewer violations
and none of a check that did not fire as often before; it returns the
repaired text and its report. The text outside each applied edit is left as
it was, byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..evidence import EvidenceSlice, SliceLike, load_slice
from ..findings import Finding, Report, Suggestion
from ..grader import grade
from ..options import Options
from ..reading.section import parse_section
from . import cite_cards, near_ids


def suggest(report: Report, slice: SliceLike) -> Report:
    """``report`` with the suggested repairs on its findings (the findings themselves unchanged)."""
    if not report.findings or not report.text:
        return report
    evidence = load_slice(slice)
    bare = [f for f in report.findings if f.check == cite_cards.CHECK]
    citations = cite_cards.suggestions(bare, parse_section(report.text), evidence) if bare else {}
    findings = []
    for finding in report.findings:
        if finding.check in near_ids.CHECKS:
            found = near_ids.suggestions(finding, report.text, evidence)
        elif finding.check == cite_cards.CHECK:
            found = citations.get(finding.start, ())
        else:
            found = ()
        findings.append(replace(finding, suggestions=found) if found else finding)
    return Report(tuple(findings), report.checks_run, report.text)


@dataclass(frozen=True)
class Applied:
    """One repair ``repair`` made: the finding it was for and the edit (offsets in the text as it was then)."""

    finding: Finding
    suggestion: Suggestion


@dataclass(frozen=True)
class Repaired:
    """The text after the unambiguous repairs, its report (with the suggestions left), and what was changed."""

    text: str
    report: Report
    applied: tuple[Applied, ...]

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def repair(text: str, slice: SliceLike, options: Options | Mapping[str, Any] | None = None) -> Repaired:
    """Apply the unambiguous suggested repairs to ``text``, each only if grading then finds less wrong."""
    evidence: EvidenceSlice = load_slice(slice)
    report = suggest(grade(text, evidence, options), evidence)
    applied: list[Applied] = []
    refused: set[tuple[str, str, str]] = set()  # an edit, by its check, replacement and surroundings
    while True:
        pick = _next_repair(report, text, refused)
        if pick is None:
            return Repaired(text, report, tuple(applied))
        finding, suggestion = pick
        changed = text[: suggestion.start] + suggestion.replacement + text[suggestion.end :]
        graded = grade(changed, evidence, options)
        if _fewer_violations(report, graded):
            text, report = changed, suggest(graded, evidence)
            applied.append(Applied(finding, suggestion))
        else:
            refused.add(_identity(finding, suggestion, text))


def _next_repair(report: Report, text: str, refused: set[tuple[str, str, str]]) -> tuple[Finding, Suggestion] | None:
    """The first unambiguous repair not refused: corrected ids before added citations.

    A corrected citation may itself cover the numbers of its sentence, which a
    citation added first would then cite twice.
    """
    open_repairs = [
        (finding, suggestion)
        for finding in report.findings
        for suggestion in finding.suggestions
        if suggestion.applies and _identity(finding, suggestion, text) not in refused
    ]
    corrections = [pick for pick in open_repairs if pick[1].start != pick[1].end]
    ordered = corrections or open_repairs
    return ordered[0] if ordered else None


def _identity(finding: Finding, suggestion: Suggestion, text: str) -> tuple[str, str, str]:
    """An edit as it stays while other edits shift the text: its check, its replacement and the text around it."""
    around = text[max(0, suggestion.start - 32) : suggestion.end + 32]
    return (finding.check, suggestion.replacement, around)


def _fewer_violations(before: Report, after: Report) -> bool:
    """Fewer findings in all, and no check finding more than it did."""
    if len(after.findings) >= len(before.findings):
        return False
    counts = before.counts
    return all(n <= counts.get(check, 0) for check, n in after.counts.items())


__all__ = ["Applied", "Repaired", "repair", "suggest"]
