"""Inject an orphan citation: a citation that names a card not in the slice.

Sites: every citation of a card of the slice, in text order. The orphan id
is the next id after the slice's last one with the same shape (``E038`` ->
``E039``), so it looks real and is guaranteed absent. The id replaces the
cited one when the sentence stays annotated without it (another valid
citation, a registered metric tag, or no numeral at all); otherwise it is
added alongside, so that only ``orphan_citation`` fires, not ``bare_number``.

Before::

    Deposits grew 4% to {dep} [C31] and the ratio improved to {ltd} [C34].

After::

    Deposits grew 4% to {dep} [C37] and the ratio improved to {ltd} [C34].
"""

from __future__ import annotations

from collections.abc import Iterator

from ..evidence import EvidenceSlice
from ..reading.section import Section
from .base import Injector, Site, single
from .places import IdMinter, annotate

NAME = "orphan_citation"


def find_sites(section: Section, evidence: EvidenceSlice) -> Iterator[Site]:
    notes = annotate(section, evidence)
    minter = IdMinter(notes.cards)
    for marker in section.citations:
        if marker.id not in notes.cards:
            continue
        orphan = minter.fresh(marker.id)
        i = marker.sentence
        stays_annotated = notes.citations[i] > 1 or notes.metric_tags[i] > 0 or i not in notes.numeric
        if stays_annotated:
            yield single(marker.start, marker.end, orphan, ((marker.start, marker.start + len(orphan)),))
        else:
            added = ", " + orphan
            at = marker.end
            yield single(at, at, added, ((at + 2, at + len(added)),))


INJECTOR = Injector(NAME, "orphan_citation", find_sites, __doc__ or "", "no citation of a card of the slice")
