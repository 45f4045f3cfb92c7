"""A reward function for TRL's ``GRPOTrainer(reward_funcs=[...])``.

TRL calls each reward function as ``f(prompts=..., completions=...,
completion_ids=..., **columns)``: every dataset column other than ``prompt``
and ``completion`` arrives as a keyword holding one value per completion,
together with trainer extras (``trainer_state``, and from TRL 1.0 on
``log_extra`` and ``log_metric``). Completions are strings, or lists of
messages (``[{"role": "assistant", "content": ...}]``) for conversational
datasets. The function returns one float per completion, or ``None`` where
it has no opinion; TRL reads its ``__name__`` for logging.

Here the evidence slice of each row comes from a dataset column (``slice`` by
default) holding the slice as a dict or as JSON text. A row without a usable
slice (none, or one that does not validate), or whose completion has no text,
gets ``None``, never an exception. The first few such rows are named in a
``RuntimeWarning`` each (by the dataset's ``index`` column when it has one,
else by step and place in the batch), later ones counted once per call (see
:mod:`qcgrade.rewards.bad_rows`).

Per-check signals: where TRL passes ``log_metric`` (1.0 and later), each call
logs, under the function's name (``qcgrade`` by default), the violations of
each check per graded completion (``qcgrade/bare_number``, ...), the share of
graded completions that pass (``qcgrade/pass``) and how many completions could
not be graded (``qcgrade/ungraded``); TRL averages each over the logging step.
Where it does not, one warning says so and the rewards are unchanged.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence, Sized
from typing import Any

from qcgrade.evidence import SliceError, slice_from_value
from qcgrade.rewards.adapters import ConfigPath, check_names, reward_options
from qcgrade.rewards.bad_rows import BadRows
from qcgrade.rewards.base import Score, reward_number, score

#: Longest prompt excerpt a warning shows to help find a row that has no index.
_PROMPT_SHOWN = 48


class RewardFunc:
    """qcgrade as a TRL reward function; build it with :func:`make_reward_func`."""

    def __init__(
        self,
        slice_column: str = "slice",
        tier2: bool | None = None,
        shaped: bool = False,
        grounding: bool | None = None,
        index_column: str = "index",
        config: ConfigPath | None = None,
    ) -> None:
        self.slice_column = slice_column
        self.shaped = shaped
        self.index_column = index_column
        self.config = config
        # Read once, here: a bad configuration fails when the trainer is built, not mid-run.
        self.options = reward_options(config, tier2, grounding)
        self.tier2 = self.options.tier2
        self.grounding = self.options.grounding
        # TRL logs rewards under this name (rewards/<name>/mean ...); the per-check metrics use it as their prefix.
        self.__name__ = (
            "qcgrade"
            + ("_tier2" if self.tier2 else "")
            + ("_grounding" if self.grounding else "")
            + ("_shaped" if shaped else "")
        )
        self._warned = False
        self._said_no_log_metric = False
        self._bad_rows = BadRows()

    def __call__(
        self, prompts: Sequence[Any] | None = None, completions: Sequence[Any] = (), **kwargs: Any
    ) -> list[float | None]:
        scores = self._scores(prompts, completions, kwargs)
        self._log(kwargs.get("log_metric"), scores)
        return [None if result is None else reward_number(result, self.shaped) for result in scores]

    def _scores(self, prompts: Sequence[Any] | None, completions: Sequence[Any], kwargs: dict[str, Any]) -> list[Score | None]:
        slices = kwargs.get(self.slice_column)
        if slices is None:
            self._warn(f"no dataset column {self.slice_column!r} among {sorted(kwargs)}; every reward is None")
            return [None] * len(completions)
        if not _is_column(slices):
            # One slice for the whole batch is not a column: indexing it would
            # grade against a character of the text or a key of the dict.
            self._warn(f"column {self.slice_column!r} must hold one slice per completion, got {type(slices).__name__}")
            return [None] * len(completions)
        step = _step(kwargs.get("trainer_state"))
        indices = kwargs.get(self.index_column)
        indices = indices if _is_column(indices) else None
        scores: list[Score | None] = []
        for index, completion in enumerate(completions):
            raw = slices[index] if index < len(slices) else None
            problem = self._problem(completion, raw)
            if isinstance(problem, tuple):
                kind, detail = problem
                where = _where(index, step, indices, prompts)
                self._bad_rows.row(where, detail, kind)
                scores.append(None)
            else:
                scores.append(problem)
        self._bad_rows.end_of_batch(f"training step {step}" if step is not None else "this batch")
        return scores

    def _problem(self, completion: Any, raw: Any) -> Score | tuple[str, str]:
        """The row's score, or (kind, what is wrong) when it cannot be graded."""
        if raw is None:
            # An Arrow column stores a row without a slice as None; a short
            # column (fewer slices than completions) is read the same way.
            return "no slice", f"no slice in column {self.slice_column!r}"
        text = completion_text(completion)
        if text is None:
            return "no text", f"no assistant text in the completion ({type(completion).__name__})"
        try:
            evidence = slice_from_value(raw)
        except SliceError as exc:
            return "unusable slice", f"unusable slice in column {self.slice_column!r}: {exc}"
        return score(text, evidence, self.options)

    def _log(self, log_metric: Any, scores: list[Score | None]) -> None:
        """Per-check rates, the pass rate and the ungraded count of this call, through TRL's ``log_metric``."""
        if not callable(log_metric):
            if not self._said_no_log_metric:
                self._said_no_log_metric = True
                warnings.warn(
                    "qcgrade reward: the trainer passes no log_metric (TRL before 1.0, or a direct call), "
                    "so the per-check metrics are not logged; the rewards are unchanged",
                    RuntimeWarning,
                    stacklevel=3,
                )
            return
        graded = [result for result in scores if result is not None]
        log_metric(f"{self.__name__}/ungraded", float(len(scores) - len(graded)))
        if not graded:
            return  # no rate over no completion: TRL would average a NaN into the step
        for name in check_names(self.options):
            log_metric(f"{self.__name__}/{name}", sum(result.counts.get(name, 0) for result in graded) / len(graded))
        log_metric(f"{self.__name__}/pass", sum(1 for result in graded if result.passed) / len(graded))

    def _warn(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            warnings.warn(f"qcgrade reward: {message}", RuntimeWarning, stacklevel=4)

    def __repr__(self) -> str:
        extra = ", grounding=True" if self.grounding else ""
        extra += f", config={str(self.config)!r}" if self.config is not None else ""
        return f"RewardFunc(slice_column={self.slice_column!r}, tier2={self.tier2}, shaped={self.shaped}{extra})"


def _is_column(value: Any) -> bool:
    """One value per completion: a list-like, not a text or a mapping (which index into themselves)."""
    return (
        value is not None
        and not isinstance(value, (str, bytes, Mapping))
        and isinstance(value, Sized)
        and hasattr(value, "__getitem__")
    )


def _step(trainer_state: Any) -> int | None:
    """The training step a reward call serves: TRL's ``global_step`` counts the steps already taken."""
    done = getattr(trainer_state, "global_step", None)
    return done + 1 if isinstance(done, int) else None


def _where(index: int, step: int | None, indices: Any, prompts: Sequence[Any] | None) -> str:
    """A bad row as a person finds it: its dataset index, else its place in the step's batch and its prompt."""
    if indices is not None and index < len(indices) and indices[index] is not None:
        return f"dataset row {indices[index]}"
    place = f"batch row {index}" + (f" at training step {step}" if step is not None else "")
    if prompts is not None and index < len(prompts) and isinstance(prompts[index], str):
        prompt = prompts[index]
        shown = prompt if len(prompt) <= _PROMPT_SHOWN else prompt[: _PROMPT_SHOWN - 3] + "..."
        place += f" (prompt {shown!r})"
    return place


def make_reward_func(
    slice_column: str = "slice",
    tier2: bool | None = None,
    *,
    shaped: bool = False,
    grounding: bool | None = None,
    index_column: str = "index",
    config: ConfigPath | None = None,
) -> RewardFunc:
    """A reward function for ``GRPOTrainer(reward_funcs=[...])``.

    ``slice_column`` names the dataset column that holds each row's slice;
    ``tier2`` adds the tier-2 disciplines; ``shaped`` returns
    ``1 / (1 + violations)`` instead of the binary pass; ``grounding`` adds
    the tier-3 grounding checks. ``index_column`` names a dataset column
    that identifies each row in warnings (used when the dataset has it).
    ``config`` grades with a project's configuration file (``pyproject.toml``
    or ``qcgrade.toml``), as ``qcgrade check --config FILE`` does;
    ``tier2``/``grounding`` given here override it. Without ``config`` no
    file is read.
    """
    return RewardFunc(slice_column, tier2, shaped, grounding, index_column, config)


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
