"""Shared helpers for finding injection sites in a parsed section.

All offsets are into the original text, as :class:`~qcgrade.reading.section.Section`
gives them. Every scan here is bounded (a citation group is at most 512
characters), so finding sites stays linear in the length of the section.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..evidence import EvidenceSlice
from ..reading.section import Marker, Section, Sentence

_TRAILING_DIGITS = re.compile(r"^(.*?)(\d+)$")
_GROUP_LIMIT = 512  # the longest bracket group the grader reads as citations
_FINAL_PUNCTUATION = ".!?"


class IdMinter:
    """Fresh ids shaped like existing ones: same prefix, at least as many digits.

    A fresh id is the next number after the largest taken id with that
    prefix, so it reads like a card or section that exists (``E038`` ->
    ``E039``) and is guaranteed absent. Indexing the taken ids once keeps
    each query cheap however many ids there are.
    """

    def __init__(self, taken: Iterable[str]) -> None:
        self._taken = set(taken)
        self._top: dict[str, int] = {}
        for other in self._taken:
            found = _TRAILING_DIGITS.match(other)
            if found:
                prefix, number = found.group(1), int(found.group(2))
                self._top[prefix] = max(number, self._top.get(prefix, 0))

    def fresh(self, shape: str) -> str:
        match = _TRAILING_DIGITS.match(shape)
        prefix, width = (match.group(1), len(match.group(2))) if match else (shape + "-", 1)
        number = self._top.get(prefix, 0) + 1
        while True:
            candidate = f"{prefix}{number:0{width}d}"
            if candidate not in self._taken:
                return candidate
            number += 1


def fresh_id(shape: str, taken: Iterable[str]) -> str:
    """One fresh id shaped like ``shape`` and not in ``taken`` (see :class:`IdMinter`)."""
    return IdMinter(taken).fresh(shape)


@dataclass(frozen=True)
class Annotations:
    """How each sentence is annotated, counted once per section (``[i]`` is sentence ``i``)."""

    cards: frozenset[str]
    tags: frozenset[str]
    citations: tuple[int, ...]  # valid card citations per sentence
    metric_tags: tuple[int, ...]  # registered metric tags per sentence
    numeric: frozenset[int]  # sentences with a numeral

    def cited(self, sentence: int) -> bool:
        return self.citations[sentence] > 0


def annotate(section: Section, evidence: EvidenceSlice) -> Annotations:
    cards, tags = evidence.card_ids, evidence.metric_tags
    citations = [0] * len(section.sentences)
    metric_tags = [0] * len(section.sentences)
    for marker in section.citations:
        citations[marker.sentence] += marker.id in cards
    for marker in section.metric_tags:
        metric_tags[marker.sentence] += marker.id in tags
    numeric = frozenset(n.sentence for n in section.numerals)
    return Annotations(cards, tags, tuple(citations), tuple(metric_tags), numeric)


def citation_group(text: str, marker: Marker) -> tuple[int, int] | None:
    """The ``[...]`` group (brackets included) that holds a citation id, if plainly there."""
    lo = marker.start - 1
    floor = max(0, marker.start - _GROUP_LIMIT)
    while lo >= floor and text[lo] not in "[]\n\r":
        lo -= 1
    hi = marker.end
    ceiling = min(len(text), marker.end + _GROUP_LIMIT)
    while hi < ceiling and text[hi] not in "[]\n\r":
        hi += 1
    if lo < floor or hi >= ceiling or text[lo] != "[" or text[hi] != "]":
        return None
    return lo, hi + 1


def with_leading_blanks(text: str, start: int) -> int:
    """Move ``start`` left over spaces and tabs (never across a line break)."""
    while start > 0 and text[start - 1] in " \t":
        start -= 1
    return start


def paragraph_sentences(section: Section) -> list[tuple[int, Sentence]]:
    """Prose sentences (paragraphs, list items, quotes) with their indexes."""
    return [(i, s) for i, s in enumerate(section.sentences) if s.kind == "paragraph"]


def ends_with_punctuation(text: str, sentence: Sentence) -> bool:
    """The sentence's last source character is ``.``, ``!`` or ``?``."""
    return sentence.end > sentence.start and text[sentence.end - 1] in _FINAL_PUNCTUATION


def ends_a_line(text: str, sentence: Sentence) -> bool:
    """Nothing follows the sentence on its source line."""
    return sentence.end == len(text) or text[sentence.end] in "\r\n"


class SpanSet:
    """Sorted, non-overlapping spans (markers), for overlap tests in logarithmic time."""

    def __init__(self, spans: Sequence[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self._starts = [start for start, _end in ordered]
        self._ends = [end for _start, end in ordered]

    def overlaps(self, start: int, end: int) -> bool:
        """``[start, end)`` overlaps one of the spans."""
        i = bisect_right(self._starts, end - 1) - 1
        return i >= 0 and self._ends[i] > start
