"""The composite reward: pass only if the judge *and* qcgrade's grader pass.

The paper's gate (section 5) finds the two signals complementary: the checks
catch every contract violation and no change of meaning, a judge sees meaning
but does not reliably penalise contract violations. Their union is the audit,
and, deployed as a reward, the composite "pass only if both pass" lowers the
false-pass rate a lenient judge would feed the curator.

``--composite`` measures all three on the same items: the judge alone,
qcgrade alone (tier 1 by default; pass :class:`~qcgrade.options.Options` to
grade with more, e.g. a grounding tier) and the composite. Each gets its own
``rho_fp``, ``rho_pf``, ``kappa``, Wilson intervals and Fig. 5 verdict.

An item the judge could not answer has no composite verdict either: the
composite is never decided by qcgrade alone behind the judge's back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from ..grader import grade
from ..options import Options
from .protocol import Verdict

# The report's data types live in .report, which imports nothing from here.
from .report import RULE, SIGNALS, AuditReport, CompositeReport, SignalSummary
from .runner import Outcome

if TYPE_CHECKING:
    from .items import AuditItem


def qcgrade_outcomes(items: Sequence[AuditItem], options: Options) -> list[Outcome]:
    """qcgrade's verdict on every item, with its findings' spans."""
    outcomes = []
    for item in items:
        report = grade(item.text, item.slice, options)
        outcomes.append(Outcome(Verdict(report.passed, tuple(sorted({(f.start, f.end) for f in report.findings})))))
    return outcomes


def _combined_spans(verdicts: Sequence[Verdict]) -> tuple[tuple[int, int], ...] | None:
    """The spans of the signals that failed; None when none of them gave spans."""
    failing = [v.spans for v in verdicts if not v.passed and v.spans is not None]
    if not failing:
        return None
    return tuple(sorted({span for spans in failing for span in spans}))


def composite_outcomes(judge: Sequence[Outcome], qcgrade: Sequence[Outcome]) -> list[Outcome]:
    """Pass only if both pass; a judge error stays an error (with the judge's message)."""
    out = []
    for j, q in zip(judge, qcgrade, strict=True):
        if j.verdict is None or q.verdict is None:
            out.append(Outcome(None, j.error or q.error or "no verdict", j.attempts))
            continue
        passed = j.verdict.passed and q.verdict.passed
        out.append(Outcome(Verdict(passed, None if passed else _combined_spans((j.verdict, q.verdict))), attempts=j.attempts))
    return out


def options_dict(options: Options) -> dict[str, Any]:
    """The grading options that change a verdict, JSON-ready (hedge words left out: they are long)."""
    out: dict[str, Any] = {}
    for name, value in sorted((f.name, getattr(options, f.name)) for f in fields(options)):
        if name == "hedge_words":
            continue
        if isinstance(value, frozenset):
            value = sorted(value)
        out[name] = value
    return out


def composite_report(
    items: Sequence[AuditItem],
    judge: Sequence[Outcome],
    qcgrade: Sequence[Outcome],
    reports: dict[str, AuditReport],
    options: Options,
) -> CompositeReport:
    """Bundle the three measured reports (``reports[name]`` for each of :data:`SIGNALS`)."""
    combined = composite_outcomes(judge, qcgrade)
    verdicts = tuple(
        (
            None if j.verdict is None else j.verdict.passed,
            None if q.verdict is None else q.verdict.passed,
            None if c.verdict is None else c.verdict.passed,
        )
        for j, q, c in zip(judge, qcgrade, combined, strict=True)
    )
    signals = {name: SignalSummary(name, reports[name].judge, reports[name]) for name in SIGNALS}
    return CompositeReport(signals, options_dict(options), tuple(i.id for i in items), verdicts)


__all__ = [
    "RULE",
    "SIGNALS",
    "CompositeReport",
    "SignalSummary",
    "composite_outcomes",
    "composite_report",
    "options_dict",
    "qcgrade_outcomes",
]
