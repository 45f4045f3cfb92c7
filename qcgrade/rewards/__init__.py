"""Training rewards and the adapters that hand them to RL trainers.

- :mod:`.base`: ``reward()`` (the paper's binary PASS) and ``score()`` (its
  continuous violation count);
- :mod:`.adapters`: what the trainer adapters share (a dataset cell -> slice,
  per-check statistics);
- :mod:`.trl`, :mod:`.verl`, :mod:`.openrlhf`: one adapter per trainer, in
  its own call shape (also importable as ``qcgrade.integrations.<name>``).
"""

from __future__ import annotations

from .base import Score, SliceLike, reward, score

__all__ = ["Score", "SliceLike", "reward", "score"]
