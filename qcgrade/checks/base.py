"""What a check is: a name, a tier, its documentation and a pure function."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..evidence import EvidenceSlice
from ..findings import Finding
from ..options import Options
from ..reading.section import Section

CheckFunction = Callable[[Section, EvidenceSlice, Options], Iterable[Finding]]


@dataclass(frozen=True)
class Check:
    """A named, documented check. ``name`` is stable public API."""

    name: str
    tier: int
    run: CheckFunction
    doc: str

    @property
    def summary(self) -> str:
        """The first line of the documentation."""
        return self.doc.strip().splitlines()[0].strip()
