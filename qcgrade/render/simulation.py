"""Plain-text output of a curator simulation, with the measured judge's curve when there is one."""

from __future__ import annotations

from typing import Any

from ..curator.curve import RetirementCurve
from ..curator.simulate import SimulationResult
from ..curator.theory import cliff, true_pass_threshold

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
    lines = [
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
    return "\n".join(lines) + "\n"
