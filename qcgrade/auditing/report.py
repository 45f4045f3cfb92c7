"""The result of a judge audit, as plain frozen data with a stable JSON form.

``AuditReport.to_dict()`` has sorted keys at every level, no timestamps and no
run-dependent counters (cache hits, attempts of successful calls), so a
deterministic judge gives byte-identical JSON whether the audit ran fresh or
resumed from a cache. Infinite theory values (e.g. the N_min inflation at
rho >= 1/2) become ``null``, because JSON has no infinity.

Stable top-level keys: ``rho_fp``, ``rho_pf``, ``kappa``, ``cliff``, ``tau``,
``verdict``, ``per_class`` (class -> ``{n, flag_rate, ci_low, ci_high,
span_jaccard, ...}``), ``judge_errors``, ``skipped``; plus ``rates`` (each
rate with its interval), ``clean``, ``theory``, ``items`` and ``counts``;
and ``judge_info`` only for judges that describe themselves (the OpenAI
judge: ``kind``, ``model``, ``base_url_host``, ``prompt_sha256``, its
sampling options and ``usage`` -- tokens and cost summed over the scored
answers, cached ones included, so a resumed audit reports the same totals);
``composite`` only with ``--composite`` (:class:`CompositeReport`; :mod:`.composite` computes it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

# What the report lists as left out is what the shared loop left out.
from .ground_truth import Inapplicable, Skipped

Span = tuple[int, int]


def _num(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _sorted(value: Any) -> Any:
    """Dicts with sorted keys at every level, so the JSON is stable whoever built them."""
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value


def usage_totals(usages: list[Any]) -> dict[str, Any]:
    """Tokens and cost summed over answers (``Usage`` values, None where not reported), in item order.

    ``cost`` is None unless at least one answer reported one; ``answers`` counts
    the answers that reported usage at all.
    """
    reported = [u for u in usages if u is not None]
    costs = [u.cost for u in reported if u.cost is not None]
    return {
        "answers": len(reported),
        "completion_tokens": sum(u.completion_tokens for u in reported),
        "cost": math.fsum(costs) if costs else None,
        "prompt_tokens": sum(u.prompt_tokens for u in reported),
        "total_tokens": sum(u.total_tokens for u in reported),
    }


@dataclass(frozen=True, slots=True)
class Rate:
    """``count`` of ``n`` with its 95% Wilson interval; ``value`` is 0.0 when n == 0."""

    count: int
    n: int
    value: float
    ci_low: float
    ci_high: float

    def to_dict(self) -> dict[str, Any]:
        return {"ci_high": self.ci_high, "ci_low": self.ci_low, "count": self.count, "n": self.n, "value": self.value}


@dataclass(frozen=True, slots=True)
class ClassRate:
    """How often the judge flagged (judged fail) items of one class.

    ``visible`` is True for QC-visible defect classes, False for QC-invisible
    ones and None for clean sections. ``span_jaccard`` is the mean Jaccard of
    the judge's spans against the injected span over ``span_n`` flagged items
    that came with spans (None when there were none).
    """

    name: str
    visible: bool | None
    flag: Rate
    span_jaccard: float | None
    span_n: int
    errors: int
    not_applicable: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "ci_high": self.flag.ci_high,
            "ci_low": self.flag.ci_low,
            "errors": self.errors,
            "flag_rate": self.flag.value,
            "flagged": self.flag.count,
            "n": self.flag.n,
            "not_applicable": self.not_applicable,
            "span_jaccard": self.span_jaccard,
            "span_n": self.span_n,
            "visible": self.visible,
        }


@dataclass(frozen=True, slots=True)
class Theory:
    """Where the measured rates put the judge against the curator (appendix C).

    ``symmetric_rho = (rho_fp + rho_pf)/2`` is the symmetric channel with the
    same kappa; ``effective_tau`` and ``n_min_inflation`` are evaluated at it.
    ``prop1`` holds the Prop. 1' floor terms with the rates' upper Wilson
    bounds as the known bounds and ``eps`` from Hoeffding at ``n_min`` trials
    and confidence ``1 - delta``.
    """

    cliff: float
    max_operative_tau: float
    symmetric_rho: float
    effective_tau: float
    n_min_inflation: float
    n_min: int
    cap: int
    delta: float
    eps: float
    prop1: dict[str, float | bool]

    def to_dict(self) -> dict[str, Any]:
        prop1 = {k: (v if isinstance(v, bool) else _num(v)) for k, v in sorted(self.prop1.items())}
        return {
            "cap": self.cap,
            "cliff": self.cliff,
            "delta": self.delta,
            "effective_tau": _num(self.effective_tau),
            "eps": self.eps,
            "max_operative_tau": self.max_operative_tau,
            "n_min": self.n_min,
            "n_min_inflation": _num(self.n_min_inflation),
            "prop1": prop1,
            "symmetric_rho": self.symmetric_rho,
        }


@dataclass(frozen=True, slots=True)
class ItemResult:
    """One judged item: its id, class, seed, the verdict (None on judge error), spans, the text's hash and the judge's note."""

    id: str
    source: str
    kind: str
    seed: int
    passed: bool | None
    spans: tuple[Span, ...] | None
    span_jaccard: float | None
    #: SHA-256 of the text the judge saw, so ``audit compare`` pairs only identical items.
    text_sha256: str | None = None
    #: The judge's own words on its verdict, where it gave any (:attr:`.protocol.Verdict.note`).
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "class": self.kind,
            "id": self.id,
            "note": self.note,
            "seed": self.seed,
            "source": self.source,
            "span_jaccard": self.span_jaccard,
            "spans": [list(s) for s in self.spans] if self.spans is not None else None,
            "text_sha256": self.text_sha256,
            "verdict": None if self.passed is None else ("pass" if self.passed else "fail"),
        }


@dataclass(frozen=True, slots=True)
class JudgeFailure:
    """An item the judge could not answer after every attempt; never scored."""

    id: str
    kind: str
    seed: int
    error: str
    attempts: int

    def to_dict(self) -> dict[str, Any]:
        return {"attempts": self.attempts, "class": self.kind, "error": self.error, "id": self.id, "seed": self.seed}


@dataclass(frozen=True)
class AuditReport:
    """Everything an audit measured; see the module docstring for the JSON form."""

    judge: str
    tau: float
    seeds: tuple[int, ...]
    sections: int
    per_class: dict[str, ClassRate]
    clean: ClassRate
    rho_fp: Rate
    rho_fp_visible: Rate
    rho_fp_invisible: Rate
    rho_pf: Rate
    kappa: float
    kappa_ci: tuple[float, float]
    theory: Theory
    verdict: str
    verdict_reason: str
    judge_errors: tuple[JudgeFailure, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    not_applicable: tuple[Inapplicable, ...] = ()
    items: tuple[ItemResult, ...] = field(default=(), repr=False)
    judge_info: dict[str, Any] | None = None
    #: ``--composite``: the judge, qcgrade and "both pass" side by side (:mod:`.composite`).
    composite: CompositeReport | None = field(default=None, repr=False)

    @property
    def cliff(self) -> float:
        return self.theory.cliff

    def to_dict(self) -> dict[str, Any]:
        scored = sum(1 for i in self.items if i.passed is not None)
        return {
            "clean": self.clean.to_dict(),
            **({"composite": self.composite.to_dict()} if self.composite is not None else {}),
            "cliff": self.theory.cliff,
            "counts": {
                "items": len(self.items),
                "judge_errors": len(self.judge_errors),
                "not_applicable": len(self.not_applicable),
                "scored": scored,
                "skipped": len(self.skipped),
            },
            "items": [i.to_dict() for i in self.items],
            "judge": self.judge,
            **({"judge_info": _sorted(self.judge_info)} if self.judge_info is not None else {}),
            "judge_errors": [e.to_dict() for e in self.judge_errors],
            "kappa": self.kappa,
            "not_applicable": [x.to_dict() for x in self.not_applicable],
            "per_class": {name: rate.to_dict() for name, rate in sorted(self.per_class.items())},
            "rates": {
                "kappa": {"ci_high": self.kappa_ci[1], "ci_low": self.kappa_ci[0], "value": self.kappa},
                "rho_fp": self.rho_fp.to_dict(),
                "rho_fp_invisible": self.rho_fp_invisible.to_dict(),
                "rho_fp_visible": self.rho_fp_visible.to_dict(),
                "rho_pf": self.rho_pf.to_dict(),
            },
            "rho_fp": self.rho_fp.value,
            "rho_pf": self.rho_pf.value,
            "sections": self.sections,
            "seeds": list(self.seeds),
            "skipped": [s.to_dict() for s in self.skipped],
            "tau": self.tau,
            "theory": self.theory.to_dict(),
            "verdict": self.verdict,
            "verdict_reason": self.verdict_reason,
        }


#: The three signals, in the order every output shows them.
SIGNALS = ("judge", "qcgrade", "composite")
RULE = "pass only if the judge and qcgrade both pass"


def _word(passed: bool | None) -> str | None:
    return None if passed is None else ("pass" if passed else "fail")


@dataclass(frozen=True)
class SignalSummary:
    """One signal's place against the cliff: the headline numbers of its own audit report."""

    name: str
    identity: str
    report: AuditReport = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        r = self.report
        return {
            "identity": self.identity,
            "kappa": {"ci_high": r.kappa_ci[1], "ci_low": r.kappa_ci[0], "value": r.kappa},
            "per_class": {name: rate.to_dict() for name, rate in sorted(r.per_class.items())},
            "rho_fp": r.rho_fp.to_dict(),
            "rho_fp_invisible": r.rho_fp_invisible.to_dict(),
            "rho_fp_visible": r.rho_fp_visible.to_dict(),
            "rho_pf": r.rho_pf.to_dict(),
            "verdict": r.verdict,
            "verdict_reason": r.verdict_reason,
        }


@dataclass(frozen=True)
class CompositeReport:
    """The judge, qcgrade and the composite side by side on the same items.

    JSON (stable keys): ``rule``, ``qcgrade_options``, ``signals`` (``judge``,
    ``qcgrade``, ``composite`` -> ``identity``, ``rho_fp``, ``rho_pf``,
    ``rho_fp_visible``, ``rho_fp_invisible`` (each a rate with its Wilson
    interval), ``kappa`` (with its interval), ``per_class``, ``verdict``,
    ``verdict_reason``) and ``items`` (id -> the three verdicts).
    """

    signals: dict[str, SignalSummary]
    options: dict[str, Any]
    item_ids: tuple[str, ...] = field(repr=False)
    verdicts: tuple[tuple[bool | None, bool | None, bool | None], ...] = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "items": [
                {"composite": _word(c), "id": ident, "judge": _word(j), "qcgrade": _word(q)}
                for ident, (j, q, c) in zip(self.item_ids, self.verdicts, strict=True)
            ],
            "qcgrade_options": self.options,
            "rule": RULE,
            "signals": {name: self.signals[name].to_dict() for name in SIGNALS},
        }
