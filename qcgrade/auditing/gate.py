"""The gate table: what qcgrade's own grader sees of each injected defect class.

The paper's gate (section 5, Fig. 2) injects one known defect into clean
sections and asks a grader whether it noticed. :func:`run_gate` does that
for qcgrade's deterministic tier-1 grader: every class, seeds ``0..K-1``,
every section of a corpus that passes before injection (the others are
skipped and listed). Per class it reports

* ``applied`` / ``not_applicable``: injection attempts (section x seed) that
  produced a defect, and those where the class has no place in the section;
* ``flag_rate``: share of applied injections where the grader reported anything;
* ``exact_check_rate``: share where it reported the class's own check and
  no other (QC-visible classes only; None for the QC-invisible ones);
* ``mean_jaccard``: mean character-offset Jaccard between the grader's
  flagged spans and the record's target spans (where the defect sits), so
  localisation is measured, not assumed. For a deleted TL;DR both are empty
  spans, which :func:`qcgrade.spans.jaccard` scores 1.0;
* ``reverted``: injections whose record, written to JSON and read back,
  reverts the text byte for byte;
* ``places`` / ``checked`` / ``rejected``: candidate places the injector
  proposed over all clean sections, how many were verified (all of them, up
  to :data:`PLACES_CHECKED` per section and class, evenly spread beyond
  that, so huge sections stay linear), and how many of those failed
  verification. ``inject`` only ever uses places that pass (a visible class
  trips exactly its check there; an invisible one trips nothing and changes
  one sentence a reader sees), so for qcgrade's own grader the flag and
  exact-check rates hold *by construction* on the places used. ``rejected``
  is the measurement that is not: places where the grader did not respond
  as the class demands (or the edit changed nothing a reader sees, e.g. a
  word inside an HTML comment). It is 0 when every natural place for a
  defect is caught (or, for an invisible class, missed).

This module computes; :mod:`qcgrade.render.gate` formats the table and the CLI prints it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..grader import grade
from ..injectors import (
    DEFECTS,
    EXPECTED_CHECK,
    NotApplicable,
    candidate_sites,
    inject,
    injector_for,
    load_record,
    revert,
    verify,
)
from ..reading.section import parse_section
from ..spans import jaccard
from .corpus import CorpusItem

Progress = Callable[[int], None]

#: At most this many candidate places are verified per section and class.
PLACES_CHECKED = 64


@dataclass
class ClassRow:
    """The gate's result for one defect class."""

    defect: str
    expected_check: str | None
    applied: int = 0
    not_applicable: int = 0
    flagged: int = 0
    exact: int = 0
    jaccard_sum: float = 0.0
    reverted: int = 0
    places: int = 0
    checked: int = 0
    rejected: int = 0

    @property
    def visible(self) -> bool:
        return self.expected_check is not None

    @property
    def flag_rate(self) -> float | None:
        return self.flagged / self.applied if self.applied else None

    @property
    def exact_check_rate(self) -> float | None:
        return self.exact / self.applied if self.applied and self.visible else None

    @property
    def mean_jaccard(self) -> float | None:
        return self.jaccard_sum / self.applied if self.applied else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "defect": self.defect,
            "expected_check": self.expected_check,
            "qc_visible": self.visible,
            "applied": self.applied,
            "not_applicable": self.not_applicable,
            "flagged": self.flagged,
            "exact_check": self.exact if self.visible else None,
            "reverted": self.reverted,
            "places": self.places,
            "places_checked": self.checked,
            "rejected": self.rejected,
            "flag_rate": self.flag_rate,
            "exact_check_rate": self.exact_check_rate,
            "mean_jaccard": self.mean_jaccard,
        }


@dataclass(frozen=True)
class Skipped:
    """A section that fails the grader before injection, and what fired."""

    id: str
    checks: tuple[str, ...]
    findings: int


@dataclass
class GateResult:
    """The whole gate table: one row per class, plus what was skipped."""

    seeds: int
    sections: int  # clean sections injected into
    rows: list[ClassRow]
    skipped: list[Skipped] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seeds": self.seeds,
            "sections": self.sections,
            "skipped": [{"id": s.id, "checks": list(s.checks), "findings": s.findings} for s in self.skipped],
            "classes": [row.to_dict() for row in self.rows],
        }


def gate_steps(items: Sequence[CorpusItem], seeds: int, defects: Sequence[str] = DEFECTS) -> int:
    """How many progress steps :func:`run_gate` reports: one per section, class and seed."""
    return len(items) * len(defects) * seeds


def run_gate(
    items: Sequence[CorpusItem],
    seeds: int,
    defects: Sequence[str] = DEFECTS,
    progress: Progress | None = None,
) -> GateResult:
    """Inject every class ``seeds`` times into every clean section and grade each."""
    if seeds < 1:
        raise ValueError("seeds must be at least 1")
    rows = {d: ClassRow(d, EXPECTED_CHECK[d]) for d in defects}
    skipped: list[Skipped] = []
    clean = 0
    for item in items:
        baseline = grade(item.section, item.slice)
        if not baseline.passed:
            checks = tuple(sorted({f.check for f in baseline.findings}))
            skipped.append(Skipped(item.id, checks, len(baseline.findings)))
            if progress is not None:
                progress(len(defects) * seeds)
            continue
        clean += 1
        for defect in defects:
            _count_places(item, defect, rows[defect])
            for seed in range(seeds):
                _one(item, defect, seed, rows[defect])
                if progress is not None:
                    progress(1)
    return GateResult(seeds, clean, [rows[d] for d in defects], skipped)


def _count_places(item: CorpusItem, defect: str, row: ClassRow) -> None:
    candidates = [site for site in candidate_sites(item.section, item.slice, defect) if site.edits]
    step = max(1, -(-len(candidates) // PLACES_CHECKED))
    checked = candidates[::step]
    injector = injector_for(defect)
    section = parse_section(item.section)
    row.places += len(candidates)
    row.checked += len(checked)
    row.rejected += sum(not verify(injector, item.slice, section, site.edits[0]) for site in checked)


def _one(item: CorpusItem, defect: str, seed: int, row: ClassRow) -> None:
    try:
        injection = inject(item.section, item.slice, defect, seed)
    except NotApplicable:
        row.not_applicable += 1
        return
    report = grade(injection.text, item.slice)
    row.applied += 1
    checks = {f.check for f in report.findings}
    row.flagged += bool(report.findings)
    row.exact += checks == {row.expected_check}
    row.jaccard_sum += jaccard([(f.start, f.end) for f in report.findings], injection.record.target_spans)
    replayed = load_record(injection.record.to_json())
    row.reverted += revert(injection.text, replayed) == item.section
