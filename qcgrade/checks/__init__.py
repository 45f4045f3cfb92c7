"""Every check qcgrade runs, listed explicitly and in order.

Names are stable public API. Tier 1 is the paper's QC reward (a section
passes when none fires); tier 2 adds the Report-band-58 disciplines.
"""

from __future__ import annotations

from . import (
    bare_number,
    broken_xref,
    coverage_floor,
    missing_stance,
    missing_tldr,
    orphan_citation,
    spelled_number,
    unhedged_weak_card,
    unregistered_metric,
)
from .base import Check

CHECKS: tuple[Check, ...] = (
    orphan_citation.CHECK,
    unregistered_metric.CHECK,
    bare_number.CHECK,
    broken_xref.CHECK,
    missing_tldr.CHECK,
    unhedged_weak_card.CHECK,
    missing_stance.CHECK,
    coverage_floor.CHECK,
    spelled_number.CHECK,
)

CHECK_NAMES: tuple[str, ...] = tuple(check.name for check in CHECKS)
TIER1: tuple[str, ...] = tuple(check.name for check in CHECKS if check.tier == 1)

__all__ = ["CHECKS", "CHECK_NAMES", "TIER1", "Check"]
