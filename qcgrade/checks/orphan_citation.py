"""A citation names a card that is not in the evidence slice.

Why it matters: the composer may cite only the slice's cards. A citation that
resolves to nothing looks like evidence to a reader but points nowhere, the
most direct way to fake grounding.

Fails (the slice has no card E009)::

    Revenue grew [E009].

Passes::

    Revenue grew [E001].

Ids are compared exactly: a look-alike (``[Ε001]`` with a Greek Epsilon,
full-width digits) is not the card it imitates. Bracketed plain numbers
(``[3]``) are numeric-style citations and never name a card.

Examples are graded against the slice ``tests/cases/slice.json``.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..evidence import EvidenceSlice
from ..findings import Finding
from ..options import Options
from ..reading.section import Section
from .base import Check

NAME = "orphan_citation"


def run(section: Section, evidence: EvidenceSlice, options: Options) -> Iterator[Finding]:
    cards = evidence.card_ids
    for marker in section.citations:
        if marker.id not in cards:
            message = f"citation [{marker.id}] names no card of slice {evidence.section!r}"
            yield section.finding(NAME, marker.start, marker.end, message, marker.id, "marker.citation")


CHECK = Check(NAME, 1, run, __doc__ or "")
