"""Plain text for ``qcgrade audit compare``: both audits' rates on the shared items and how they differ."""

from __future__ import annotations

from ..auditing.compare import Comparison, PairedRate


def _p(value: float) -> str:
    return "1" if value >= 1.0 else (f"{value:.3g}" if value >= 1e-4 else f"{value:.2e}")


def _block(title: str, rate: PairedRate, what: str) -> list[str]:
    d, low, high = rate.difference
    return [
        f"{title} ({what}, n = {rate.a.n}):",
        f"  A {rate.a.value:.3f}  95% CI {rate.a.ci_low:.3f}-{rate.a.ci_high:.3f}  ({rate.a.count}/{rate.a.n})",
        f"  B {rate.b.value:.3f}  95% CI {rate.b.ci_low:.3f}-{rate.b.ci_high:.3f}  ({rate.b.count}/{rate.b.n})",
        f"  A - B = {d:+.3f}  paired 95% CI {low:+.3f} to {high:+.3f}",
        f"  discordant: A only {rate.a_only}, B only {rate.b_only} (both {rate.both}, neither {rate.neither}); "
        f"McNemar exact p = {_p(rate.p_value)}",
    ]


def render(result: Comparison) -> str:
    lines = [
        f"A: {result.a.name} ({result.a.judge})",
        f"B: {result.b.name} ({result.b.judge})",
        f"signal: {result.signal}; {result.shared} shared scored items"
        + (f" ({result.only_a} only in A, {result.only_b} only in B, left out)" if result.only_a or result.only_b else ""),
        "",
        *_block("rho_fp, false passes", result.false_pass, "injected items"),
        "",
        *_block("rho_pf, false fails", result.false_fail, "clean items"),
    ]
    return "\n".join(lines) + "\n"
