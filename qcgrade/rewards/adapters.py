"""Adapters that hand qcgrade's reward to RL trainers, in each trainer's own call shape.

- :mod:`qcgrade.rewards.trl`: a ``reward_funcs`` entry for TRL's ``GRPOTrainer``;
- :mod:`qcgrade.rewards.verl`: a verl custom reward function (``compute_score``);
- :mod:`qcgrade.rewards.openrlhf`: an OpenRLHF reward file (``reward_func``).

None of them imports its framework: each only unpacks what the framework
passes, calls the grader and packs the answer. This module holds what they
share: the options they grade with (:func:`reward_options`: tier 1 unless
told otherwise, and a project's configuration file only when given one as
``config=``, never found by searching), and the per-check statistics the
verl and OpenRLHF adapters log. Turning
whatever a dataset column holds into a validated slice is
:func:`qcgrade.evidence.slice_from_value`, shared with the Ray grader; the
reward number is :func:`qcgrade.rewards.base.reward_number`.

The adapter modules import qcgrade by absolute name so each can also be given
to its trainer as a file path (both verl and OpenRLHF load reward files by
path, outside any package).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from qcgrade.evidence import slice_from_value
from qcgrade.grader import active_checks
from qcgrade.options import Options
from qcgrade.rewards.base import Score, reward_number

#: A validated slice from a dataset cell (kept under its old name for callers of this module).
resolve_slice = slice_from_value

#: What an adapter's ``config=`` accepts: a configuration file's path.
ConfigPath = str | os.PathLike[str]


def reward_options(config: ConfigPath | None = None, tier2: bool | None = None, grounding: bool | None = None) -> Options:
    """The options a reward adapter grades with.

    Without ``config`` the paper's reward: tier 1, plus tier 2 and grounding
    when switched on. With ``config`` (a ``qcgrade.toml``, or a
    ``pyproject.toml`` read at its ``[tool.qcgrade]`` table) that file, read
    by :func:`qcgrade.config.resolve_options` as ``qcgrade check --config``
    reads it, with ``tier2``/``grounding`` applied over it when given. A
    reward never searches for a file: training must not depend on the
    directory a worker starts in. Raises :class:`~qcgrade.errors.ConfigError`.
    """
    if config is None:
        return _plain(bool(tier2), bool(grounding))
    path = Path(config).resolve()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = 0  # resolve_options reports the missing file
    return _configured(str(path), stamp, tier2, grounding)


@lru_cache(maxsize=4)
def _plain(tier2: bool, grounding: bool) -> Options:
    return Options(tier2=tier2, grounding=grounding)


@lru_cache(maxsize=16)
def _configured(path: str, stamp: int, tier2: bool | None, grounding: bool | None) -> Options:
    # verl calls compute_score once per response: the file is read once per
    # content (the modification time keys an edited file afresh).
    from qcgrade.config import resolve_options

    options, _ = resolve_options(path, overrides={"tier2": tier2, "grounding": grounding})
    return options


def _options(setting: Options | bool, grounding: bool) -> Options:
    return setting if isinstance(setting, Options) else _plain(bool(setting), grounding)


@lru_cache(maxsize=16)
def _names(options: Options) -> tuple[str, ...]:
    return tuple(check.name for check in active_checks(options))


def check_names(options: Options | bool, grounding: bool = False) -> tuple[str, ...]:
    """The checks a reward call runs, in canonical order (``options`` or the old ``tier2`` switch)."""
    return _names(_options(options, grounding))


def stat_keys(options: Options | bool, grounding: bool = False) -> tuple[str, ...]:
    """The per-sample statistics the adapters log, always the same keys for one setting.

    Trainers stack these across a batch, so a row whose slice is bad still
    reports every key (zeros) and flags itself in ``qcgrade_slice_error``.
    """
    names = check_names(options, grounding)
    return ("qcgrade_violations", "qcgrade_slice_error") + tuple(f"qcgrade_{name}" for name in names)


def sample_stats(result: Score | None, options: Options | bool, grounding: bool = False) -> dict[str, int]:
    """The statistics of one sample; ``None`` stands for a sample whose slice was unusable."""
    if result is None:
        stats = dict.fromkeys(stat_keys(options, grounding), 0)
        stats["qcgrade_slice_error"] = 1
        return stats
    stats = {"qcgrade_violations": result.violations, "qcgrade_slice_error": 0}
    for name in check_names(options, grounding):
        stats[f"qcgrade_{name}"] = result.counts.get(name, 0)
    return stats


#: The number a trainer optimises (kept under its old name for callers of this module).
reward_value = reward_number


__all__ = ["check_names", "resolve_slice", "reward_options", "reward_value", "sample_stats", "stat_keys"]
