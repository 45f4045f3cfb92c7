"""Seeded corruption of true pass/fail labels: the paper's judge channel (C.1).

The paper isolates the causal effect of a biased judge by injecting corruption
*on top of* a deterministic grader: the true label ``y`` (True = pass) is
passed through a binary channel to give the observed label::

    P(observed pass | true fail) = rho_fp   (rho_{F->P}, a hidden failure)
    P(observed fail | true pass) = rho_pf   (rho_{P->F}, a phantom failure)

:class:`Channel` is that channel. It never touches the global ``random``
state: callers pass their own :class:`random.Random` (or a seed), so a run
is reproducible and corruption cannot perturb any other random stream.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass


def _check_rate(name: str, value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number in [0, 1], got {value!r}")
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {value!r}")


@dataclass(frozen=True, slots=True)
class Channel:
    """A binary corruption channel on true outcomes (True = pass).

    ``rho_fp + rho_pf >= 1`` is allowed (kappa <= 0, an uninformative or
    inverting judge) because an audit can legitimately measure one; the
    theory functions decide what such a channel means.
    """

    rho_fp: float
    rho_pf: float

    def __post_init__(self) -> None:
        _check_rate("rho_fp", self.rho_fp)
        _check_rate("rho_pf", self.rho_pf)

    @classmethod
    def symmetric(cls, rho: float) -> Channel:
        """Symmetric noise: each label flipped with probability ``rho`` either way."""
        return cls(rho_fp=rho, rho_pf=rho)

    @classmethod
    def clean(cls) -> Channel:
        """The identity channel (a perfect grader)."""
        return cls(rho_fp=0.0, rho_pf=0.0)

    @property
    def kappa(self) -> float:
        """Resolution ``1 - rho_fp - rho_pf``: slope of observed vs true pass rate."""
        return 1.0 - self.rho_fp - self.rho_pf

    def observe(self, true_pass: bool, rng: random.Random) -> bool:
        """Observed label for one trial.

        Exactly one ``rng.random()`` draw per call, whatever the label or
        rates, so streams stay aligned across channels with different rates
        (common random numbers make sweeps comparable point by point).
        ``random()`` is in [0, 1), so a rate of 0 never fires and 1 always does.
        """
        u = rng.random()
        if true_pass:
            return u >= self.rho_pf
        return u < self.rho_fp

    def corrupt(self, labels: Sequence[bool], seed: int) -> list[bool]:
        """Observed labels for a whole sequence, from a private ``Random(seed)``."""
        rng = random.Random(seed)
        return [self.observe(bool(label), rng) for label in labels]
