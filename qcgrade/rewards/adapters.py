"""Adapters that hand qcgrade's reward to RL trainers, in each trainer's own call shape.

- :mod:`qcgrade.rewards.trl`: a ``reward_funcs`` entry for TRL's ``GRPOTrainer``;
- :mod:`qcgrade.rewards.verl`: a verl custom reward function (``compute_score``);
- :mod:`qcgrade.rewards.openrlhf`: an OpenRLHF reward file (``reward_func``).

None of them imports its framework: each only unpacks what the framework
passes, calls the grader and packs the answer. This module holds what they
share: turning whatever a dataset column holds into a validated slice, and the
per-check statistics the verl and OpenRLHF adapters log.

The adapter modules import qcgrade by absolute name so each can also be given
to its trainer as a file path (both verl and OpenRLHF load reward files by
path, outside any package).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from qcgrade.evidence import EvidenceSlice, SliceError, load_slice
from qcgrade.grader import active_checks
from qcgrade.options import Options
from qcgrade.rewards.base import Score

#: Nesting deeper than any valid slice; anything deeper is left for validation to reject.
_MAX_DEPTH = 8


def resolve_slice(value: Any) -> EvidenceSlice:
    """A validated slice from a dataset cell: a dict, JSON text or an EvidenceSlice.

    The common case costs one :func:`~qcgrade.evidence.load_slice` call (a
    cache hit for a slice seen before). Only a dict that fails validation is
    cleaned and tried again: Arrow-backed datasets (Hugging Face ``datasets``,
    parquet) give every row of a struct column every field seen in any row,
    filling the missing ones with ``None``, and may hand lists over as numpy
    arrays. A ``None`` field is dropped, so the field's default applies.
    Raises :class:`~qcgrade.evidence.SliceError`.
    """
    if value is None:
        raise SliceError("no slice")
    if isinstance(value, (EvidenceSlice, str, bytes, dict)):
        try:
            return load_slice(value)
        except SliceError:
            if not isinstance(value, dict):
                raise
            # Slow path, taken only by a dict that failed: the retry's error,
            # if any, describes the data as it will be graded.
            return load_slice(_plain(value, 0))
    cleaned = _plain(value, 0)
    if isinstance(cleaned, dict):
        return load_slice(cleaned)
    raise SliceError(f"expected a slice as dict, JSON text or EvidenceSlice, got {type(value).__name__}")


def _plain(value: Any, depth: int) -> Any:
    """Plain JSON-like data: mappings without ``None`` values, sequences as lists."""
    if depth > _MAX_DEPTH:
        return value
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if hasattr(value, "items") and callable(value.items):
        return {str(k): _plain(v, depth + 1) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    return value


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


def reward_value(result: Score, shaped: bool) -> float:
    """The number a trainer optimises: the binary pass, or :attr:`Score.shaped`."""
    if shaped:
        return result.shaped
    return 1.0 if result.passed else 0.0


__all__ = ["check_names", "resolve_slice", "reward_value", "sample_stats", "stat_keys"]
