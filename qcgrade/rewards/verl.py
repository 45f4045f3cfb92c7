"""A verl custom reward function.

Configured as ``reward.custom_reward_function.{path,name,reward_kwargs}`` from
verl 0.7.1 on, as the top-level ``custom_reward_function`` up to 0.7.0 (the
exact YAML and command line per version are in docs/integrations.md).

verl's reward managers call ``compute_score(data_source=..., solution_str=...,
ground_truth=..., extra_info=...)`` once per response (``solution_str`` is the
decoded response only; 0.9.x also passes ``reward_router_address`` and
``reward_model_tokenizer`` when a reward model router runs, ignored here), with
the config's ``reward_kwargs`` merged in. Up to 0.6.x the ``batch`` reward
manager calls ``compute_score(data_sources=..., solution_strs=...,
ground_truths=..., extra_infos=...)`` once per batch (:func:`compute_score_batch`);
from 0.7.1 the trainer cannot reach that manager. A float is the reward; a
dict's ``score`` is the reward and its other keys are logged as
``reward_extra_info``.

The slice is ``ground_truth`` (the parquet column ``reward_model.ground_truth``)
as a dict or JSON text, or, when that is empty, ``extra_info["slice"]``. JSON
text is the safer storage: parquet gives a struct column every field of every
row, and the fields a row lacks come back as ``None`` (dropped again here).

A sample whose slice is missing or invalid scores 0.0 and never raises, so one
bad row cannot stop a run; with ``return_dict=True`` it is flagged by
``qcgrade_slice_error: 1`` with zero counts. The first few such rows are
named in a ``RuntimeWarning`` each, by ``extra_info["index"]`` (the dataset
row, as verl's data recipes store it) where the row has one; later ones are
counted (see :mod:`qcgrade.rewards.bad_rows`). Reward kwargs: ``tier2``,
``grounding``, ``shaped`` (reward ``1 / (1 + violations)``), ``return_dict``,
and ``config`` (a ``pyproject.toml`` or ``qcgrade.toml`` to grade with, read
once per content; ``tier2``/``grounding`` override it; without it no file is
read).

Where the keys land: verl stacks ``reward_extra_info`` into the batch, its
validation metrics (``val-aux/<data_source>/qcgrade_<check>/mean@<n>``) and
its rollout dumps (``trainer.rollout_data_dir``); its training step metrics
carry only the reward (``critic/score/mean``), see docs/integrations.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from qcgrade.evidence import EvidenceSlice, SliceError, slice_from_value
from qcgrade.options import Options
from qcgrade.rewards.adapters import ConfigPath, reward_options, sample_stats
from qcgrade.rewards.bad_rows import BadRows
from qcgrade.rewards.base import Score, reward_number, score

#: The rows this process could not grade (verl's reward workers call from several threads).
BAD_ROWS = BadRows()


def compute_score(
    data_source: Any = None,
    solution_str: str = "",
    ground_truth: Any = None,
    extra_info: Any = None,
    *,
    tier2: bool | None = None,
    shaped: bool = False,
    return_dict: bool = False,
    grounding: bool | None = None,
    config: ConfigPath | None = None,
    **_ignored: Any,
) -> float | dict[str, Any]:
    """The reward of one response: a float, or a dict with ``score`` and per-check counts."""
    options = reward_options(config, tier2, grounding)
    result = _grade(solution_str, ground_truth, extra_info, options, _where(extra_info, None))
    BAD_ROWS.end_of_sample()
    return _answer(result, options, shaped, return_dict)


def _answer(result: Score | None, options: Options, shaped: bool, return_dict: bool) -> float | dict[str, Any]:
    value = reward_number(result, shaped)
    if not return_dict:
        return value
    return {"score": value, **sample_stats(result, options)}


def compute_score_batch(
    data_sources: Iterable[Any] | None = None,
    solution_strs: Sequence[str] = (),
    ground_truths: Iterable[Any] | None = None,
    extra_infos: Iterable[Any] | None = None,
    *,
    tier2: bool | None = None,
    shaped: bool = False,
    return_dict: bool = False,
    grounding: bool | None = None,
    config: ConfigPath | None = None,
    **_ignored: Any,
) -> list[float | dict[str, Any]]:
    """:func:`compute_score` over a batch, for verl's ``batch`` reward manager (verl 0.6.x and earlier)."""
    solution_strs = () if solution_strs is None else solution_strs
    count = len(solution_strs)
    truths = list(ground_truths) if ground_truths is not None else [None] * count
    extras = list(extra_infos) if extra_infos is not None else [None] * count
    options = reward_options(config, tier2, grounding)
    answers = []
    for i, solution in enumerate(solution_strs):
        extra = extras[i] if i < len(extras) else None
        truth = truths[i] if i < len(truths) else None
        result = _grade(solution, truth, extra, options, _where(extra, i))
        answers.append(_answer(result, options, shaped, return_dict))
    BAD_ROWS.end_of_batch("this batch")
    return answers


def _grade(solution: Any, ground_truth: Any, extra_info: Any, options: Options, where: str) -> Score | None:
    raw = ground_truth
    if _empty(raw) and isinstance(extra_info, dict):
        raw = extra_info.get("slice")
    if _empty(raw):
        BAD_ROWS.row(where, "no slice in ground_truth or extra_info['slice']; scoring 0.0", "no slice")
        return None
    if not isinstance(solution, str):
        BAD_ROWS.row(where, f"solution_str is {type(solution).__name__}, not text; scoring 0.0", "no text")
        return None
    try:
        evidence: EvidenceSlice = slice_from_value(raw)
    except SliceError as exc:
        BAD_ROWS.row(where, f"unusable slice: {exc}; scoring 0.0", "unusable slice")
        return None
    return score(solution, evidence, options)


def _where(extra_info: Any, batch_row: int | None) -> str:
    """A bad row as a person finds it: its dataset index (``extra_info["index"]``), else its place in the batch."""
    index = extra_info.get("index") if isinstance(extra_info, dict) else None
    if index is not None:
        return f"dataset row {index}" + (f" (batch row {batch_row})" if batch_row is not None else "")
    if batch_row is not None:
        return f"batch row {batch_row}"
    return "a row without extra_info['index']"


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, (str, bytes, dict)) and len(value) == 0)


__all__ = ["compute_score", "compute_score_batch"]
