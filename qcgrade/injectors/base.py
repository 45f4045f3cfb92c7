"""What an injector is: a name, the check it should trip, and a pure site finder.

An injector never draws random numbers. It lists every place its defect could
go, in text order, each with the interchangeable edits that would put it
there; :mod:`qcgrade.injectors.engine` verifies candidates with the grader
and lets the seed choose. Keeping the choice in one place is what makes
"uniform over the places where a class applies" true for every class.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..evidence import EvidenceSlice
from ..reading.section import Section

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace ``text[start:end]`` with ``replacement``.

    ``targets`` are where the defect sits in the *injected* text: the spans a
    perfect grader would flag (an empty span for something deleted).
    """

    start: int
    end: int
    replacement: str
    targets: tuple[Span, ...]

    def apply(self, text: str) -> str:
        return text[: self.start] + self.replacement + text[self.end :]


@dataclass(frozen=True, slots=True)
class Site:
    """One place a defect can go, and the edits that would put it there.

    The edits differ only in ways the grader cannot tell apart (which digit,
    which look-alike tag), so verifying one of them qualifies the place.
    """

    start: int
    end: int
    edits: tuple[Edit, ...]


SiteFinder = Callable[[Section, EvidenceSlice], Iterable[Site]]


@dataclass(frozen=True)
class Injector:
    """A defect class. ``expected_check`` is None for a QC-invisible class."""

    name: str
    expected_check: str | None
    find_sites: SiteFinder
    doc: str
    no_site: str  # why the class cannot apply when there is no candidate
    # An invisible class normally keeps every marker byte-identical; one that
    # swaps a marker for another valid one (citation_swap) keeps only their kinds.
    keeps_markers: bool = True

    @property
    def visible(self) -> bool:
        return self.expected_check is not None

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0].strip()


def single(start: int, end: int, replacement: str, targets: tuple[Span, ...]) -> Site:
    """A site with exactly one way to inject."""
    return Site(start, end, (Edit(start, end, replacement, targets),))
