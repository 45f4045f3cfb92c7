"""Suggested repairs for a marker whose id the slice does not have: the id it was near.

``orphan_citation``, ``broken_xref`` and ``unregistered_metric`` each flag a
marker naming nothing in the slice. The written id is compared with the
slice's ids (its cards, its allowed sections, its registered tags) after
folding what a reader cannot tell apart: compatibility forms (NFKC: full-width
letters and digits), letters of other scripts drawn like Latin ones, case,
the separators ``-``, ``_``, ``.`` and spaces, and leading zeros of a number
(``E1`` is ``E001``). A known id is

- *the same* when the two fold alike (``Ε001`` with a Greek Epsilon,
  ``[e-001]``, ``[E1]`` for ``E001``); else
- *near* when the folded forms are one edit apart (a swap of neighbours
  counting as one: rapidfuzz's OSA distance; ids of two characters or
  more), or at least 80% alike by rapidfuzz's normalised InDel ratio.

The ids of the closest kind are offered, in the slice's order, when there
are at most three (more is no typo: ``E009`` against ``E001`` to ``E008``
names none of them). ``check --fix`` applies one only when it is the only
one offered and it is sure: the same id, or one edit away in the letters of
a name of four characters or more (``m_revnue`` for ``m_revenue``). An edit
in the digits names another card or section (``C50`` is not ``C40``), and a
name that merely looks alike may be another metric (``fleet_teu_adj`` is not
``fleet_teu``): those are offered, never applied.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from ..evidence import EvidenceSlice
from ..findings import Finding, Suggestion
from ..reading.projection import fold_letters

#: At most this many ids are offered for one marker; beyond it the marker names none of them.
MOST_OFFERED = 3
#: rapidfuzz ``fuzz.ratio`` (0-100) from which two ids are near.
NEAR_RATIO = 80.0

_SEPARATORS = str.maketrans("", "", "-_. \u00a0")
_LEADING_ZEROS = re.compile(r"(?<![0-9])0+(?=[0-9])")
_DIGITS = re.compile(r"[0-9]+")


def fold(identifier: str) -> str:
    """An id as a reader tells ids apart: compatibility forms, look-alikes, case, separators, leading zeros folded."""
    folded = fold_letters(unicodedata.normalize("NFKC", identifier)).casefold().translate(_SEPARATORS)
    return _LEADING_ZEROS.sub("", folded)


def nearest(written: str, known: Sequence[str]) -> tuple[list[str], bool]:
    """The known ids closest to ``written`` (at most :data:`MOST_OFFERED`), and whether the one offered is sure."""
    target = fold(written)
    same = [k for k in known if fold(k) == target]
    if same:
        return (same, len(same) == 1) if len(same) <= MOST_OFFERED else ([], False)
    from rapidfuzz import fuzz  # only a run that asks for repairs pays for the import
    from rapidfuzz.distance import OSA

    one_edit = [k for k in known if len(target) >= 2 and OSA.distance(target, fold(k)) <= 1]
    alike = [k for k in known if fuzz.ratio(target, fold(k)) >= NEAR_RATIO]
    near = one_edit or alike
    if not near or len(near) > MOST_OFFERED:
        return [], False
    # One edit in the letters of a long enough name is a typo; in its digits, another id.
    typo = bool(one_edit) and len(target) >= 4 and _DIGITS.findall(target) == _DIGITS.findall(fold(near[0]))
    return near, len(near) == 1 and typo


#: Per check: how to list the slice's ids, and how a marker naming one is written.
_KINDS = {
    "orphan_citation": (lambda e: [c.id for c in e.cards], "[{}]"),
    "broken_xref": (lambda e: [x.id for x in e.xref], "\u00a7{}"),
    "unregistered_metric": (lambda e: [m.tag for m in e.metrics], "{{{}}}"),
}

CHECKS = frozenset(_KINDS)


def suggestions(finding: Finding, text: str, evidence: EvidenceSlice) -> tuple[Suggestion, ...]:
    """The near ids for one finding of an id check, each as an edit of the id where it is written."""
    known_ids, shape = _KINDS[finding.check]
    written = finding.related
    if written is None:
        return ()
    span = text[finding.start : finding.end]
    if span.count(written) == 1:
        start = finding.start + span.index(written)
        end = start + len(written)
    elif fold(span) == fold(written):
        start, end = finding.start, finding.end  # the id written in a form the reader folds ("Ｅ００１")
    else:
        return ()
    found, sure = nearest(written, known_ids(evidence))
    return tuple(Suggestion(f"did you mean {shape.format(k)}?", start, end, k, sure) for k in found if k != written)


__all__ = ["CHECKS", "MOST_OFFERED", "NEAR_RATIO", "fold", "nearest", "suggestions"]
