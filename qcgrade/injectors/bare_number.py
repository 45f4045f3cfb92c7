"""Inject a bare number: a numeral whose sentence has no valid annotation.

Two kinds of site, in text order:

* a sentence with a numeral, annotated by citations only: its citation
  groups are removed (with the blank before each), so its numerals lose
  their annotation;
* the end of a prose paragraph: an unannotated numeric sentence is added.
  Its number is the seed's choice.

Sentences annotated by a registered metric tag are left alone: the tag
usually stands for a value, and deleting it would garble the prose.

Before::

    Total deposits increased 4% to 18.6 B USD in FY25 [C31], while peers shrank.

After::

    Total deposits increased 4% to 18.6 B USD in FY25, while peers shrank.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..evidence import EvidenceSlice
from ..reading.section import Section
from .base import Edit, Injector, Site
from .places import (
    annotate,
    citation_group,
    ends_a_line,
    ends_with_punctuation,
    paragraph_sentences,
    with_leading_blanks,
)

NAME = "bare_number"
_ADDED = " The comparable figure a year earlier was {n}%."
_ADDED_NUMBERS = (4, 7, 9, 12, 15, 18, 23, 27)


def find_sites(section: Section, evidence: EvidenceSlice) -> Iterator[Site]:
    sites = list(_unannotated(section, evidence)) + list(_added(section))
    sites.sort(key=lambda site: (site.start, site.end))
    return iter(sites)


def _unannotated(section: Section, evidence: EvidenceSlice) -> Iterator[Site]:
    text = section.text
    notes = annotate(section, evidence)
    cards = notes.cards
    numerals_of: dict[int, list[tuple[int, int]]] = {}
    for numeral in section.numerals:
        numerals_of.setdefault(numeral.sentence, []).append((numeral.start, numeral.end))
    groups_of: dict[int, dict[tuple[int, int], None]] = {}
    blocked: set[int] = set()  # a citation group we cannot see plainly in the source
    for marker in section.citations:
        if marker.id not in cards:
            continue
        group = citation_group(text, marker)
        if group is None:
            blocked.add(marker.sentence)
            continue
        groups_of.setdefault(marker.sentence, {})[group] = None  # a dict keeps order, drops repeats
    for index, groups in sorted(groups_of.items()):
        if index in blocked or index not in numerals_of:
            continue
        if notes.metric_tags[index]:
            continue
        cuts = [(with_leading_blanks(text, start), end) for start, end in sorted(groups)]
        start, end = cuts[0][0], cuts[-1][1]
        kept: list[str] = []
        pos = start
        for cut_start, cut_end in cuts:
            kept.append(text[pos:cut_start])
            pos = cut_end
        targets = _after_cuts(numerals_of[index], cuts)
        yield Site(start, end, (Edit(start, end, "".join(kept), targets),))


def _after_cuts(spans: list[tuple[int, int]], cuts: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Where spans (sorted, outside every cut) land once the sorted cuts are removed."""
    moved = []
    removed = i = 0
    for start, end in spans:
        while i < len(cuts) and cuts[i][1] <= start:
            removed += cuts[i][1] - cuts[i][0]
            i += 1
        moved.append((start - removed, end - removed))
    return tuple(moved)


def _added(section: Section) -> Iterator[Site]:
    text = section.text
    for _index, sentence in paragraph_sentences(section):
        if not (ends_with_punctuation(text, sentence) and ends_a_line(text, sentence)):
            continue
        at = sentence.end
        edits = []
        for n in _ADDED_NUMBERS:
            added = _ADDED.format(n=n)
            number_at = at + added.index(str(n))
            edits.append(Edit(at, at, added, ((number_at, number_at + len(str(n)) + 1),)))
        yield Site(at, at, tuple(edits))


INJECTOR = Injector(NAME, "bare_number", find_sites, __doc__ or "", "no numeral annotated by citations and no prose paragraph")
