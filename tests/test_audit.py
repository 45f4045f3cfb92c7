"""The judge audit end to end: items from the corpus, judges, rates, verdicts, CLI."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from helpers import copy_fixtures
from qcgrade.auditing import audit
from qcgrade.auditing.items import build_items, corpus_entries
from qcgrade.cli import main
from qcgrade.curator.stats import mean
from qcgrade.injectors import DEFECTS, QC_INVISIBLE, QC_VISIBLE
from qcgrade.spans import jaccard

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
JUDGES = Path(__file__).resolve().parent / "judges"
SMALL = ("brinewave-lines/s1", "voltaris-cells/s2")


def _judge(script: str, *args: str) -> str:
    return " ".join([sys.executable, str(JUDGES / script), *args])


def small_corpus(tmp_path: Path, ids: tuple[str, ...] = SMALL) -> Path:
    """A copy of a few fixture sections, so command-judge tests stay fast."""
    return copy_fixtures(tmp_path, ids)


def cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def cli_json(*args: str) -> dict[str, Any]:
    result = cli(*args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_reference_judge_over_the_whole_corpus() -> None:
    """``--judge qcgrade``: every visible class caught, no invisible one, no false fail."""
    args = ("audit", "--judge", "qcgrade", str(FIXTURES), "--seeds", "1", "--format", "json")
    first = cli(*args)
    assert first.exit_code == 0, first.stderr
    data = json.loads(first.stdout)
    assert cli(*args).stdout == first.stdout  # deterministic, byte for byte
    sections = len(corpus_entries(FIXTURES))
    assert data["sections"] == sections and data["skipped"] == [] and data["judge_errors"] == []
    assert set(data["per_class"]) == set(DEFECTS)
    for name, row in data["per_class"].items():
        assert row["n"] + row["not_applicable"] == sections
        assert row["n"] > 0 and row["visible"] is (name in QC_VISIBLE)
        assert row["flag_rate"] == (1.0 if name in QC_VISIBLE else 0.0), name
        if row["span_n"]:  # the grader's findings are exactly where the defect was put
            assert row["span_jaccard"] == 1.0, name
    assert data["rho_pf"] == 0.0 and data["clean"]["n"] == sections
    invisible = sum(data["per_class"][c]["n"] for c in QC_INVISIBLE)
    injected = sum(row["n"] for row in data["per_class"].values())
    assert data["rho_fp"] == pytest.approx(invisible / injected)
    assert data["rates"]["rho_fp_visible"]["value"] == 0.0
    assert data["rates"]["rho_fp_invisible"]["value"] == 1.0
    assert data["kappa"] == pytest.approx(1 - data["rho_fp"])
    assert data["cliff"] == pytest.approx(0.45) and data["tau"] == 0.10
    assert data["verdict"] == "safe"


def test_always_pass_judge_is_a_blind_curator(tmp_path: Path) -> None:
    data = cli_json("audit", "--judge", _judge("always_pass.py"), str(small_corpus(tmp_path)))
    assert data["rho_fp"] == 1.0 and data["rho_pf"] == 0.0 and data["kappa"] == 0.0
    assert set(data["per_class"]) == set(DEFECTS)  # all() over no rows would pass
    assert all(row["flag_rate"] == 0.0 and row["n"] > 0 for row in data["per_class"].values())
    assert data["verdict"] == "blind curator"
    assert data["theory"]["max_operative_tau"] == 0.0


def test_always_fail_judge_is_starved(tmp_path: Path) -> None:
    data = cli_json("audit", "--judge", _judge("always_fail.py"), str(small_corpus(tmp_path)), "--jobs", "4")
    assert data["rho_pf"] == 1.0 and data["rho_fp"] == 0.0 and data["kappa"] == 0.0
    assert data["clean"]["flag_rate"] == 1.0 and data["clean"]["n"] == 2
    assert data["rates"]["rho_fp"]["ci_high"] < data["cliff"]
    assert data["verdict"] == "starved"


def test_judge_errors_are_retried_counted_and_never_scored(tmp_path: Path) -> None:
    corpus = small_corpus(tmp_path)
    items = build_items(corpus_entries(corpus), (0,)).items
    odd = sorted(i.id for i in items if len(i.text) % 2 == 1)
    assert 0 < len(odd) < len(items)  # the fixture mix exercises both paths
    data = cli_json(
        "audit",
        "--judge",
        _judge("flaky.py", str(tmp_path / "state")),
        str(corpus),
        "--retries",
        "1",
        "--jobs",
        "3",
        "--fail-fast",
        "0",
    )
    assert sorted(e["id"] for e in data["judge_errors"]) == odd
    assert all(e["attempts"] == 2 and e["error"] == "exited with status 7: model overloaded" for e in data["judge_errors"])
    assert data["counts"] == {
        "items": len(items),
        "judge_errors": len(odd),
        "not_applicable": 0,
        "scored": len(items) - len(odd),
        "skipped": 0,
    }
    assert set(data["per_class"]) == {i.kind for i in items} - {"clean"}  # every class, so the loop checks each
    for name, row in data["per_class"].items():
        errors = sum(1 for i in odd if f"#{name}@" in i)
        assert row["errors"] == errors and row["n"] == 2 - errors
    # Every answered item was judged FAIL (after one garbled attempt).
    assert all(i["verdict"] in ("fail", None) for i in data["items"])
    assert sum(1 for i in data["items"] if i["verdict"] is None) == len(odd)

    # Nothing scored: the report is still printed, but the audit fails (exit 2) rather than
    # letting a judge that never answered pass a CI step with an uninformative verdict.
    result = cli(
        "audit",
        "--judge",
        _judge("flaky.py", str(tmp_path / "fresh")),
        str(corpus),
        "--retries",
        "0",
        "--fail-fast",
        "0",
        "--format",
        "json",
    )
    assert result.exit_code == 2
    assert result.stderr == (
        f"qcgrade: error: --judge: every call failed ({len(items)} judge errors; "
        f"first, {items[0].id}: exited with status 7: model overloaded)\n"
    )
    none_left = json.loads(result.stdout)
    assert none_left["counts"]["scored"] == 0 and len(none_left["judge_errors"]) == len(items)
    assert none_left["rates"]["rho_fp"]["n"] == 0 and none_left["verdict"] == "at risk"


def test_command_judge_with_spans_matches_the_builtin_reference(tmp_path: Path) -> None:
    corpus = small_corpus(tmp_path, SMALL[:1])
    via_command = cli_json("audit", "--judge", _judge("spans_judge.py", "grader"), str(corpus), "--jobs", "2")
    builtin = cli_json("audit", "--judge", "qcgrade", str(corpus))
    for key in ("per_class", "clean", "rates", "verdict"):
        assert via_command[key] == builtin[key], key
    # The same verdicts and spans; only the built-in says in words what it found.
    assert [dict(i, note=None) for i in via_command["items"]] == [dict(i, note=None) for i in builtin["items"]]
    flagged = [i for i in builtin["items"] if i["verdict"] == "fail"]
    assert flagged and all(i["note"] and i["class"] in i["note"] for i in flagged if i["class"] != "missing_tldr")


def test_span_jaccard_against_the_injected_spans(tmp_path: Path) -> None:
    entries = corpus_entries(small_corpus(tmp_path))
    report = audit(lambda text, slice_: (False, [[0, 10]]), entries, seeds=2)
    items = build_items(entries, (0, 1)).items
    for name in DEFECTS:
        overlaps = [jaccard([(0, 10)], i.targets) for i in items if i.kind == name and any(e > s for s, e in i.targets)]
        got = report.per_class[name]
        assert got.span_n == len(overlaps)
        assert got.span_jaccard == (pytest.approx(mean(overlaps)) if overlaps else None)


def test_clean_sections_are_sampled_once_per_seed(tmp_path: Path) -> None:
    entries = corpus_entries(small_corpus(tmp_path))
    calls: dict[str, int] = {}

    def coin(text: str, slice_: dict[str, Any]) -> bool:
        calls[text] = calls.get(text, 0) + 1
        return calls[text] % 2 == 1  # a "stochastic" judge: pass, fail, pass, ...

    report = audit(coin, entries, seeds=3, defects=["orphan_citation"])
    assert [calls[e.text] for e in entries] == [3, 3]
    assert report.clean.flag.n == 6 and report.clean.flag.count == 2
    assert report.seeds == (0, 1, 2) and report.per_class["orphan_citation"].flag.n == 6


def test_one_defect_class_may_be_given_as_a_plain_string(tmp_path: Path) -> None:
    entries = corpus_entries(small_corpus(tmp_path, SMALL[:1]))
    report = audit("qcgrade", entries, defects="bare_number")
    assert list(report.per_class) == ["bare_number"]


def test_async_judge_and_a_running_event_loop(tmp_path: Path) -> None:
    entries = corpus_entries(small_corpus(tmp_path, SMALL[:1]))

    async def judge(text: str, slice_: dict[str, Any]) -> dict[str, str]:
        await asyncio.sleep(0)
        return {"verdict": "pass"}

    async def inside_a_loop() -> Any:
        return audit(judge, entries, jobs=4)

    report = asyncio.run(inside_a_loop())
    assert report.rho_fp.value == 1.0 and report.rho_pf.value == 0.0
    assert report.judge.endswith("judge")


def test_same_json_across_jobs_and_cache_resume(tmp_path: Path) -> None:
    corpus = str(small_corpus(tmp_path))
    judge = _judge("spans_judge.py", "fixed")
    serial = cli("audit", "--judge", judge, corpus, "--format", "json")
    parallel = cli("audit", "--judge", judge, corpus, "--format", "json", "--jobs", "6")
    assert serial.exit_code == 0 and serial.stdout == parallel.stdout
    cache = tmp_path / "cache"
    fresh = cli("audit", "--judge", judge, corpus, "--format", "json", "--cache", str(cache))
    entries = sorted(cache.rglob("*.json"))
    assert len(entries) == json.loads(fresh.stdout)["counts"]["items"]
    for entry in entries[::2]:  # an interrupted run: half the verdicts never landed
        entry.unlink()
    resumed = cli("audit", "--judge", judge, corpus, "--format", "json", "--cache", str(cache))
    assert fresh.stdout == resumed.stdout == serial.stdout
    assert len(list(cache.rglob("*.json"))) == len(entries)


def test_failing_sections_are_skipped_and_listed(tmp_path: Path) -> None:
    corpus = small_corpus(tmp_path, SMALL[:1])
    demo = ROOT / "qcgrade" / "demo"
    shutil.copy(demo / "failing.md", corpus / "zz-failing.md")
    shutil.copy(demo / "slice.json", corpus / "zz-failing.json")
    data = cli_json("audit", "--judge", "qcgrade", str(corpus))
    assert [s["id"] for s in data["skipped"]] == ["zz-failing"]
    assert data["skipped"][0]["reason"] == "fails the deterministic grader" and data["skipped"][0]["checks"]
    assert data["sections"] == 1 and {i["source"] for i in data["items"]} == {SMALL[0]}


def test_inapplicable_defects_are_listed_not_counted(tmp_path: Path) -> None:
    corpus = tmp_path / "tiny"
    corpus.mkdir()
    (corpus / "s1.md").write_text("Revenue grew to {m_rev} [E1].\n", encoding="utf-8")
    (corpus / "s1.json").write_text(
        json.dumps(
            {
                "section": "s1",
                "cards": [{"id": "E1", "stance": "bull", "claim": "Revenue grew.", "metric_refs": ["m_rev"]}],
                "metrics": [{"tag": "m_rev", "value": "1.2", "unit": "B USD"}],
            }
        ),
        encoding="utf-8",
    )
    data = cli_json("audit", "--judge", "qcgrade", str(corpus))
    missing = {x["class"] for x in data["not_applicable"]}
    assert "missing_tldr" in missing  # there is no TL;DR to delete
    for name, row in data["per_class"].items():
        assert row["n"] + row["not_applicable"] == 1
        assert row["not_applicable"] == (1 if name in missing else 0)


@pytest.mark.timing
def test_timeouts_through_the_cli(tmp_path: Path) -> None:
    corpus = small_corpus(tmp_path, SMALL[:1])
    sleep = 60  # the judge's own run time: no speed limit, a bound on waiting for it
    start = time.monotonic()
    result = cli(
        "audit",
        "--judge",
        _judge("slow.py", str(tmp_path / "pids"), str(sleep)),
        str(corpus),
        "--defects",
        "orphan_citation",
        "--timeout",
        "0.5",
        "--retries",
        "0",
        "--jobs",
        "2",
        "--fail-fast",
        "0",  # judge every item: this test reads the report of timeouts
        "--format",
        "json",
    )
    assert time.monotonic() - start < sleep  # the judges were cut off, not waited for
    assert result.exit_code == 2 and "every call failed" in result.stderr  # nothing was scored
    data = json.loads(result.stdout)
    assert [e["error"] for e in data["judge_errors"]] == ["timed out after 0.5s (killed)"] * 2
    assert data["counts"]["scored"] == 0


def test_plain_text_output(tmp_path: Path) -> None:
    result = cli("audit", "--judge", _judge("always_pass.py"), str(small_corpus(tmp_path)))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("judge: ") and "always_pass.py" in lines[0]
    assert any(line.startswith("orphan_citation") and "0.000" in line for line in lines)
    assert lines[-1].startswith("verdict: BLIND CURATOR -- rho_fp = 1.000")
    assert "\x1b[" not in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--judge", "no-such-judge-program-xyz"), "--judge: no-such-judge-program-xyz: command not found"),
        (("--judge", "./nowhere/judge.py"), "--judge: ./nowhere/judge.py: no such file"),
        (("--judge", "python 'unterminated"), "--judge: cannot parse command"),
        (("--tau", "1.5"), "--tau: expected a number in [0, 1], got '1.5'"),
        (("--tau", "nan"), "--tau: expected a number in [0, 1]"),
        (("--seeds", "0"), "--seeds: expected an integer >= 1, got '0'"),
        (("--jobs", "two"), "--jobs: expected an integer >= 1"),
        (("--timeout", "-1"), "--timeout: expected a number of seconds"),
        (("--defects", "orphan_citation,typo"), "--defects: unknown defect class 'typo'"),
        (("--defects", "bare_numbr"), "--defects: unknown defect class 'bare_numbr' (did you mean 'bare_number'?)"),
        (("--defects", " , "), "--defects: name at least one defect class"),
        (("--html", "no/such/dir/audit.html"), "no/such/dir/audit.html: cannot write: no directory no/such/dir"),
        (("CORPUS", "does/not/exist"), "does/not/exist: no such file or directory"),
    ],
)
def test_bad_audit_input_is_one_line_exit_2(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    base = {"CORPUS": str(small_corpus(tmp_path, SMALL[:1])), "--judge": "qcgrade"}
    for flag, value in zip(args[::2], args[1::2]):
        base[flag] = value
    result = cli("audit", *[x for flag, value in base.items() for x in ((value,) if flag == "CORPUS" else (flag, value))])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("qcgrade: error: ")
    assert message in result.stderr


def test_the_old_corpus_option_still_works_with_a_deprecation_message(tmp_path: Path) -> None:
    corpus = str(small_corpus(tmp_path, SMALL[:1]))
    old = cli("audit", "--judge", "qcgrade", "--corpus", corpus, "--format", "json")
    new = cli("audit", corpus, "--judge", "qcgrade", "--format", "json")
    assert old.exit_code == new.exit_code == 0
    assert old.stdout == new.stdout
    assert "--corpus is deprecated" in old.stderr and "qcgrade audit CORPUS" in old.stderr
    assert "deprecated" not in new.stderr


def test_output_problems_are_caught_before_the_judge_runs(tmp_path: Path) -> None:
    """An hour of judge calls must not end in 'cannot write': bad --html / --curve fail first."""
    corpus = str(small_corpus(tmp_path, SMALL[:1]))
    marker = tmp_path / "called"
    judge = f"{sys.executable} -c \"import pathlib,sys; pathlib.Path(sys.argv[1]).touch(); print('PASS')\" {marker}"
    for extra, message in (
        (["--html", str(tmp_path / "missing" / "a.html")], f"{tmp_path / 'missing' / 'a.html'}: cannot write: no directory"),
        (["--html", str(tmp_path)], f"{tmp_path}: is a directory, expected a file to write"),
        (["--curve"], "--curve: the curve goes into the HTML report; give --html FILE too"),
    ):
        result = cli("audit", "--judge", judge, corpus, *extra)
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith(f"qcgrade: error: {message}") and result.stderr.count("\n") == 1
        assert not marker.exists()
    assert cli("audit", "--judge", judge, corpus, "--defects", "orphan_citation").exit_code == 0
    assert marker.exists()  # the same judge does run when the options are fine


def test_rich_table_shows_every_class_name_whole_on_80_columns(tmp_path: Path) -> None:
    corpus = str(small_corpus(tmp_path, SMALL[:1]))
    result = CliRunner().invoke(
        main, ["audit", "--judge", "qcgrade", corpus], env={"FORCE_COLOR": "1", "NO_COLOR": "", "COLUMNS": "80"}
    )
    assert result.exit_code == 0
    assert "unregistered_metric" in result.stdout and "…" not in result.stdout


def test_example_judge_for_users(tmp_path: Path) -> None:
    """The shipped example catches orphan citations only, so the audit puts it past the cliff."""
    # Run as a file (as a user's copy would be), which skips importing qcgrade per call.
    judge = f"{sys.executable} {ROOT / 'qcgrade' / 'auditing' / 'example_judge.py'}"
    data = cli_json("audit", "--judge", judge, str(small_corpus(tmp_path)), "--jobs", "2")
    assert data["per_class"]["orphan_citation"]["flag_rate"] == 1.0
    assert data["per_class"]["orphan_citation"]["span_jaccard"] == 1.0
    assert set(data["per_class"]) == set(DEFECTS)  # the other classes are there for all() to check
    assert all(row["flag_rate"] == 0.0 for name, row in data["per_class"].items() if name != "orphan_citation")
    assert data["rho_pf"] == 0.0 and data["rho_fp"] == pytest.approx(6 / 7)
    assert data["verdict"] == "blind curator"


def test_rich_table_on_a_terminal(tmp_path: Path) -> None:
    corpus = str(small_corpus(tmp_path, SMALL[:1]))
    result = CliRunner().invoke(
        main, ["audit", "--judge", "qcgrade", corpus], env={"FORCE_COLOR": "1", "NO_COLOR": "", "COLUMNS": "120"}
    )
    assert result.exit_code == 0
    assert "─" in result.stdout and "\x1b[" in result.stdout
    assert "verdict: AT RISK" in result.stdout  # 1 section: 7 injections cannot rule the cliff out


def test_same_bytes_across_processes_and_hash_seeds(tmp_path: Path) -> None:
    import os
    import subprocess

    corpus = str(small_corpus(tmp_path))
    outputs = set()
    for hash_seed in ("1", "2"):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "qcgrade",
                "audit",
                "--judge",
                "qcgrade",
                corpus,
                "--seeds",
                "2",
                "--format",
                "json",
            ],
            capture_output=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1
    data = json.loads(outputs.pop())
    assert data["seeds"] == [0, 1] and data["counts"]["items"] == 2 * 2 * 8
