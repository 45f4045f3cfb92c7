"""The scan layer skips text; it never decides.

The readers skip what no rule can match, by guards derived from the rules'
own data (qcgrade/reading/rules/scan.py). With the guards off every rule is
asked everywhere; the reading must be the same, on the corpora and on text
built dense in what the guards look at.
"""

from __future__ import annotations

import random

import pytest

from helpers import ROOT
from qcgrade.reading import vocab
from qcgrade.reading.rules import scan
from qcgrade.reading.rules.numerals import read_numerals

CORPUS = [
    *sorted(p for p in (ROOT / "fixtures").rglob("*.md") if p.name != "README.md"),
    *sorted((ROOT / "tests" / "corpora").rglob("*.md")),
    *sorted((ROOT / "tests").rglob("*.toml")),
]


def _pieces() -> list[str]:
    """What the guards look at, from the vocabulary: digits, signs, look-alikes, names' words, scripts."""
    names = [w for w in vocab.category_words()] + sorted(vocab.hyphen_prefixes())[:6] + ["Wren", "COVID", "HX", "USD", "R"]
    marks = ["\u0301", "\u20e3", "\u0332"]
    return [
        *"0123456789.,%$€£¥₹ IlOoSZBxa_-'(\u2030\u2031\u066a\ufe6a\u0609\u0417\u041e\u0456\u03bf\u00e9\u4e00\u0394\u2212\u00b1",
        *vocab.lookalike_digits()[:12],
        *vocab.cjk()["digits"][:6],
        *vocab.cjk()["magnitudes"],
        "\U0001f51f",
        "\U0001f4af",
        "百分之",
        "円",
        *names,
        *marks,
        " per cent",
        " pct",
        " percent",
        " bn",
        " million",
        "\u00a0",
        "\n",
        "1,200",
        "3Q",
        "1H",
        "FY",
        "10-K",
        "\u2265",
        ">=",
        "x86",
        "e.g.",
    ]


def _generated(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    pieces = _pieces()
    return [rng.choice(("", " ")).join(rng.choice(pieces) for _ in range(rng.randint(1, 24))) for _ in range(count)]


def _reading(texts: list[str], enabled: bool, monkeypatch: pytest.MonkeyPatch) -> list[list[tuple[int, int]]]:
    monkeypatch.setattr(scan, "ENABLED", enabled)
    return [read_numerals(text) for text in texts]


def test_numerals_are_the_same_with_the_scan_off(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _generated(11, 4000) + [path.read_text(encoding="utf-8") for path in CORPUS]
    skipping = _reading(texts, True, monkeypatch)
    asking = _reading(texts, False, monkeypatch)
    for text, fast, slow in zip(texts, skipping, asking):
        assert fast == slow, text
    assert sum(map(len, asking)) > 5000  # the texts hold numbers to read


def test_the_guards_skip_something(monkeypatch: pytest.MonkeyPatch) -> None:
    """A guard that never skips is no speed layer: on prose most numbers are asked no veto."""
    from qcgrade.reading.rules import numerals

    asked = []
    table = numerals.vetoes()

    def counting(veto: numerals.Veto) -> numerals.Veto:
        def fires(text: str, d: int, end: int) -> bool:
            asked.append((veto.id, d))
            return veto.fires(text, d, end)

        return veto._replace(fires=fires)

    monkeypatch.setattr(numerals, "vetoes", lambda: tuple(counting(v) for v in table))
    text = "Revenue grew 42% to $1.2bn in 2025, with 3,400 stores and 12 regions. " * 20
    numbers = read_numerals(text)
    assert len(numbers) == 100
    # Only "in 2025" and "and 12" (a blank after a letter a category word ends with) ask one veto each.
    assert len(asked) <= 40 and {veto for veto, _ in asked} <= {"name.category_word"}
