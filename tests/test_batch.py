"""Batch grading: order, error records, streaming with bounded memory, and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import helpers
from qcgrade import Options, UnknownCheckError, grade
from qcgrade.cli import main
from qcgrade.scale.batch import BatchSummary, grade_jsonl, grade_line

PAIRS = helpers.fixture_pairs()
DEFECT = "\n\nMargins fell 12% last year.\n"  # one bare number


def rows(n: int, base: Path | None = None) -> list[dict]:
    """Fixture sections, every third one broken, slices inline or by path."""
    out = []
    for i in range(n):
        md, slice_path = PAIRS[i % len(PAIRS)]
        text = md.read_text(encoding="utf-8") + (DEFECT if i % 3 == 1 else "")
        row: dict = {"id": f"r{i}", "section": text}
        if i % 2 and base is not None:
            row["slice_path"] = os.path.relpath(slice_path, base)
        else:
            row["slice"] = json.loads(slice_path.read_text(encoding="utf-8"))
        out.append(row)
    return out


def expected_record(row: dict, line: int, options: Options | None = None) -> dict:
    slice_value = row.get("slice")
    if slice_value is None:
        slice_value = json.loads((helpers.ROOT / "tests" / row["slice_path"]).read_text(encoding="utf-8"))
    report = grade(row["section"], slice_value, options)
    return {
        "id": row["id"],
        "line": line,
        "passed": report.passed,
        "reward": 1.0 if report.passed else 0.0,
        "counts": report.counts,
        "violations": [f.to_dict() for f in report.findings],
    }


def lines_of(items: list[dict]) -> list[bytes]:
    return [json.dumps(item).encode("utf-8") + b"\n" for item in items]


def test_there_are_fixtures_to_grade() -> None:
    assert len(PAIRS) >= 6


@pytest.mark.parametrize("workers", [1, 2])
def test_records_match_grade_and_keep_input_order(workers: int) -> None:
    items = rows(40, base=helpers.ROOT / "tests")
    results = list(grade_jsonl(lines_of(items), base_dir=helpers.ROOT / "tests", workers=workers, chunk_size=3))
    assert [r.line for r in results] == list(range(1, 41))
    records = [json.loads(r.json) for r in results]
    assert records == [expected_record(item, i + 1) for i, item in enumerate(items)]
    assert [r.status for r in results] == ["failed" if i % 3 == 1 else "passed" for i in range(40)]
    assert all(
        r.json == json.dumps(json.loads(r.json), sort_keys=True, ensure_ascii=False, separators=(",", ":")) for r in results
    )


def test_output_is_byte_identical_whatever_the_number_of_workers() -> None:
    data = lines_of(rows(30))
    one = [r.json for r in grade_jsonl(data, Options(tier2=True), workers=1)]
    two = [r.json for r in grade_jsonl(data, Options(tier2=True), workers=2, chunk_size=2)]
    assert one == two


GOOD = {"id": "ok", "section": "Revenue grew [E001].", "slice": {"section": "s", "cards": [{"id": "E001", "stance": "bull"}]}}


@pytest.mark.parametrize(
    ("raw", "error", "record_id"),
    [
        (b"{not json", "invalid JSON: Expecting property name enclosed in double quotes at column 2", None),
        (b"[1, 2]", "expected a JSON object, got an array", None),
        (b'{"id": "a", "slice": {}}', "section: missing", "a"),
        (b'{"id": 7, "section": 5, "slice": {}}', "section: expected a string, got a number", 7),
        (b'{"id": [1], "section": "x", "slice": {}}', "id: expected a string or an integer, got an array", None),
        (b'{"id": "b", "section": "x"}', "slice: missing (give slice or slice_path)", "b"),
        (b'{"id": "c", "section": "x", "slice": {}, "slice_path": "s.json"}', "give exactly one of slice and slice_path", "c"),
        (b'{"id": "d", "section": "x", "slice": 3}', "slice: expected an object or JSON text, got a number", "d"),
        (b'{"id": "e", "section": "x", "slice": {"cards": []}}', "slice: section: Field required", "e"),
        (b'{"id": "f", "section": "x", "slice": "{oops"}', "slice: invalid JSON", "f"),
        (b'{"id": "g", "section": "x", "slice_path": "no/such.json"}', "slice_path: no/such.json: no such file", "g"),
        (b'{"id": "h", "section": "x", "slice_path": ""}', "slice_path: expected a file path, got an empty string", "h"),
        # JSON that parses in principle but past Python's limits is bad input, not a qcgrade bug.
        (b'{"id": "j", "section": ' + b"[" * 100_000, "invalid JSON: nested too deeply", None),
        (b'{"id": "k", "section": ' + b"9" * 5000 + b"}", "invalid JSON: a number has too many digits", None),
        (b'{"id": "l", "section": "x", "slice": "' + b"[" * 100_000 + b'"}', "slice: invalid JSON: nested too deeply", "l"),
        (b'{"id": "i", "section": "caf\xe9"}', "not UTF-8 text (byte 0xe9 at offset 27)", None),
    ],
)
def test_bad_lines_become_error_records(raw: bytes, error: str, record_id: object) -> None:
    result = grade_line(5, raw, Options(), ".")
    record = json.loads(result.json)
    assert result.status == "error"
    assert record["line"] == 5
    assert record["error"].startswith(error)
    assert record.get("id") == record_id
    assert set(record) <= {"id", "line", "error"}


def test_a_slice_file_nested_too_deeply_is_an_error_record(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text("[" * 100_000, encoding="utf-8")
    result = grade_line(1, b'{"id": "m", "section": "x", "slice_path": "deep.json"}', Options(), str(tmp_path))
    assert result.status == "error"
    assert json.loads(result.json)["error"] == f"slice_path: {tmp_path / 'deep.json'}: invalid JSON: nested too deeply"


def test_errors_do_not_stop_the_batch_and_blank_lines_are_skipped() -> None:
    good = json.dumps(GOOD).encode()
    data = [b"\xef\xbb\xbf" + good + b"\n", b"\n", b"{broken\n", b"   \n", good + b"\r\n", b'{"section": 1}\n', good]
    results = list(grade_jsonl(data, workers=2, chunk_size=1))
    assert [(r.line, r.status) for r in results] == [(1, "passed"), (3, "error"), (5, "passed"), (6, "error"), (7, "passed")]
    summary = BatchSummary()
    for result in results:
        summary.add(result)
    assert (summary.passed, summary.failed, summary.errors, summary.ok) == (3, 0, 2, False)
    assert summary.first_error is not None and summary.first_error.startswith("line 3: invalid JSON")


@pytest.mark.parametrize(("workers", "chunk_size"), [(1, 5), (2, 4)])
def test_input_is_consumed_lazily_with_a_bounded_number_of_pending_lines(workers: int, chunk_size: int) -> None:
    total = 400
    consumed = 0
    line = json.dumps(GOOD).encode()

    def source() -> Iterator[bytes]:
        nonlocal consumed
        for _ in range(total):
            consumed += 1
            yield line

    bound = (2 * workers + 1) * chunk_size
    worst = 0
    yielded = 0
    for _ in grade_jsonl(source(), workers=workers, chunk_size=chunk_size):
        yielded += 1
        worst = max(worst, consumed - yielded)
    assert yielded == total
    assert worst <= bound, f"{worst} lines were read ahead of the output (bound {bound})"


def test_progress_callback_sees_every_line_and_byte() -> None:
    data = lines_of(rows(25))
    seen = []
    results = list(grade_jsonl(data, workers=2, chunk_size=4, on_chunk=lambda n, b: seen.append((n, b))))
    assert len(results) == 25
    assert sum(n for n, _ in seen) == 25
    assert sum(b for _, b in seen) == sum(len(x) for x in data)


def test_an_edited_slice_file_is_read_again(tmp_path: Path) -> None:
    slice_file = tmp_path / "s.json"
    line = json.dumps({"id": 1, "section": "Growth [E001].", "slice_path": "s.json"}).encode()
    slice_file.write_text(json.dumps(GOOD["slice"]), encoding="utf-8")
    (first,) = grade_jsonl([line], base_dir=tmp_path)
    slice_file.write_text(json.dumps({"section": "s", "cards": [{"id": "E002", "stance": "bull"}]}), encoding="utf-8")
    os.utime(slice_file, ns=(1, 1))  # a different mtime even on coarse clocks
    (second,) = grade_jsonl([line], base_dir=tmp_path)
    assert (first.status, second.status) == ("passed", "failed")


def test_invalid_arguments_are_rejected() -> None:
    with pytest.raises(ValueError, match="workers"):
        grade_jsonl([], workers=0)
    with pytest.raises(ValueError, match="chunk_size"):
        grade_jsonl([], chunk_size=0)
    with pytest.raises(UnknownCheckError, match="nope"):
        grade_jsonl([], Options(select=frozenset({"nope"})))  # before any line is read


# --- the command line ---------------------------------------------------------------


def invoke(args: list[str], cwd: Path, stdin: bytes | None = None) -> tuple[int, str, str]:
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, args, input=stdin)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def make_input(tmp_path: Path, items: list[dict], extra: list[bytes] = ()) -> Path:
    data_dir = tmp_path / "data"
    data_dir.mkdir(exist_ok=True)
    for md, slice_path in PAIRS:
        target = data_dir / "slices" / md.parent.name / slice_path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(slice_path.read_bytes())
    path = data_dir / "in.jsonl"
    path.write_bytes(b"".join(lines_of(items)) + b"".join(extra))
    return path


def test_cli_grades_in_order_with_slice_paths_relative_to_the_input_file(tmp_path: Path) -> None:
    items = []
    for i, row in enumerate(rows(12)):
        md, _ = PAIRS[i % len(PAIRS)]
        if i % 2:
            del row["slice"]
            row["slice_path"] = f"slices/{md.parent.name}/{md.stem}.json"
        items.append(row)
    source = make_input(tmp_path, items)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code, out, err = invoke(["batch", str(source), "--output", str(tmp_path / "out.jsonl"), "--workers", "2"], elsewhere)
    assert code == 0, err
    assert out == "" and err.endswith("graded 12 lines: 8 passed, 4 failed, 0 errors\n")  # after the deprecation line
    records = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in records] == [f"r{i}" for i in range(12)]
    assert [r["passed"] for r in records] == [i % 3 != 1 for i in range(12)]
    assert all(r["reward"] == (1.0 if r["passed"] else 0.0) for r in records)
    assert all(r["counts"]["bare_number"] == (0 if r["passed"] else 1) for r in records)


def test_cli_exits_2_when_some_lines_were_errors_but_writes_every_line(tmp_path: Path) -> None:
    source = make_input(tmp_path, rows(4), extra=[b"{bad\n", b'{"id": "z", "section": "x"}\n'])
    out_file = tmp_path / "out.jsonl"
    code, out, err = invoke(["batch", str(source), "-o", str(out_file), "-j", "1"], tmp_path)
    assert code == 2 and out == ""
    assert err.startswith("graded 6 lines: 3 passed, 1 failed, 2 errors (first: line 5: invalid JSON")
    records = [json.loads(x) for x in out_file.read_text(encoding="utf-8").splitlines()]
    assert [r["line"] for r in records] == [1, 2, 3, 4, 5, 6]
    assert records[5] == {"id": "z", "line": 6, "error": "slice: missing (give slice or slice_path)"}


def test_cli_stdout_output_keeps_the_summary_on_stderr(tmp_path: Path) -> None:
    source = make_input(tmp_path, rows(3))
    code, out, err = invoke(["batch", str(source), "-o", "-", "--tier2"], tmp_path)
    assert code == 0
    assert [json.loads(x)["id"] for x in out.splitlines()] == ["r0", "r1", "r2"]
    assert "unhedged_weak_card" in json.loads(out.splitlines()[0])["counts"]  # tier 2 ran
    assert err == "graded 3 lines: 2 passed, 1 failed, 0 errors\n"


def test_cli_writes_to_stdout_unless_o_is_given(tmp_path: Path) -> None:
    # As every other command: no -o, -o - and -o FILE write the same bytes.
    source = make_input(tmp_path, rows(3))
    default = invoke(["batch", str(source), "-j", "1"], tmp_path)
    dash = invoke(["batch", str(source), "-j", "1", "-o", "-"], tmp_path)
    assert default == dash
    code, out, err = default
    assert code == 0 and err == "graded 3 lines: 2 passed, 1 failed, 0 errors\n"
    assert invoke(["batch", str(source), "-j", "1", "-o", "out.jsonl"], tmp_path)[:2] == (0, "")
    assert (tmp_path / "out.jsonl").read_text(encoding="utf-8") == out


def test_cli_reads_stdin(tmp_path: Path) -> None:
    code, out, err = invoke(["batch", "-", "-o", "-"], tmp_path, stdin=json.dumps(GOOD).encode() + b"\n")
    assert code == 0, err
    assert json.loads(out)["passed"] is True


def test_cli_honours_the_configuration_file(tmp_path: Path) -> None:
    source = make_input(tmp_path, rows(3))
    (tmp_path / "qcgrade.toml").write_text('ignore = ["bare_number"]\n', encoding="utf-8")
    code, out, err = invoke(["batch", str(source), "-o", "-"], tmp_path)
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 3 and all(json.loads(x)["passed"] for x in lines)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["batch", "missing.jsonl", "-o", "out.jsonl"], "missing.jsonl: no such file"),
        (["batch", ".", "-o", "out.jsonl"], ".: is a directory, expected a JSON Lines file"),
        (["batch", "empty.jsonl", "-o", "out.jsonl"], "empty.jsonl: no JSON lines to grade"),
        (["batch", "empty.jsonl", "-o", "empty.jsonl"], "empty.jsonl: is the input file"),
        (["batch", "empty.jsonl", "-o", "no/such/dir/out.jsonl"], "no/such/dir/out.jsonl: cannot write"),
    ],
)
def test_cli_unusable_files_are_one_line_exit_2(tmp_path: Path, args: list[str], needle: str) -> None:
    (tmp_path / "empty.jsonl").write_text("\n\n", encoding="utf-8")
    code, _, err = invoke(args, tmp_path)
    assert code == 2
    assert err.startswith("qcgrade: error: ") and needle in err
    assert err.count("\n") == 1
    assert (tmp_path / "empty.jsonl").read_text(encoding="utf-8") == "\n\n"


def test_a_reader_that_goes_away_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    # More output than a pipe buffers, so the writer is still writing when the reader leaves.
    source = tmp_path / "in.jsonl"
    source.write_bytes((json.dumps(GOOD) + "\n").encode() * 3000)
    command = [sys.executable, "-m", "qcgrade", "batch", str(source), "-o", "-", "-j", "1"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 2
    assert json.loads(first)["id"] == "ok"
    assert err.startswith("qcgrade: error: -: output closed after ") and err.count("\n") == 1


def test_a_bug_on_one_line_is_an_internal_error_record_and_exit_4(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import qcgrade.scale.batch

    real_grade = qcgrade.scale.batch.grade

    def buggy(text: str, *args: object, **kwargs: object) -> object:
        if "TRIGGER" in text:
            raise ZeroDivisionError("simulated bug")
        return real_grade(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(qcgrade.scale.batch, "grade", buggy)
    source = tmp_path / "in.jsonl"
    source.write_bytes(b"".join(lines_of([GOOD, {**GOOD, "id": "bug", "section": "TRIGGER"}, GOOD])))
    code, out, _ = invoke(["batch", str(source), "-o", "-", "-j", "1"], tmp_path)
    assert code == 4
    records = [json.loads(x) for x in out.splitlines()]
    assert [r.get("passed") for r in records] == [True, None, True]
    assert records[1] == {"id": "bug", "line": 2, "error": "internal error: ZeroDivisionError: simulated bug"}


def test_the_progress_line_fits_an_80_column_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rate and ETA on one line of a standard terminal, not wrapped onto a second one."""
    import io
    import re

    from qcgrade.cli.progress import progress_bar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("NO_COLOR", raising=False)
    # How batch drives the bar: the total and steps are bytes read, the count is lines.
    with progress_bar("grading", 3_000_000, unit="lines") as advance:
        assert advance is not None
        advance(12_000, count=12_000)
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen.getvalue())
    lines = [line for line in re.split(r"[\r\n]", shown) if line.strip()]
    assert lines and all(len(line) <= 80 for line in lines), lines
    assert any("12,000 lines" in line and "lines/s" in line and "ETA" in line for line in lines), lines


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_a_full_disk_is_a_one_line_error_not_an_internal_one(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_bytes((json.dumps(GOOD) + "\n").encode() * 2000)
    code, _, err = invoke(["batch", str(source), "-o", "/dev/full", "-j", "1"], tmp_path)
    assert code == 2
    assert err == "qcgrade: error: /dev/full: cannot write: No space left on device\n"


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs Linux's /proc")
def test_a_read_error_names_the_input(tmp_path: Path) -> None:
    # Reading /proc/self/mem from offset 0 fails with EIO after the file opened fine.
    code, _, err = invoke(["batch", "/proc/self/mem", "-o", str(tmp_path / "out.jsonl"), "-j", "1"], tmp_path)
    assert code == 2
    assert err == "qcgrade: error: /proc/self/mem: cannot read: Input/output error\n"
