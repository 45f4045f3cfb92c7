"""A sentence cites a weak card without a hedge word (tier 2).

Why it matters: a card with ``status: weak`` is secondary or unverified
evidence. Stating it flatly passes off a guess as a fact. The hedge lexicon is
configurable (``Options.hedge_words``; ``extend-hedge-words`` in the
configuration adds to the built-in list, ``hedge-words`` replaces it). The
default lexicon is ``qcgrade/reading/vocab/hedges.toml``: the hedges of many
languages (estimate, reportedly, may, could, likely, approximately; könnte,
vermutlich; pourrait, selon; podría; может, возможно; 可能性; 가능성; संभव;
قد ...). An entry is a word or phrase matched whole in any case; ``*`` at an
end stands for any letters (``szacun*``); in scripts written without spaces an
entry may stand inside a run of letters (``可能性がある``).

Fails (E002 is weak)::

    ACME holds 18% of the market [E002].

Passes::

    ACME reportedly holds about 18% of the market [E002].

Examples are graded against the slice ``tests/cases/slice.json``.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..evidence import EvidenceSlice
from ..findings import Finding
from ..options import Options
from ..reading.section import Section
from ..reading.vocab import hedge_pattern
from .base import Check

NAME = "unhedged_weak_card"


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
