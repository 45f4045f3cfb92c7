"""Options that tune a grading run. Immutable, so one value can be shared by many workers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cache
from typing import Any


def default_hedges() -> tuple[str, ...]:
    """Words that mark a claim as uncertain, in many languages; a sentence citing a weak card needs one.

    The lexicon is data (``qcgrade/reading/vocab/hedges.toml``), read on first use:
    ``DEFAULT_HEDGES`` (here and in ``qcgrade``) is this tuple.
    """
    from .reading.vocab import hedge_words

    return hedge_words()


def __getattr__(name: str) -> tuple[str, ...]:
    # DEFAULT_HEDGES is read from the vocabulary when first asked for, so importing reads no file.
    if name == "DEFAULT_HEDGES":
        return default_hedges()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Options:
    """How to grade.

    ``select``/``ignore`` name checks (``select`` replaces the default tier-1
    set); ``tier2`` adds the tier-2 disciplines, to the default set or to a
    selection alike;
    ``coverage_floor`` of None means half the slice's cards, rounded up;
    ``allow_years`` exempts plain four-digit years (1900-2099) from
    ``bare_number`` (off by default: the paper asks for every numeral annotated)
    and from ``value_mismatch``; ``grounding`` adds the tier-3 checks that
    compare citing sentences with their cards, to the default set or to a
    selection alike (off by default: the paper's reward is tier 1).
    """

    tier2: bool = False
    select: frozenset[str] | None = None
    ignore: frozenset[str] = field(default_factory=frozenset)
    hedge_words: tuple[str, ...] = field(default_factory=default_hedges)
    coverage_floor: int | None = None
    allow_years: bool = False
    grounding: bool = False

    def __post_init__(self) -> None:
        # Normalise so that options built from lists, sets or one string stay
        # hashable and mean what they say ("bare_number" is one check, not letters).
        if self.select is not None:
            object.__setattr__(self, "select", _names(self.select, "select"))
        object.__setattr__(self, "ignore", _names(self.ignore, "ignore"))
        object.__setattr__(self, "hedge_words", tuple(_names_in_order(self.hedge_words, "hedge_words")))
        floor = self.coverage_floor
        if floor is not None and (isinstance(floor, bool) or not isinstance(floor, int) or floor < 0):
            raise ValueError(f"coverage_floor must be a non-negative integer, got {floor!r}")
        for name in ("tier2", "allow_years", "grounding"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, got {getattr(self, name)!r}")

    @classmethod
    def coerce(cls, value: Options | Mapping[str, Any] | None) -> Options:
        """An ``Options`` from an ``Options``, a mapping of its fields, or None."""
        if value is None:
            return _default() if cls is Options else cls()
        if isinstance(value, Options):
            return value
        if isinstance(value, Mapping):
            unknown = sorted(set(value) - {f.name for f in fields(cls)})
            if unknown:
                raise ValueError(f"unknown option {unknown[0]!r}")
            return cls(**value)
        raise TypeError(f"options must be Options or a mapping, got {type(value).__name__}")

    def with_(self, **changes: Any) -> Options:
        return replace(self, **changes)


def _names_in_order(value: str | Iterable[str], what: str) -> list[str]:
    items = [value] if isinstance(value, str) else list(value)
    for item in items:
        if not isinstance(item, str):
            raise ValueError(f"{what} must hold strings, got {item!r}")
    return items


def _names(value: str | Iterable[str], what: str) -> frozenset[str]:
    return frozenset(_names_in_order(value, what))


# Options are immutable: the defaults are one value, not one per call (a reward loop asks
# for them once per section), made on first use (the hedge lexicon is read then).
@cache
def _default() -> Options:
    return Options()
