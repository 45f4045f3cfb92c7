"""Records and revert: byte-for-byte round trips, refusals, the schema, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from helpers import FIXTURES, ROOT
from qcgrade.auditing.corpus import CorpusItem, load_corpus
from qcgrade.cli import main
from qcgrade.injectors import (
    DEFECTS,
    InjectionRecord,
    RecordError,
    RevertError,
    inject,
    load_record,
    record_schema,
    revert,
)

CORPUS: list[CorpusItem] = load_corpus(FIXTURES)
SCHEMA_PATH = ROOT / "schemas" / "injection-record.schema.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)


def _variant(item: CorpusItem, line_ending: str) -> str:
    return item.section.replace("\n", line_ending)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    item=st.sampled_from(CORPUS),
    defect=st.sampled_from(DEFECTS),
    seed=st.integers(min_value=-(2**63), max_value=2**63),
    line_ending=st.sampled_from(["\n", "\r\n"]),
)
def test_revert_gives_back_the_original_byte_for_byte(item: CorpusItem, defect: str, seed: int, line_ending: str) -> None:
    original = _variant(item, line_ending)
    injection = inject(original, item.slice, defect, seed)
    assert injection.text != original
    assert revert(injection.text, injection.record) == original
    replayed = load_record(injection.record.to_json())
    assert replayed == injection.record
    assert revert(injection.text, replayed).encode("utf-8") == original.encode("utf-8")
    VALIDATOR.validate(json.loads(injection.record.to_json()))


def test_the_record_says_exactly_what_changed() -> None:
    item = CORPUS[0]
    original = item.section
    for defect in DEFECTS:
        record = inject(original, item.slice, defect, 4).record
        injected = inject(original, item.slice, defect, 4).text
        assert record.defect == defect and record.seed == 4 and record.slice_section == item.slice.section
        assert original[record.original_start : record.original_end] == record.original_text
        assert injected[record.injected_start : record.injected_end] == record.replacement_text
        assert original[: record.original_start] == injected[: record.injected_start]
        assert original[record.original_end :] == injected[record.injected_end :]
        for start, end in record.target_spans:
            assert 0 <= start <= end <= len(injected)


def _injected(defect: str = "number_swap", seed: int = 2) -> tuple[str, str, InjectionRecord]:
    item = CORPUS[7]
    injection = inject(item.section, item.slice, defect, seed)
    return item.section, injection.text, injection.record


def test_revert_refuses_a_text_edited_at_the_injected_place() -> None:
    _original, text, record = _injected()
    at = record.injected_start
    edited = text[:at] + "X" + text[record.injected_end :]
    with pytest.raises(RevertError, match=rf"text was edited since injection: expected '.' at offset {at}, found 'X'"):
        revert(edited, record)


def test_revert_refuses_a_text_edited_elsewhere() -> None:
    _original, text, record = _injected()
    with pytest.raises(RevertError, match="rest of the text differs"):
        revert(text + "\n", record)


def test_revert_refuses_a_deletion_whose_text_was_edited_since() -> None:
    _original, text, record = _injected("missing_tldr")
    assert record.replacement_text == ""
    with pytest.raises(RevertError, match="edited since injection"):
        revert(text.replace("the", "a", 1), record)


def test_revert_refuses_a_shifted_text() -> None:
    _original, text, record = _injected("claim_negation")
    with pytest.raises(RevertError, match="edited since injection"):
        revert("Intro.\n" + text, record)


def test_revert_refuses_a_record_that_does_not_undo_to_its_own_original() -> None:
    _original, text, record = _injected()
    tampered = record.model_copy(update={"original_sha256": "0" * 64})
    with pytest.raises(RevertError, match="record is inconsistent"):
        revert(text, tampered)


def _record_dict() -> dict:
    _original, _text, record = _injected()
    return json.loads(record.to_json())


# The last column: whether the JSON schema alone rejects it too (consistency
# between fields is beyond a schema; the model checks it).
@pytest.mark.parametrize(
    ("change", "message", "schema_rejects"),
    [
        ({"defect": "typo"}, "defect: Input should be", True),
        ({"seed": "7"}, "seed: Input should be a valid integer", True),
        ({"surprise": 1}, "surprise: Extra inputs are not permitted", True),
        ({"original_start": -1}, "original_start: Input should be greater than or equal to 0", True),
        ({"injected_sha256": "abc"}, "injected_sha256: String should match pattern", True),
        ({"version": 2}, "version: Input should be 1", True),
        ({"original_text": "longer than the span"}, "original_end - original_start must equal", False),
        ({"expected_check": "bare_number"}, "expected_check must be None for defect 'number_swap'", False),
    ],
)
def test_bad_records_are_one_line_errors(change: dict, message: str, schema_rejects: bool) -> None:
    data = {**_record_dict(), **change}
    with pytest.raises(RecordError) as caught:
        load_record(data)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert VALIDATOR.is_valid(data) is not schema_rejects


def test_records_load_from_json_text_bytes_and_dicts() -> None:
    _original, _text, record = _injected()
    assert load_record(record.to_json()) == load_record(record.to_json().encode()) == load_record(_record_dict()) == record
    with pytest.raises(RecordError, match="invalid injection record"):
        load_record("{not json")
    with pytest.raises(RecordError, match="got list"):
        load_record([1, 2])  # type: ignore[arg-type]


def test_the_committed_schema_matches_the_model() -> None:
    committed = SCHEMA_PATH.read_text(encoding="utf-8")
    generated = json.dumps(record_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert committed == generated, (
        "schemas/injection-record.schema.json is stale; regenerate it with "
        "qcgrade.injectors.record_schema() (json.dumps(..., indent=2, sort_keys=True) plus a newline)"
    )
    Draft202012Validator.check_schema(SCHEMA)
    assert set(SCHEMA["required"]) >= {
        "defect",
        "seed",
        "expected_check",
        "original_start",
        "original_end",
        "injected_start",
        "injected_end",
        "original_text",
        "replacement_text",
        "target_spans",
        "original_sha256",
        "injected_sha256",
    }


# --- the command line ---------------------------------------------------------


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    source = FIXTURES / "cloudmeadow-saas"
    for name in ("s3.md", "s3.json"):
        (tmp_path / name).write_bytes((source / name).read_bytes())
    # CRLF and non-ASCII bytes must survive the round trip untouched.
    crlf = (source / "s3.md").read_bytes().replace(b"\n", b"\r\n").replace(b"Retention", "R\u00e9tention".encode())
    (tmp_path / "w.md").write_bytes(crlf)
    (tmp_path / "w.json").write_bytes((source / "s3.json").read_bytes())
    return tmp_path


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("name", ["s3", "w"])
@pytest.mark.parametrize("defect", DEFECTS)
def test_cli_inject_then_revert_is_byte_identical(workdir: Path, name: str, defect: str) -> None:
    md, bad, rec, back = (str(workdir / f) for f in (f"{name}.md", "bad.md", "bad.rec.json", "back.md"))
    code, _out, err = _run(
        "inject",
        md,
        "--slice",
        str(workdir / f"{name}.json"),
        "--defect",
        defect,
        "--seed",
        "7",
        "--output",
        bad,
        "--record",
        rec,
    )
    assert code == 0, err
    assert Path(bad).read_bytes() != Path(md).read_bytes()
    written = Path(rec).read_text(encoding="utf-8")
    assert written == load_record(written).to_json()  # sorted keys, indent 2
    code, _out, err = _run("revert", bad, "--record", rec, "--output", back)
    assert code == 0, err
    assert Path(back).read_bytes() == Path(md).read_bytes()


def test_cli_writes_to_stdout_without_output_and_finds_the_slice_beside(workdir: Path) -> None:
    code, out, _err = _run("inject", str(workdir / "s3.md"), "--defect", "number_swap", "--seed", "7")
    library = inject(
        (workdir / "s3.md").read_text(encoding="utf-8"), json.loads((workdir / "s3.json").read_text()), "number_swap", 7
    )
    assert code == 0 and out == library.text


def test_cli_same_seed_same_bytes(workdir: Path) -> None:
    runs = {_run("inject", str(workdir / "w.md"), "--defect", "claim_negation", "--seed", "3")[1] for _ in range(3)}
    assert len(runs) == 1


def test_cli_revert_refuses_an_edited_file_with_exit_2(workdir: Path) -> None:
    bad, rec = workdir / "bad.md", workdir / "bad.rec.json"
    _run("inject", str(workdir / "s3.md"), "--defect", "orphan_citation", "--output", str(bad), "--record", str(rec))
    bad.write_bytes(bad.read_bytes() + b"one more line\n")
    code, out, err = _run("revert", str(bad), "--record", str(rec))
    assert code == 2 and out == ""
    assert err.startswith(f"qcgrade: error: {bad}: text was edited since injection")
    assert err.count("\n") == 1


def test_cli_bad_record_file_is_exit_2_naming_the_file(workdir: Path) -> None:
    rec = workdir / "broken.rec.json"
    rec.write_text('{"defect": "number_swap"}', encoding="utf-8")
    code, _out, err = _run("revert", str(workdir / "s3.md"), "--record", str(rec))
    assert code == 2
    assert err.startswith(f"qcgrade: error: {rec}: invalid injection record:") and err.count("\n") == 1


def test_cli_not_applicable_is_exit_3_with_one_line(workdir: Path) -> None:
    zero = json.loads((workdir / "s3.json").read_text())
    zero["tldr_min_bullets"] = 0
    (workdir / "zero.json").write_text(json.dumps(zero), encoding="utf-8")
    code, out, err = _run("inject", str(workdir / "s3.md"), "--slice", str(workdir / "zero.json"), "--defect", "missing_tldr")
    assert code == 3 and out == ""
    assert (
        err
        == f"qcgrade: error: {workdir / 's3.md'}: missing_tldr cannot apply: no TL;DR block, or the slice asks for none (tldr_min_bullets: 0)\n"
    )


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        ("unclean", "does not pass the grader before injection"),
        ("no_slice", "no slice given"),
        ("missing", "no such file"),
    ],
)
def test_cli_inject_bad_input_is_exit_2(workdir: Path, setup: str, expected: str) -> None:
    target = workdir / "x.md"
    if setup == "unclean":
        target.write_text("## TL;DR\n\n- Revenue grew 30%.\n", encoding="utf-8")
        (workdir / "x.json").write_bytes((workdir / "s3.json").read_bytes())
    elif setup == "no_slice":
        target.write_text("Text.\n", encoding="utf-8")
    code, out, err = _run("inject", str(target), "--defect", "number_swap")
    assert code == 2 and out == ""
    assert err.startswith("qcgrade: error: ") and expected in err and err.count("\n") == 1


def test_cli_dash_reads_stdin_and_writes_stdout(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """'-' is stdin for SECTION/INJECTED and stdout for --output, as in `qcgrade batch`; no file named '-'."""
    monkeypatch.chdir(workdir)
    md, rec = workdir / "s3.md", workdir / "r.json"
    runner = CliRunner()
    injected = runner.invoke(
        main,
        [
            "inject",
            "-",
            "--slice",
            str(workdir / "s3.json"),
            "--defect",
            "number_swap",
            "--seed",
            "7",
            "-o",
            "-",
            "--record",
            str(rec),
        ],
        input=md.read_bytes(),
    )
    assert injected.exit_code == 0, injected.stderr
    on_disk = _run("inject", str(md), "--defect", "number_swap", "--seed", "7")[1]
    assert injected.stdout == on_disk
    reverted = runner.invoke(main, ["revert", "-", "--record", str(rec), "--output", "-"], input=injected.stdout_bytes)
    assert reverted.exit_code == 0, reverted.stderr
    assert reverted.stdout_bytes == md.read_bytes()
    assert not (workdir / "-").exists()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["inject", "-", "--defect", "number_swap"], "qcgrade: error: -: a section read from stdin needs --slice\n"),
        (["inject", "{md}", "--defect", "number_swap", "--record", "-"], "qcgrade: error: --record: give a file path"),
    ],
)
def test_cli_dash_misuse_is_one_line_exit_2(
    workdir: Path, args: list[str], expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(workdir)  # a file named '-' would land here
    argv = [a.replace("{md}", str(workdir / "s3.md")) for a in args]
    result = CliRunner().invoke(main, argv, input=(workdir / "s3.md").read_bytes())
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(expected) and result.stderr.count("\n") == 1
    assert not (workdir / "-").exists()


def test_cli_inject_in_place_keeps_the_original_when_the_record_cannot_be_written(workdir: Path) -> None:
    """The record is written first: a failed record never leaves an injected file with no way back."""
    md = workdir / "s3.md"
    before = md.read_bytes()
    missing = workdir / "no" / "such" / "dir" / "r.json"
    code, out, err = _run("inject", str(md), "--defect", "bare_number", "--output", str(md), "--record", str(missing))
    assert code == 2 and out == ""
    assert err == f"qcgrade: error: {missing}: cannot write: No such file or directory\n"
    assert md.read_bytes() == before
