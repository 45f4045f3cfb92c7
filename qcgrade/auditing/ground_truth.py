"""The loop the gate and the audit share: clean sections, and known defects injected into them.

Ground truth comes from construction, not from anyone's opinion: a section
that passes the deterministic grader is a true pass, and the same section with
one injected defect is a true failure, whether or not the grader can see the
defect (the two QC-invisible classes corrupt meaning, not syntax).

:func:`ground_truth` walks a corpus once and yields, in a fixed order:

* a :class:`Skipped` for a section whose slice is bad or that fails the
  grader before injection (it is a true pass of nothing);
* a :class:`CleanSection` for every other section, then per seed a clean
  :class:`Trial` followed by one per defect class, in the order given: the
  injected text, or an :class:`Inapplicable` when the class has no place in
  the section (e.g. no TL;DR to delete).

The gate (:mod:`.gate`) is an audit whose judge is qcgrade itself: it tallies
the trials per class. The audit (:mod:`.items`) turns them into questions for
a judge. Both take what was skipped or inapplicable from the same events.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..evidence import EvidenceSlice, SliceError, load_slice
from ..grader import grade

if TYPE_CHECKING:
    from ..injectors import Injection

#: The kind of a trial that injects nothing: the clean section itself.
CLEAN = "clean"

#: One corpus section as the loop reads it: ``(id, section text, slice)``;
#: the slice as given (a dict, JSON text or an :class:`EvidenceSlice`).
Source = tuple[str, str, Any]


@dataclass(frozen=True, slots=True)
class Skipped:
    """A corpus section left out: its slice is bad, or the grader fails it before injection.

    ``checks`` are the checks that fired (sorted) and ``findings`` how many
    findings there were; both are empty for a bad slice.
    """

    id: str
    reason: str
    checks: tuple[str, ...] = ()
    findings: int = 0

    @property
    def source(self) -> str:
        """The section's id, under the name audit items give it."""
        return self.id

    def to_dict(self) -> dict[str, Any]:
        return {"checks": list(self.checks), "id": self.id, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Inapplicable:
    """A defect class that cannot be injected into a section at a seed (e.g. no TL;DR to delete)."""

    source: str
    kind: str
    seed: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"class": self.kind, "id": self.source, "reason": self.reason, "seed": self.seed}


@dataclass(frozen=True, slots=True)
class CleanSection:
    """A section the deterministic grader passes, with its slice as given and validated."""

    id: str
    text: str
    slice: Any
    evidence: EvidenceSlice


@dataclass(frozen=True, slots=True)
class Trial:
    """One question with a known answer: the clean section at a seed, or one defect injected into it.

    ``kind`` is :data:`CLEAN` (``injection`` is None) or a defect class.
    """

    section: CleanSection
    kind: str
    seed: int
    injection: Injection | None = None


Event = Skipped | CleanSection | Trial | Inapplicable

#: Why a section the grader fails is left out.
FAILS_GRADER = "fails the deterministic grader"


def ground_truth(corpus: Iterable[Source], seeds: Sequence[int], defects: Sequence[str]) -> Iterator[Event]:
    """Every section of ``corpus``, skipped or clean; per clean section and seed, each trial."""
    # Imported here: the injectors are only needed once a corpus is walked.
    from ..injectors import NotApplicable, inject

    for ident, text, given in corpus:
        section = _clean(ident, text, given)
        yield section
        if isinstance(section, Skipped):
            continue
        for seed in seeds:
            yield Trial(section, CLEAN, seed)
            for defect in defects:
                try:
                    injection = inject(section.text, section.evidence, defect, seed)
                except NotApplicable as exc:
                    yield Inapplicable(section.id, defect, seed, exc.reason)
                    continue
                yield Trial(section, defect, seed, injection)


def _clean(ident: str, text: str, given: Any) -> CleanSection | Skipped:
    try:
        evidence = load_slice(given)
    except SliceError as exc:
        return Skipped(ident, f"bad slice: {exc}")
    report = grade(text, evidence)
    if not report.passed:
        checks = tuple(sorted({f.check for f in report.findings}))
        return Skipped(ident, FAILS_GRADER, checks, len(report.findings))
    return CleanSection(ident, text, given, evidence)
