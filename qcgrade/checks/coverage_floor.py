"""The section cites fewer distinct cards than the coverage floor (tier 2).

Why it matters: a section that leans on one card ignores most of its
evidence. The floor is ``Options.coverage_floor``, by default half the
slice's cards rounded up.

Fails (four cards in the slice, floor 2)::

    Revenue grew 30% [E001]. Margins rose [E001].

Passes::

    Revenue grew 30% [E001]. Margins rose [E003].

Reported at the start of the section, since no one place is at fault.

Examples are graded against the slice ``tests/cases/slice.json``.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..evidence import EvidenceSlice
from ..findings import Finding
from ..options import Options
from ..reading.section import Section
from .base import Check

NAME = "coverage_floor"


def floor_for(evidence: EvidenceSlice, options: Options) -> int:
    if options.coverage_floor is not None:
        return options.coverage_floor
    return (len(evidence.cards) + 1) // 2


def run(section: Section, evidence: EvidenceSlice, options: Options) -> Iterator[Finding]:
    floor = floor_for(evidence, options)
    cards = evidence.card_ids
    cited = {m.id for m in section.citations if m.vouches and m.id in cards}
    if len(cited) < floor:
        message = f"section cites {len(cited)} distinct card(s) of {len(cards)}; the floor is {floor}"
        yield section.finding(NAME, 0, 0, message, rule="coverage.floor")


CHECK = Check(NAME, 2, run, __doc__ or "")
