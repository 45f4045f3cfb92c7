"""Small, dependency-free interval statistics for judge audits.

A defect-injection audit (paper, section 5 and appendix E) estimates a judge's
error rates from a few dozen to a few hundred graded injections, e.g.
rho_{F->P} ~ 0.01 from n = 210. Reporting such a rate without an interval
invites reading 0/70 as "the judge never waves failures through", so every
audited rate in qcgrade carries a Wilson score interval.

Wilson rather than the Wald (normal) interval because Wald collapses to a
zero-width interval at 0 or n successes and leaves [0, 1] for small n -- exactly
the regime of a strict judge whose false-pass count is near zero.
"""

from __future__ import annotations

import math

#: Two-sided 95% standard-normal quantile, Phi^{-1}(0.975).
Z_95 = 1.959963984540054


def _check_counts(successes: int, n: int) -> None:
    # bool is an int subclass; a stray True would silently count as 1 trial.
    if isinstance(successes, bool) or isinstance(n, bool):
        raise TypeError("successes and n must be integers, not bool")
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in [0, n={n}], got {successes}")


def proportion(successes: int, n: int) -> float:
    """Point estimate successes / n; 0.0 when n == 0 (no evidence, no rate)."""
    _check_counts(successes, n)
    return successes / n if n else 0.0


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    ``(centre -/+ half) / (1 + z^2/n)`` with ``centre = p_hat + z^2/(2n)`` and
    ``half = z * sqrt(p_hat(1-p_hat)/n + z^2/(4n^2))``.

    For ``n == 0`` the data say nothing, so the interval is the whole unit
    interval ``(0.0, 1.0)``. The result is clamped to [0, 1] only to absorb
    floating-point round-off; mathematically it already lies inside.
    """
    _check_counts(successes, n)
    if not (math.isfinite(z) and z >= 0):
        raise ValueError(f"z must be a finite non-negative number, got {z}")
    if n == 0:
        return (0.0, 1.0)
    p_hat = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = p_hat + z2 / (2.0 * n)
    half = z * math.sqrt(p_hat * (1.0 - p_hat) / n + z2 / (4.0 * n * n))
    low = (centre - half) / denom
    high = (centre + half) / denom
    # At the boundaries the exact bound is 0 (or 1); round-off can leave 1e-17.
    if successes == 0:
        low = 0.0
    if successes == n:
        high = 1.0
    return (max(0.0, min(1.0, low)), max(0.0, min(1.0, high)))


def mean(values: list[float] | tuple[float, ...]) -> float:
    """Arithmetic mean; raises on empty input rather than inventing a value."""
    if not values:
        raise ValueError("mean of an empty sequence is undefined")
    return math.fsum(values) / len(values)
