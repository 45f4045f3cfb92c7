"""The judge audit (paper, section 5 and appendices C and E).

Before trusting an LLM judge as a reward, inject known defects into truly
passing sections, ask the judge, and read off its false-pass rate ``rho_fp``
and false-fail rate ``rho_pf`` -- and with them which side of the retirement
cliff ``(1 - tau)/2`` it sits on.

>>> from qcgrade.auditing import audit
>>> report = audit("qcgrade", "fixtures/", seeds=1)   # doctest: +SKIP
>>> report.rho_pf.value, report.verdict                # doctest: +SKIP
(0.0, 'safe')

Modules: :mod:`.protocol` (what a judge is and answers), :mod:`.judges` (the
ways to supply one), :mod:`.runner` (concurrency, retries), :mod:`.cache`,
:mod:`.ground_truth` (clean sections and injected defects: the loop the
audit's :mod:`.items` and the :mod:`.gate` share), :mod:`.measure` (rates and
verdict), :mod:`.report` (the result as data), :mod:`.composite`. The audit
is data; drawing it is :mod:`qcgrade.render` (``audit_text``, ``audit_html``),
which imports this package and is never imported by it.
"""

from __future__ import annotations

from ..curator.curve import JudgePoint, RetirementCurve, judge_point_from_audit, retirement_curve
from .items import AuditItem, CorpusEntry, build_items
from .judges import (
    CallableJudge,
    CommandJudge,
    Judge,
    JudgeError,
    ReferenceJudge,
    Verdict,
    coerce,
    make_judge,
    parse_output,
)
from .report import AuditReport, ClassRate, Rate
from .run import audit, audit_async

__all__ = [
    "AuditItem",
    "AuditReport",
    "CallableJudge",
    "ClassRate",
    "CommandJudge",
    "CorpusEntry",
    "Judge",
    "JudgeError",
    "JudgePoint",
    "Rate",
    "ReferenceJudge",
    "RetirementCurve",
    "Verdict",
    "audit",
    "audit_async",
    "build_items",
    "coerce",
    "judge_point_from_audit",
    "make_judge",
    "parse_output",
    "retirement_curve",
]
