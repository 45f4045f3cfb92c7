"""Inject an unregistered metric tag: a ``{tag}`` the slice does not register.

Sites, in text order: every metric tag of the slice that can be renamed
without leaving a numeral bare (its sentence has another valid annotation or
no numeral), and, in every sentence that cites a card, the spot just before
its first citation group, where a tag is inserted. The unregistered name is
a near miss of a registered one (``nrr`` -> ``nrr_adj``); which one is the
seed's choice.

Before::

    Free cash flow margin rose to {fcf_margin} from 9% [EV-004].

After::

    Free cash flow margin rose to {fcf_margin_adj} from 9% [EV-004].
"""

from __future__ import annotations

from collections.abc import Iterator

from ..evidence import EvidenceSlice
from ..reading.section import Section
from .base import Edit, Injector, Site
from .places import annotate, citation_group

NAME = "unregistered_metric"
_SUFFIX = "_adj"
_NAMES = 8  # look-alikes of the first few registered tags: enough variety, bounded work


def find_sites(section: Section, evidence: EvidenceSlice) -> Iterator[Site]:
    text = section.text
    names = _unregistered_names(evidence)
    notes = annotate(section, evidence)
    sites: list[Site] = []
    for marker in section.metric_tags:
        i = marker.sentence
        if marker.id not in notes.tags:
            continue
        others = notes.metric_tags[i] > 1 or notes.cited(i)
        if not others and i in notes.numeric:
            continue
        at = text.find(marker.id, marker.start, marker.end)
        if at < 0:
            continue
        edits = tuple(
            Edit(at, at + len(marker.id), name, ((marker.start, marker.end + len(name) - len(marker.id)),)) for name in names
        )
        sites.append(Site(marker.start, marker.end, edits))
    seen: set[int] = set()
    for marker in section.citations:
        if marker.id not in notes.cards or marker.sentence in seen:
            continue
        seen.add(marker.sentence)
        group = citation_group(text, marker)
        if group is None:
            continue
        at = group[0]
        edits = tuple(Edit(at, at, f"{{{name}}} ", ((at, at + len(name) + 2),)) for name in names)
        sites.append(Site(at, at, edits))
    sites.sort(key=lambda site: (site.start, site.end))
    return iter(sites)


def _unregistered_names(evidence: EvidenceSlice) -> tuple[str, ...]:
    """One near-miss name per registered tag (or a generic one), none registered."""
    registered = evidence.metric_tags
    bases = [m.tag for m in evidence.metrics[:_NAMES]] or ["m_value"]
    names: list[str] = []
    for base in bases:
        name = base + _SUFFIX
        while name in registered:
            name += _SUFFIX
        names.append(name)
    return tuple(dict.fromkeys(names))


INJECTOR = Injector(NAME, "unregistered_metric", find_sites, __doc__ or "", "no metric tag to rename and no cited sentence")
