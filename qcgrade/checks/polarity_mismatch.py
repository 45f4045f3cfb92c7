"""A direction word contradicts what the cited card says (tier 3, grounding).

Why it matters: flipping "grew" to "fell" keeps every marker and number in
place, so tier 1 (and even a value check) passes a sentence that now says
the opposite of its source (the paper's appendix D). Only a judge could see
it, unless the card's own wording is read.

A direction word in a citing sentence (grew/fell, rose/declined, widened/
narrowed, higher/lower, beat/missed, improved/worsened, ...) is compared
with the direction words of the card its claim rests on (the first citation
after it, else the last before), on one axis at a time (bigger/smaller,
better/worse), negation included ("did not fall" contradicts "fell"). The
two must be about the same quantity: their clauses share a value or two
content words. A contradiction needs a card direction that says the
opposite and none that agrees. The message quotes the card's wording.

Fails (E003: "Margins rose to 41%.")::

    Margins fell to 41% [E003].

Passes::

    Margins climbed to 41% [E003].

Examples are graded against the slice ``tests/cases/slice.json``.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..evidence import EvidenceSlice
from ..findings import Finding
from ..grounding.match import polarity_misses
from ..options import Options
from ..reading.section import Section
from .base import Check

NAME = "polarity_mismatch"
_QUOTE_LIMIT = 120


def run(section: Section, evidence: EvidenceSlice, options: Options) -> Iterator[Finding]:
    for miss in polarity_misses(section, evidence):
        clause = " ".join(miss.card_direction.clause.split())
        if len(clause) > _QUOTE_LIMIT:
            clause = clause[: _QUOTE_LIMIT - 3] + "..."
        said = miss.card_direction.direction.word
        word = miss.direction.word
        message = f'{word!r} contradicts {miss.card}, which says {said!r}: "{clause}"'
        yield section.finding(NAME, miss.direction.start, miss.direction.end, message, miss.card, "polarity.contradicted")


CHECK = Check(NAME, 3, run, __doc__ or "")
