"""Reversible defect injection: the paper's gate audit (section 5, appendix E).

``inject(text, slice, defect, seed)`` puts one known defect into a clean
section and returns the injected text with a record of exactly what changed;
``revert(text, record)`` undoes it byte for byte. One module per defect
class, each mirroring a check (or, for the two QC-invisible classes,
corrupting meaning while every marker stays byte-identical).

>>> from qcgrade.injectors import DEFECTS, inject, revert
>>> injection = inject(section_text, slice_dict, "number_swap", seed=7)   # doctest: +SKIP
>>> revert(injection.text, injection.record) == section_text              # doctest: +SKIP
True
"""

from __future__ import annotations

from .base import Edit, Injector, Site
from .catalog import (
    DEFECT_SETS,
    DEFECTS,
    EXTENDED_DEFECTS,
    INJECTORS,
    QC_INVISIBLE,
    QC_VISIBLE,
    UnknownDefectError,
    injector_for,
)
from .engine import (
    MAX_TRIES,
    Injection,
    NotApplicable,
    UncleanSection,
    candidate_sites,
    inject,
    valid_sites,
    verify,
)
from .record import (
    EXPECTED_CHECK,
    InjectionRecord,
    RecordError,
    RevertError,
    load_record,
    record_schema,
    revert,
)

__all__ = [
    "DEFECT_SETS",
    "DEFECTS",
    "EXTENDED_DEFECTS",
    "EXPECTED_CHECK",
    "INJECTORS",
    "MAX_TRIES",
    "QC_INVISIBLE",
    "QC_VISIBLE",
    "Edit",
    "Injection",
    "InjectionRecord",
    "Injector",
    "NotApplicable",
    "RecordError",
    "RevertError",
    "Site",
    "UncleanSection",
    "UnknownDefectError",
    "candidate_sites",
    "inject",
    "injector_for",
    "load_record",
    "record_schema",
    "revert",
    "valid_sites",
    "verify",
]
