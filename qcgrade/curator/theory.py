"""The curator algebra of the blind-curator paper (section 4, appendix C).

A Ratchet-style curator retires a skill once its empirical contribution
``2*p_hat - 1`` falls to ``-tau`` after ``n >= N_min`` trials, i.e. once its
*observed* pass rate drops to the cliff ``pi_tau = (1 - tau)/2``. A judge is
modelled as a binary channel on the true outcome (C.1)::

    P(observed pass | true fail) = rho_{F->P}   (hidden failure, "rho_fp")
    P(observed fail | true pass) = rho_{P->F}   (phantom failure, "rho_pf")

under which a skill with true pass rate ``p`` is observed to pass at
``kappa * p + rho_fp`` with ``kappa = 1 - rho_fp - rho_pf``. Symmetric noise
only *compresses* that statistic towards 1/2 (graceful), whereas false-pass
bias *displaces* it upwards, so past ``rho_fp = pi_tau`` no skill is retired at
any sample size (a cliff). These closed forms let an operator read off, from
audited error rates alone, which side of the cliff a judge sits on.

Everything here is a pure function of floats; rates are validated to lie in
[0, 1] so a mistyped percentage (e.g. 45 instead of 0.45) fails loudly.
"""

from __future__ import annotations

import math

__all__ = [
    "VERDICTS",
    "at_least",
    "cliff",
    "effective_tau",
    "kappa",
    "max_operative_tau",
    "n_min_inflation",
    "observed_pass_rate",
    "prop1_floor_terms",
    "retirement_ceiling",
    "true_pass_threshold",
    "verdict",
    "verdict_name",
]

#: Possible outputs of :func:`verdict`, most severe first. "starved" ranks below
#: "at risk": safe from bias, a starved curator only learns slowly.
VERDICTS = ("blind curator", "at risk", "starved", "safe")


def _rate(name: str, value: float) -> float:
    # bool is an int subclass; NaN fails the range test on its own.
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be a probability in [0, 1], got {value!r}")
    return float(value)


def cliff(tau: float) -> float:
    """Retirement threshold on the observed pass rate, ``pi_tau = (1 - tau)/2`` (C.1).

    ``2*p_hat - 1 <= -tau`` is the same event as ``p_hat <= pi_tau``; it is
    also the false-pass rate at which retirement dies (0.45 for tau = 0.10).
    """
    return (1.0 - _rate("tau", tau)) / 2.0


def kappa(rho_fp: float, rho_pf: float) -> float:
    """Channel resolution ``kappa = 1 - rho_{F->P} - rho_{P->F}`` (C.1).

    The slope from true to observed pass rate. Near 0 the judge cannot tell
    good skills from bad; negative means its verdicts are anti-informative.
    """
    return 1.0 - _rate("rho_fp", rho_fp) - _rate("rho_pf", rho_pf)


def observed_pass_rate(p_true: float, rho_fp: float, rho_pf: float) -> float:
    """Observed pass rate ``p_obs = kappa * p + rho_{F->P}`` (C.1).

    The mean the empirical pass rate concentrates on; equivalently
    ``p*(1 - rho_pf) + (1 - p)*rho_fp``.
    """
    return kappa(rho_fp, rho_pf) * _rate("p_true", p_true) + rho_fp


def max_operative_tau(rho_fp: float) -> float:
    """Supremum of tau that keeps retirement operative: ``1 - 2*rho_{F->P}`` (C.2 rule 2).

    Retirement needs ``pi_tau > rho_fp``, i.e. ``tau < 1 - 2*rho_fp``, so the
    bound itself is excluded (strict inequality). Clamped at 0: for
    ``rho_fp >= 1/2`` no non-negative tau helps and the only remedy is a
    better judge, which a return value of 0.0 signals.
    """
    return max(0.0, 1.0 - 2.0 * _rate("rho_fp", rho_fp))


def retirement_ceiling(tau: float, rho_fp: float) -> float:
    """Largest true pass rate still retired under pure false-pass bias (C.1 ii).

    ``(pi_tau - rho_{F->P}) / (1 - rho_{F->P})`` with ``rho_{P->F} = 0``.
    The raw value is returned on purpose: ``<= 0`` means retirement is
    inoperative (no skill, not even one that always fails, is retired in
    expectation), and how negative it is shows how far past the cliff the
    judge sits. ``rho_fp == 1`` (every failure hidden) gives ``-inf``.
    """
    pi = cliff(tau)
    rho = _rate("rho_fp", rho_fp)
    if rho >= 1.0:
        return -math.inf
    return (pi - rho) / (1.0 - rho)


def true_pass_threshold(tau: float, rho_fp: float, rho_pf: float) -> float:
    """True pass rate at or below which retirement fires in expectation, any channel.

    Solving ``kappa*p + rho_fp <= pi_tau`` gives ``p <= (pi_tau - rho_fp)/kappa``
    (C.1). It reduces to :func:`retirement_ceiling` when ``rho_pf = 0`` and to
    ``1/2 - (tau/2)/(1 - 2 rho)`` under symmetric noise (C.1 i). For
    ``kappa <= 0`` the ordering is lost and ``-inf`` (never retires
    meaningfully) is returned.
    """
    k = kappa(rho_fp, rho_pf)
    if k <= 0.0:
        return -math.inf
    return (cliff(tau) - rho_fp) / k


def effective_tau(tau: float, rho: float) -> float:
    """Effective retirement margin under symmetric noise, ``tau / (1 - 2 rho)`` (C.1 i).

    ``inf`` for ``rho >= 1/2``: the compressed statistic no longer orders
    skills, so no finite margin on the true scale corresponds to tau.
    """
    _rate("tau", tau)
    if _rate("rho", rho) >= 0.5:
        return math.inf
    return tau / (1.0 - 2.0 * rho)


def n_min_inflation(rho: float) -> float:
    """Factor by which N_min must grow under symmetric noise, ``(1 - 2 rho)^-2`` (C.1 i).

    Hoeffding must resolve means separated by a factor ``1 - 2 rho``. ``inf``
    for ``rho >= 1/2`` (the formula would turn finite again above 1/2, but
    there the signal is inverted and no sample size rescues retirement).
    """
    if _rate("rho", rho) >= 0.5:
        return math.inf
    return (1.0 - 2.0 * rho) ** -2


def prop1_floor_terms(
    tau: float,
    eps: float,
    rho_fp_bar: float,
    rho_pf_bar: float,
    cap: int,
    delta: float,
) -> dict[str, float | bool]:
    """Separate penalty terms of the Proposition 1' floor (C.2).

    ``E[pass@1] >= E[p0] - margin - attenuation - tail`` with::

        margin      = (tau/2 + eps + rho_fp_bar) / kappa_lower
        attenuation = (1 - kappa_lower) / 2
        tail        = cap * delta
        total       = margin + attenuation + tail

    where ``kappa_lower = 1 - rho_fp_bar - rho_pf_bar``. The proposition
    assumes ``kappa_lower > 0``; otherwise the bound is vacuous and ``margin``
    and ``total`` are ``inf``. ``retirement_operative`` is False when
    ``rho_fp_bar >= pi_tau``: the paper reads the bound as vacuous there too
    (retirement never fires), although the formula's terms stay finite, so a
    caller should not quote ``total`` as a guarantee in that case.
    """
    pi = cliff(tau)
    fp = _rate("rho_fp_bar", rho_fp_bar)
    pf = _rate("rho_pf_bar", rho_pf_bar)
    d = _rate("delta", delta)
    if not (math.isfinite(eps) and eps >= 0.0):
        raise ValueError(f"eps must be a finite non-negative number, got {eps!r}")
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
        raise ValueError(f"cap must be a non-negative integer, got {cap!r}")
    k_low = 1.0 - fp - pf
    margin = (tau / 2.0 + eps + fp) / k_low if k_low > 0.0 else math.inf
    attenuation = 0.5 * (1.0 - k_low)
    tail = cap * d
    return {
        "attenuation": attenuation,
        "kappa_lower": k_low,
        "margin": margin,
        "retirement_operative": fp < pi,
        "tail": tail,
        "total": margin + attenuation + tail,
    }


def verdict(
    rho_fp: float,
    rho_fp_ci_high: float,
    kappa: float,
    tau: float,
    starved_kappa: float = 0.1,
) -> str:
    """Classify an audited judge: "blind curator", "at risk", "starved" or "safe".

    Checked in order of severity, first match wins:

    1. ``rho_fp >= pi_tau`` -> "blind curator": the point estimate is past
       the cliff, retirement is inoperative at any sample size (C.1 ii).
    2. ``rho_fp_ci_high >= pi_tau`` -> "at risk": the audit cannot rule out
       the cliff (e.g. the upper Wilson bound reaches it); audit more.
    3. ``kappa < starved_kappa`` -> "starved": safe from bias but with too
       little resolution to separate good skills from bad, like the paper's
       strict judge (rho_fp ~ 0.01, rho_pf ~ 0.95, kappa ~ 0.04; section 5).
    4. otherwise "safe".

    Bias outranks starvation because a blind curator keeps harmful skills,
    whereas a starved one merely learns slowly. ``kappa`` is taken as given
    (not recomputed) so callers may pass a lower confidence bound for it.
    """
    pi = cliff(tau)
    if _rate("rho_fp", rho_fp) >= pi:
        return "blind curator"
    if _rate("rho_fp_ci_high", rho_fp_ci_high) >= pi:
        return "at risk"
    if kappa < starved_kappa:
        return "starved"
    return "safe"


def verdict_name(text: str) -> str:
    """A verdict as a user may type it (``at-risk``, ``Blind_Curator``) -> its name; ValueError when none."""
    name = " ".join(text.strip().lower().replace("-", " ").replace("_", " ").split())
    if name not in VERDICTS:
        raise ValueError(f"unknown verdict {text!r}; verdicts, most severe first: {', '.join(VERDICTS)}")
    return name


def at_least(name: str, threshold: str) -> bool:
    """Whether verdict ``name`` is ``threshold`` or more severe (``"blind curator"`` is at least ``"at risk"``)."""
    return VERDICTS.index(name) <= VERDICTS.index(threshold)
