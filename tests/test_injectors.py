"""Defect injectors: the paper's Fig. 2 for qcgrade's grader, on every fixture, class and seed.

A QC-visible injection makes the tier-1 grader report exactly its own check
at the injected place; a QC-invisible one leaves it passing with every
marker byte-identical. Plus: seeds are deterministic and uniform over the
places a class applies to, and a class that cannot apply says so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from typing import get_args

import pytest

from helpers import FIXTURES, ROOT, best_time
from qcgrade import grade, parse_section
from qcgrade.auditing.corpus import CorpusItem, load_corpus
from qcgrade.checks import TIER1
from qcgrade.injectors import (
    DEFECTS,
    EXPECTED_CHECK,
    EXTENDED_DEFECTS,
    INJECTORS,
    QC_INVISIBLE,
    QC_VISIBLE,
    Edit,
    Injector,
    NotApplicable,
    Site,
    UncleanSection,
    UnknownDefectError,
    candidate_sites,
    engine,
    inject,
    injector_for,
    valid_sites,
)
from qcgrade.injectors.claim_negation import flip
from qcgrade.injectors.engine import locates
from qcgrade.injectors.places import fresh_id
from qcgrade.injectors.record import DefectName
from qcgrade.spans import jaccard

CORPUS: list[CorpusItem] = load_corpus(FIXTURES)
BY_ID = {item.id: item for item in CORPUS}
SEEDS = range(5)

SLICE = {
    "section": "s2",
    "tldr_min_bullets": 1,
    "cards": [
        {"id": "E001", "stance": "bull"},
        {"id": "E002", "stance": "bear"},
        {"id": "E038", "stance": "bear"},
    ],
    "metrics": [{"tag": "m_rev", "value": "1.2", "unit": "B USD"}],
    "xref": [{"id": "s3"}, {"id": "s5"}],
}


def markers(text: str) -> list[tuple[str, str]]:
    section = parse_section(text)
    found = (*section.citations, *section.metric_tags, *section.xrefs)
    return sorted((m.kind, text[m.start : m.end]) for m in found)


def crlf(item: CorpusItem) -> CorpusItem:
    return CorpusItem(item.id + "@crlf", item.section.replace("\n", "\r\n"), item.slice)


# --- the public names -------------------------------------------------------


def test_the_seven_names_are_stable_and_in_order() -> None:
    assert DEFECTS == (
        "orphan_citation",
        "unregistered_metric",
        "bare_number",
        "broken_xref",
        "missing_tldr",
        "claim_negation",
        "number_swap",
    )
    assert QC_VISIBLE == DEFECTS[:5] and QC_INVISIBLE == DEFECTS[5:]
    # The record format knows the extended classes too; the paper's seven come first.
    assert get_args(DefectName) == EXTENDED_DEFECTS
    assert EXTENDED_DEFECTS == (*DEFECTS, "citation_swap")


def test_each_visible_class_mirrors_its_tier1_check() -> None:
    assert tuple(EXPECTED_CHECK[d] for d in QC_VISIBLE) == TIER1
    for injector in INJECTORS:
        assert EXPECTED_CHECK[injector.name] == injector.expected_check
        assert injector_for(injector.name) is injector


@pytest.mark.parametrize("injector", INJECTORS, ids=DEFECTS)
def test_each_injector_documents_what_how_and_an_example(injector: Injector) -> None:
    doc = injector.doc
    assert injector.summary and "site" in doc.lower() and "Before::" in doc and "After::" in doc


def test_unknown_defect_is_a_clear_error() -> None:
    item = CORPUS[0]
    with pytest.raises(UnknownDefectError, match="known defects: orphan_citation"):
        inject(item.section, item.slice, "typo_swap", 1)


def test_bad_arguments_are_type_errors() -> None:
    item = CORPUS[0]
    with pytest.raises(TypeError):
        inject(item.section.encode(), item.slice, "number_swap", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        inject(item.section, item.slice, "number_swap", True)


# --- Fig. 2: every fixture section, every class, several seeds ---------------


def test_the_fixture_corpus_is_large_and_clean() -> None:
    assert len(CORPUS) >= 30
    assert all(grade(item.section, item.slice).passed for item in CORPUS)


@pytest.mark.parametrize("item", [*CORPUS, *map(crlf, CORPUS[:3])], ids=lambda item: item.id)
def test_visible_classes_trip_exactly_their_check_and_invisible_ones_nothing(item: CorpusItem) -> None:
    for defect in DEFECTS:
        for seed in SEEDS:
            injection = inject(item.section, item.slice, defect, seed)
            record = injection.record
            assert injection.text != item.section
            assert (
                injection.text
                == item.section[: record.original_start] + record.replacement_text + item.section[record.original_end :]
            )
            report = grade(injection.text, item.slice)
            if record.expected_check is None:
                assert report.passed, (defect, seed, report.findings)
                assert markers(injection.text) == markers(item.section), (defect, seed)
                target = record.target_spans[0]
                assert record.injected_start >= target[0] and record.injected_end <= target[1]
            else:
                assert record.expected_check == defect
                assert report.findings, (defect, seed)
                assert {f.check for f in report.findings} == {defect}, (defect, seed, report.findings)
                assert any(locates(f, record.target_spans) for f in report.findings), (defect, seed)


@pytest.mark.parametrize("item", CORPUS[::6], ids=lambda item: item.id)
def test_the_grader_localises_visible_defects_exactly_on_fixtures(item: CorpusItem) -> None:
    # A measured property of the current grader, not something inject enforces:
    # inject only asks for overlap.
    for defect in QC_VISIBLE:
        for seed in SEEDS:
            injection = inject(item.section, item.slice, defect, seed)
            flagged = [(f.start, f.end) for f in grade(injection.text, item.slice).findings]
            assert jaccard(flagged, injection.record.target_spans) == 1.0, (defect, seed)


def test_claim_negation_keeps_numbers_and_markers_and_flips_one_word() -> None:
    item = BY_ID["cloudmeadow-saas/s1"]
    for seed in range(20):
        injection = inject(item.section, item.slice, "claim_negation", seed)
        record = injection.record
        assert flip(record.original_text) == record.replacement_text
        before = [n.text for n in parse_section(item.section).numerals]
        assert [n.text for n in parse_section(injection.text).numerals] == before


def test_number_swap_changes_exactly_one_digit_of_one_numeral() -> None:
    item = BY_ID["voltaris-cells/s4"]
    for seed in range(20):
        injection = inject(item.section, item.slice, "number_swap", seed)
        record = injection.record
        assert len(record.original_text) == len(record.replacement_text) == 1
        assert record.original_text.isdigit() and record.replacement_text.isdigit()
        assert record.original_text != record.replacement_text
        before = parse_section(item.section).numerals
        after = parse_section(injection.text).numerals
        assert [(n.start, n.end) for n in before] == [(n.start, n.end) for n in after]
        assert sum(a.text != b.text for a, b in zip(before, after)) == 1


# --- determinism and uniformity ---------------------------------------------


def test_same_seed_same_bytes_and_different_seeds_differ() -> None:
    item = BY_ID["harbourline-bancorp/s2"]
    for defect in DEFECTS:
        first = inject(item.section, item.slice, defect, 11)
        again = inject(item.section, item.slice, defect, 11)
        assert first.text == again.text and first.record.to_json() == again.record.to_json()
        if defect != "missing_tldr":  # one TL;DR: one place
            texts = {inject(item.section, item.slice, defect, seed).text for seed in range(10)}
            assert len(texts) > 1, defect


def test_same_seed_same_record_across_processes_and_hash_seeds() -> None:
    script = (
        "import sys; from qcgrade.auditing.corpus import load_corpus; from qcgrade.injectors import DEFECTS, inject\n"
        "item = load_corpus(sys.argv[1])[5]\n"
        "print(''.join(inject(item.section, item.slice, d, 3).record.to_json() for d in DEFECTS))\n"
    )
    outputs = set()
    for hash_seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", script, str(FIXTURES)], capture_output=True, text=True, env=env, cwd=ROOT, check=True
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1
    assert json.loads(next(iter(outputs)).split("\n}\n")[0] + "\n}")["seed"] == 3


def _site_of(sites: tuple[Site, ...], start: int, end: int, replacement: str) -> int:
    hits = [
        i for i, site in enumerate(sites) if any((e.start, e.end, e.replacement) == (start, end, replacement) for e in site.edits)
    ]
    assert len(hits) == 1
    return hits[0]


# Chi-square critical values at p = 0.001, by degrees of freedom.
_CHI2_999 = {
    1: 10.83,
    2: 13.82,
    3: 16.27,
    4: 18.47,
    5: 20.52,
    6: 22.46,
    7: 24.32,
    8: 26.12,
    9: 27.88,
    10: 29.59,
    11: 31.26,
    12: 32.91,
    13: 34.53,
    14: 36.12,
    15: 37.70,
    16: 39.25,
    17: 40.79,
    18: 42.31,
    19: 43.82,
    20: 45.31,
    21: 46.80,
    22: 48.27,
    23: 49.73,
    24: 51.18,
}


@pytest.mark.parametrize(
    ("item_id", "defect"),
    [
        ("cloudmeadow-saas/s1", "orphan_citation"),
        ("harbourline-bancorp/s3", "claim_negation"),
        ("appendix-a/s3", "broken_xref"),
        ("helixora-therapeutics/s4", "number_swap"),
        ("voltaris-cells/s3", "bare_number"),
        ("brinewave-lines/s5", "unregistered_metric"),
    ],
)
def test_seeds_choose_uniformly_among_every_valid_place(item_id: str, defect: str) -> None:
    item = BY_ID[item_id]
    sites = valid_sites(item.section, item.slice, defect)
    assert 2 <= len(sites) <= 25
    draws = 60 * len(sites)
    counts = Counter(
        _site_of(sites, r.original_start, r.original_end, r.replacement_text)
        for r in (inject(item.section, item.slice, defect, seed).record for seed in range(draws))
    )
    assert set(counts) == set(range(len(sites))), "some place is never chosen"
    expected = draws / len(sites)
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(len(sites)))
    assert chi2 < _CHI2_999[len(sites) - 1], (chi2, counts)


def _mixed_injector() -> Injector:
    """broken_xref look-alike whose odd places inject an orphan citation instead (never valid)."""
    real = injector_for("broken_xref")

    def find_sites(section, evidence):  # type: ignore[no-untyped-def]
        for i, site in enumerate(real.find_sites(section, evidence)):
            if i % 2:
                at = site.start
                yield Site(at, at, (Edit(at, at, " [E999]", ((at + 2, at + 6),)),))
            else:
                yield site

    return Injector("broken_xref", "broken_xref", find_sites, real.doc, real.no_site)


def test_places_that_fail_verification_are_never_chosen_and_the_rest_stay_uniform() -> None:
    item = BY_ID["cloudmeadow-saas/s5"]
    mixed = _mixed_injector()
    candidates = candidate_sites(item.section, item.slice, mixed)
    sites = valid_sites(item.section, item.slice, mixed)
    assert len(sites) == (len(candidates) + 1) // 2
    draws = 60 * len(sites)
    counts = Counter(
        _site_of(sites, r.original_start, r.original_end, r.replacement_text)
        for r in (inject(item.section, item.slice, mixed, seed).record for seed in range(draws))
    )
    assert set(counts) == set(range(len(sites)))
    expected = draws / len(sites)
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(len(sites)))
    assert chi2 < _CHI2_999[len(sites) - 1], (chi2, counts)


@pytest.mark.parametrize("item", CORPUS[1:4], ids=lambda item: item.id)
def test_every_variant_of_a_valid_place_is_valid(item: CorpusItem) -> None:
    # inject verifies the variant it draws; valid_sites verifies the first.
    # The contract that makes both agree: variants of one place are
    # indistinguishable to the grader.
    from qcgrade.injectors import verify

    section = parse_section(item.section)
    checked = set()
    for defect in DEFECTS:
        injector = injector_for(defect)
        for site in valid_sites(item.section, item.slice, defect):
            for edit in site.edits[:: max(1, len(site.edits) // 6)]:
                assert verify(injector, item.slice, section, edit), (defect, edit)
                checked.add(defect)
    # Most classes have valid places in a fixture section: the loops above were not empty.
    assert len(checked) >= len(DEFECTS) - 1, sorted(set(DEFECTS) - checked)


# --- when a class cannot apply ---------------------------------------------


PLAIN = "## Overview\n\nThe company makes things and sells them.\n"


@pytest.mark.parametrize(
    ("defect", "reason"),
    [
        ("orphan_citation", "no citation of a card"),
        ("unregistered_metric", "no metric tag"),
        ("missing_tldr", "no TL;DR block"),
        ("claim_negation", "no direction word"),
        ("number_swap", "no numeral"),
    ],
)
def test_a_class_with_no_place_is_not_applicable(defect: str, reason: str) -> None:
    with pytest.raises(NotApplicable, match=reason) as caught:
        inject(PLAIN, {"section": "s1"}, defect, 0)
    assert caught.value.defect == defect


def test_bare_number_and_broken_xref_apply_to_plain_prose_by_adding_a_sentence_or_reference() -> None:
    bare = inject(PLAIN, {"section": "s1"}, "bare_number", 0)
    assert bare.record.original_text == "" and "%" in bare.record.replacement_text
    xref = inject(PLAIN, {"section": "s1"}, "broken_xref", 0)
    assert xref.record.replacement_text == " (see §s2)"


def test_missing_tldr_does_not_apply_when_the_slice_asks_for_none() -> None:
    item = BY_ID["cloudmeadow-saas/s1"]
    no_tldr = item.slice.model_copy(update={"tldr_min_bullets": 0})
    with pytest.raises(NotApplicable, match="tldr_min_bullets"):
        inject(item.section, no_tldr, "missing_tldr", 0)


def test_claim_negation_needs_a_cited_sentence() -> None:
    text = "## TL;DR\n\n- Revenue grew strongly.\n- Costs rose too.\n"
    with pytest.raises(NotApplicable, match="cites a card"):
        inject(text, SLICE, "claim_negation", 0)


def test_when_every_place_fails_the_answer_is_not_applicable_not_a_silent_no_op() -> None:
    item = BY_ID["cloudmeadow-saas/s5"]
    real = injector_for("broken_xref")

    def only_orphans(section, evidence):  # type: ignore[no-untyped-def]
        for site in real.find_sites(section, evidence):
            yield Site(site.start, site.start, (Edit(site.start, site.start, " [E999]", ()),))

    broken = Injector("broken_xref", "broken_xref", only_orphans, real.doc, real.no_site)
    with pytest.raises(NotApplicable, match="none of the .* candidate place"):
        inject(item.section, item.slice, broken, 0)


def test_tries_are_bounded_on_sections_with_huge_numbers_of_bad_places(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "MAX_TRIES", 12)
    paragraph = "Sales rose [E001].\n\n"
    text = "## TL;DR\n\n- Sales rose [E001].\n\n" + paragraph * 40

    def bad_everywhere(section, evidence):  # type: ignore[no-untyped-def]
        for sentence in section.sentences:
            yield Site(sentence.start, sentence.start, (Edit(sentence.start, sentence.start, "[E999] ", ()),))

    bad = Injector("orphan_citation", "orphan_citation", bad_everywhere, "", "none")
    with pytest.raises(NotApplicable, match="no clean place found in 12 tries among 42 candidates"):
        inject(text, SLICE, bad, 0)


def test_the_errors_survive_pickling_for_worker_processes() -> None:
    import pickle

    error = pickle.loads(pickle.dumps(NotApplicable("number_swap", "no numeral")))
    assert (error.defect, error.reason, str(error)) == ("number_swap", "no numeral", "number_swap cannot apply: no numeral")
    with pytest.raises(UncleanSection) as caught:
        inject("## TL;DR\n\n- Revenue grew 30% [E777].\n", SLICE, "number_swap", 0)
    again = pickle.loads(pickle.dumps(caught.value))
    assert str(again) == str(caught.value) and again.findings == caught.value.findings


def test_an_unclean_section_is_refused() -> None:
    text = "## TL;DR\n\n- Revenue grew 30% [E777].\n"
    with pytest.raises(UncleanSection, match="orphan_citation"):
        inject(text, SLICE, "number_swap", 0)


# --- how each class chooses and shapes its edit ------------------------------


@pytest.mark.parametrize(
    ("shape", "taken", "fresh"),
    [
        ("E038", ["E031", "E038", "E035"], "E039"),
        ("EV-006", ["EV-001", "EV-006"], "EV-007"),
        ("src_5", ["src_1", "src_5"], "src_6"),
        ("K0011", ["K0011", "K0019"], "K0020"),
        ("E99", ["E99"], "E100"),
        ("s1", ["s1", "s2", "s3", "s5"], "s6"),
        ("overview", ["overview"], "overview-1"),
    ],
)
def test_fresh_ids_look_real_and_are_absent(shape: str, taken: list[str], fresh: str) -> None:
    assert fresh_id(shape, taken) == fresh
    assert fresh not in taken


def test_orphan_replaces_when_the_sentence_stays_annotated_and_is_added_alongside_otherwise() -> None:
    text = "## TL;DR\n\n- Sales rose [E001].\n\nRevenue grew 30% [E001, E002].\n\nRevenue grew 30% [E001].\n"
    sites = valid_sites(text, SLICE, "orphan_citation")
    edits = [(text[s.edits[0].start : s.edits[0].end], s.edits[0].replacement) for s in sites]
    assert edits == [("E001", "E039"), ("E001", "E039"), ("E002", "E039"), ("", ", E039")]


def test_bare_number_removes_every_citation_group_of_the_sentence() -> None:
    text = "## TL;DR\n\n- Sales rose [E001].\n\nRevenue grew 30% [E001] and margin 12% [E002], a record.\n"
    sites = valid_sites(text, SLICE, "bare_number")
    removal = [s for s in sites if s.edits[0].end > s.edits[0].start]
    assert len(removal) == 1
    edit = removal[0].edits[0]
    injected = edit.apply(text)
    assert "Revenue grew 30% and margin 12%, a record." in injected
    assert [injected[a:b] for a, b in edit.targets] == ["30%", "12%"]


def test_bare_number_leaves_sentences_annotated_by_a_metric_tag_alone() -> None:
    text = "## TL;DR\n\n- Sales rose [E001].\n\nRevenue reached {m_rev}, up 30% [E001].\n"
    sites = valid_sites(text, SLICE, "bare_number")
    assert sites and all(s.edits[0].start == s.edits[0].end for s in sites)  # only added sentences


def test_unregistered_metric_names_are_near_misses_and_never_registered() -> None:
    text = "## TL;DR\n\n- Revenue reached {m_rev} [E001].\n"
    for seed in range(5):
        record = inject(text, SLICE, "unregistered_metric", seed).record
        assert record.replacement_text in ("m_rev_adj", "{m_rev_adj} ")


@pytest.mark.parametrize(
    ("word", "opposite"),
    [
        ("grew", "fell"),
        ("Grew", "Fell"),
        ("GREW", "FELL"),
        ("fell", "grew"),
        ("grows", "shrinks"),
        ("growing", "shrinking"),
        ("rose", "fell"),
        ("declined", "rose"),
        ("Increased", "Decreased"),
        ("decreasing", "increasing"),
        ("up", "down"),
        ("Down", "Up"),
        ("higher", "lower"),
        ("gain", "loss"),
        ("losses", "gains"),
        ("expanded", "contracted"),
        ("contracted", "expanded"),
        ("improved", "worsened"),
        ("worsening", "improving"),
        ("weakened", "strengthened"),
        ("below", "above"),
        ("falling", "rising"),
        ("fallen", "risen"),
    ],
)
def test_flip_keeps_case_and_inflection(word: str, opposite: str) -> None:
    assert flip(word) == opposite


def test_claim_negation_skips_markers_phrasal_up_down_and_uncited_sentences() -> None:
    text = (
        "## TL;DR\n\n- Revenue rose to {m_rev} [E001].\n\n"
        "Growth came lower down the funnel [E002]. Costs rose with no source.\n\n"
        "Sales were up 5% [E001].\n"
    )
    words = [text[s.start : s.end] for s in valid_sites(text, SLICE, "claim_negation")]
    assert words == ["rose", "Growth", "lower", "up"]


def test_a_change_no_reader_sees_is_not_a_claim_negation() -> None:
    text = "## TL;DR\n\n- Sales rose 5% <!-- then fell --> [E001].\n"
    words = [text[s.start : s.end] for s in candidate_sites(text, SLICE, "claim_negation")]
    assert words == ["rose", "fell"]
    valid = [text[s.start : s.end] for s in valid_sites(text, SLICE, "claim_negation")]
    assert valid == ["rose"]
    for seed in range(10):
        assert inject(text, SLICE, "claim_negation", seed).record.original_text == "rose"


def test_number_swap_never_touches_identifiers_and_never_creates_a_leading_zero() -> None:
    text = "## TL;DR\n\n- In FY25 sales were 2,400 units and 12% higher, 6% of total, at 1.5x [E001].\n"
    sites = candidate_sites(text, SLICE, "number_swap")
    assert [text[s.start : s.end] for s in sites] == ["2,400", "12%", "6%", "1.5x"]
    for site in sites:
        for edit in site.edits:
            new = edit.apply(text)[site.start : site.end]
            assert not (new[0] == "0" and len(new) > 1 and new[1] not in ".%x"), new
    six = sites[2]
    assert "0%" in {e.apply(text)[six.start : six.end] for e in six.edits}


def test_number_swap_keeps_the_script_of_the_digit() -> None:
    text = "## TL;DR\n\n- Sales grew ٤٢% [E001].\n"
    for seed in range(10):
        record = inject(text, SLICE, "number_swap", seed).record
        assert "\u0660" <= record.replacement_text <= "\u0669"


@pytest.mark.parametrize(
    "tldr",
    [
        "## TL;DR\n\n- Revenue rose [E001].\n- Costs fell [E002].\n\n",
        "**TL;DR**\n\n1. Revenue rose [E001].\n2. Costs fell [E002].\n\n",
        "TL;DR: a mixed year.\n\n- Revenue rose [E001].\n\n",
        "TL;DR – revenue rose [E001]; – costs fell [E002].\n\n",
        "TL;DR – revenue rose [E001];\n– costs fell [E002].\n\n",
    ],
)
def test_missing_tldr_deletes_the_whole_block_in_every_form(tldr: str) -> None:
    body = "## Detail\n\nRevenue grew 30% [E001].\n"
    for head in ("", "# Title\n\n"):
        text = head + tldr + body
        injection = inject(text, SLICE, "missing_tldr", 0)
        assert injection.text == head + body
        assert injection.record.target_spans == ((len(head), len(head)),)


# --- hostile input: finding places stays linear --------------------------------


def _giant(n: int) -> tuple[str, dict]:
    """One sentence with ``n`` citations, tags, cross-references and direction words; a big slice."""
    cards = [{"id": f"E{i:04d}", "stance": "bull"} for i in range(1, 3001)]
    slice_ = {"section": "s2", "tldr_min_bullets": 1, "cards": cards, "metrics": [{"tag": "m_1"}], "xref": [{"id": "s3"}]}
    body = " and ".join(f"costs rose {i % 90 + 1}% to {{m_1}} [E{i % 3000 + 1:04d}] (§s3)" for i in range(n))
    return "## TL;DR\n\n- Sales grew [E0001].\n\nIn the year " + body + ".\n", slice_


# Four times the input: linear work takes about 4x, quadratic about 16x.
_LINEAR_BOUND = 11


@pytest.mark.timing
@pytest.mark.parametrize("defect", DEFECTS)
def test_finding_places_scales_linearly_on_one_giant_sentence_and_a_big_slice(defect: str) -> None:
    small_text, small_slice = _giant(800)
    large_text, large_slice = _giant(3200)
    small = best_time(lambda: candidate_sites(small_text, small_slice, defect))
    large = best_time(lambda: candidate_sites(large_text, large_slice, defect))
    assert large / small < _LINEAR_BOUND, (small, large)


@pytest.mark.timing
def test_many_tldr_blocks_are_found_in_linear_time() -> None:
    def text(n: int) -> str:
        return "".join(f"TL;DR: point {i}.\n\n- Sales grew [E001].\n\n" for i in range(n))

    small_text, large_text = text(500), text(2000)
    assert len(candidate_sites(large_text, SLICE, "missing_tldr")) == 2000
    small = best_time(lambda: candidate_sites(small_text, SLICE, "missing_tldr"))
    large = best_time(lambda: candidate_sites(large_text, SLICE, "missing_tldr"))
    assert large / small < _LINEAR_BOUND, (small, large)
