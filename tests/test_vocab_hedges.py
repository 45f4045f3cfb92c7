"""Every hedge of the default lexicon (qcgrade/reading/vocab/hedges.toml), in both directions.

A sentence citing a weak card passes with the entry written in it (its stems
grown by letters, as a writer inflects them) and fails without it; the
matching rules of the file's header hold for every script.
"""

from __future__ import annotations

import pytest

from qcgrade import DEFAULT_HEDGES, Options, grade
from qcgrade.reading import vocab

SLICE = {"section": "s", "cards": [{"id": "E002", "stance": "bull", "status": "weak"}]}
ONLY = Options(select=frozenset({"unhedged_weak_card"}))


def _flagged(text: str, options: Options = ONLY) -> bool:
    return bool(grade(text, SLICE, options).findings)


def _written(entry: str) -> str:
    """The entry as a writer may write it: a stem grown by letters, in its own case."""
    body = entry.strip("*")
    return ("ab" if entry.startswith("*") else "") + body + ("ab" if entry.endswith("*") else "")


def test_the_default_lexicon_is_the_file_english_first_each_word_once() -> None:
    assert DEFAULT_HEDGES == Options().hedge_words == vocab.hedge_words()
    assert DEFAULT_HEDGES[:3] == ("estimate", "estimated", "estimates")
    assert len(set(DEFAULT_HEDGES)) == len(DEFAULT_HEDGES) > 300


@pytest.mark.parametrize("entry", vocab.hedge_words())
def test_each_hedge_covers_a_weak_card_and_its_absence_does_not(entry: str) -> None:
    written = _written(entry)
    assert not _flagged(f"Share is 18% {written} [E002]."), written
    assert not _flagged(f"Share is 18% {written.upper()} [E002]."), written.upper()
    assert _flagged("Share is 18% [E002].")


@pytest.mark.parametrize("entry", [e for e in vocab.hedge_words() if not e.startswith("*") and e[0].isascii()])
def test_a_hedge_inside_a_longer_latin_word_is_no_hedge(entry: str) -> None:
    alone = Options(select=frozenset({"unhedged_weak_card"}), hedge_words=(entry,))
    assert _flagged(f"Share is 18% zz{entry.strip('*')} [E002].", alone)
    assert not _flagged(f"Share is 18% {_written(entry)} [E002].", alone)


def test_phrases_may_be_split_by_blanks_and_stems_read_inflections() -> None:
    assert not _flagged("Share is, according\n to a newsletter, 18% [E002].")
    assert not _flagged("Udział szacunkowo wynosi 18% [E002].")
    assert not _flagged("Pazar payı yüzde 18'e çıkmayabilir [E002].")
    assert _flagged("Pazar payı yüzde 18'e çıktı [E002].")


def test_unspaced_scripts_match_inside_a_run_and_hangul_by_its_stem() -> None:
    assert not _flagged("市場シェアは18%に達した可能性がある [E002]。")
    assert not _flagged("점유율은 18%에 이를 가능성이 있다 [E002].")
    assert _flagged("점유율은 18%에 이르렀다 [E002].")


def test_a_configured_lexicon_reads_stems_too() -> None:
    options = Options(select=frozenset({"unhedged_weak_card"}), hedge_words=("plausib*",))
    assert not _flagged("Share is plausibly 18% [E002].", options)
    assert _flagged("Share may be 18% [E002].", options)
