"""Grounding finds each citing sentence, its cards, groups and tags as the plain reading does.

``match._citing_sentences`` reads each sentence's markers as one run (markers
come in reading order) and takes the one-marker sentence without building
lists. Here it is compared with the plain reading, marker by marker into
dictionaries, on every fixture and on sections built with many markers a
sentence, markers that resolve to no card, tags that are not registered,
and markers in code.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpers import ROOT, fixture_sections
from qcgrade.evidence import EvidenceSlice, load_slice
from qcgrade.grounding.match import CitingSentence, _citing_sentences
from qcgrade.reading.section import Section, parse_section

FIXTURES = fixture_sections()
SLICE = load_slice((ROOT / "tests" / "cases" / "slice.json").read_bytes())


def _plainly(section: Section, evidence: EvidenceSlice) -> list[tuple[object, ...]]:
    """The citing sentences the plain way: every marker into per-sentence dictionaries."""
    cards_of: dict[int, list[str]] = {}
    groups_of: dict[int, list[list[str]]] = {}
    starts_of: dict[int, list[int]] = {}
    last_end: dict[int, int] = {}
    tags_of: dict[int, list[str]] = {}
    spans_of: dict[int, list[tuple[int, str]]] = {}
    spoiled: set[int] = set()
    text = section.text
    for marker in section.citations:
        index, card = marker.sentence, marker.id
        if not marker.vouches or card not in evidence.card_ids:
            spoiled.add(index)
            continue
        if index not in cards_of:
            cards_of[index], groups_of[index], starts_of[index] = [card], [[card]], [marker.start]
        else:
            if card not in cards_of[index]:
                cards_of[index].append(card)
            previous = last_end[index]
            gap = re.sub(r"[ \t]*\r?\n[ \t>]*", " ", text[previous : marker.start])
            if len(gap) <= 8 and not gap.strip(" ,;[]"):
                groups_of[index][-1].append(card)
            else:
                groups_of[index].append([card])
                starts_of[index].append(marker.start)
        last_end[index] = marker.end
    for marker in section.metric_tags:
        if not marker.vouches or marker.id not in evidence.metric_tags:
            spoiled.add(marker.sentence)
            continue
        spans_of.setdefault(marker.sentence, []).append((marker.start, marker.id))
        if marker.id not in tags_of.setdefault(marker.sentence, []):
            tags_of[marker.sentence].append(marker.id)
    found = []
    visible, ends = section.visible, section._ends
    for index in sorted(set(cards_of).union(tags_of).difference(spoiled)):
        sentence = section.sentences[index]
        if sentence.kind == "code":
            continue
        # Where the sentence lies in the visible text, its blanks left out (its text is the sentence's).
        lo = ends[index - 1] if index else 0
        start = lo + len(visible[lo : ends[index]]) - len(visible[lo : ends[index]].lstrip())
        assert visible[start : start + len(sentence.text)] == sentence.text
        found.append(
            (
                index,
                start,
                start + len(sentence.text),
                tuple(cards_of.get(index, ())),
                tuple(tags_of.get(index, ())),
                tuple(tuple(group) for group in groups_of.get(index, ())),
                tuple(starts_of.get(index, ())),
                tuple(spans_of.get(index, ())),
            )
        )
    return found


def _fields(where: CitingSentence) -> tuple[object, ...]:
    return (where.index, where.start, where.end, where.cards, where.tags, where.groups, where.group_starts, where.tag_spans)


def _same(text: str, evidence: EvidenceSlice) -> None:
    expected = _plainly(parse_section(text), evidence)
    assert [_fields(w) for w in _citing_sentences(parse_section(text), evidence)] == expected, text[:300]


def test_fixture_sections_cite_as_the_plain_reading_says() -> None:
    for path in FIXTURES:
        evidence = load_slice(path.with_suffix(".json").read_bytes())
        _same(path.read_text(encoding="utf-8"), evidence)


# Markers that resolve and markers that do not, grouped and apart, tags of both
# kinds, sentence ends, a table row, a code span and a code block.
PIECES = [
    "Revenue rose 5%",
    "[E001]",
    "[E002]",
    "[E001][E002]",
    "[E001, E003]",
    "[E002]; [E004]",
    "[E001,\nE002]",
    "[E001;\n  > E003]",
    "[E002,   \n\t E004]",
    "[E999]",
    "[X1]",
    "{m_rev}",
    "{m_share}",
    "{m_none}",
    "and",
    ", then",
    ".",
    ". ",
    "\n\n",
    "\n| a | b |\n|---|---|\n| 5% [E001] | 6% [E002] |\n\n",
    "`[E001]`",
    "\n\n```\nsee [E002]\n```\n\n",
    "<span>[E003]</span>",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map(" ".join))
@example("Revenue rose 5% [E001] and [E999] [E002].")
@example("Revenue rose 5% {m_rev} [E001] {m_none}. Margins [E001][E002] [E003].")
def test_built_sections_cite_as_the_plain_reading_says(text: str) -> None:
    _same(text, SLICE)
