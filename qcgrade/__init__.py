"""qcgrade: a deterministic report-QC grader and defect-injection toolkit.

>>> import qcgrade
>>> report = qcgrade.grade(section_text, slice_dict)   # doctest: +SKIP
>>> report.passed, report.counts                        # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

# Grading needs only these; they load with the package.
from .checks import CHECK_NAMES, CHECKS, Check
from .errors import QcgradeError
from .evidence import Card, EvidenceSlice, Metric, SliceError, Xref, load_slice
from .findings import Finding, Report
from .grader import UnknownCheckError, active_checks, grade
from .options import Options
from .reading.section import Section, parse_section
from .rewards.base import Score, reward, score
from .spans import jaccard

# The audit, injection and corpus machinery (asyncio, the HTML report) loads
# on first use, so `qcgrade check` and a reward call start fast.
_LAZY = {
    "DEFAULT_HEDGES": "options",  # read from the vocabulary on first use
    "AuditReport": "auditing.report",
    "Verdict": "auditing.judges",
    "audit": "auditing.run",
    "audit_async": "auditing.run",
    "CorpusItem": "auditing.corpus",
    "load_corpus": "auditing.corpus",
    "DEFECTS": "injectors",
    "QC_INVISIBLE": "injectors",
    "QC_VISIBLE": "injectors",
    "Injection": "injectors",
    "InjectionRecord": "injectors",
    "NotApplicable": "errors",
    "RevertError": "errors",
    "inject": "injectors",
    "revert": "injectors",
}

if TYPE_CHECKING:
    from .auditing.corpus import CorpusItem, load_corpus
    from .auditing.judges import Verdict
    from .auditing.report import AuditReport
    from .auditing.run import audit, audit_async
    from .errors import NotApplicable, RevertError
    from .injectors import DEFECTS, QC_INVISIBLE, QC_VISIBLE, Injection, InjectionRecord, inject, revert
    from .options import DEFAULT_HEDGES


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'qcgrade' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__version__ = "0.1.0"

__all__ = [
    "AuditReport",
    "CHECKS",
    "CHECK_NAMES",
    "Card",
    "Check",
    "CorpusItem",
    "DEFAULT_HEDGES",
    "DEFECTS",
    "EvidenceSlice",
    "Finding",
    "Injection",
    "InjectionRecord",
    "Metric",
    "NotApplicable",
    "Options",
    "QcgradeError",
    "QC_INVISIBLE",
    "QC_VISIBLE",
    "Report",
    "RevertError",
    "Score",
    "Section",
    "SliceError",
    "UnknownCheckError",
    "Verdict",
    "Xref",
    "__version__",
    "active_checks",
    "audit",
    "audit_async",
    "grade",
    "inject",
    "jaccard",
    "load_corpus",
    "load_slice",
    "parse_section",
    "revert",
    "reward",
    "score",
]
