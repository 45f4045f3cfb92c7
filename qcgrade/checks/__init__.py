"""Every check qcgrade runs, listed explicitly and in order.

Names are stable public API. Tier 1 is the paper's QC reward (a section
passes when none fires); tier 2 adds the Report-band-58 disciplines; tier 3
(grounding, asked for with ``grounding=True``) compares what a citing
sentence states with what its cards state.
"""

from __future__ import annotations

from . import (
    bare_number,
    broken_xref,
    coverage_floor,
    missing_stance,
    missing_tldr,
    orphan_citation,
    polarity_mismatch,
    spelled_number,
    unhedged_weak_card,
    unregistered_metric,
    value_mismatch,
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
    # Tier 3: grounding.
    value_mismatch.CHECK,
    polarity_mismatch.CHECK,
)

CHECK_NAMES: tuple[str, ...] = tuple(check.name for check in CHECKS)
TIER1: tuple[str, ...] = tuple(check.name for check in CHECKS if check.tier == 1)
GROUNDING: tuple[str, ...] = tuple(check.name for check in CHECKS if check.tier == 3)

__all__ = ["CHECKS", "CHECK_NAMES", "GROUNDING", "TIER1", "Check"]
