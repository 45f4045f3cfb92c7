"""Stable import path for the judge channel, which lives in :mod:`qcgrade.curator.channel`."""

from __future__ import annotations

from .curator.channel import Channel

__all__ = ["Channel"]
