"""Stable path of the verl adapter (loadable by file path); it lives in :mod:`qcgrade.rewards.verl`."""

from __future__ import annotations

from qcgrade.rewards.verl import compute_score, compute_score_batch

__all__ = ["compute_score", "compute_score_batch"]
