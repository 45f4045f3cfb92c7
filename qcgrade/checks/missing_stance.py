"""The slice has bull and bear cards but the section cites only one stance (tier 2).

Why it matters: a section that cites only the supporting (or only the
opposing) evidence reads as advocacy, not analysis.

Fails (E001 and E003 are bull, E002 is bear)::

    Revenue grew 30% [E001]. Margins rose to 41% [E003].

Passes::

    Revenue grew 30% [E001], though share may be only 18% [E002].

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

NAME = "missing_stance"


def run(section: Section, evidence: EvidenceSlice, options: Options) -> Iterator[Finding]:
    stance_of = {card.id: card.stance for card in evidence.cards}
    available = set(stance_of.values())
    if available != {"bull", "bear"}:
        return
    cited = {stance_of[m.id] for m in section.citations if m.vouches and m.id in stance_of}
    missing = sorted(available - cited)
    if missing:
        which = " and ".join(missing)
        message = f"slice {evidence.section!r} has bull and bear cards but the section cites no {which} card"
        yield section.finding(NAME, 0, 0, message, rule="stance.both_sides")


CHECK = Check(NAME, 2, run, __doc__ or "")
