"""Plain-text output of a curator simulation, with the measured judge's curve when there is one.

With an audit, the output leads with the measured judge (``rho_fp`` with its
95% interval, ``rho_pf``, ``kappa``) and ends with one line that says which
side of the cliff it sits on and what that means for retirement
(:func:`conclusion`, from :mod:`qcgrade.curator.theory`).
"""

from __future__ import annotations

from typing import Any

from ..curator.curve import JudgePoint, RetirementCurve
from ..curator.simulate import SimulationResult
from ..curator.theory import cliff, kappa, true_pass_threshold, verdict

_COLUMNS = (
    "round",
    "true_failures",
    "observed_failures",
    "flipped",
    "synthesized",
    "genuine_retirements",
    "evictions",
    "active",
    "harmful_active",
)


def render(result: SimulationResult, sweep: RetirementCurve | None = None) -> str:
    """Parameters, the cliff, one row per round, the totals and (with an audit) the swept curve."""
    p: dict[str, Any] = dict(result.params)
    head = (
        f"curator simulation: rho_fp {p['rho_fp']:g}, rho_pf {p['rho_pf']:g}, tau {p['tau']:g}, N_min {p['n_min']}, "
        f"cap {p['cap']}, rounds {p['rounds']}, seed {p['seed']}, {p['tasks_per_round']} tasks/round"
    )
    threshold = true_pass_threshold(p["tau"], p["rho_fp"], p["rho_pf"])
    judge = sweep.judge if sweep is not None else None
    lines = [*judge_lines(judge), ""] if judge is not None else []
    lines += [
        head,
        f"cliff (1 - tau)/2 = {cliff(p['tau']):.3f}; retirement fires in expectation for true pass rate "
        f"<= {threshold:.3f}" + (" (never: retirement inoperative)" if threshold <= 0 else ""),
    ]
    lines.append("  ".join(_COLUMNS))
    for r in result.per_round:
        lines.append("  ".join(str(getattr(r, c)).rjust(len(c)) for c in _COLUMNS))
    totals = result.to_dict()["totals"]
    lines.append("totals: " + ", ".join(f"{k} {v}" for k, v in sorted(totals.items())))
    if sweep is not None:
        lines.append("sweep (mean genuine retirements over seeds " + ", ".join(map(str, sweep.seeds)) + "):")
        noise = dict(sweep.noise)
        for x, y in sweep.bias:
            n = f"{noise[x]:6.2f}" if x in noise else "     -"
            lines.append(f"  rho {x:4.2f}  bias {y:6.2f}  noise {n}")
        j = sweep.judge
        if j is not None and sweep.judge_retirements is not None:
            lines.append(
                f"judge {j.label}: rho_fp {j.rho_fp:.3f} (95% CI {j.rho_fp_ci[0]:.3f}-{j.rho_fp_ci[1]:.3f}), "
                f"rho_pf {j.rho_pf:.3f}: {sweep.judge_retirements:.2f} genuine retirements per run"
            )
            lines.append(conclusion(sweep))
    return "\n".join(lines) + "\n"


def judge_lines(judge: JudgePoint) -> list[str]:
    """The measured judge, first: its name and the rates the audit measured."""
    low, high = judge.rho_fp_ci
    return [
        f"measured judge: {judge.label}",
        f"rho_fp {judge.rho_fp:.3f} (95% CI {low:.3f}-{high:.3f}), rho_pf {judge.rho_pf:.3f}, "
        f"kappa {kappa(judge.rho_fp, judge.rho_pf):.3f}",
    ]


def conclusion(sweep: RetirementCurve) -> str:
    """One line: which side of the cliff the measured judge sits on, and what it means for retirement."""
    j = sweep.judge
    assert j is not None and sweep.judge_retirements is not None
    pi = cliff(sweep.tau)
    k = kappa(j.rho_fp, j.rho_pf)
    high = j.rho_fp_ci[1]
    perfect = dict(sweep.bias).get(0.0)
    retired = f"{sweep.judge_retirements:.2f} genuine retirements per run" + (
        f" against {perfect:.2f} with a judge that hides no failure" if perfect is not None else ""
    )
    kind = verdict(j.rho_fp, high, k, sweep.tau)
    if kind == "blind curator":
        return (
            f"conclusion: past the cliff (rho_fp {j.rho_fp:.3f} >= (1 - tau)/2 = {pi:.3f}): retirement never fires, "
            f"so harmful skills stay at any sample size ({retired}); lower the judge's false-pass rate first."
        )
    if kind == "at risk":
        return (
            f"conclusion: below the cliff {pi:.3f} but its 95% CI reaches {high:.3f}, so retirement may not fire "
            f"({retired}); audit more items before trusting it to retire skills."
        )
    if kind == "starved":
        return (
            f"conclusion: safe from the cliff {pi:.3f} but kappa {k:.3f} barely separates good skills from bad, "
            f"so retirement is slow and noisy ({retired})."
        )
    return f"conclusion: on the safe side of the cliff (rho_fp 95% CI up to {high:.3f} < {pi:.3f}): retirement works ({retired})."
