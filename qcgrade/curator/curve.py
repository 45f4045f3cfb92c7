"""The simulated retirement curve, and a measured judge placed on it.

:func:`qcgrade.curator.simulate.sweep` gives mean genuine retirements against the
corruption level: under false-pass bias (``rho_fp`` swept, ``rho_pf`` fixed)
it collapses near the cliff ``(1 - tau)/2``; under symmetric noise it holds up.
A judge measured by an audit is then simulated at its own ``(rho_fp, rho_pf)``
and drawn on that picture, so "which side of the cliff" becomes a number of
skills the curator would still retire.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from .simulate import simulate, sweep
from .stats import mean

#: Bias levels 0, 0.05, ..., 0.95 and noise levels 0, 0.05, ..., 0.45 (noise is inverted past 1/2).
BIAS_GRID = tuple(i / 20 for i in range(20))
NOISE_GRID = tuple(i / 20 for i in range(10))
SEEDS = (42, 43, 44)


@dataclass(frozen=True, slots=True)
class JudgePoint:
    """A measured judge: its rates as read from an audit."""

    label: str
    rho_fp: float
    rho_fp_ci: tuple[float, float]
    rho_pf: float
    verdict: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "rho_fp": self.rho_fp,
            "rho_fp_ci": list(self.rho_fp_ci),
            "rho_pf": self.rho_pf,
            "verdict": self.verdict,
        }


@dataclass(frozen=True, slots=True)
class RetirementCurve:
    """Mean genuine retirements per run against bias and against noise, plus an optional judge."""

    tau: float
    params: tuple[tuple[str, Any], ...]
    seeds: tuple[int, ...]
    bias: tuple[tuple[float, float], ...]
    noise: tuple[tuple[float, float], ...]
    judge: JudgePoint | None = None
    judge_retirements: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "bias": [list(p) for p in self.bias],
            "judge": self.judge.to_dict() if self.judge else None,
            "judge_retirements": self.judge_retirements,
            "noise": [list(p) for p in self.noise],
            "params": dict(self.params),
            "seeds": list(self.seeds),
            "tau": self.tau,
        }


def retirement_curve(
    *,
    tau: float = 0.10,
    rho_pf: float = 0.0,
    judge: JudgePoint | None = None,
    seeds: Sequence[int] = SEEDS,
    n_min: int = 24,
    cap: int = 12,
    rounds: int = 12,
    tasks_per_round: int = 1200,
    **extra: Any,
) -> RetirementCurve:
    """Sweep bias (at fixed ``rho_pf``) and symmetric noise; simulate the judge if given.

    Defaults are the paper's (tau 0.10, N_min 24, cap 12, 12 rounds, seeds
    42-44); ``extra`` goes to :func:`qcgrade.curator.simulate.simulate` as well.
    Deterministic: fixed seeds, no global randomness.
    """
    seed_tuple = tuple(seeds)
    params = {"n_min": n_min, "cap": cap, "rounds": rounds, "tasks_per_round": tasks_per_round, **extra}
    bias = sweep(BIAS_GRID, kind="bias", seeds=seed_tuple, tau=tau, rho_pf=rho_pf, **params)
    noise = sweep(NOISE_GRID, kind="noise", seeds=seed_tuple, tau=tau, **params)
    at_judge = None
    if judge is not None:
        runs = [simulate(rho_fp=judge.rho_fp, rho_pf=judge.rho_pf, tau=tau, seed=s, **params) for s in seed_tuple]
        at_judge = mean([float(r.genuine_retirements) for r in runs])
    return RetirementCurve(
        tau=tau,
        params=tuple(sorted({**params, "rho_pf": rho_pf}.items())),
        seeds=seed_tuple,
        bias=tuple(bias.items()),
        noise=tuple(noise.items()),
        judge=judge,
        judge_retirements=at_judge,
    )


def _prob(data: dict[str, Any], key: str, where: str) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (math.isfinite(value) and 0 <= value <= 1):
        raise InputError(f"{where}: {key!r} must be a number in [0, 1], got {value!r}")
    return float(value)


def judge_point_from_audit(raw: str | bytes, where: str = "audit") -> JudgePoint:
    """Read the judge's rates back from ``qcgrade audit --format json`` output.

    Raises :class:`~qcgrade.errors.InputError` with a one-line message naming ``where`` on bad input.
    """
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # also undecodable bytes, huge numbers, deep nesting
        raise InputError(f"{where}: not a JSON audit report ({exc})") from None
    if not isinstance(data, dict):
        raise InputError(f"{where}: not a JSON audit report (expected an object)")
    rho_fp = _prob(data, "rho_fp", where)
    rho_pf = _prob(data, "rho_pf", where)
    ci = (rho_fp, rho_fp)
    rates = data.get("rates")
    if isinstance(rates, dict) and isinstance(rates.get("rho_fp"), dict):
        ci = (_prob(rates["rho_fp"], "ci_low", where), _prob(rates["rho_fp"], "ci_high", where))
    label, verdict = data.get("judge"), data.get("verdict")
    return JudgePoint(
        label=label if isinstance(label, str) else "judge",
        rho_fp=rho_fp,
        rho_fp_ci=ci,
        rho_pf=rho_pf,
        verdict=verdict if isinstance(verdict, str) else None,
    )
