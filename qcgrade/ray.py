"""Stable import path for the Ray Data adapter, which lives in :mod:`qcgrade.scale.ray`."""

from __future__ import annotations

from .scale.ray import Grader, grade_dataset, pool_for

__all__ = ["Grader", "grade_dataset", "pool_for"]
