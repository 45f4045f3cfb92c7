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

With ``grounding=True`` every injected section is graded a second time
with the tier-3 grounding checks added, and each row gains
``grounding_flag_rate``, ``grounding_exact_check_rate`` (visible classes:
still exactly their own check) and ``grounding_jaccard`` (the mean Jaccard
of the grounding findings alone against the targets, over the injections
they flag). Clean sections that raise a grounding finding before any
injection are listed as ``grounding_false_alarms``.


The sections and injections come from :func:`.ground_truth.ground_truth`, the
same loop that builds the audit's items: the gate is an audit whose judge is
qcgrade itself. This module only computes: :mod:`qcgrade.render.gate` formats
a :class:`GateResult` and the CLI prints it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..checks import GROUNDING
from ..grader import grade
from ..injectors import DEFECTS, EXPECTED_CHECK, Injection, candidate_sites, injector_for, load_record, revert, verify
from ..reading.section import parse_section
from ..spans import jaccard
from .corpus import CorpusItem
from .ground_truth import CleanSection, Inapplicable, Skipped, Trial, ground_truth

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
    # With grounding (tier 1 + tier 3), counted over the same injections.
    grounding: bool = False
    g_flagged: int = 0
    g_exact: int = 0
    g_hit: int = 0  # injections where a grounding check fired
    g_jaccard_sum: float = 0.0

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

    @property
    def grounding_flag_rate(self) -> float | None:
        return self.g_flagged / self.applied if self.applied and self.grounding else None

    @property
    def grounding_exact_check_rate(self) -> float | None:
        return self.g_exact / self.applied if self.applied and self.grounding and self.visible else None

    @property
    def grounding_jaccard(self) -> float | None:
        return self.g_jaccard_sum / self.g_hit if self.g_hit else None

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
            **(
                {
                    "grounding_flag_rate": self.grounding_flag_rate,
                    "grounding_exact_check_rate": self.grounding_exact_check_rate,
                    "grounding_jaccard": self.grounding_jaccard,
                    "grounding_flagged": self.g_flagged,
                }
                if self.grounding
                else {}
            ),
        }


@dataclass
class GateResult:
    """The whole gate table: one row per class, plus what was skipped."""

    seeds: int
    sections: int  # clean sections injected into
    rows: list[ClassRow]
    skipped: list[Skipped] = field(default_factory=list)
    grounding: bool = False
    grounding_false_alarms: list[Skipped] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seeds": self.seeds,
            "sections": self.sections,
            "skipped": [{"id": s.id, "checks": list(s.checks), "findings": s.findings} for s in self.skipped],
            "classes": [row.to_dict() for row in self.rows],
        }
        if self.grounding:
            out["grounding"] = True
            out["grounding_false_alarms"] = [
                {"id": s.id, "checks": list(s.checks), "findings": s.findings} for s in self.grounding_false_alarms
            ]
        return out


def gate_steps(items: Sequence[CorpusItem], seeds: int, defects: Sequence[str] = DEFECTS) -> int:
    """How many progress steps :func:`run_gate` reports: one per section, class and seed."""
    return len(items) * len(defects) * seeds


def run_gate(
    items: Sequence[CorpusItem],
    seeds: int,
    defects: Sequence[str] = DEFECTS,
    progress: Progress | None = None,
    grounding: bool = False,
) -> GateResult:
    """Inject every class ``seeds`` times into every clean section and grade each.

    With ``grounding``, each injection is also graded with tier 3 added.
    """
    if seeds < 1:
        raise ValueError("seeds must be at least 1")
    advance = progress or _no_progress
    rows = {d: ClassRow(d, EXPECTED_CHECK[d], grounding=grounding) for d in defects}
    skipped: list[Skipped] = []
    alarms: list[Skipped] = []
    clean = 0
    for event in ground_truth(((i.id, i.section, i.slice) for i in items), range(seeds), defects):
        if isinstance(event, Trial):
            if event.injection is not None:
                _tally(event.section, event.injection, rows[event.kind])
                advance(1)
        elif isinstance(event, Inapplicable):
            rows[event.kind].not_applicable += 1
            advance(1)
        elif isinstance(event, CleanSection):
            clean += 1
            if grounding:
                before = grade(event.text, event.evidence, grounding=True)
                if not before.passed:
                    fired = tuple(sorted({f.check for f in before.findings}))
                    alarms.append(Skipped(event.id, "grounding finding before injection", fired, len(before.findings)))
            for defect in defects:
                _count_places(event, defect, rows[defect])
        else:
            skipped.append(event)
            advance(len(defects) * seeds)
    return GateResult(seeds, clean, [rows[d] for d in defects], skipped, grounding, alarms)


def _no_progress(steps: int) -> None:
    pass


def _count_places(section: CleanSection, defect: str, row: ClassRow) -> None:
    candidates = [site for site in candidate_sites(section.text, section.evidence, defect) if site.edits]
    step = max(1, -(-len(candidates) // PLACES_CHECKED))
    checked = candidates[::step]
    injector = injector_for(defect)
    parsed = parse_section(section.text)
    row.places += len(candidates)
    row.checked += len(checked)
    row.rejected += sum(not verify(injector, section.evidence, parsed, site.edits[0]) for site in checked)


def _tally(section: CleanSection, injection: Injection, row: ClassRow) -> None:
    """What qcgrade's own grader makes of one applied injection."""
    report = grade(injection.text, section.evidence)
    row.applied += 1
    checks = {f.check for f in report.findings}
    row.flagged += bool(report.findings)
    row.exact += checks == {row.expected_check}
    row.jaccard_sum += jaccard([(f.start, f.end) for f in report.findings], injection.record.target_spans)
    replayed = load_record(injection.record.to_json())
    row.reverted += revert(injection.text, replayed) == section.text
    if row.grounding:
        _tally_grounded(injection.text, section, injection.record.target_spans, row)


def _tally_grounded(text: str, section: CleanSection, targets: tuple[tuple[int, int], ...], row: ClassRow) -> None:
    report = grade(text, section.evidence, grounding=True)
    checks = {f.check for f in report.findings}
    row.g_flagged += bool(report.findings)
    row.g_exact += checks == {row.expected_check}
    grounded = [(f.start, f.end) for f in report.findings if f.check in GROUNDING]
    if grounded:
        row.g_hit += 1
        row.g_jaccard_sum += jaccard(grounded, targets)
