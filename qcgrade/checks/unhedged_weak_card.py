"""A sentence cites a weak card without a hedge word (tier 2).

Why it matters: a card with ``status: weak`` is secondary or unverified
evidence. Stating it flatly passes off a guess as a fact. The hedge lexicon is
configurable (``Options.hedge_words``; ``extend-hedge-words`` in the
configuration adds to the built-in list, ``hedge-words`` replaces it); the
default includes estimate, reportedly, unverified, may, could, suggests,
likely, approximately.

Fails (E002 is weak)::

    ACME holds 18% of the market [E002].

Passes::

    ACME reportedly holds about 18% of the market [E002].

Examples are graded against the slice ``tests/cases/slice.json``.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import regex

from ..evidence import EvidenceSlice
from ..findings import Finding
from ..options import Options
from ..reading.section import Section
from .base import Check

NAME = "unhedged_weak_card"


@lru_cache(maxsize=32)
def hedge_pattern(words: tuple[str, ...]) -> regex.Pattern[str]:
    """A case-insensitive whole-word matcher for the hedge lexicon."""
    phrases = sorted({w.strip() for w in words if w.strip()}, key=len, reverse=True)
    if not phrases:
        return regex.compile(r"(?!)")
    alternatives = "|".join(r"\s+".join(map(regex.escape, p.split())) for p in phrases)
    return regex.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", regex.IGNORECASE)


def run(section: Section, evidence: EvidenceSlice, options: Options) -> Iterator[Finding]:
    weak = {card.id for card in evidence.cards if card.status == "weak"}
    if not weak:
        return
    hedges = hedge_pattern(options.hedge_words)
    for marker in section.citations:
        if marker.id not in weak:
            continue
        sentence = section.sentences[marker.sentence]
        if hedges.search(sentence.text) is None:
            message = f"sentence cites weak card [{marker.id}] without a hedge word"
            yield section.finding(NAME, marker.start, marker.end, message, marker.id, "hedge.weak_card")


CHECK = Check(NAME, 2, run, __doc__ or "")
