"""A reward function for TRL's ``GRPOTrainer(reward_funcs=[...])``.

TRL calls each reward function as ``f(prompts=..., completions=...,
completion_ids=..., **columns)``: every dataset column other than ``prompt``
and ``completion`` arrives as a keyword holding one value per completion,
together with trainer extras (``trainer_state``, ...). Completions are strings,
or lists of messages (``[{"role": "assistant", "content": ...}]``) for
conversational datasets. The function returns one float per completion, or
``None`` where it has no opinion; TRL reads its ``__name__`` for logging.

Here the evidence slice of each row comes from a dataset column (``slice`` by
default) holding the slice as a dict or as JSON text. A row without a usable
slice (none, or one that does not validate), or whose completion has no text,
gets ``None``, never an exception; the first such row of a reward function is
reported with one ``RuntimeWarning``.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence, Sized
from typing import Any

from qcgrade.evidence import SliceError, slice_from_value
from qcgrade.rewards.adapters import ConfigPath, reward_options
from qcgrade.rewards.base import reward_number, score


class RewardFunc:
    """qcgrade as a TRL reward function; build it with :func:`make_reward_func`."""

    def __init__(
        self,
        slice_column: str = "slice",
        tier2: bool | None = None,
        shaped: bool = False,
        grounding: bool | None = None,
        config: ConfigPath | None = None,
    ) -> None:
        self.slice_column = slice_column
        self.shaped = shaped
        self.config = config
        # Read once, here: a bad configuration fails when the trainer is built, not mid-run.
        self.options = reward_options(config, tier2, grounding)
        self.tier2 = self.options.tier2
        self.grounding = self.options.grounding
        # TRL logs rewards under this name (rewards/<name>/mean ...).
        self.__name__ = (
            "qcgrade"
            + ("_tier2" if self.tier2 else "")
            + ("_grounding" if self.grounding else "")
            + ("_shaped" if shaped else "")
        )
        self._warned = False

    def __call__(
        self, prompts: Sequence[Any] | None = None, completions: Sequence[Any] = (), **kwargs: Any
    ) -> list[float | None]:
        slices = kwargs.get(self.slice_column)
        if slices is None:
            self._warn(f"no dataset column {self.slice_column!r} among {sorted(kwargs)}; every reward is None")
            return [None] * len(completions)
        if isinstance(slices, (str, bytes, Mapping)) or not isinstance(slices, Sized) or not hasattr(slices, "__getitem__"):
            # One slice for the whole batch is not a column: indexing it would
            # grade against a character of the text or a key of the dict.
            self._warn(f"column {self.slice_column!r} must hold one slice per completion, got {type(slices).__name__}")
            return [None] * len(completions)
        rewards: list[float | None] = []
        for index, completion in enumerate(completions):
            text = completion_text(completion)
            raw = slices[index] if index < len(slices) else None
            if raw is None:
                # An Arrow column stores a row without a slice as None; a short
                # column (fewer slices than completions) is read the same way.
                self._warn(f"row {index}: no slice in column {self.slice_column!r}")
                rewards.append(None)
                continue
            if text is None:
                self._warn(f"row {index}: no assistant text in the completion ({type(completion).__name__})")
                rewards.append(None)
                continue
            try:
                evidence = slice_from_value(raw)
            except SliceError as exc:
                self._warn(f"row {index}: unusable slice in column {self.slice_column!r}: {exc}")
                rewards.append(None)
                continue
            rewards.append(reward_number(score(text, evidence, self.options), self.shaped))
        return rewards

    def _warn(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            warnings.warn(f"qcgrade reward: {message}", RuntimeWarning, stacklevel=3)

    def __repr__(self) -> str:
        extra = ", grounding=True" if self.grounding else ""
        extra += f", config={str(self.config)!r}" if self.config is not None else ""
        return f"RewardFunc(slice_column={self.slice_column!r}, tier2={self.tier2}, shaped={self.shaped}{extra})"


def make_reward_func(
    slice_column: str = "slice",
    tier2: bool | None = None,
    *,
    shaped: bool = False,
    grounding: bool | None = None,
    config: ConfigPath | None = None,
) -> RewardFunc:
    """A reward function for ``GRPOTrainer(reward_funcs=[...])``.

    ``slice_column`` names the dataset column that holds each row's slice;
    ``tier2`` adds the tier-2 disciplines; ``shaped`` returns
    ``1 / (1 + violations)`` instead of the binary pass; ``grounding`` adds
    the tier-3 grounding checks. ``config`` grades with a project's
    configuration file (``pyproject.toml`` or ``qcgrade.toml``), as
    ``qcgrade check --config FILE`` does; ``tier2``/``grounding`` given here
    override it. Without ``config`` no file is read.
    """
    return RewardFunc(slice_column, tier2, shaped, grounding, config)


def completion_text(completion: Any) -> str | None:
    """The text to grade: the string itself, or the last assistant message's content.

    Content given as a list of parts (``{"type": "text", "text": ...}``) is
    joined; an assistant message without content is the empty section.
    ``None`` when there is no assistant text to find.
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    if not isinstance(completion, (list, tuple)):
        return None
    for message in reversed(completion):
        if isinstance(message, dict) and message.get("role", "assistant") == "assistant":
            return _content_text(message.get("content"))
    return None


def _content_text(content: Any) -> str | None:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        parts = [p.get("text", "") for p in content if isinstance(p, dict) and p.get("type", "text") == "text"]
        return "".join(p for p in parts if isinstance(p, str))
    return None


__all__ = ["RewardFunc", "completion_text", "make_reward_func"]
