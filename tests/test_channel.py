"""The corruption channel: determinism, empirical rates, validation."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qcgrade.curator.channel import Channel

N = 20_000


def _labels(n_fail: int, n_pass: int) -> list[bool]:
    return [False] * n_fail + [True] * n_pass


def test_same_seed_same_output_different_seed_differs() -> None:
    ch = Channel(0.3, 0.2)
    labels = _labels(500, 500)
    assert ch.corrupt(labels, seed=7) == ch.corrupt(labels, seed=7)
    assert ch.corrupt(labels, seed=7) != ch.corrupt(labels, seed=8)


def test_does_not_touch_global_random_state() -> None:
    random.seed(1234)
    before = random.getstate()
    Channel(0.4, 0.1).corrupt(_labels(100, 100), seed=3)
    Channel(0.4, 0.1).observe(False, random.Random(5))
    assert random.getstate() == before


@pytest.mark.parametrize(
    ("rho_fp", "rho_pf"),
    [(0.0, 0.0), (0.3, 0.05), (0.45, 0.2), (0.7, 0.0), (0.01, 0.95), (0.5, 0.5)],
)
def test_empirical_rates_within_binomial_tolerance(rho_fp: float, rho_pf: float) -> None:
    labels = _labels(N, N)
    seen = Channel(rho_fp, rho_pf).corrupt(labels, seed=2024)
    fp_hat = sum(seen[:N]) / N  # true fails observed as pass
    pf_hat = sum(not s for s in seen[N:]) / N  # true passes observed as fail
    # 5 binomial standard errors: a false alarm is ~1e-6 per check.
    for hat, rho in ((fp_hat, rho_fp), (pf_hat, rho_pf)):
        assert abs(hat - rho) <= 5 * math.sqrt(rho * (1 - rho) / N) + 1e-12


def test_extreme_rates_are_exact() -> None:
    labels = _labels(50, 50)
    assert Channel.clean().corrupt(labels, seed=1) == labels
    assert Channel(1.0, 0.0).corrupt(labels, seed=1) == [True] * 100
    assert Channel(0.0, 1.0).corrupt(labels, seed=1) == [False] * 100
    assert Channel(1.0, 1.0).corrupt(labels, seed=1) == [not x for x in labels]


def test_symmetric_special_case() -> None:
    ch = Channel.symmetric(0.2)
    assert ch == Channel(rho_fp=0.2, rho_pf=0.2)
    assert ch.kappa == pytest.approx(0.6)
    labels = _labels(N, N)
    seen = ch.corrupt(labels, seed=99)
    flipped = sum(a != b for a, b in zip(labels, seen, strict=True)) / (2 * N)
    assert abs(flipped - 0.2) <= 5 * math.sqrt(0.2 * 0.8 / (2 * N))


def test_kappa() -> None:
    assert Channel(0.01, 0.95).kappa == pytest.approx(0.04)
    assert Channel(0.7, 0.4).kappa == pytest.approx(-0.1)  # allowed: an audit may find it


@pytest.mark.parametrize(
    ("rho_fp", "rho_pf"),
    [(-0.1, 0.0), (0.0, 1.1), (float("nan"), 0.0), (0.0, float("inf")), ("0.3", 0.0), (True, 0.0)],
)
def test_invalid_rates_raise(rho_fp: object, rho_pf: object) -> None:
    with pytest.raises(ValueError, match="rho_"):
        Channel(rho_fp, rho_pf)  # type: ignore[arg-type]


def test_frozen() -> None:
    ch = Channel(0.1, 0.1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        ch.rho_fp = 0.5  # type: ignore[misc]


@given(st.lists(st.booleans(), max_size=200), st.integers(min_value=0, max_value=2**32))
def test_one_draw_per_observation(labels: list[bool], seed: int) -> None:
    # Streams stay aligned whatever the labels: n observations == n draws.
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    ch = Channel(0.3, 0.6)
    for label in labels:
        ch.observe(label, rng_a)
    for _ in labels:
        rng_b.random()
    assert rng_a.getstate() == rng_b.getstate()


@given(
    st.lists(st.booleans(), min_size=1, max_size=300),
    st.integers(min_value=0, max_value=10_000),
    st.floats(min_value=0.0, max_value=1.0),
    st.floats(min_value=0.0, max_value=1.0),
)
def test_more_bias_only_hides_more_failures(labels: list[bool], seed: int, a: float, b: float) -> None:
    # Common random numbers: raising rho_fp can turn observed fails into passes, never the reverse,
    # and never changes what happens to true passes.
    lo, hi = sorted((a, b))
    seen_lo = Channel(lo, 0.1).corrupt(labels, seed)
    seen_hi = Channel(hi, 0.1).corrupt(labels, seed)
    for y, o_lo, o_hi in zip(labels, seen_lo, seen_hi, strict=True):
        if y:
            assert o_lo == o_hi
        else:
            assert o_hi >= o_lo
