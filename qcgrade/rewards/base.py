"""Training rewards: the paper's binary PASS and its continuous violation count.

``reward()`` is the reward the paper trains and evolves with: 1.0 when a
section passes every check, else 0.0. ``score()`` is the continuous form its
appendix G measures with (the number of violations, and how many each check
found), for shaped rewards and for logging.

Both are ``grade()`` and nothing more: the slice is validated once per content
(see :func:`qcgrade.evidence.load_slice`), so a reward loop that grades many
completions against the same slices pays for validation once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..evidence import SliceLike
from ..findings import Report
from ..grader import grade
from ..options import Options


@dataclass(frozen=True, slots=True)
class Score:
    """The continuous verdict on one section.

    ``violations`` is the total number of findings; ``counts`` maps every
    check that ran to its number of findings (zero included, in the canonical
    check order); ``passed`` is ``violations == 0``. Treat ``counts`` as
    read-only.
    """

    violations: int
    counts: dict[str, int] = field(hash=False)
    passed: bool

    @property
    def shaped(self) -> float:
        """``1 / (1 + violations)``: 1.0 for a pass, 0.5 for one violation, falling towards 0.

        A bounded, strictly decreasing transform of the violation count, so a
        policy is rewarded for every violation it removes, not only the last.
        """
        return reward_number(self, shaped=True)

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "violations": self.violations,
            "shaped": self.shaped,
            "counts": dict(self.counts),
        }

    @classmethod
    def from_report(cls, report: Report) -> Score:
        return cls(violations=len(report.findings), counts=report.counts, passed=report.passed)


def score(
    section: str,
    slice: SliceLike,
    options: Options | None = None,
    *,
    tier2: bool | None = None,
    grounding: bool | None = None,
) -> Score:
    """The violation count and per-check counts of ``section`` against ``slice``.

    ``grounding=True`` adds the tier-3 checks (citing sentences compared with
    their cards); off by default, so the reward stays the paper's. ``options``
    grades with more settings (e.g. a project's configuration, from
    :func:`qcgrade.config.resolve_options`); ``tier2`` and ``grounding``
    override it.

    Raises :class:`~qcgrade.evidence.SliceError` for a bad slice and
    ``TypeError`` when ``section`` is not a string, like :func:`qcgrade.grade`.
    """
    return Score.from_report(grade(section, slice, options, tier2=tier2, grounding=grounding))


def reward(
    section: str,
    slice: SliceLike,
    options: Options | None = None,
    *,
    tier2: bool | None = None,
    grounding: bool | None = None,
) -> float:
    """1.0 when ``section`` passes every check against ``slice``, else 0.0.

    Tier 1 is the paper's QC reward; ``tier2=True`` adds the Report-band-58
    disciplines and ``grounding=True`` the tier-3 grounding checks; ``options``
    as for :func:`score`. Raises like :func:`score`.
    """
    return reward_number(grade(section, slice, options, tier2=tier2, grounding=grounding))


def reward_number(result: Report | Score | None, shaped: bool = False) -> float:
    """The number a trainer (or a batch record) gets for one graded section.

    1.0 for a pass, else 0.0; with ``shaped``, ``1 / (1 + violations)``.
    ``None`` stands for a sample that could not be graded (no usable slice
    or text) and is worth 0.0 either way. Every reward qcgrade hands out is
    this function's value.
    """
    if result is None:
        return 0.0
    if shaped:
        violations = result.violations if isinstance(result, Score) else len(result.findings)
        return 1.0 / (1.0 + violations)
    return 1.0 if result.passed else 0.0
