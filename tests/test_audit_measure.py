"""Rates, intervals, theory terms and verdicts computed from judged items (no judge needed)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from qcgrade.auditing.items import AuditItem, ItemSet
from qcgrade.auditing.judges import Verdict
from qcgrade.auditing.measure import hoeffding_eps, measure
from qcgrade.auditing.report import Inapplicable, Skipped
from qcgrade.auditing.runner import Outcome
from qcgrade.curator.stats import wilson_interval
from qcgrade.curator.theory import prop1_floor_terms

DEFECTS = ("orphan_citation", "bare_number", "number_swap")
VISIBLE = {"orphan_citation": True, "bare_number": True, "number_swap": False}


def _items(counts: dict[str, tuple[int, int]], errors: dict[str, int] | None = None) -> tuple[ItemSet, list[Outcome]]:
    """``counts[kind] = (judged pass, judged fail)``; ``errors[kind]`` items the judge could not answer."""
    items: list[AuditItem] = []
    outcomes: list[Outcome] = []
    errors = errors or {}
    for kind, (passes, fails) in counts.items():
        answers = [True] * passes + [False] * fails + [None] * errors.get(kind, 0)
        for k, answer in enumerate(answers):
            visible = None if kind == "clean" else VISIBLE[kind]
            targets = () if kind == "clean" else ((10, 20),)
            items.append(AuditItem(f"s{k}#{kind}@0", f"s{k}", kind, 0, "text", {}, visible, None, targets))
            outcomes.append(Outcome(None, error="boom", attempts=2) if answer is None else Outcome(Verdict(answer)))
    return ItemSet(tuple(items), 1, (), (), DEFECTS), outcomes


def _measure(counts: dict[str, tuple[int, int]], tau: float = 0.10, **kw: Any) -> Any:
    item_set, outcomes = _items(counts, kw.pop("errors", None))
    return measure(item_set, outcomes, judge="test", tau=tau, seeds=(0,), **kw)


def test_rates_and_intervals() -> None:
    report = _measure({"clean": (8, 2), "orphan_citation": (1, 9), "bare_number": (0, 10), "number_swap": (7, 3)})
    assert (report.rho_fp.count, report.rho_fp.n) == (8, 30)
    assert report.rho_fp.value == pytest.approx(8 / 30)
    assert (report.rho_fp.ci_low, report.rho_fp.ci_high) == wilson_interval(8, 30)
    assert (report.rho_fp_visible.count, report.rho_fp_visible.n) == (1, 20)
    assert (report.rho_fp_invisible.count, report.rho_fp_invisible.n) == (7, 10)
    assert (report.rho_pf.count, report.rho_pf.n, report.rho_pf.value) == (2, 10, 0.2)
    assert report.kappa == pytest.approx(1 - 8 / 30 - 0.2)
    fp_lo, fp_hi = wilson_interval(8, 30)
    pf_lo, pf_hi = wilson_interval(2, 10)
    assert report.kappa_ci == pytest.approx((1 - fp_hi - pf_hi, 1 - fp_lo - pf_lo))
    oc = report.per_class["orphan_citation"]
    assert (oc.flag.n, oc.flag.count, oc.flag.value, oc.visible) == (10, 9, 0.9, True)
    assert report.per_class["number_swap"].visible is False and report.clean.visible is None


def test_judge_errors_are_not_in_any_rate() -> None:
    report = _measure(
        {"clean": (5, 0), "orphan_citation": (0, 5), "bare_number": (0, 5), "number_swap": (0, 5)},
        errors={"clean": 3, "number_swap": 2},
    )
    assert report.rho_pf.n == 5 and report.rho_fp.n == 15 and report.rho_fp.count == 0
    assert report.clean.errors == 3 and report.per_class["number_swap"].errors == 2
    assert [e.kind for e in report.judge_errors] == ["clean"] * 3 + ["number_swap"] * 2
    assert all(e.error == "boom" and e.attempts == 2 for e in report.judge_errors)
    assert sum(1 for i in report.items if i.passed is None) == 5


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        # 9 of 20 hidden: exactly at the cliff (0.45) counts as past it.
        ({"clean": (20, 0), "orphan_citation": (9, 11)}, "blind curator"),
        ({"clean": (20, 0), "orphan_citation": (20, 0)}, "blind curator"),
        # 3 of 10: below the cliff, but the Wilson upper bound (~0.61) reaches it.
        ({"clean": (10, 0), "orphan_citation": (3, 7)}, "at risk"),
        # The paper's strict judge: almost no false passes, almost all false fails.
        ({"clean": (2, 38), "orphan_citation": (1, 199)}, "starved"),
        ({"clean": (38, 2), "orphan_citation": (10, 190)}, "safe"),
        # No scored injection at all: nothing rules the cliff out.
        ({"clean": (10, 0)}, "at risk"),
    ],
)
def test_verdicts_follow_the_playbook(counts: dict[str, tuple[int, int]], expected: str) -> None:
    report = _measure(counts)
    assert report.verdict == expected
    assert f"{report.rho_fp.value:.3f}" in report.verdict_reason


def test_tau_moves_the_cliff() -> None:
    counts = {"clean": (100, 0), "orphan_citation": (60, 140)}  # rho_fp = 0.30
    assert _measure(counts, tau=0.10).verdict == "safe"
    assert _measure(counts, tau=0.50).verdict == "blind curator"  # cliff 0.25
    assert _measure(counts, tau=0.50).theory.cliff == 0.25


def test_theory_terms() -> None:
    report = _measure({"clean": (90, 10), "orphan_citation": (20, 80)}, tau=0.10, n_min=50, cap=8, delta=0.05)
    t = report.theory
    assert t.symmetric_rho == pytest.approx(0.15)
    assert t.effective_tau == pytest.approx(0.10 / 0.7)
    assert t.n_min_inflation == pytest.approx(0.7**-2)
    assert t.max_operative_tau == pytest.approx(0.6)
    assert t.eps == pytest.approx(math.sqrt(math.log(40) / 100))
    assert t.prop1 == prop1_floor_terms(0.10, t.eps, report.rho_fp.ci_high, report.rho_pf.ci_high, 8, 0.05)


def test_hoeffding_eps_validates() -> None:
    assert hoeffding_eps(24, 0.01) == pytest.approx(math.sqrt(math.log(200) / 48))
    with pytest.raises(ValueError):
        hoeffding_eps(0, 0.01)
    with pytest.raises(ValueError):
        hoeffding_eps(24, 0.0)


def test_span_jaccard_only_for_flags_with_spans() -> None:
    def item(kind: str, k: int, targets: tuple[tuple[int, int], ...]) -> AuditItem:
        return AuditItem(f"s#{kind}@{k}", "s", kind, k, "text", {}, True, None, targets)

    items = (
        item("orphan_citation", 0, ((10, 20),)),  # fail, spans [10, 20) -> 1.0
        item("orphan_citation", 1, ((10, 20),)),  # fail, spans [15, 25) -> 5/15
        item("orphan_citation", 2, ((10, 20),)),  # pass with spans -> ignored
        item("orphan_citation", 3, ((10, 20),)),  # fail without spans -> ignored
        item("bare_number", 0, ((7, 7),)),  # a deletion: nothing to overlap -> ignored
    )
    outcomes = [
        Outcome(Verdict(False, ((10, 20),))),
        Outcome(Verdict(False, ((15, 25),))),
        Outcome(Verdict(True, ((10, 20),))),
        Outcome(Verdict(False)),
        Outcome(Verdict(False, ((7, 9),))),
    ]
    report = measure(ItemSet(items, 1, (), (), DEFECTS), outcomes, judge="j", tau=0.1, seeds=(0,))
    oc = report.per_class["orphan_citation"]
    assert oc.span_n == 2 and oc.span_jaccard == pytest.approx((1.0 + 5 / 15) / 2)
    assert report.per_class["bare_number"].span_jaccard is None
    assert [i.span_jaccard for i in report.items] == [1.0, pytest.approx(1 / 3), None, None, None]


def _keys_sorted(obj: Any) -> bool:
    if isinstance(obj, dict):
        return list(obj) == sorted(obj) and all(_keys_sorted(v) for v in obj.values())
    if isinstance(obj, list):
        return all(_keys_sorted(v) for v in obj)
    return True


def test_json_form_is_stable_and_finite() -> None:
    item_set, outcomes = _items({"clean": (3, 0), "orphan_citation": (3, 0), "number_swap": (3, 0)})
    item_set = ItemSet(
        item_set.items,
        1,
        (Skipped("bad", "fails the deterministic grader", ("bare_number",)),),
        (Inapplicable("s0", "bare_number", 0, "no numeral"),),
        DEFECTS,
    )
    report = measure(item_set, outcomes, judge="j", tau=0.1, seeds=(0,))
    data = report.to_dict()
    assert _keys_sorted(data)
    text = json.dumps(data, allow_nan=False)  # rho = 1/2 -> infinite N_min inflation -> null
    assert data["theory"]["n_min_inflation"] is None and data["theory"]["effective_tau"] is None
    assert {"rho_fp", "rho_pf", "kappa", "cliff", "tau", "verdict", "per_class", "judge_errors", "skipped"} <= set(data)
    for row in data["per_class"].values():
        assert {"n", "flag_rate", "ci_low", "ci_high", "span_jaccard"} <= set(row)
    assert data["skipped"] == [{"checks": ["bare_number"], "id": "bad", "reason": "fails the deterministic grader"}]
    assert data["per_class"]["bare_number"]["not_applicable"] == 1 and data["per_class"]["bare_number"]["n"] == 0
    assert data["rho_fp"] == 1.0 and data["verdict"] == "blind curator"
    assert "timestamp" not in text and "time" not in data


def test_outcomes_must_match_items() -> None:
    item_set, outcomes = _items({"clean": (2, 0)})
    with pytest.raises(ValueError, match="1 outcomes for 2 items"):
        measure(item_set, outcomes[:1], judge="j", tau=0.1, seeds=(0,))
