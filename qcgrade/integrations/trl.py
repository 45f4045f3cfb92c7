"""Stable path of the trl adapter (loadable by file path); it lives in :mod:`qcgrade.rewards.trl`."""

from __future__ import annotations

from qcgrade.rewards.trl import RewardFunc, completion_text, make_reward_func

__all__ = ["RewardFunc", "completion_text", "make_reward_func"]
