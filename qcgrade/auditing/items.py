"""Audit items: truly passing sections and known defects injected into them.

The sections and injections come from :func:`.ground_truth.ground_truth`, the
loop the gate shares; this module turns each trial into a question for a judge.

Per section and per seed: one clean item (so a stochastic judge is sampled
once per seed) and one injection of each defect class. Sections the grader
fails are skipped and listed, as are injections that cannot apply (e.g. no
TL;DR to delete). Items come out in a fixed order -- corpus order, then seed,
then clean before the defect classes in their canonical order -- so a
deterministic judge gives identical reports run after run.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .ground_truth import CLEAN, CleanSection, Inapplicable, Skipped, Trial, ground_truth


@dataclass(frozen=True, slots=True)
class CorpusEntry:
    """One section of the corpus: an id, the section text and its slice as a JSON-ready dict."""

    id: str
    text: str
    slice: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AuditItem:
    """One question for the judge, with the answer known in advance.

    ``kind`` is ``"clean"`` or a defect class. ``visible`` is None for clean
    items, else whether the deterministic grader is meant to see the defect.
    ``targets`` are where the defect sits in ``text`` (the spans a perfect
    grader would flag; an empty span marks a deletion; none for clean items).
    ``record`` says exactly what the injection changed.
    """

    id: str
    source: str
    kind: str
    seed: int
    text: str
    slice: dict[str, Any]
    visible: bool | None = None
    expected_check: str | None = None
    targets: tuple[tuple[int, int], ...] = ()
    #: The injection record (an :class:`~qcgrade.injectors.InjectionRecord`; None for clean items),
    #: so a frozen item set can be reverted and checked (:mod:`.item_file`).
    record: Any = field(default=None, compare=False, repr=False)

    @property
    def injected(self) -> bool:
        return self.kind != CLEAN


@dataclass(frozen=True, slots=True)
class ItemSet:
    """The items to judge plus what was left out and why."""

    items: tuple[AuditItem, ...]
    sections: int
    skipped: tuple[Skipped, ...]
    not_applicable: tuple[Inapplicable, ...]
    defects: tuple[str, ...]


def _slice_dict(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    if hasattr(value, "model_dump"):  # an EvidenceSlice
        dumped: dict[str, Any] = value.model_dump(mode="json")
        return dumped
    if isinstance(value, (str, bytes)):
        parsed = json.loads(value)
        if isinstance(parsed, dict):
            return parsed
    raise TypeError(f"a slice must be a dict, an EvidenceSlice or JSON text, got {type(value).__name__}")


def _entry(item: Any) -> CorpusEntry:
    if isinstance(item, CorpusEntry):
        return item
    if isinstance(item, (tuple, list)) and len(item) == 3:
        ident, text, slice_ = item
    else:
        ident = item.id
        text = next(
            (getattr(item, a) for a in ("text", "section_text", "section") if isinstance(getattr(item, a, None), str)), None
        )
        slice_ = item.slice
    if not isinstance(text, str):
        raise TypeError(f"corpus item {ident!r} has no section text")
    return CorpusEntry(str(ident), text, _slice_dict(slice_))


def corpus_entries(corpus: Any) -> list[CorpusEntry]:
    """Entries from a corpus path (via :func:`qcgrade.auditing.corpus.load_corpus`) or an iterable.

    An iterable may hold corpus items (``.id``, ``.text``, ``.slice``),
    :class:`CorpusEntry` values or ``(id, text, slice)`` triples.
    """
    if isinstance(corpus, (str, Path)):
        from .corpus import load_corpus

        corpus = load_corpus(Path(corpus))
    return [_entry(item) for item in corpus]


def _injector_names() -> tuple[str, ...]:
    from ..injectors import DEFECTS

    return DEFECTS


def _known_defects() -> tuple[str, ...]:
    from .. import injectors

    return injectors.EXTENDED_DEFECTS


def build_items(
    corpus: Iterable[CorpusEntry],
    seeds: Sequence[int],
    defects: Sequence[str] | None = None,
) -> ItemSet:
    """Grade each section, skip the failing ones, inject every defect per seed."""
    all_defects = _injector_names()
    if isinstance(defects, str):  # one class name, not its letters
        defects = (defects,)
    chosen = tuple(defects) if defects is not None else all_defects
    known = _known_defects()  # the paper's seven by default; the extended ones by name
    unknown = [d for d in chosen if d not in known]
    if unknown:
        raise ValueError(f"unknown defect class {unknown[0]!r}; known: {', '.join(known)}")
    items: list[AuditItem] = []
    skipped: list[Skipped] = []
    missing: list[Inapplicable] = []
    sections = 0
    for event in ground_truth(((e.id, e.text, e.slice) for e in corpus), seeds, chosen):
        if isinstance(event, Trial):
            items.append(_item(event))
        elif isinstance(event, CleanSection):
            sections += 1
        elif isinstance(event, Skipped):
            skipped.append(event)
        else:
            missing.append(event)
    return ItemSet(tuple(items), sections, tuple(skipped), tuple(missing), chosen)


def _item(trial: Trial) -> AuditItem:
    section = trial.section
    ident = f"{section.id}#{trial.kind}@{trial.seed}"
    if trial.injection is None:
        return AuditItem(ident, section.id, CLEAN, trial.seed, section.text, section.slice)
    record = trial.injection.record
    return AuditItem(
        id=ident,
        source=section.id,
        kind=trial.kind,
        seed=trial.seed,
        text=trial.injection.text,
        slice=section.slice,
        visible=record.expected_check is not None,
        expected_check=record.expected_check,
        targets=tuple((int(s), int(e)) for s, e in record.target_spans),
        record=record,
    )
