"""From judged items to rates, intervals, the cliff and a verdict in words.

* flag rate per class: share of scored items judged fail (judge errors are
  excluded from n and reported apart);
* ``rho_fp`` (hidden failures): share of *all* injected items judged pass,
  also split into QC-visible and QC-invisible classes as in appendix E;
* ``rho_pf`` (phantom failures): share of clean items judged fail;
* ``kappa = 1 - rho_fp - rho_pf``, with the conservative interval
  ``[1 - hi_fp - hi_pf, 1 - lo_fp - lo_pf]`` from the two Wilson intervals;
* the curator quantities of :mod:`qcgrade.curator.theory` and its verdict, which
  takes the point estimates of ``rho_fp`` and ``kappa`` and the Wilson upper
  bound of ``rho_fp`` ("at risk" when that bound reaches the cliff).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

from ..curator.stats import mean, wilson_interval
from ..curator.theory import (
    cliff,
    effective_tau,
    max_operative_tau,
    n_min_inflation,
    prop1_floor_terms,
    verdict,
)
from ..spans import jaccard
from .items import CLEAN, AuditItem, ItemSet
from .report import AuditReport, ClassRate, ItemResult, JudgeFailure, Rate, Theory
from .runner import Outcome

#: kappa below this is "starved" (qcgrade.curator.theory.verdict's default threshold).
STARVED_KAPPA = 0.1


def rate(count: int, n: int) -> Rate:
    low, high = wilson_interval(count, n)
    return Rate(count, n, count / n if n else 0.0, low, high)


def hoeffding_eps(n_min: int, delta: float) -> float:
    """Half-width within which an observed pass rate over ``n_min`` trials lies w.p. >= 1 - delta."""
    if n_min < 1 or not 0.0 < delta < 1.0:
        raise ValueError(f"need n_min >= 1 and 0 < delta < 1, got n_min={n_min!r}, delta={delta!r}")
    return math.sqrt(math.log(2.0 / delta) / (2.0 * n_min))


def _item_jaccard(item: AuditItem, outcome: Outcome) -> float | None:
    # Only a flag can be localised, and only a defect that occupies characters:
    # a deletion leaves an empty span that no judge span can overlap.
    v = outcome.verdict
    if v is None or v.passed or v.spans is None or not any(e > s for s, e in item.targets):
        return None
    return jaccard(v.spans, item.targets)


def _class_rate(name: str, visible: bool | None, pairs: list[tuple[AuditItem, Outcome]], missing: int) -> ClassRate:
    scored = [(i, o) for i, o in pairs if o.verdict is not None]
    flagged = sum(1 for _, o in scored if o.verdict is not None and not o.verdict.passed)
    overlaps = [j for i, o in scored if (j := _item_jaccard(i, o)) is not None]
    return ClassRate(
        name=name,
        visible=visible,
        flag=rate(flagged, len(scored)),
        span_jaccard=mean(overlaps) if overlaps else None,
        span_n=len(overlaps),
        errors=len(pairs) - len(scored),
        not_applicable=missing,
    )


def _passes(pairs: list[tuple[AuditItem, Outcome]]) -> Rate:
    scored = [o for _, o in pairs if o.verdict is not None]
    return rate(sum(1 for o in scored if o.verdict is not None and o.verdict.passed), len(scored))


def explain(name: str, fp: Rate, pf: Rate, k: float, tau: float) -> str:
    """One or two sentences saying what a verdict means for this judge."""
    c = cliff(tau)
    where = f"rho_fp = {fp.value:.3f} (95% CI {fp.ci_low:.3f}-{fp.ci_high:.3f}, n = {fp.n})"
    if name == "blind curator":
        return (
            f"{where} is at or past the cliff (1 - tau)/2 = {c:.3f}: no skill is retired at any sample size. "
            "Lower the judge's false-pass rate (or tau) or defer self-evolution."
        )
    if name == "at risk":
        return (
            f"{where} is below the cliff {c:.3f}, but the interval reaches it: "
            "audit more items before trusting this judge as a reward."
        )
    if name == "starved":
        return (
            f"{where} is safely below the cliff {c:.3f}, but kappa = {k:.3f} < {STARVED_KAPPA}: with "
            f"rho_pf = {pf.value:.3f} the judge barely separates good skills from bad, so the curator learns little."
        )
    return (
        f"{where} is below the cliff {c:.3f} and kappa = {k:.3f}: retirement stays operative "
        f"(for any tau < {max_operative_tau(fp.value):.3f})."
    )


def measure(
    item_set: ItemSet,
    outcomes: Sequence[Outcome],
    *,
    judge: str,
    tau: float,
    seeds: Sequence[int],
    n_min: int = 24,
    cap: int = 12,
    delta: float = 0.01,
) -> AuditReport:
    """Assemble the :class:`AuditReport` for judged items (``outcomes[i]`` answers ``items[i]``)."""
    items = item_set.items
    if len(outcomes) != len(items):
        raise ValueError(f"{len(outcomes)} outcomes for {len(items)} items")
    pairs = list(zip(items, outcomes))
    by_kind: dict[str, list[tuple[AuditItem, Outcome]]] = {k: [] for k in (CLEAN, *item_set.defects)}
    for item, outcome in pairs:
        by_kind.setdefault(item.kind, []).append((item, outcome))
    missing = {k: sum(1 for x in item_set.not_applicable if x.kind == k) for k in item_set.defects}

    per_class = {}
    for kind in item_set.defects:
        group = by_kind[kind]
        visible = group[0][0].visible if group else None
        per_class[kind] = _class_rate(kind, visible, group, missing[kind])
    clean = _class_rate(CLEAN, None, by_kind[CLEAN], 0)

    injected = [p for p in pairs if p[0].injected]
    fp = _passes(injected)
    fp_visible = _passes([p for p in injected if p[0].visible])
    fp_invisible = _passes([p for p in injected if not p[0].visible])
    pf = clean.flag
    k = 1.0 - fp.value - pf.value
    k_ci = (1.0 - fp.ci_high - pf.ci_high, 1.0 - fp.ci_low - pf.ci_low)

    sym = (fp.value + pf.value) / 2.0
    eps = hoeffding_eps(n_min, delta)
    theory = Theory(
        cliff=cliff(tau),
        max_operative_tau=max_operative_tau(fp.value),
        symmetric_rho=sym,
        effective_tau=effective_tau(tau, sym),
        n_min_inflation=n_min_inflation(sym),
        n_min=n_min,
        cap=cap,
        delta=delta,
        eps=eps,
        prop1=prop1_floor_terms(tau, eps, fp.ci_high, pf.ci_high, cap, delta),
    )
    name = verdict(fp.value, fp.ci_high, k, tau, STARVED_KAPPA)

    results = tuple(
        ItemResult(
            id=i.id,
            source=i.source,
            kind=i.kind,
            seed=i.seed,
            passed=None if o.verdict is None else o.verdict.passed,
            spans=None if o.verdict is None else o.verdict.spans,
            span_jaccard=_item_jaccard(i, o),
            text_sha256=hashlib.sha256(i.text.encode("utf-8", "surrogatepass")).hexdigest(),
            note=None if o.verdict is None else o.verdict.note,
        )
        for i, o in pairs
    )
    failures = tuple(
        JudgeFailure(i.id, i.kind, i.seed, o.error or "unknown error", o.attempts) for i, o in pairs if o.verdict is None
    )
    return AuditReport(
        judge=judge,
        tau=tau,
        seeds=tuple(seeds),
        sections=item_set.sections,
        per_class=per_class,
        clean=clean,
        rho_fp=fp,
        rho_fp_visible=fp_visible,
        rho_fp_invisible=fp_invisible,
        rho_pf=pf,
        kappa=k,
        kappa_ci=k_ci,
        theory=theory,
        verdict=name,
        verdict_reason=explain(name, fp, pf, k, tau),
        judge_errors=failures,
        skipped=item_set.skipped,
        not_applicable=item_set.not_applicable,
        items=results,
    )
