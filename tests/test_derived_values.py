"""Figures an honest writer computes from two stated ones, and what they never stand for."""

from __future__ import annotations

from decimal import Decimal

from qcgrade.grounding.values import Value, derived_values, read_numeral, same_value


def _value(written: str, after: str = "") -> Value:
    value = read_numeral(written, "", after)
    assert value is not None, written
    return value


def _matches(written: str, stated: list[Value], moves: frozenset[int] = frozenset(), after: str = "") -> bool:
    return any(same_value(_value(written, after), v) for v in derived_values(stated, moves=moves))


RISE = [_value("6.2%"), _value("$2.56B")]  # "rose 6.2% to $2.56B"


def test_the_earlier_level_of_a_change_in_percent() -> None:
    assert _matches("$2.41B", RISE, frozenset({1}))  # 2.56 / 1.062
    assert not _matches("$2.73B", RISE, frozenset({1}))  # as if it fell: 2.56 / 0.938
    assert _matches("$2.73B", RISE, frozenset({-1}))
    assert _matches("$2.41B", RISE) and _matches("$2.73B", RISE)  # the source says neither way
    assert not _matches("$2.72B", RISE, frozenset({1}))
    assert not _matches("$2.42B", RISE, frozenset({1}))  # the level's own precision, no wider


def test_the_level_after_a_change_is_not_computed() -> None:
    assert not _matches("$2.72B", RISE, frozenset({1}))  # 2.56 * 1.062


def test_a_computed_level_or_multiple_is_never_a_percentage_or_a_bare_number() -> None:
    prices = [_value("$0.12"), _value("$0.88")]
    assert _matches("7x", prices)  # 0.88 / 0.12 = 7.33
    assert _matches("7", prices, after=" times")
    assert not _matches("7", prices)
    assert not _matches("7%", prices)
    assert not _matches("2.41%", RISE, frozenset({1}))


def test_amounts_at_different_scales_give_their_difference_and_sum() -> None:
    amounts = [_value("€1.2bn"), _value("€850m")]
    assert _matches("€350m", amounts)
    assert _matches("€2.05bn", amounts)
    assert not _matches("€500m", amounts)


def test_derived_values_stay_bounded() -> None:
    many = [Value(Decimal(n), Decimal("0.5"), 0, "plain") for n in range(1, 200)]
    many += [Value(Decimal(n), Decimal("0.5"), 0, "percent") for n in range(1, 200)]
    assert len(derived_values(many)) < 24 * 24 * 6
