"""Adapters that hand qcgrade's reward to RL trainers, in each trainer's own call shape.

- :mod:`qcgrade.rewards.trl`: a ``reward_funcs`` entry for TRL's ``GRPOTrainer``;
- :mod:`qcgrade.rewards.verl`: a verl custom reward function (``compute_score``);
- :mod:`qcgrade.rewards.openrlhf`: an OpenRLHF reward file (``reward_func``).

None of them imports its framework: each only unpacks what the framework
passes, calls the grader and packs the answer. This module holds what they
share: the per-check statistics the verl and OpenRLHF adapters log. Turning
whatever a dataset column holds into a validated slice is
:func:`qcgrade.evidence.slice_from_value`, shared with the Ray grader; the
reward number is :func:`qcgrade.rewards.base.reward_number`.

The adapter modules import qcgrade by absolute name so each can also be given
to its trainer as a file path (both verl and OpenRLHF load reward files by
path, outside any package).
"""

from __future__ import annotations

from functools import lru_cache

from qcgrade.evidence import slice_from_value
from qcgrade.grader import active_checks
from qcgrade.options import Options
from qcgrade.rewards.base import Score, reward_number

#: A validated slice from a dataset cell (kept under its old name for callers of this module).
resolve_slice = slice_from_value


@lru_cache(maxsize=4)
def check_names(tier2: bool, grounding: bool = False) -> tuple[str, ...]:
    """The checks a reward call runs, in canonical order."""
    return tuple(check.name for check in active_checks(Options(tier2=tier2, grounding=grounding)))


def stat_keys(tier2: bool, grounding: bool = False) -> tuple[str, ...]:
    """The per-sample statistics the adapters log, always the same keys for one setting.

    Trainers stack these across a batch, so a row whose slice is bad still
    reports every key (zeros) and flags itself in ``qcgrade_slice_error``.
    """
    return ("qcgrade_violations", "qcgrade_slice_error") + tuple(f"qcgrade_{name}" for name in check_names(tier2, grounding))


def sample_stats(result: Score | None, tier2: bool, grounding: bool = False) -> dict[str, int]:
    """The statistics of one sample; ``None`` stands for a sample whose slice was unusable."""
    if result is None:
        stats = dict.fromkeys(stat_keys(tier2, grounding), 0)
        stats["qcgrade_slice_error"] = 1
        return stats
    stats = {"qcgrade_violations": result.violations, "qcgrade_slice_error": 0}
    for name in check_names(tier2, grounding):
        stats[f"qcgrade_{name}"] = result.counts.get(name, 0)
    return stats


#: The number a trainer optimises (kept under its old name for callers of this module).
reward_value = reward_number


__all__ = ["check_names", "resolve_slice", "reward_value", "sample_stats", "stat_keys"]
