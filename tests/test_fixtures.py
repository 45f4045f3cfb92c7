"""The shared fixture corpus: every clean section passes, as the corpus promises."""

from __future__ import annotations

import json

import jsonschema
import pytest

from helpers import FIXTURES, fixture_pairs
from qcgrade import grade, load_slice
from qcgrade.schema import evidence_slice_schema

PAIRS = fixture_pairs()


def test_corpus_is_the_promised_size() -> None:
    reports = {md.parent.name for md, _ in PAIRS if md.parent.name != "appendix-a"}
    assert len(reports) >= 5
    for report in reports:
        assert len([md for md, _ in PAIRS if md.parent.name == report]) >= 6, report
    assert (FIXTURES / "appendix-a" / "s3.md").is_file()


@pytest.mark.parametrize(("md", "slice_path"), PAIRS, ids=[f"{m.parent.name}/{m.stem}" for m, _ in PAIRS])
def test_fixture_section_passes_tier1_and_tier2(md, slice_path) -> None:
    report = grade(md.read_text(encoding="utf-8"), load_slice(slice_path.read_bytes()), tier2=True)
    assert report.passed, "\n".join(f"{f.line}:{f.column} {f.check} {f.message}" for f in report.findings)


@pytest.mark.parametrize(("md", "slice_path"), PAIRS, ids=[f"{m.parent.name}/{m.stem}" for m, _ in PAIRS])
def test_fixture_slice_matches_the_published_schema(md, slice_path) -> None:
    jsonschema.validate(json.loads(slice_path.read_text(encoding="utf-8")), evidence_slice_schema())


def test_appendix_a_opens_with_the_papers_tldr() -> None:
    text = (FIXTURES / "appendix-a" / "s3.md").read_text(encoding="utf-8")
    assert text.startswith("TL;DR – ACME posted {m_rev} revenue, +30% [E001]; – a secondary estimate")
