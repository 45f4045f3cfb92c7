"""Wilson interval: published reference values plus structural properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qcgrade.curator.stats import Z_95, mean, proportion, wilson_interval


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        # Newcombe (1998), Stat. Med. 17:857, Table I, method 3 (Wilson score).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 10, 0.0, 0.2775),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_matches_published_values(successes: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(successes, n)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)


def test_empty_sample_is_whole_unit_interval() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_z_zero_collapses_to_point_estimate() -> None:
    lo, hi = wilson_interval(3, 12, z=0.0)
    assert lo == pytest.approx(0.25) and hi == pytest.approx(0.25)


def test_default_z_is_two_sided_95() -> None:
    assert wilson_interval(7, 40) == wilson_interval(7, 40, z=Z_95)
    assert Z_95 == pytest.approx(1.96, abs=1e-3)


@pytest.mark.parametrize(("successes", "n"), [(-1, 5), (6, 5), (0, -1)])
def test_invalid_counts_raise(successes: int, n: int) -> None:
    with pytest.raises(ValueError):
        wilson_interval(successes, n)


def test_invalid_z_and_bool_counts_raise() -> None:
    with pytest.raises(ValueError):
        wilson_interval(1, 2, z=-1.0)
    with pytest.raises(TypeError):
        wilson_interval(True, 2)


@st.composite
def counts(draw: st.DrawFn, max_n: int = 5000) -> tuple[int, int]:
    n = draw(st.integers(min_value=1, max_value=max_n))
    return draw(st.integers(min_value=0, max_value=n)), n


@given(counts())
def test_contains_point_estimate_and_stays_in_unit_interval(c: tuple[int, int]) -> None:
    k, n = c
    lo, hi = wilson_interval(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


@given(counts(max_n=1000), st.integers(min_value=2, max_value=20))
def test_narrows_as_n_grows_at_fixed_proportion(c: tuple[int, int], m: int) -> None:
    k, n = c
    lo1, hi1 = wilson_interval(k, n)
    lo2, hi2 = wilson_interval(k * m, n * m)
    assert hi2 - lo2 < hi1 - lo1


@given(counts())
def test_mirror_symmetry(c: tuple[int, int]) -> None:
    # Counting failures instead of successes must mirror the interval.
    k, n = c
    lo, hi = wilson_interval(k, n)
    lo_m, hi_m = wilson_interval(n - k, n)
    assert lo == pytest.approx(1.0 - hi_m, abs=1e-12)
    assert hi == pytest.approx(1.0 - lo_m, abs=1e-12)


@given(counts(), st.floats(min_value=0.1, max_value=3.0))
def test_wider_with_larger_z(c: tuple[int, int], z: float) -> None:
    k, n = c
    lo1, hi1 = wilson_interval(k, n, z=z)
    lo2, hi2 = wilson_interval(k, n, z=z + 0.5)
    assert lo2 <= lo1 and hi1 <= hi2


def test_proportion_and_mean() -> None:
    assert proportion(3, 12) == 0.25
    assert proportion(0, 0) == 0.0
    assert mean([1.0, 2.0, 6.0]) == 3.0
    with pytest.raises(ValueError):
        mean([])
