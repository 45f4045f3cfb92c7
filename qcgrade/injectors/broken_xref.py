"""Inject a broken cross-reference: ``§id`` naming a section the slice does not allow.

Sites, in text order: every cross-reference (its id is changed), and the end
of every prose sentence that ends in ``.``, ``!`` or ``?`` (`` (see §id)`` is
added before the punctuation). The broken id is shaped like the slice's own
section ids and is neither allowed nor the section itself (``s6`` when
``s2``, ``s3`` and ``s5`` are allowed in section ``s1``).

Before::

    The effect on margin is discussed in §s2.

After::

    The effect on margin is discussed in §s6.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..evidence import EvidenceSlice
from ..reading.section import Section
from .base import Injector, Site, single
from .places import ends_with_punctuation, fresh_id, paragraph_sentences

NAME = "broken_xref"


def find_sites(section: Section, evidence: EvidenceSlice) -> Iterator[Site]:
    text = section.text
    broken = broken_id(evidence)
    sites: list[Site] = []
    for marker in section.xrefs:
        at = marker.end - len(marker.id)
        if text[at : marker.end] != marker.id:
            continue
        sites.append(single(at, marker.end, broken, ((marker.start, at + len(broken)),)))
    for _index, sentence in paragraph_sentences(section):
        if ends_with_punctuation(text, sentence):
            at = sentence.end - 1
            added = f" (see §{broken})"
            sites.append(single(at, at, added, ((at + 6, at + len(added) - 1),)))
    sites.sort(key=lambda site: (site.start, site.end))
    return iter(sites)


def broken_id(evidence: EvidenceSlice) -> str:
    """A section id the slice does not allow, shaped like the ones it knows."""
    known = [evidence.section, *sorted(evidence.xref_ids)]
    shape = next((k for k in known if k[-1:].isdigit()), "s1")
    return fresh_id(shape, known)


INJECTOR = Injector(NAME, "broken_xref", find_sites, __doc__ or "", "no cross-reference and no prose sentence")
