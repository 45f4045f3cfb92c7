"""An OpenRLHF reward file: ``--reward.remote_url path/to/file.py`` loads its ``reward_func``.

OpenRLHF calls ``reward_func(queries, prompts, labels)`` positionally, one
sample per call from worker threads. Each query is prompt plus response,
decoded with special tokens kept, so the prompt is stripped here first; each
label (the ``--data.label_key`` column) is the sample's slice as JSON text (a
dict works too). The answer is OpenRLHF's documented dict::

    {"rewards": tensor, "scores": tensor, "extra_logs": {name: tensor, ...}}

``rewards`` is the binary pass (or ``1 / (1 + violations)`` when shaped),
``scores`` is always the 0/1 pass that OpenRLHF's dynamic filtering expects,
and ``extra_logs`` carries the violation count, one count per check and
``qcgrade_slice_error``, the same keys for every sample. Tensors are float32
torch tensors; where torch is not importable (outside a trainer) they are
plain lists of floats. A sample whose label is not a usable slice scores 0.0
with ``qcgrade_slice_error`` 1 and never raises; OpenRLHF passes no row index,
so the first few such samples are named by their prompt in a
``RuntimeWarning`` each, and later ones counted (see
:mod:`qcgrade.rewards.bad_rows`).

OpenRLHF puts each ``extra_logs`` key into the sample's ``Experience.info``,
averages it over the step's samples and logs it as ``train/<key>``
(``train/qcgrade_bare_number``, ...; ``train/score`` is then the pass rate):
see docs/integrations.md.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from qcgrade.evidence import SliceError, slice_from_value
from qcgrade.options import Options
from qcgrade.rewards.adapters import ConfigPath, reward_options, sample_stats, stat_keys
from qcgrade.rewards.bad_rows import BadRows
from qcgrade.rewards.base import Score, reward_number, score

#: The samples this process could not grade (OpenRLHF calls from worker threads).
BAD_ROWS = BadRows()
#: Longest prompt excerpt a warning shows: the prompt is all that names a sample here.
_PROMPT_SHOWN = 48

RewardFunction = Callable[..., dict[str, Any]]


def make_reward_func(
    tier2: bool | None = None, *, shaped: bool = False, grounding: bool | None = None, config: ConfigPath | None = None
) -> RewardFunction:
    """A ``reward_func`` with options; bind it at module level in your reward file.

    ``config`` grades with a project's configuration file (as ``qcgrade check
    --config FILE``), read here, once; ``tier2``/``grounding`` override it.
    Without ``config`` no file is read.
    """
    options = reward_options(config, tier2, grounding)

    def reward_func(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[Any], **kwargs: Any) -> dict[str, Any]:
        return _rewards(queries, prompts, labels, options, shaped)

    source = f", config={str(config)!r}" if config is not None else ""
    reward_func.__doc__ = (
        f"qcgrade reward for OpenRLHF (tier2={options.tier2}, shaped={shaped}, grounding={options.grounding}{source})."
    )
    return reward_func


def reward_func(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[Any], **kwargs: Any) -> dict[str, Any]:
    """The tier-1 binary reward, in the shape OpenRLHF expects."""
    return _rewards(queries, prompts, labels, reward_options(), False)


def _rewards(
    queries: Sequence[str], prompts: Sequence[str], labels: Sequence[Any], options: Options, shaped: bool
) -> dict[str, Any]:
    rewards: list[float] = []
    passes: list[float] = []
    logs: dict[str, list[float]] = {key: [] for key in stat_keys(options)}
    prompts = () if prompts is None else prompts
    labels = () if labels is None else labels
    for index, query in enumerate(queries):
        prompt = prompts[index] if index < len(prompts) else ""
        label = labels[index] if index < len(labels) else None
        result = _grade(query, prompt, label, options, _where(index, len(queries), prompt))
        rewards.append(reward_number(result, shaped))
        passes.append(reward_number(result))
        for key, value in sample_stats(result, options).items():
            logs[key].append(float(value))
    if len(queries) == 1:
        BAD_ROWS.end_of_sample()  # how OpenRLHF calls: one sample per call, no step
    else:
        BAD_ROWS.end_of_batch("this batch")
    as_tensor = _tensor_factory()
    return {
        "rewards": as_tensor(rewards),
        "scores": as_tensor(passes),
        "extra_logs": {key: as_tensor(values) for key, values in logs.items()},
    }


def _grade(query: Any, prompt: Any, label: Any, options: Options, where: str) -> Score | None:
    if not isinstance(query, str):
        # Flagged like an unusable label: the sample has nothing to grade.
        BAD_ROWS.row(where, f"query is {type(query).__name__}, not text; scoring 0.0", "no text")
        return None
    try:
        evidence = slice_from_value(label)
    except SliceError as exc:
        BAD_ROWS.row(where, f"unusable label: {exc}; scoring 0.0", "unusable label")
        return None
    return score(strip_prompt(query, prompt), evidence, options)


def _where(index: int, count: int, prompt: Any) -> str:
    """A bad sample as a person finds it: by its prompt (OpenRLHF passes no index), and its place in a batch."""
    place = "a sample" if count == 1 else f"batch row {index}"
    if isinstance(prompt, str) and prompt:
        shown = prompt if len(prompt) <= _PROMPT_SHOWN else prompt[: _PROMPT_SHOWN - 3] + "..."
        place += f" (prompt {shown!r})"
    return place


def strip_prompt(query: str, prompt: str) -> str:
    """The response part of ``query`` (prompt + response).

    Normally the query starts with the prompt. Otherwise the response is what
    follows the prompt's first occurrence (a tokenizer may add a leading
    marker), or, for a prompt OpenRLHF truncated on the left, what follows the
    longest end of the prompt that begins the query. With no overlap at all
    the whole query is the response. Linear time.
    """
    if not isinstance(prompt, str) or not prompt:
        return query
    if query.startswith(prompt):
        return query[len(prompt) :]
    found = query.find(prompt)
    if found >= 0:
        return query[found + len(prompt) :]
    return query[_overlap(prompt, query) :]


def _overlap(head: str, tail: str) -> int:
    """Length of the longest suffix of ``head`` that is a prefix of ``tail`` (KMP)."""
    if not head or not tail:
        return 0
    failure = [0] * len(tail)
    k = 0
    for i in range(1, len(tail)):
        while k and tail[i] != tail[k]:
            k = failure[k - 1]
        if tail[i] == tail[k]:
            k += 1
        failure[i] = k
    matched = 0
    for char in head:
        while matched and (matched == len(tail) or char != tail[matched]):
            matched = failure[matched - 1]
        if char == tail[matched]:
            matched += 1
    return matched


@lru_cache(maxsize=1)
def _tensor_factory() -> Callable[[list[float]], Any]:
    """float32 torch tensors when torch is importable (inside a trainer), else lists."""
    try:
        # Imported by name: torch is no dependency of qcgrade, only of the trainer.
        torch = importlib.import_module("torch")
    except ImportError:
        return list

    def as_tensor(values: list[float]) -> Any:
        return torch.tensor(values, dtype=torch.float32)

    return as_tensor


__all__ = ["make_reward_func", "reward_func", "strip_prompt"]
