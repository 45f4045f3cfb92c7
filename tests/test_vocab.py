"""Every entry of the reading vocabulary, exercised in both directions.

The vocabulary (qcgrade/reading/vocab/*.toml) is the one place a word or
sign is spelled; a list member no rule reads, or one that reads the wrong
way, shows here by name. Each test builds, from the entry itself, a text
where it must act and one where it must not.
"""

from __future__ import annotations

import pytest

from qcgrade import grade
from qcgrade.reading import parse_section, vocab

SLICE = {"section": "s", "cards": [{"id": "E001", "stance": "bull"}]}


def numbers(text: str) -> list[str]:
    return [n.text for n in parse_section(text).numerals]


@pytest.mark.parametrize("word", sorted(vocab.category_words()))
def test_category_word_names_its_digits_unless_a_quantity_follows(word: str) -> None:
    for written in {word, word.capitalize(), word.upper()}:
        assert numbers(f"We report {written} 3 results.") == [], written
        assert numbers(f"We report {written} 3 million results.") == ["3"], written


@pytest.mark.parametrize("word", sorted(vocab.hyphen_prefixes() | vocab.currency_names()))
def test_hyphen_prefix_or_currency_makes_a_quantity(word: str) -> None:
    assert numbers(f"Sales rose at {word}-3 banks.") == ["3"]
    assert numbers(f"Sales rose at {word}x-3 banks.") == []  # any other capitalised word makes a name


@pytest.mark.parametrize("sign", sorted(vocab.percent_signs()))
def test_percent_sign_ends_a_number_and_makes_lookalikes_digits(sign: str) -> None:
    assert numbers(f"Margins rose to 41{sign} last year.") == [f"41{sign}"]
    assert numbers(f"Margins rose to IO{sign} last year.") == [f"IO{sign}"]
    assert numbers(f"## 42. {sign} of revenue") == ["42"]  # a percent sign after a heading's number: a quantity


@pytest.mark.parametrize("word", sorted(vocab.magnitude_words(glued=True, one_letter=True)))
def test_glued_magnitude_is_part_of_the_number(word: str) -> None:
    assert numbers(f"Capex was 42{word} last year.") == [f"42{word}"]


@pytest.mark.parametrize("word", sorted(vocab.magnitude_words(glued=False)))
def test_magnitude_word_makes_a_category_number_a_quantity(word: str) -> None:
    assert numbers(f"At this stage 42 {word} were spent.") == ["42"]
    assert numbers("At this stage 42 were spent.") == []


@pytest.mark.parametrize("code", vocab.currency_codes())
def test_currency_code_glued_to_digits_is_an_amount(code: str) -> None:
    assert numbers(f"Revenue was {code}42m last year.") == ["42m"]
    assert numbers(f"Revenue was {code[:2]}X42 last year.") == []  # an identifier


@pytest.mark.parametrize("head", sorted(vocab.period_label_heads()))
def test_period_label_is_a_name(head: str) -> None:
    assert numbers(f"Results for {head}24 were restated.") == []
    assert numbers(f"Results for {head}2 were restated.")  # "1Q2" is no period label: it reads as a number


@pytest.mark.parametrize("name", sorted(vocab.cpu_names()))
def test_cpu_name_is_no_multiple(name: str) -> None:
    assert numbers(f"Sales of {name} servers rose.") == []
    assert numbers(f"Sales of {name}1 servers rose.") == [name[1:] + "1"]


@pytest.mark.parametrize("word", sorted(vocab.locator_words()))
def test_locator_number_in_a_vouching_group_is_no_claim(word: str) -> None:
    text = f"Online is 31% of sales [E001, {word}. 4]."
    assert numbers(text) == ["31%"]
    assert numbers(f"Online is 31% of sales [E001, {word}. 4%].") == ["31%", "4%"]


@pytest.mark.parametrize("word", vocab.tail_openers())
def test_tail_opener_lets_a_parenthesised_group_cite_the_sentence_before(word: str) -> None:
    assert grade(f"Revenue grew 6%. ({word} [E001]) Margins held.", SLICE).passed
    assert not grade(f"Revenue grew 6%. (not {word} [E001]) Margins held.", SLICE).passed


@pytest.mark.parametrize("word", sorted(vocab.quantity_words()))
def test_quantity_word_makes_a_drawn_list_number_a_quantity(word: str) -> None:
    text = f"1. Revenue\n2. {word} of sales\n"
    assert "2" in numbers(text)
    assert "2" not in numbers("1. Revenue\n2. cost of sales\n")


def _ends_before(word: str, following: str) -> bool:
    """Whether a period after ``word`` ends the sentence before ``following`` (the section reads it so)."""
    text = f"Sales rose 42% at {word}. {following} [E001]."
    return not grade(text, SLICE).passed  # 42% is bare only when the sentence ended after the word


_FOLLOWING = {
    "lower": "the board approved it",
    "reference": "2026 guidance was set",
    "quantity": "9% of customers churned",
    "capital": "The board approved it",
}


def _abbreviations() -> list[tuple[str, str]]:
    """Each listed abbreviation once, with the class it is read by (the first class of the precedence that holds it)."""
    from qcgrade.reading.rules.sentence_ends import _PRECEDENCE

    seen: set[str] = set()
    out = []
    for cls in _PRECEDENCE:
        for word in sorted(vocab.abbreviation_class(cls) - seen):
            out.append((cls, word))
            seen.add(word)
    return out


@pytest.mark.parametrize(("cls", "word"), _abbreviations())
def test_abbreviation_word_ends_a_sentence_as_its_class_says(cls: str, word: str) -> None:
    dotted = "." in word
    row = vocab.abbreviation_table()["legal_dotted" if cls == "legal" and dotted else cls]
    # As writers write them: cased classes capitalised (a lower-case "no." is the word no), dotted legal ones in
    # capitals ("U.S.C."), a single letter as it is listed ("p.", "v.", "c.").
    written = word
    if cls in ("number_taking", "legal", "title", "name_ending") and len(word) > 1:
        written = word.upper() if dotted else word.capitalize()
    for column, following in _FOLLOWING.items():
        outcome = row[column]
        ends = _ends_before(written, following)
        if outcome == "stays":
            assert not ends, (column, written)
        elif outcome == "ends" or column == "capital":  # every look-ahead outcome ends before "The"
            assert ends, (column, written)
