"""qcgrade: a deterministic report-QC grader and defect-injection toolkit.

>>> import qcgrade
>>> report = qcgrade.grade(section_text, slice_dict)   # doctest: +SKIP
>>> report.passed, report.counts                        # doctest: +SKIP
"""

from __future__ import annotations

from .checks import CHECK_NAMES, CHECKS, Check
from .evidence import Card, EvidenceSlice, Metric, SliceError, Xref, load_slice
from .findings import Finding, Report
from .grader import UnknownCheckError, active_checks, grade
from .options import DEFAULT_HEDGES, Options
from .section import Section, parse_section
from .spans import jaccard

__version__ = "0.1.0"

__all__ = [
    "CHECKS",
    "CHECK_NAMES",
    "DEFAULT_HEDGES",
    "Card",
    "Check",
    "EvidenceSlice",
    "Finding",
    "Metric",
    "Options",
    "Report",
    "Section",
    "SliceError",
    "UnknownCheckError",
    "Xref",
    "__version__",
    "active_checks",
    "grade",
    "jaccard",
    "load_slice",
    "parse_section",
]
