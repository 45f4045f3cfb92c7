"""Loading a corpus: a directory of NAME.md + slice pairs, or a JSONL file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import FIXTURES, fixture_pairs
from qcgrade.auditing.corpus import load_corpus
from qcgrade.files import InputError

SLICE = {"section": "s1", "cards": [{"id": "E001", "stance": "bull"}]}


def test_the_fixture_corpus_loads_every_pair_sorted_by_relative_id() -> None:
    items = load_corpus(FIXTURES)
    pairs = fixture_pairs()
    assert pairs, "no fixture pairs: the loop below would check nothing"
    assert [item.id for item in items] == sorted(md.relative_to(FIXTURES).with_suffix("").as_posix() for md, _ in pairs)
    by_id = {item.id: item for item in items}
    for md, slice_path in pairs:
        item = by_id[md.relative_to(FIXTURES).with_suffix("").as_posix()]
        assert item.section == md.read_text(encoding="utf-8")
        assert item.slice.section == json.loads(slice_path.read_text(encoding="utf-8"))["section"]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))


def test_directory_pairs_nested_slice_json_readme_and_exact_bytes(tmp_path: Path) -> None:
    _write(tmp_path / "b" / "s2.md", "Second.\r\n")
    _write(tmp_path / "b" / "s2.slice.json", json.dumps(SLICE))
    _write(tmp_path / "a.md", "First.\n")
    _write(tmp_path / "a.json", json.dumps(SLICE))
    _write(tmp_path / "README.md", "# Not a section\n")
    items = load_corpus(str(tmp_path))
    assert [(i.id, i.section) for i in items] == [("a", "First.\n"), ("b/s2", "Second.\r\n")]


def test_a_section_without_a_slice_is_an_error_naming_it(tmp_path: Path) -> None:
    _write(tmp_path / "lonely.md", "Alone.\n")
    with pytest.raises(InputError, match=r"lonely\.md: no slice beside it \(lonely\.json or lonely\.slice\.json\)"):
        load_corpus(tmp_path)


def test_a_bad_slice_in_a_directory_names_the_slice_file(tmp_path: Path) -> None:
    _write(tmp_path / "x.md", "Text.\n")
    _write(tmp_path / "x.json", '{"section": "s1", "cards": [{"id": "E001", "stance": "sideways"}]}')
    with pytest.raises(InputError, match=r"x\.json: cards\[0\]\.stance"):
        load_corpus(tmp_path)


def test_jsonl_with_inline_slices_relative_slice_paths_and_blank_lines(tmp_path: Path) -> None:
    _write(tmp_path / "slices" / "s.json", json.dumps(SLICE))
    lines = [
        json.dumps({"id": "z", "section": "Zed.\n", "slice": SLICE}),
        "",
        json.dumps({"id": "a", "section": "Ay.\n", "slice_path": "slices/s.json"}),
    ]
    _write(tmp_path / "c.jsonl", "\n".join(lines) + "\n")
    items = load_corpus(tmp_path / "c.jsonl")
    assert [(i.id, i.section, i.slice.section) for i in items] == [("a", "Ay.\n", "s1"), ("z", "Zed.\n", "s1")]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "invalid JSON"),
        ("[1, 2]", "expected a JSON object, got an array"),
        (json.dumps({"section": "x", "slice": SLICE}), "id: missing"),
        (json.dumps({"id": "a", "slice": SLICE}), "section: missing"),
        (json.dumps({"id": "a", "section": "x"}), "slice: missing (give slice or slice_path)"),
        (
            json.dumps({"id": "a", "section": "x", "slice": SLICE, "slice_path": "s.json"}),
            "give exactly one of slice and slice_path",
        ),
        (json.dumps({"id": "a", "section": "x", "slice": []}), "slice: expected an object or JSON text, got an array"),
        (json.dumps({"id": "a", "section": "x", "slice": {"cards": []}}), "slice: section: Field required"),
        (json.dumps({"id": "a", "section": "x", "slice_path": "missing.json"}), "missing.json: no such file"),
        (json.dumps({"id": True, "section": "x", "slice": SLICE}), "id: expected a string or an integer, got a boolean"),
        ('{"id": "a", "section": ' + "[" * 100_000, "invalid JSON: nested too deeply"),
        ('{"id": "a", "section": ' + "9" * 5000 + "}", "invalid JSON: a number has too many digits"),
        (json.dumps({"id": "a", "section": "x", "slice": "[" * 100_000}), "slice: invalid JSON: nested too deeply"),
    ],
)
def test_bad_jsonl_lines_name_the_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    good = json.dumps({"id": "first", "section": "x", "slice": SLICE})
    path = tmp_path / "c.jsonl"
    _write(path, good + "\n\n" + line + "\n")
    with pytest.raises(InputError) as caught:
        load_corpus(path)
    text = str(caught.value)
    assert text.startswith(f"{path}:3: ") and message in text and "\n" not in text


def test_jsonl_reads_what_qcgrade_batch_reads(tmp_path: Path) -> None:
    """Integer ids, slices as JSON text, and U+2028 / U+0085 inside strings (json.dumps writes them raw).

    str.splitlines() would cut the first line in three.
    """
    lines = [
        json.dumps({"id": 7, "section": "Line\u2028sep and next\u0085line.\n", "slice": json.dumps(SLICE)}, ensure_ascii=False),
        json.dumps({"id": "b", "section": "Plain.\n", "slice": SLICE}),
    ]
    path = tmp_path / "c.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    items = load_corpus(path)
    assert [(i.id, i.section, i.slice.section) for i in items] == [
        ("7", "Line\u2028sep and next\u0085line.\n", "s1"),
        ("b", "Plain.\n", "s1"),
    ]


def test_a_single_section_file_is_not_a_corpus(tmp_path: Path) -> None:
    section = tmp_path / "s1.md"
    _write(section, "Text.\n")
    with pytest.raises(InputError) as caught:
        load_corpus(section)
    assert (
        str(caught.value) == f"{section}: a corpus is a directory of NAME.md + NAME.json pairs or a JSONL file, not one section"
    )


def test_duplicate_ids_in_jsonl_are_an_error(tmp_path: Path) -> None:
    row = json.dumps({"id": "same", "section": "x", "slice": SLICE})
    path = tmp_path / "c.jsonl"
    _write(path, row + "\n" + row + "\n")
    with pytest.raises(InputError, match=r"c\.jsonl:2: duplicate id 'same' \(first on line 1\)"):
        load_corpus(path)


def test_non_utf8_jsonl_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_bytes(b'{"id": "\xff"}\n')
    with pytest.raises(InputError, match="not UTF-8"):
        load_corpus(path)


@pytest.mark.parametrize("kind", ["missing", "empty_dir", "empty_file"])
def test_nothing_to_load_is_an_error(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "corpus"
    if kind == "empty_dir":
        path.mkdir()
    elif kind == "empty_file":
        path.write_text("\n\n", encoding="utf-8")
    with pytest.raises(InputError, match="no such file or directory" if kind == "missing" else "no sections found"):
        load_corpus(path)


def test_a_large_jsonl_loads_every_line_in_order(tmp_path: Path) -> None:
    rows = [json.dumps({"id": f"r{i:05d}", "section": "Text.\n", "slice": SLICE}) for i in range(5000)]
    _write(tmp_path / "big.jsonl", "\n".join(rows))
    items = load_corpus(tmp_path / "big.jsonl")
    assert len(items) == 5000 and items[0].id == "r00000" and items[-1].id == "r04999"
