"""Every check qcgrade runs, listed explicitly and in order.

Names are stable public API. Tier 1 is the paper's QC reward (a section
passes when none fires); tier 2 adds the Report-band-58 disciplines; tier 3
(grounding, asked for with ``grounding=True``) compares what a citing
sentence states with what its cards state.

A check's module is imported the first time the check runs or its
documentation is asked for: a tier-1 reward call never loads tier 2's
number words or grounding's card reading.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from ..evidence import EvidenceSlice
from ..findings import Finding
from ..options import Options
from ..reading.section import Section
from .base import Check, CheckFunction


@dataclass(frozen=True)
class ListedCheck:
    """A check as the registry lists it: its name and tier, and the module that holds it (loaded on first use)."""

    name: str
    tier: int
    module: str = field(repr=False)

    @property
    def check(self) -> Check:
        return _loaded(self.module)

    @property
    def run(self) -> CheckFunction:
        return self.check.run

    @property
    def doc(self) -> str:
        return self.check.doc

    @property
    def summary(self) -> str:
        return self.check.summary

    def __call__(self, section: Section, evidence: EvidenceSlice, options: Options) -> Iterable[Finding]:
        return self.run(section, evidence, options)


@cache
def _loaded(module: str) -> Check:
    found: Check = importlib.import_module(f"{__name__}.{module}").CHECK
    return found


def _listed(name: str, tier: int) -> ListedCheck:
    return ListedCheck(name, tier, name)


CHECKS: tuple[ListedCheck, ...] = (
    _listed("orphan_citation", 1),
    _listed("unregistered_metric", 1),
    _listed("bare_number", 1),
    _listed("broken_xref", 1),
    _listed("missing_tldr", 1),
    _listed("unhedged_weak_card", 2),
    _listed("missing_stance", 2),
    _listed("coverage_floor", 2),
    _listed("spelled_number", 2),
    # Tier 3: grounding.
    _listed("value_mismatch", 3),
    _listed("polarity_mismatch", 3),
)

CHECK_NAMES: tuple[str, ...] = tuple(check.name for check in CHECKS)
TIER1: tuple[str, ...] = tuple(check.name for check in CHECKS if check.tier == 1)
GROUNDING: tuple[str, ...] = tuple(check.name for check in CHECKS if check.tier == 3)

__all__ = ["CHECKS", "CHECK_NAMES", "GROUNDING", "TIER1", "Check", "ListedCheck"]
