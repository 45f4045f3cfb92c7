"""Suggested repairs for ``bare_number``: cite the card that states the number.

A bare number has no valid citation in its sentence. When a card of the slice
states that value (its claim, quote or registered metrics, read by
grounding's one number reader: the same value in the same unit, over a
period that meets the sentence's), the repair is to cite that card: the
citation is put at the end of the sentence, before its closing punctuation,
where one citation covers every number of the sentence (``Revenue grew 30%
last year [E001].``).

Each finding is offered every card that states its value (at most three;
more is no guide). ``check --fix`` applies a citation only when it is
unambiguous for the whole sentence: every bare number of the sentence is
stated by some card, exactly one card states them all, and that card shares
a content word with the sentence (grounding's ``content_words``: a 4% that
happens to be in a card about something else is no source for "a year
earlier it was 4%"). A sentence with a number no card states is never given
a citation: that would make an unsupported number look sourced; nor is a
sentence that already cites a card the slice does not have (the broken
citation is the thing to repair, not to cite around). Numbers in code and
raw HTML get no suggestion (a marker there never vouches).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..evidence import EvidenceSlice
from ..findings import Finding, Suggestion
from ..grounding.match import content_words, facts_for, numeral_value
from ..grounding.values import same_value
from ..reading.section import Numeral, Section
from .near_ids import MOST_OFFERED

CHECK = "bare_number"

# Punctuation that closes a sentence (or a lead-in): the citation goes before it.
_CLOSING = ".!?\u2026:;\u3002\uff01\uff1f"
_NO_MARKERS = frozenset({"code", "html"})
_EMPHASIS = "*_~"


def suggestions(findings: Sequence[Finding], section: Section, evidence: EvidenceSlice) -> dict[int, tuple[Suggestion, ...]]:
    """The cards to cite for each ``bare_number`` finding, keyed by the finding's start."""
    numerals = {(n.start, n.end): n for n in section.numerals}
    by_sentence: dict[int, list[tuple[Finding, list[str]]]] = {}
    for finding in findings:
        numeral = numerals.get((finding.start, finding.end))
        if numeral is not None:
            by_sentence.setdefault(numeral.sentence, []).append((finding, _cards_stating(section, evidence, numeral)))
    out: dict[int, tuple[Suggestion, ...]] = {}
    broken = {m.sentence for m in section.citations if m.id not in evidence.card_ids}
    for sentence, found in by_sentence.items():
        at = _citation_point(section, sentence)
        if at is None:
            continue
        sure = _one_card_for_all([cards for _finding, cards in found])
        if sure is not None and (sentence in broken or not _about_the_same(section, sentence, evidence, sure)):
            sure = None
        for finding, cards in found:
            if len(cards) > MOST_OFFERED:
                continue
            out[finding.start] = tuple(Suggestion(f"cite [{card}]", at, at, f" [{card}]", card == sure) for card in cards)
    return out


def _cards_stating(section: Section, evidence: EvidenceSlice, numeral: Numeral) -> list[str]:
    """The slice's cards (in its order) whose claim, quote or metrics state ``numeral``'s value in its unit."""
    value = numeral_value(section, evidence, numeral)
    if value is None:
        return []
    facts = facts_for(evidence)
    return [
        card_id
        for card_id, card in facts.cards.items()
        if any(stated.unit == value.unit and same_value(value, stated) for stated in card.values)
    ]


def _one_card_for_all(per_numeral: list[list[str]]) -> str | None:
    """The one card that states every bare number of a sentence, when every number has one and only one card has them all."""
    if not per_numeral or any(not cards for cards in per_numeral):
        return None
    common = set(per_numeral[0]).intersection(*per_numeral[1:])
    return next(iter(common)) if len(common) == 1 else None


def _about_the_same(section: Section, sentence: int, evidence: EvidenceSlice, card_id: str) -> bool:
    """Whether the sentence and the card share a content word (their numbers aside)."""
    card = facts_for(evidence).cards[card_id].card
    words = content_words(card.claim) | content_words(card.quote)
    return not words.isdisjoint(content_words(section.sentence_at(sentence).text))


def _citation_point(section: Section, sentence: int) -> int | None:
    """Where a citation for the whole sentence goes in the source: before its closing punctuation, else at its end."""
    ((start, end, kind),) = section.visible_spans((sentence,))
    if kind in _NO_MARKERS:
        return None
    visible = section.visible
    stop = end
    while stop > start and (visible[stop - 1] in _CLOSING or visible[stop - 1].isspace()):
        stop -= 1
    if stop == start:
        return None
    if stop < end and visible[stop] in _CLOSING:
        return section.to_source(stop, stop + 1)[0]  # before the stop, after any emphasis that closes with the words
    at = section.to_source(stop - 1, stop)[1]
    # Past the emphasis that closes on the last word ("**9%**"): the reader sees none of it.
    while at < len(section.text) and section.text[at] in _EMPHASIS:
        at += 1
    return at


__all__ = ["CHECK", "suggestions"]
