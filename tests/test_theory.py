"""Curator algebra (paper section 4, appendix C) against hand-computed values."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from qcgrade.curator import theory as th
from qcgrade.curator.stats import wilson_interval

rates = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
taus = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


def test_cliff_of_paper_tau() -> None:
    # tau = 0.10 puts the cliff at q = 0.45 (paper, sections 4 and 6).
    assert th.cliff(0.10) == pytest.approx(0.45)
    assert th.cliff(0.0) == 0.5


def test_paper_strict_judge_is_starved() -> None:
    # Appendix E: rho_fp ~ 0.01 (n=210), rho_pf ~ 0.95 -> kappa ~ 0.04.
    k = th.kappa(0.01, 0.95)
    assert k == pytest.approx(0.04)
    _, high = wilson_interval(2, 210)
    assert th.verdict(0.01, high, k, tau=0.10) == "starved"


def test_observed_pass_rate_hand_values() -> None:
    # kappa * p + rho_fp, e.g. 0.7 * 0.2 + 0.2 = 0.34.
    assert th.observed_pass_rate(0.2, 0.2, 0.1) == pytest.approx(0.34)
    # Pure bias: p + rho_fp (1 - p) = 0.1 + 0.5 * 0.9.
    assert th.observed_pass_rate(0.1, 0.5, 0.0) == pytest.approx(0.55)
    assert th.observed_pass_rate(0.3, 0.0, 0.0) == pytest.approx(0.3)


@given(rates, st.floats(min_value=0.0, max_value=0.5))
def test_symmetric_noise_compresses_towards_half(p: float, rho: float) -> None:
    # C.1 (i): p_obs - 1/2 = (1 - 2 rho)(p - 1/2).
    assert th.observed_pass_rate(p, rho, rho) - 0.5 == pytest.approx((1 - 2 * rho) * (p - 0.5), abs=1e-12)


@given(rates, st.floats(min_value=0.0, max_value=0.99))
def test_false_pass_bias_displaces_upwards(p: float, rho_fp: float) -> None:
    # C.1 (ii): p_obs = p + rho_fp (1 - p) >= max(p, rho_fp).
    obs = th.observed_pass_rate(p, rho_fp, 0.0)
    assert obs == pytest.approx(p + rho_fp * (1 - p), abs=1e-12)
    assert obs >= max(p, rho_fp) - 1e-12


def test_max_operative_tau() -> None:
    assert th.max_operative_tau(0.0) == 1.0
    assert th.max_operative_tau(0.2) == pytest.approx(0.6)
    assert th.max_operative_tau(0.45) == pytest.approx(0.1)
    assert th.max_operative_tau(0.5) == 0.0
    assert th.max_operative_tau(0.7) == 0.0  # clamped


@given(st.floats(min_value=0.0, max_value=0.49), taus)
def test_max_operative_tau_is_where_cliff_meets_rho(rho_fp: float, tau: float) -> None:
    bound = th.max_operative_tau(rho_fp)
    assume(abs(tau - bound) > 1e-9)
    assert (th.cliff(tau) > rho_fp) == (tau < bound)


def test_retirement_ceiling_hand_values() -> None:
    assert th.retirement_ceiling(0.10, 0.0) == pytest.approx(0.45)
    assert th.retirement_ceiling(0.10, 0.2) == pytest.approx(0.25 / 0.8)
    assert th.retirement_ceiling(0.10, 0.45) == pytest.approx(0.0, abs=1e-12)
    assert th.retirement_ceiling(0.10, 0.7) == pytest.approx(-0.25 / 0.3)
    assert th.retirement_ceiling(0.10, 1.0) == -math.inf


@given(taus, st.floats(min_value=0.0, max_value=0.99))
def test_ceiling_sign_flips_exactly_at_cliff(tau: float, rho_fp: float) -> None:
    assume(abs(rho_fp - th.cliff(tau)) > 1e-9)
    assert (th.retirement_ceiling(tau, rho_fp) > 0) == (rho_fp < th.cliff(tau))


@given(taus, st.floats(min_value=0.0, max_value=0.99))
def test_general_threshold_reduces_to_pure_bias_ceiling(tau: float, rho_fp: float) -> None:
    assert th.true_pass_threshold(tau, rho_fp, 0.0) == pytest.approx(th.retirement_ceiling(tau, rho_fp), abs=1e-9)


@given(taus, st.floats(min_value=0.0, max_value=0.49))
def test_general_threshold_reduces_to_symmetric_formula(tau: float, rho: float) -> None:
    # C.1 (i): retire iff p <= 1/2 - (tau/2)/(1 - 2 rho) = 1/2 - tau_eff/2.
    expected = 0.5 - th.effective_tau(tau, rho) / 2
    assert th.true_pass_threshold(tau, rho, rho) == pytest.approx(expected, abs=1e-9)


@given(taus, rates, rates)
def test_threshold_maps_onto_cliff(tau: float, rho_fp: float, rho_pf: float) -> None:
    # The threshold is by definition the true rate observed exactly at pi_tau.
    p = th.true_pass_threshold(tau, rho_fp, rho_pf)
    assume(0.0 <= p <= 1.0 and th.kappa(rho_fp, rho_pf) > 1e-3)
    assert th.observed_pass_rate(p, rho_fp, rho_pf) == pytest.approx(th.cliff(tau), abs=1e-9)


def test_threshold_without_resolution_is_minus_inf() -> None:
    assert th.true_pass_threshold(0.1, 0.5, 0.5) == -math.inf


def test_effective_tau_and_n_min_inflation() -> None:
    assert th.effective_tau(0.10, 0.0) == pytest.approx(0.10)
    assert th.effective_tau(0.10, 0.2) == pytest.approx(0.10 / 0.6)
    assert th.effective_tau(0.10, 0.5) == math.inf
    assert th.n_min_inflation(0.0) == 1.0
    assert th.n_min_inflation(0.25) == pytest.approx(4.0)
    assert th.n_min_inflation(0.4) == pytest.approx(25.0)
    assert th.n_min_inflation(0.5) == math.inf
    assert th.n_min_inflation(0.8) == math.inf


@given(st.floats(min_value=0.0, max_value=0.49), st.floats(min_value=0.0, max_value=0.49))
def test_noise_degrades_monotonically_but_finitely(r1: float, r2: float) -> None:
    lo, hi = sorted((r1, r2))
    assert 1.0 <= th.n_min_inflation(lo) <= th.n_min_inflation(hi) < math.inf


def test_prop1_floor_terms_strict_judge() -> None:
    # (tau/2 + eps + rho_fp)/kappa = (0.05 + 0.05 + 0.01)/0.04 = 2.75: vacuous in practice.
    t = th.prop1_floor_terms(tau=0.10, eps=0.05, rho_fp_bar=0.01, rho_pf_bar=0.95, cap=12, delta=0.001)
    assert t["kappa_lower"] == pytest.approx(0.04)
    assert t["margin"] == pytest.approx(2.75)
    assert t["attenuation"] == pytest.approx(0.48)
    assert t["tail"] == pytest.approx(0.012)
    assert t["total"] == pytest.approx(2.75 + 0.48 + 0.012)
    assert t["retirement_operative"] is True


def test_prop1_floor_terms_clean_and_vacuous() -> None:
    clean = th.prop1_floor_terms(0.10, 0.0, 0.0, 0.0, 12, 0.0)
    assert clean["margin"] == pytest.approx(0.05)
    assert clean["attenuation"] == 0.0 and clean["tail"] == 0.0
    vac = th.prop1_floor_terms(0.10, 0.01, 0.6, 0.4, 12, 0.01)
    assert vac["margin"] == math.inf and vac["total"] == math.inf
    assert vac["retirement_operative"] is False
    past = th.prop1_floor_terms(0.10, 0.01, 0.5, 0.0, 12, 0.01)
    assert past["retirement_operative"] is False and math.isfinite(past["total"])


@pytest.mark.parametrize(
    ("rho_fp", "ci_high", "kappa", "expected"),
    [
        (0.45, 0.50, 0.55, "blind curator"),  # exactly at the cliff counts
        (0.70, 0.80, 0.01, "blind curator"),  # bias outranks starvation
        (0.449, 0.45, 0.55, "at risk"),  # upper bound just reaches the cliff
        (0.30, 0.60, 0.02, "at risk"),
        (0.01, 0.449, 0.099, "starved"),
        (0.01, 0.034, 0.04, "starved"),
        (0.01, 0.034, 0.10, "safe"),  # kappa == starved_kappa is not starved
        (0.0, 0.0, 1.0, "safe"),
    ],
)
def test_verdict_boundaries(rho_fp: float, ci_high: float, kappa: float, expected: str) -> None:
    assert th.verdict(rho_fp, ci_high, kappa, tau=0.10) == expected
    assert expected in th.VERDICTS


def test_verdict_respects_tau_and_starved_threshold() -> None:
    # A wider tau moves the cliff down: 0.3 is safe at tau 0.1, blind at tau 0.5.
    assert th.verdict(0.3, 0.35, 0.6, tau=0.10) == "safe"
    assert th.verdict(0.3, 0.35, 0.6, tau=0.50) == "blind curator"
    assert th.verdict(0.01, 0.03, 0.3, tau=0.10, starved_kappa=0.5) == "starved"


@pytest.mark.parametrize("bad", [-0.01, 1.01, float("nan"), 45])
def test_invalid_rates_raise(bad: float) -> None:
    with pytest.raises(ValueError):
        th.kappa(bad, 0.0)
    with pytest.raises(ValueError):
        th.retirement_ceiling(0.1, bad)
    with pytest.raises(ValueError):
        th.cliff(bad)
