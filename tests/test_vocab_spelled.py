"""Every entry of the spelled-number vocabulary, in both directions.

The number words of each language (generated/number_words.toml, from num2words) and the words
that make them quantities (CLDR's percent words and currency nouns, spelled.toml) are each put in
a sentence where they must act and one where they must not: a sentence without a citation, graded
with spelled_number alone.
"""

from __future__ import annotations

import pytest

from qcgrade import Options, grade
from qcgrade.reading import vocab

SLICE = {"section": "s", "cards": [{"id": "E001", "stance": "bull"}]}
ONLY = Options(select=frozenset({"spelled_number"}))
LANGUAGES = {spec.code: spec for spec in vocab.spelled_languages()}


def flagged(text: str) -> list[str]:
    return [text[f.start : f.end] for f in grade(text, SLICE, ONLY).findings]


def _small(spec: vocab.SpelledLanguage) -> str:
    """The language's word for the least number from two up that is no everyday word of another language."""
    return min((w for w, v in spec.values.items() if v >= 2 and w not in spec.collisions), key=lambda w: (spec.values[w], w))


def _unit(spec: vocab.SpelledLanguage) -> str:
    """A percent word of the language, else one of its quantity words (Turkish writes percent before)."""
    return (spec.percent or sorted(w for w in spec.after if w.isalpha() and len(w) > 2 and w not in spec.values))[0]


def _params(kind: str) -> list[object]:
    found = []
    for code, spec in LANGUAGES.items():
        if kind == "values":
            found += [pytest.param(code, w, id=f"{code}:{w}") for w, v in sorted(spec.values.items()) if w not in spec.collisions]
        elif kind == "after":
            found += [pytest.param(code, w, id=f"{code}:{w}") for w in spec.after]
    return found


def test_twenty_languages_are_read() -> None:
    assert len(LANGUAGES) == 20
    assert {"en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "no", "pl", "ru", "uk", "tr", "ko"} <= set(LANGUAGES)


@pytest.mark.parametrize(("code", "word"), _params("values"))
def test_each_number_word_before_a_unit_of_its_language_is_a_quantity(code: str, word: str) -> None:
    spec = LANGUAGES[code]
    text = f"Xx {word} {_unit(spec)}."
    assert any(word in found or found in word for found in flagged(text)), (text, flagged(text))


@pytest.mark.parametrize(("code", "word"), _params("values"))
def test_a_small_number_word_alone_is_prose_and_a_large_one_a_quantity(code: str, word: str) -> None:
    spec = LANGUAGES[code]
    value = spec.values[word]
    text = f"Xx {word}, yy."
    small = value < 20 or str(value).strip("0") == "1" or len(word) < spec.self_min_letters
    if small:
        return  # a small word may still be a large one in another language; the next test checks prose
    assert flagged(text), text


@pytest.mark.parametrize(("code", "word"), _params("after"))
def test_each_unit_word_makes_a_small_number_a_quantity(code: str, word: str) -> None:
    spec = LANGUAGES[code]
    text = f"Xx {_small(spec)} {word} yy."
    assert flagged(text), text


@pytest.mark.parametrize(
    "text",
    [
        "One point is often missed.",
        "Three points stand out.",
        "The reason is twofold.",
        "Switch to dollar funding and up to $4 more [E001].",
        "Net income rose to USD 4bn [E001].",
        "Uno de los retos es la adaptación de las ciudades.",
        "Il a été reporté entre deux réunions.",
        "이천 공장에서 생산했다.",
        "그는 일일이 확인했다.",
        "Gross margin rose in the trailing four-quarter trend.",
        "Device revenue fell by three quarters.",
        "We opened two stores in ten days.",
        "De groei was en blijft sterk, en de marge ook.",
    ],
)
def test_prose_that_holds_number_words_is_no_quantity(text: str) -> None:
    assert flagged(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Gross margin rose f\u043erty percent.", "f\u043erty"),
        ("Revenue rose \u0455\u0456\u0445 percent.", "\u0455\u0456\u0445"),
        ("Margin rose nine p\u0435rcent.", "nine"),
        ("Gross margin rose fortytwo percent.", "fortytwo"),
        ("The chain closed fourty-two stores.", "fourty-two"),
        ("Omsättningen var fyrtiotvå miljoner kronor.", "fyrtiotvå miljoner"),
        ("De har to procent af markedet.", "to"),
        ("Gelir yüzde on arttı.", "on"),
        ("Две трети клиентов продлили договор.", "Две трети"),
        ("Neuf clients sur dix ont renouvelé.", "Neuf clients sur dix"),
        ("영업이익이 세 배로 늘었다.", "세"),
    ],
)
def test_quantities_read_as_a_reader_reads_them(text: str, expected: str) -> None:
    assert flagged(text) == [expected]
