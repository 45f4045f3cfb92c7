"""Why the reader read a section as it did: every numeral, sentence end, marker and TL;DR bullet with its rule.

``explain(text)`` reads the section again with the readers' traces on
(grading never pays for them) and returns each decision with the id of the
rule that made it (:data:`qcgrade.reading.rules.RULES`), in source offsets,
so a writer who disagrees with a verdict can see which rule to argue with.
Given the slice, it also says which markers are valid and which numerals no
valid marker covers (what ``bare_number`` reports).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import NamedTuple

import regex

from ..evidence import EvidenceSlice
from .lexicon import footnote_masks
from .rules import Decision, Trace
from .rules.numerals import numerals_with_rules
from .section import Section, _blank, _find_tldrs, _footnote_marks, _hiding_html, _section_numbers, shows_bidi_override
from .sentences import attributed_quotations, quoted_spans, sentence_ends


class Explained(NamedTuple):
    """One decision of the reader, where it stands in the source, and the rule that made it."""

    kind: str  # numeral | sentence_end | citation | metric | xref | tldr
    start: int
    end: int
    line: int
    column: int
    shown: str  # what the reader sees there
    verdict: str
    rule: str
    sentence: int = -1
    detail: str = ""

    def to_dict(self) -> dict[str, object]:
        return self._asdict()


_DIGITS = regex.compile(r"\p{N}+")


def explain(text: str, evidence: EvidenceSlice | None = None) -> list[Explained]:
    """Every reading decision about ``text``, in source order (see the module docstring)."""
    section = Section(text)
    out: list[Explained] = []
    out.extend(_numerals(section, evidence))
    out.extend(_sentence_ends(section))
    out.extend(_markers(section, evidence))
    out.extend(_tldrs(section, evidence))
    out.sort(key=lambda e: (e.start, e.end, e.kind))
    return out


def _explained(section: Section, decision: Decision, visible: bool = True, detail: str = "") -> Explained:
    """A decision in visible offsets (or source ones), placed in the source."""
    if visible:
        start, end = section.to_source(decision.start, decision.end)
        shown = section.visible[decision.start : decision.end]
        sentence = bisect_right(section._ends, decision.start)
    else:
        start, end = decision.start, decision.end
        shown = section.text[start:end]
        sentence = bisect_right(section._ends, section.to_visible(start))
    line, column = section.lines.position(start)
    return Explained(decision.kind, start, end, line, column, shown, decision.verdict, decision.rule, sentence, detail)


def _annotated(section: Section, evidence: EvidenceSlice | None) -> set[int] | None:
    if evidence is None:
        return None
    cards, tags = evidence.card_ids, evidence.metric_tags
    annotated = {m.sentence for m in section.citations if m.vouches and m.id in cards}
    annotated.update(m.sentence for m in section.metric_tags if m.vouches and m.id in tags)
    return annotated


def _numerals(section: Section, evidence: EvidenceSlice | None) -> list[Explained]:
    visible = section.visible
    scan = _blank(visible, section._masks) if section._masks else visible
    trace: Trace = []
    numerals_with_rules(scan, 0, len(scan), trace)
    annotated = _annotated(section, evidence)
    out = []
    for decision in trace:
        detail = ""
        if decision.verdict == "number" and annotated is not None:
            cited = bisect_right(section._ends, decision.start) in annotated
            detail = "cited" if cited else "bare: no valid marker in its sentence"
        out.append(_explained(section, decision, detail=detail))
    for drawn in section._drawn_numerals():
        decision = Decision("numeral", drawn.start, drawn.end, "number", "numeral.list_number")
        out.append(_explained(section, decision, visible=False, detail="drawn by the renderer"))
    out.extend(_masked_digits(section, scan))
    return out


def _masked_digits(section: Section, scan: str) -> list[Explained]:
    """Digits the reader sees that are no number: in markers, section numbers, footnote marks, locators."""
    visible = section.visible
    reasons: list[tuple[int, int, str]] = [(s, e, "structure.heading_number") for s, e in _section_numbers(section._doc, visible)]
    reasons += [(s, e, "structure.footnote_mark") for s, e in _footnote_marks(section._doc, section.text)]
    reasons += [(s, e, "structure.footnote_reference") for s, e in footnote_masks(visible)]
    out = []
    for start, end in section._masks:
        for digits in _DIGITS.finditer(visible, start, end):
            rule = next((r for s, e, r in reasons if s <= digits.start() and digits.end() <= e), None)
            if rule is None:
                rule = "marker.locator_number" if _in_prose_group(visible, start, end) else "marker.digits"
            if rule != "marker.digits":  # a marker's own digits: its marker's line says it
                out.append(_explained(section, Decision("numeral", digits.start(), digits.end(), "not a number", rule)))
    return out


def _in_prose_group(visible: str, start: int, end: int) -> bool:
    """A mask that is no whole marker: a locator's number inside a vouching group ("[E001, p. 4]")."""
    shown = visible[start:end]
    return not (shown.startswith(("[", "{", "§", "\u2e39")) or any(c.isalpha() for c in shown))


def _sentence_ends(section: Section) -> list[Explained]:
    visible = section.visible
    trace: Trace = []
    quotations = quoted_spans(visible) if ("[" in visible or "{" in visible) else []
    doc = section._doc
    raw = sentence_ends(visible, quotations, trace, attributed_quotations(visible, doc.units, doc.tokens))
    final = set(section._ends)
    out = []
    for decision in trace:
        if decision.verdict == "ends" and decision.end not in final and decision.end in raw:
            decision = decision._replace(verdict="stays", rule="sentence_end.whole_unit")
        out.append(_explained(section, decision))
    _tldrs_found, breaks = _find_tldrs(section._doc, visible, section._masks, [None])
    for end in sorted(final.difference(raw)):
        if end < len(visible):
            rule = "tldr.item" if end in breaks else "sentence_end.inline_tag"
            out.append(_explained(section, Decision("sentence_end", end, end, "ends", rule)))
    return out


def _markers(section: Section, evidence: EvidenceSlice | None) -> list[Explained]:
    bidi = shows_bidi_override(section.text)
    hiding = "<" in section.text and _hiding_html(section._doc, section.text)
    known = {
        "citation": evidence.card_ids if evidence else None,
        "metric": evidence.metric_tags if evidence else None,
        "xref": {x.id for x in evidence.xref} if evidence else None,
    }
    out = []
    for marker in (*section.citations, *section.metric_tags, *section.xrefs):
        if marker.kind == "xref":
            verdict, rule = "a cross-reference", "marker.xref"
        elif marker.vouches:
            verdict, rule = "vouches", f"marker.{marker.kind}"
        elif bidi:
            verdict, rule = "checked, never vouches", "marker.bidi_override"
        elif hiding:
            verdict, rule = "checked, never vouches", "marker.hiding_html"
        elif _in_html(section, marker.start):
            verdict, rule = "checked, never vouches", "marker.in_html"
        else:
            verdict, rule = "checked, never vouches", "marker.prose_group"
        ids = known[marker.kind]
        detail = "" if ids is None else ("valid" if marker.id in ids else "names nothing in the slice")
        line, column = section.lines.position(marker.start)
        shown = section.text[marker.start : marker.end]
        out.append(Explained(marker.kind, marker.start, marker.end, line, column, shown, verdict, rule, marker.sentence, detail))
    return out


def _in_html(section: Section, source_start: int) -> bool:
    at = section.to_visible(source_start)
    return any(start <= at < end for start, end in section._doc.html)


def _tldrs(section: Section, evidence: EvidenceSlice | None) -> list[Explained]:
    out = []
    wanted = evidence.tldr_min_bullets if evidence is not None else None
    for tldr in section.tldrs:
        line, column = section.lines.position(tldr.start)
        detail = f"{tldr.bullets} non-empty bullet(s)" + ("" if wanted is None else f"; the slice asks for {wanted}")
        verdict = "counts" if wanted is None or tldr.bullets >= wanted else "too few bullets"
        shown = section.text[tldr.start : tldr.end]
        out.append(Explained("tldr", tldr.start, tldr.end, line, column, shown, verdict, f"tldr.{tldr.form}", -1, detail))
    return out
