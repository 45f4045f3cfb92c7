"""Options mean what they say, whatever shape they are given in."""

from __future__ import annotations

import pytest

from qcgrade import Options, UnknownCheckError, grade

SLICE = {"section": "s1", "cards": [{"id": "E001", "stance": "bull"}]}


def test_one_string_is_one_name_not_letters() -> None:
    assert Options(select="bare_number").select == frozenset({"bare_number"})
    assert Options(ignore="bare_number").ignore == frozenset({"bare_number"})
    assert Options(hedge_words="may").hedge_words == ("may",)


def test_lists_and_sets_become_hashable() -> None:
    options = Options(select=["bare_number", "orphan_citation"], hedge_words=["may", "could"])
    assert hash(options) == hash(Options(select={"orphan_citation", "bare_number"}, hedge_words=("may", "could")))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"coverage_floor": -1}, "coverage_floor"),
        ({"coverage_floor": True}, "coverage_floor"),
        ({"coverage_floor": 1.5}, "coverage_floor"),
        ({"tier2": "yes"}, "tier2"),
        ({"allow_years": 1}, "allow_years"),
        ({"hedge_words": ["may", 3]}, "hedge_words"),
    ],
)
def test_wrong_types_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Options(**kwargs)


def test_grade_takes_a_mapping_of_options() -> None:
    report = grade("Revenue grew 30%.", SLICE, {"tier2": True, "allow_years": False})
    assert "coverage_floor" in report.counts
    with pytest.raises(ValueError, match="unknown option 'tier3'"):
        grade("x", SLICE, {"tier3": True})


def test_a_selection_that_leaves_no_check_is_refused_not_passed() -> None:
    with pytest.raises(UnknownCheckError, match="no check to run"):
        grade("Revenue grew 30%.", SLICE, Options(select={"bare_number"}, ignore={"bare_number"}))
