"""Stable path of the openrlhf adapter (loadable by file path); it lives in :mod:`qcgrade.rewards.openrlhf`."""

from __future__ import annotations

from qcgrade.rewards.openrlhf import make_reward_func, reward_func, strip_prompt

__all__ = ["make_reward_func", "reward_func", "strip_prompt"]
