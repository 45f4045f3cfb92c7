"""Swap a citation: cite another card of the same slice in place of the right one.

QC-invisible: every marker still names a card of the slice, so tier 1
passes, yet the sentence now pins its claim on a card that does not state
it (a misattributed citation). In the extended defect set only; the paper's
seven classes stay the default. Sites: every vouching citation of a card of
the slice. Edits: one per other card of the slice that reads differently
where it matters, judged by plain text, not by the grounding checks: when
the sentence shows digit strings, the other card's claim and quote must
lack at least one of them; otherwise its claim must differ. The seed picks
the card. The defect sits at the new citation id and at the numerals of
the sentence (what a grader that reads the card would flag).

Before::

    Net interest income rose 9% to 412 M USD [C21].

After::

    Net interest income rose 9% to 412 M USD [C22].
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..evidence import Card, EvidenceSlice
from ..reading.section import Marker, Section
from .base import Edit, Injector, Site

NAME = "citation_swap"
# Plain digit strings, grouping and decimal marks kept: "412", "3.08", "1,290".
_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
_MAX_EDITS = 16  # other cards tried per site: enough variety, bounded work


def find_sites(section: Section, evidence: EvidenceSlice) -> Iterator[Site]:
    text = section.text
    cards = evidence.cards
    if len(cards) < 2:
        return
    for marker in section.citations:
        if not marker.vouches or marker.id not in evidence.card_ids:
            continue
        sentence = section.sentences[marker.sentence]
        if sentence.kind == "code" or text[marker.start : marker.end] != marker.id:
            continue
        shown = set(_DIGITS.findall(sentence.text))
        numerals = tuple((n.start, n.end) for n in section.numerals if n.sentence == marker.sentence)
        own = evidence.card(marker.id)
        edits = []
        for other in cards:
            if other.id == marker.id or other.id in sentence.citations or own is None:
                continue
            if not _reads_differently(own, other, shown):
                continue
            new_end = marker.start + len(other.id)
            edits.append(
                Edit(marker.start, marker.end, other.id, ((marker.start, new_end), *_shifted(numerals, marker, other.id)))
            )
            if len(edits) == _MAX_EDITS:
                break
        if edits:
            yield Site(marker.start, marker.end, tuple(edits))


def _reads_differently(own: Card, other: Card, shown: set[str]) -> bool:
    if shown:
        stated = set(_DIGITS.findall(other.claim)) | set(_DIGITS.findall(other.quote))
        return not shown <= stated
    return other.claim.strip() != own.claim.strip()


def _shifted(spans: tuple[tuple[int, int], ...], marker: Marker, new_id: str) -> Iterator[tuple[int, int]]:
    """Numeral spans in the injected text: those after the swapped id move by the change in length."""
    start, end = marker.start, marker.end
    delta = len(new_id) - (end - start)
    for s, e in spans:
        yield (s + delta, e + delta) if s >= end else (s, e)


INJECTOR = Injector(
    NAME, None, find_sites, __doc__ or "", "no citation of a card, or no other card that reads differently", keeps_markers=False
)
