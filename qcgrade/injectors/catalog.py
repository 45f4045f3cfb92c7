"""Every defect class qcgrade can inject, listed explicitly and in order.

Names are stable public API. The first five are QC-visible, each mirroring
its tier-1 check; the last two are QC-invisible: they corrupt meaning while
every marker stays byte-identical.
"""

from __future__ import annotations

from ..errors import UnknownDefectError
from . import (
    bare_number,
    broken_xref,
    claim_negation,
    missing_tldr,
    number_swap,
    orphan_citation,
    unregistered_metric,
)
from .base import Injector

INJECTORS: tuple[Injector, ...] = (
    orphan_citation.INJECTOR,
    unregistered_metric.INJECTOR,
    bare_number.INJECTOR,
    broken_xref.INJECTOR,
    missing_tldr.INJECTOR,
    claim_negation.INJECTOR,
    number_swap.INJECTOR,
)

DEFECTS: tuple[str, ...] = tuple(injector.name for injector in INJECTORS)
QC_VISIBLE: tuple[str, ...] = tuple(injector.name for injector in INJECTORS if injector.visible)
QC_INVISIBLE: tuple[str, ...] = tuple(injector.name for injector in INJECTORS if not injector.visible)


def injector_for(defect: str) -> Injector:
    for injector in INJECTORS:
        if injector.name == defect:
            return injector
    raise UnknownDefectError(f"unknown defect {defect!r}; known defects: {', '.join(DEFECTS)}")
