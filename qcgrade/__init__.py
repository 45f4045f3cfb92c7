"""qcgrade: a deterministic report-QC grader and defect-injection toolkit.

>>> import qcgrade
>>> report = qcgrade.grade(section_text, slice_dict)   # doctest: +SKIP
>>> report.passed, report.counts                        # doctest: +SKIP
"""

from __future__ import annotations

from .auditing import AuditReport, Verdict, audit, audit_async
from .auditing.corpus import CorpusItem, load_corpus
from .checks import CHECK_NAMES, CHECKS, Check
from .evidence import Card, EvidenceSlice, Metric, SliceError, Xref, load_slice
from .findings import Finding, Report
from .grader import UnknownCheckError, active_checks, grade
from .injectors import (
    DEFECTS,
    QC_INVISIBLE,
    QC_VISIBLE,
    Injection,
    InjectionRecord,
    NotApplicable,
    RevertError,
    inject,
    revert,
)
from .options import DEFAULT_HEDGES, Options
from .reading.section import Section, parse_section
from .rewards.base import Score, reward, score
from .spans import jaccard

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
