"""``inject``: put one known defect into a clean section, chosen by a seed.

The injector lists every candidate place; the seed picks one uniformly, and
the grader verifies it. A visible class must make the tier-1 grader report
its own check and nothing else, at the injected place; an invisible class
must leave the grader passing while the reader sees one sentence change.
A place that fails is dropped and the seed picks again among the rest
(rejection without replacement), which is uniform over the places that
pass, and costs one or two gradings instead of one per place.

Randomness comes only from ``random.Random`` seeded with a SHA-256 of the
defect name and the seed, so the same seed gives the same bytes everywhere,
and seed 7 does not pick correlated places for different classes.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field

from ..errors import NotApplicable, UncleanSection
from ..evidence import EvidenceSlice, SliceLike, load_slice
from ..findings import Finding
from ..grader import grade
from ..reading.section import Section, parse_section
from .base import Edit, Injector, Site, Span
from .catalog import injector_for
from .record import InjectionRecord, sha256

#: How many places ``inject`` tries before giving up: hostile sections can
#: have thousands of candidates, each costing a full grading.
MAX_TRIES = 256


@dataclass(frozen=True)
class Injection:
    """The injected text and the record that says exactly what changed."""

    text: str
    record: InjectionRecord
    original: str = field(repr=False)

    @property
    def targets(self) -> tuple[Span, ...]:
        return self.record.target_spans


def rng_for(defect: str, seed: int) -> random.Random:
    """The one random stream an injection may use."""
    digest = hashlib.sha256(f"qcgrade:{defect}:{seed}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def inject(text: str, slice: SliceLike, defect: str | Injector, seed: int = 0) -> Injection:
    """Inject one ``defect`` into a clean section; the ``seed`` chooses where.

    ``defect`` is one of :data:`~qcgrade.injectors.DEFECTS` (or an
    :class:`~qcgrade.injectors.base.Injector`). Raises
    :class:`NotApplicable` when the class has no place in this
    section, :class:`UncleanSection` when the section fails the grader to
    begin with, :class:`~qcgrade.injectors.catalog.UnknownDefectError` for an
    unknown name and :class:`~qcgrade.evidence.SliceError` for a bad slice.
    Verification uses the default (tier-1) grader. At most :data:`MAX_TRIES`
    places are tried, which only matters for sections with hundreds of
    places that all fail.
    """
    injector, evidence, section = _prepare(text, slice, defect, seed)
    name = injector.name
    sites = [site for site in injector.find_sites(section, evidence) if site.edits]
    if not sites:
        raise NotApplicable(name, injector.no_site)
    rng = rng_for(name, seed)
    remaining = list(range(len(sites)))
    for _attempt in range(min(MAX_TRIES, len(sites))):
        k = rng.randrange(len(remaining))
        site = sites[remaining[k]]
        edit = site.edits[rng.randrange(len(site.edits))]
        if verify(injector, evidence, section, edit):
            return _injection(injector, evidence, text, edit, seed)
        remaining[k] = remaining[-1]
        remaining.pop()
    if remaining:
        raise NotApplicable(name, f"no clean place found in {MAX_TRIES} tries among {len(sites)} candidates")
    raise NotApplicable(name, f"none of the {len(sites)} candidate place(s) gives a clean {name} injection")


def valid_sites(text: str, slice: SliceLike, defect: str | Injector) -> tuple[Site, ...]:
    """Every place ``inject`` can choose, in text order (verifies each: one grading per place)."""
    injector, evidence, section = _prepare(text, slice, defect, 0)
    return tuple(s for s in injector.find_sites(section, evidence) if verify(injector, evidence, section, s.edits[0]))


def candidate_sites(text: str, slice: SliceLike, defect: str | Injector) -> tuple[Site, ...]:
    """Every place the injector proposes, before verification, in text order."""
    injector, evidence, section = _prepare(text, slice, defect, 0, require_clean=False)
    return tuple(injector.find_sites(section, evidence))


def _prepare(
    text: str, slice: SliceLike, defect: str | Injector, seed: int, *, require_clean: bool = True
) -> tuple[Injector, EvidenceSlice, Section]:
    if not isinstance(text, str):
        raise TypeError(f"section text must be str, got {type(text).__name__}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    injector = defect if isinstance(defect, Injector) else injector_for(defect)
    evidence = load_slice(slice)
    if require_clean:
        baseline = grade(text, evidence)
        if not baseline.passed:
            raise UncleanSection(baseline.findings)
    return injector, evidence, parse_section(text)


def verify(injector: Injector, evidence: EvidenceSlice, before: Section, edit: Edit) -> bool:
    """Whether ``edit`` is a clean injection of ``injector``'s defect into ``before``."""
    injected = edit.apply(before.text)
    report = grade(injected, evidence)
    if injector.expected_check is None:
        if not report.passed:
            return False
        after = parse_section(injected)
        same = _same_annotations if injector.keeps_markers else _same_annotation_kinds
        return same(before, after) and _one_sentence_changed(before, after)
    if not report.findings or any(f.check != injector.expected_check for f in report.findings):
        return False
    return any(locates(f, edit.targets) for f in report.findings)


def locates(finding: Finding, targets: tuple[Span, ...]) -> bool:
    """The finding points at the defect: it overlaps a target, or both are empty (an absence)."""
    for start, end in targets:
        if start < end and finding.start < end and start < finding.end:
            return True
        if start == end and finding.start == finding.end:
            return True
    return False


def _annotations(section: Section) -> list[tuple[str, str]]:
    text = section.text
    markers = (*section.citations, *section.metric_tags, *section.xrefs)
    return sorted((m.kind, text[m.start : m.end]) for m in markers)


def _same_annotations(before: Section, after: Section) -> bool:
    return _annotations(before) == _annotations(after) and len(before.numerals) == len(after.numerals)


def _same_annotation_kinds(before: Section, after: Section) -> bool:
    """As many markers of each kind, in the same sentences, and as many numerals."""

    def shape(section: Section) -> list[tuple[str, int]]:
        return sorted((m.kind, m.sentence) for m in (*section.citations, *section.metric_tags, *section.xrefs))

    return shape(before) == shape(after) and len(before.numerals) == len(after.numerals)


def _one_sentence_changed(before: Section, after: Section) -> bool:
    if len(before.sentences) != len(after.sentences):
        return False
    changed = sum(1 for a, b in zip(before.sentences, after.sentences) if a.text != b.text)
    return changed == 1


def _injection(injector: Injector, evidence: EvidenceSlice, text: str, edit: Edit, seed: int) -> Injection:
    injected = edit.apply(text)
    record = InjectionRecord(
        defect=injector.name,
        seed=seed,
        expected_check=injector.expected_check,
        slice_section=evidence.section,
        original_start=edit.start,
        original_end=edit.end,
        injected_start=edit.start,
        injected_end=edit.start + len(edit.replacement),
        original_text=text[edit.start : edit.end],
        replacement_text=edit.replacement,
        target_spans=edit.targets,
        original_sha256=sha256(text),
        injected_sha256=sha256(injected),
    )
    return Injection(injected, record, text)
