"""Figures an honest writer computes from stated ones, and what they never stand for."""

from __future__ import annotations

from decimal import Decimal

from qcgrade.grounding.values import Value, clause_values, derived_values, read_numeral, same_value


def _value(written: str, after: str = "") -> Value:
    value = read_numeral(written, "", after)
    assert value is not None, written
    return value


def _in(written: str, computed: list[Value], after: str = "") -> bool:
    return any(same_value(_value(written, after), v) for v in computed)


RISE = (_value("6.2%"), _value("$2.56B"))  # the clause "rose 6.2% to $2.56B"


def test_the_earlier_level_of_a_change_in_percent_the_way_the_clause_moved() -> None:
    up, down = clause_values(RISE, 1), clause_values(RISE, -1)
    assert _in("$2.41B", up)  # 2.56 / 1.062
    assert not _in("$2.73B", up)  # as if it fell: 2.56 / 0.938
    assert _in("$2.73B", down)
    assert not _in("$2.42B", up) and not _in("$2.0bn", up)  # as computed from the figures written, no wider
    assert _in("$150m", up)  # the amount it moved by


def test_the_level_after_a_change_is_not_computed() -> None:
    assert not _in("$2.72B", clause_values(RISE, 1))  # 2.56 * 1.062


def test_a_clause_with_two_percentages_gives_no_earlier_level() -> None:
    margin_too = (_value("6.2%"), _value("38%"), _value("$2.56B"))
    assert not _in("$1.86B", clause_values(margin_too, 1)) and not _in("$2.41B", clause_values(margin_too, 1))


def test_a_ratio_of_two_levels_in_a_clause_is_a_multiple_only() -> None:
    eps = clause_values((_value("$0.88"), _value("$0.12")), 1)
    assert _in("7x", eps)  # 0.88 / 0.12 = 7.33
    assert _in("7", eps, after=" times") and _in("7", eps, after="\u00d7") and _in("7", eps, after="-fold")
    assert not _in("7", eps)
    assert not _in("7%", eps)


def test_a_fall_in_percent_is_measured_from_the_higher_level() -> None:
    fell = clause_values((_value("$479m"), _value("$548m")), -1)
    assert _in("12.6%", fell)
    assert not _in("12.6%", clause_values((_value("$479m"), _value("$548m")), 1))
    assert _in("14.4%", derived_values([_value("$479m"), _value("$548m")]))  # a rise, from the lower level


def test_amounts_at_different_scales_give_their_difference_and_sum() -> None:
    amounts = derived_values([_value("€1.2bn"), _value("€850m")])
    assert _in("€350m", amounts)
    assert _in("€2.05bn", amounts)
    assert not _in("€310m", amounts) and not _in("€400m", amounts)  # the finer figure's rounding, not the coarser's


def test_a_computed_percentage_or_level_never_stands_for_the_other() -> None:
    assert not _in("2.41%", clause_values(RISE, 1))
    assert not _in("14", derived_values([_value("$479m"), _value("$548m")]))  # 14.4% is no bare number


def test_derived_values_stay_bounded() -> None:
    many = [Value(Decimal(n), Decimal("0.5"), 0, "plain") for n in range(1, 200)]
    many += [Value(Decimal(n), Decimal("0.5"), 0, "percent") for n in range(1, 200)]
    assert len(derived_values(many)) < 24 * 24 * 6
