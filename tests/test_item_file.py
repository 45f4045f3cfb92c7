"""Frozen item sets: `qcgrade items` writes them, `audit --items` replays exactly them, tampering is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from helpers import FIXTURES, ROOT, copy_fixtures, load_toml
from qcgrade.auditing import audit
from qcgrade.auditing.item_file import dump_items, items_schema, load_items, parse_items
from qcgrade.auditing.items import build_items, corpus_entries
from qcgrade.cli import main
from qcgrade.errors import InputError

SECTIONS = ("appendix-a/s3", "brinewave-lines/s1")
CASES = load_toml(ROOT / "tests" / "data" / "item_tampering.toml")["case"]


def corpus(tmp_path: Path, ids: tuple[str, ...] = SECTIONS) -> Path:
    return copy_fixtures(tmp_path, ids)


@pytest.fixture(scope="module")
def frozen(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = corpus(tmp_path_factory.mktemp("items"))
    return dump_items(build_items(corpus_entries(root), (0, 1)), (0, 1))


def cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def test_every_line_follows_the_committed_schema(frozen: str) -> None:
    schema = json.loads((ROOT / "schemas" / "audit-items.schema.json").read_text(encoding="utf-8"))
    assert schema == json.loads(json.dumps(items_schema()))
    lines = [json.loads(line) for line in frozen.splitlines()]
    for line in lines:
        jsonschema.validate(line, schema)
    header, *items = lines
    assert header["qcgrade_items"] == 1 and header["seeds"] == [0, 1] and header["sections"] == 2
    injected = [i for i in items if i["class"] != "clean"]
    assert {i["label"] for i in injected} == {"fail"} and {i["label"] for i in items if i["class"] == "clean"} == {"pass"}
    for item in injected:  # each injected span is where the record says the defect sits
        assert item["span"] == [list(s) for s in item["record"]["target_spans"]]
        assert item["record"]["defect"] == item["class"] and item["record"]["seed"] == item["seed"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**items[0], "label": "maybe"}, schema)


def test_loading_gives_back_the_same_items(frozen: str) -> None:
    loaded = parse_items(frozen, "items.jsonl")
    again = dump_items(loaded, (0, 1))
    assert again == frozen  # byte for byte: the record, spans and texts survive the round trip
    built = build_items(corpus_entries(_entries()), (0, 1))
    assert [(i.id, i.text, i.targets, i.record) for i in loaded.items] == [
        (i.id, i.text, i.targets, i.record) for i in built.items
    ]


def _entries() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (ident, (FIXTURES / f"{ident}.md").read_text(encoding="utf-8"), json.loads((FIXTURES / f"{ident}.json").read_text()))
        for ident in SECTIONS
    ]


def _tamper(frozen: str, case: dict[str, Any]) -> str:
    lines = frozen.splitlines()
    parsed = [json.loads(line) for line in lines]
    if case["target"] == "header":
        index = 0
    else:
        index = next(i for i, item in enumerate(parsed) if i > 0 and item["class"] == case["target"])
    op = case["op"]
    if op == "drop_header":
        return "\n".join(lines[1:]) + "\n"
    if op == "duplicate":
        lines.insert(index, lines[index])
        return "\n".join(lines) + "\n"
    if op == "raw":
        lines[index] = case["text"]
        return "\n".join(lines) + "\n"
    item = parsed[index]
    if op == "set":
        item[case["field"]] = json.loads(case["value"])
    elif op == "replace":
        assert case["old"] in item[case["field"]], case["name"]
        item[case["field"]] = item[case["field"]].replace(case["old"], case["new"], 1)
    elif op == "shift_span":
        item["span"] = [[s + 1, e + 1] for s, e in item["span"]]
    else:
        raise AssertionError(f"unknown op {op}")
    lines[index] = json.dumps(item, ensure_ascii=False)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_a_tampered_item_file_is_one_line_naming_file_and_line(frozen: str, case: dict[str, Any]) -> None:
    tampered = _tamper(frozen, case)
    assert tampered != frozen
    with pytest.raises(InputError) as caught:
        parse_items(tampered, "items.jsonl")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("items.jsonl:"), message
    assert case["error"] in message, message


def test_items_cli_freezes_and_audit_replays_exactly_those_items(tmp_path: Path) -> None:
    root = corpus(tmp_path)
    items = tmp_path / "items.jsonl"
    made = cli("items", str(root), "--seeds", "2", "-o", str(items))
    assert made.exit_code == 0, made.output
    assert f"{items}: " in made.stderr and " items from 2 sections" in made.stderr
    assert items.read_text(encoding="utf-8") == dump_items(build_items(corpus_entries(root), (0, 1)), (0, 1))

    replay = cli("audit", "--items", str(items), "--judge", "qcgrade", "--format", "json")
    direct = cli("audit", str(root), "--seeds", "2", "--judge", "qcgrade", "--format", "json")
    assert replay.exit_code == 0 and direct.exit_code == 0, replay.output + direct.output
    assert replay.stdout == direct.stdout  # same items, same report, byte for byte

    # The corpus may change afterwards: the frozen items do not.
    (root / "appendix-a" / "s3.md").write_text("Changed [E001].\n", encoding="utf-8")
    assert cli("audit", "--items", str(items), "--judge", "qcgrade", "--format", "json").stdout == replay.stdout


def test_a_python_audit_of_a_loaded_item_set_matches_the_corpus_audit(tmp_path: Path) -> None:
    root = corpus(tmp_path)
    items = tmp_path / "items.jsonl"
    items.write_text(dump_items(build_items(corpus_entries(root), (0, 1)), (0, 1)), encoding="utf-8")
    judge = lambda text, slice_: "[E001]" in text  # noqa: E731 - any deterministic judge
    assert audit(judge, load_items(items)).to_dict() == audit(judge, root, seeds=2).to_dict()
    with pytest.raises(ValueError, match="fixes its defect classes"):
        audit(judge, load_items(items), defects=["bare_number"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--items", "{items}", "{root}"), "give it or a CORPUS, not both"),
        (("--items", "{items}", "--seeds", "3"), "the item set fixes its seeds and defect classes"),
        (("--items", "{tmp}/missing.jsonl"), "missing.jsonl: no such file"),
    ],
)
def test_items_option_misuse_is_one_line(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    root = corpus(tmp_path, SECTIONS[:1])
    items = tmp_path / "items.jsonl"
    assert cli("items", str(root), "-o", str(items)).exit_code == 0
    filled = [a.format(items=items, root=root, tmp=tmp_path) for a in args]
    result = cli("audit", *filled, "--judge", "qcgrade")
    assert result.exit_code == 2, result.output
    assert message in result.stderr and result.stderr.count("\n") == 1, result.stderr


def test_items_of_a_corpus_without_passing_sections_is_one_line(tmp_path: Path) -> None:
    root = tmp_path / "bad"
    root.mkdir()
    (root / "s.md").write_text("Revenue was 5 [E9].\n", encoding="utf-8")
    (root / "s.json").write_text('{"section": "s1", "cards": []}', encoding="utf-8")
    result = cli("items", str(root))
    assert result.exit_code == 2 and "nothing to freeze" in result.stderr
