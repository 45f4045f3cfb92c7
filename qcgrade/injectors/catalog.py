"""Every defect class qcgrade can inject, listed explicitly and in order.

Names are stable public API. The first five are QC-visible, each mirroring
its tier-1 check; the last two are QC-invisible: they corrupt meaning while
every marker stays byte-identical. These seven are the paper's and the
default everywhere. The extended set adds ``citation_swap`` (QC-invisible:
a valid citation replaced by another card of the slice), which only the
grounding tier can see.
"""

from __future__ import annotations

from ..errors import UnknownDefectError
from . import (
    bare_number,
    broken_xref,
    citation_swap,
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

#: Classes beyond the paper's seven, asked for by name or as the "extended" set.
EXTRA_INJECTORS: tuple[Injector, ...] = (citation_swap.INJECTOR,)
EXTENDED_DEFECTS: tuple[str, ...] = DEFECTS + tuple(injector.name for injector in EXTRA_INJECTORS)
#: Named defect sets: ``paper`` (the default) and ``extended``.
DEFECT_SETS: dict[str, tuple[str, ...]] = {"paper": DEFECTS, "extended": EXTENDED_DEFECTS}
QC_VISIBLE: tuple[str, ...] = tuple(injector.name for injector in INJECTORS if injector.visible)
QC_INVISIBLE: tuple[str, ...] = tuple(injector.name for injector in INJECTORS if not injector.visible)


def injector_for(defect: str) -> Injector:
    for injector in (*INJECTORS, *EXTRA_INJECTORS):
        if injector.name == defect:
            return injector
    raise UnknownDefectError(f"unknown defect {defect!r}; known defects: {', '.join(EXTENDED_DEFECTS)}")
