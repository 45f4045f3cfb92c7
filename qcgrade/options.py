"""Options that tune a grading run. Immutable, so one value can be shared by many workers."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

#: Words that mark a claim as uncertain; a sentence citing a weak card needs one.
DEFAULT_HEDGES: tuple[str, ...] = (
    "estimate",
    "estimated",
    "estimates",
    "reportedly",
    "unverified",
    "unconfirmed",
    "may",
    "might",
    "could",
    "suggests",
    "suggest",
    "suggested",
    "appears",
    "appear",
    "seems",
    "likely",
    "unlikely",
    "possibly",
    "perhaps",
    "approximately",
    "roughly",
    "uncertain",
    "preliminary",
    "tentative",
    "allegedly",
    "according to",
    "expected",
    "projected",
    "forecast",
)


@dataclass(frozen=True)
class Options:
    """How to grade.

    ``select``/``ignore`` name checks; ``tier2`` adds the tier-2 disciplines;
    ``coverage_floor`` of None means half the slice's cards, rounded up;
    ``allow_years`` exempts plain four-digit years (1900-2099) from
    ``bare_number`` (off by default: the paper asks for every numeral annotated).
    """

    tier2: bool = False
    select: frozenset[str] | None = None
    ignore: frozenset[str] = field(default_factory=frozenset)
    hedge_words: tuple[str, ...] = DEFAULT_HEDGES
    coverage_floor: int | None = None
    allow_years: bool = False

    def __post_init__(self) -> None:
        # Normalise so that options built from lists or sets stay hashable.
        if self.select is not None and not isinstance(self.select, frozenset):
            object.__setattr__(self, "select", frozenset(self.select))
        if not isinstance(self.ignore, frozenset):
            object.__setattr__(self, "ignore", frozenset(self.ignore))
        if not isinstance(self.hedge_words, tuple):
            object.__setattr__(self, "hedge_words", tuple(self.hedge_words))
        if self.coverage_floor is not None and (not isinstance(self.coverage_floor, int) or self.coverage_floor < 0):
            raise ValueError(f"coverage_floor must be a non-negative integer, got {self.coverage_floor!r}")

    def with_(self, **changes: Any) -> Options:
        return replace(self, **changes)
