"""Negate a cited claim: flip one direction word, keeping every marker byte-identical.

QC-invisible: the citation, tags and numbers stay put, so the grader still
passes, yet the sentence now contradicts the card it cites (the paper's
appendix D). Sites: every direction word (grew, rose, increased, up,
higher, gain, expanded, improved, ... and their opposites) in the visible
prose of a sentence that cites a card of the slice, outside markers. Case is
kept (``Grew`` -> ``Fell``, ``GREW`` -> ``FELL``) and so is the inflection
(``grows`` -> ``shrinks``, ``falling`` -> ``rising``).

Before::

    Net new ARR in Q4 was down 6% year on year [EV-003].

After::

    Net new ARR in Q4 was up 6% year on year [EV-003].
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

from ..evidence import EvidenceSlice
from ..reading.section import Section
from .base import Injector, Site, single
from .places import SpanSet, annotate

NAME = "claim_negation"

# (word, opposite, both ways?). Order matters: a word keeps its first
# opposite, so "fell" goes back to "grew" although "rose" also falls.
_PAIRS: tuple[tuple[str, str, bool], ...] = (
    ("grew", "fell", True),
    ("grow", "shrink", True),
    ("grows", "shrinks", True),
    ("growing", "shrinking", True),
    ("grown", "shrunk", True),
    ("shrank", "grew", True),
    ("rose", "fell", True),
    ("rise", "fall", True),
    ("rises", "falls", True),
    ("rising", "falling", True),
    ("risen", "fallen", True),
    ("rose", "declined", True),
    ("decline", "rise", True),
    ("declines", "rises", True),
    ("declining", "rising", True),
    ("increased", "decreased", True),
    ("increase", "decrease", True),
    ("increases", "decreases", True),
    ("increasing", "decreasing", True),
    ("up", "down", True),
    ("higher", "lower", True),
    ("highest", "lowest", True),
    ("gain", "loss", True),
    ("gains", "losses", True),
    ("gained", "lost", True),
    ("expanded", "contracted", True),
    ("expanding", "contracting", True),
    ("expansion", "contraction", True),
    # "contract(s)" is mostly a noun: only the other way round.
    ("expand", "contract", False),
    ("expands", "contracts", False),
    ("improved", "worsened", True),
    ("improve", "worsen", True),
    ("improves", "worsens", True),
    ("improving", "worsening", True),
    ("improvement", "deterioration", True),
    ("strengthened", "weakened", True),
    ("strengthen", "weaken", True),
    ("strengthens", "weakens", True),
    ("strengthening", "weakening", True),
    ("stronger", "weaker", True),
    ("accelerated", "decelerated", True),
    ("accelerate", "decelerate", True),
    ("accelerates", "decelerates", True),
    ("accelerating", "decelerating", True),
    ("acceleration", "deceleration", True),
    ("widened", "narrowed", True),
    ("widening", "narrowing", True),
    ("widen", "narrow", False),
    ("climbed", "dropped", True),
    ("climb", "drop", True),
    ("climbs", "drops", True),
    ("climbing", "dropping", True),
    ("surged", "slumped", True),
    ("tightened", "loosened", True),
    ("outpaced", "trailed", True),
    ("outperformed", "underperformed", True),
    ("above", "below", True),
    ("ahead", "behind", True),
    ("upgrade", "downgrade", True),
    ("upgraded", "downgraded", True),
    ("upside", "downside", True),
    ("inflow", "outflow", True),
    ("inflows", "outflows", True),
    ("positive", "negative", True),
    ("growth", "decline", False),
)


def _opposites() -> dict[str, str]:
    table: dict[str, str] = {}
    for word, opposite, both in _PAIRS:
        table.setdefault(word, opposite)
        if both:
            table.setdefault(opposite, word)
    return table


OPPOSITES: dict[str, str] = _opposites()
# "up" and "down" are directions only before a figure or to/from/by ("down
# 6%", "up to {cet1}"); elsewhere they are mostly phrasal ("lower down").
_PHRASAL = ("up", "down")
_WORD = regex.compile(
    r"(?<![\w\-])(?:"
    + "|".join(sorted((w for w in OPPOSITES if w not in _PHRASAL), key=len, reverse=True))
    + r"|(?:up|down)(?=\s+(?:\p{N}|\p{Sc}|[+\-\u2212]|(?:to|from|by)(?!\w))))(?![\w\-])",
    regex.IGNORECASE,
)


def flip(word: str) -> str:
    """The opposite of a direction word, in the same case."""
    opposite = OPPOSITES[word.lower()]
    if len(word) > 1 and word.isupper():
        return opposite.upper()
    if word[:1].isupper():
        return opposite[:1].upper() + opposite[1:]
    return opposite


def find_sites(section: Section, evidence: EvidenceSlice) -> Iterator[Site]:
    text = section.text
    notes = annotate(section, evidence)
    markers = SpanSet([(m.start, m.end) for m in (*section.citations, *section.metric_tags, *section.xrefs)])
    for index, sentence in enumerate(section.sentences):
        if sentence.kind == "code" or not notes.cited(index):
            continue
        for match in _WORD.finditer(text, sentence.start, sentence.end):
            if markers.overlaps(match.start(), match.end()):
                continue
            new = flip(match.group())
            yield single(match.start(), match.end(), new, ((match.start(), match.start() + len(new)),))


INJECTOR = Injector(NAME, None, find_sites, __doc__ or "", "no direction word in a sentence that cites a card")
