"""The judge protocol, the runner (concurrency, retries, timeouts, order) and the verdict cache."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from helpers import ROOT
from qcgrade.auditing.cache import VerdictCache, cache_key
from qcgrade.auditing.judges import (
    CallableJudge,
    CommandJudge,
    JudgeError,
    ReferenceJudge,
    Verdict,
    coerce,
    make_judge,
    parse_output,
)
from qcgrade.auditing.runner import Outcome, Request, judge_all

JUDGES = Path(__file__).resolve().parent / "judges"
SLICE = {"section": "s1", "cards": [{"id": "E1", "stance": "bull"}]}


def _cmd(script: str, *args: str) -> list[str]:
    return [sys.executable, str(JUDGES / script), *args]


def _requests(n: int, sample: int = 0) -> list[Request]:
    return [Request(f"section number {i}", SLICE, sample) for i in range(n)]


def _run(judge: Any, requests: list[Request], **kw: Any) -> list[Outcome]:
    return asyncio.run(judge_all(make_judge(judge, timeout=kw.pop("timeout", 30.0)), requests, **kw))


@pytest.mark.parametrize(
    ("stdout", "passed", "spans"),
    [
        ("PASS\n", True, None),
        ("fail", False, None),
        ("\n  \nPASS\nthe rest is free text", True, None),
        ('{"verdict": "pass"}', True, None),
        ('{"verdict": "FAIL", "spans": [[3, 5], [0, 1]], "why": "x"}', False, ((0, 1), (3, 5))),
        ('  {"verdict": "fail", "spans": []}\n', False, ()),
        ('{"verdict": "fail", "spans": null}', False, None),
    ],
)
def test_parse_output_accepts_the_protocol(stdout: str, passed: bool, spans: Any) -> None:
    assert parse_output(stdout) == Verdict(passed, spans)


@pytest.mark.parametrize(
    ("stdout", "message"),
    [
        ("", "printed nothing"),
        ("maybe", "unrecognised output 'maybe'"),
        ("PASSED", "unrecognised output"),
        ('{"verdict": "ok"}', '"verdict": "pass" or "fail"'),
        ('{"verdict": "pass", "spans": [[5, 3]]}', "bad span"),
        ('{"verdict": "pass", "spans": [[1, true]]}', "bad span"),
        ('{"verdict": "pass", "spans": [[-1, 2]]}', "bad span"),
        ('{"verdict": "pass", "spans": "0-3"}', "spans must be a list"),
        ('{"verdict": "pass"', "not valid JSON"),
        ("[1, 2]", "unrecognised output"),
        # Past Python's JSON limits: one bad item, not a crashed audit.
        ('{"verdict": "pass", "spans": ' + "[" * 100_000, "not usable JSON"),
        ('{"verdict": "pass", "spans": [[0, ' + "9" * 5000 + "]]}", "not usable JSON"),
    ],
)
def test_parse_output_rejects_anything_else(stdout: str, message: str) -> None:
    with pytest.raises(JudgeError, match=message.replace("[", r"\[")):
        parse_output(stdout)
    # One line, so it can be reported per item.
    with pytest.raises(JudgeError) as info:
        parse_output(stdout)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (True, Verdict(True)),
        (False, Verdict(False)),
        ((False, [[1, 2]]), Verdict(False, ((1, 2),))),
        ((True, None), Verdict(True)),
        ({"verdict": "fail", "spans": [[0, 4]]}, Verdict(False, ((0, 4),))),
        ("PASS", Verdict(True)),
        (Verdict(False, ((2, 3),)), Verdict(False, ((2, 3),))),
    ],
)
def test_coerce_python_results(value: Any, expected: Verdict) -> None:
    assert coerce(value) == expected


@pytest.mark.parametrize("value", [None, 1, 0, "nope", (1, []), [True], {"passed": True}])
def test_coerce_rejects_ambiguous_results(value: Any) -> None:
    with pytest.raises(JudgeError):
        coerce(value)


def test_make_judge_dispatch() -> None:
    assert isinstance(make_judge("qcgrade"), ReferenceJudge)
    command = make_judge("python my_judge.py --model 'x y'")
    assert isinstance(command, CommandJudge) and command.argv == ("python", "my_judge.py", "--model", "x y")
    assert command.identity == "python my_judge.py --model 'x y'"
    assert isinstance(make_judge(lambda s, sl: True), CallableJudge)
    with pytest.raises(TypeError):
        make_judge(42)
    with pytest.raises(ValueError, match="empty"):
        make_judge("   ")


def test_sync_and_async_callables_and_result_order() -> None:
    async def slow_first(section: str, slice_: dict[str, Any]) -> bool:
        # Earlier items finish later, so completion order is the reverse of item order.
        index = int(section.rsplit(" ", 1)[1])
        await asyncio.sleep(0.02 * (5 - index))
        return index % 2 == 0

    sync = _run(lambda s, sl: int(s.rsplit(" ", 1)[1]) % 2 == 0, _requests(5))
    concurrent = _run(slow_first, _requests(5), jobs=5)
    expected = [Verdict(i % 2 == 0) for i in range(5)]
    assert [o.verdict for o in sync] == expected
    assert [o.verdict for o in concurrent] == expected


def test_jobs_bounds_concurrency_for_async_judges() -> None:
    live = peak = 0

    async def judge(section: str, slice_: dict[str, Any]) -> bool:
        nonlocal live, peak
        live += 1
        peak = max(peak, live)
        await asyncio.sleep(0.01)
        live -= 1
        return True

    _run(judge, _requests(12), jobs=3)
    assert peak == 3
    peak = 0
    _run(judge, _requests(12), jobs=1)
    assert peak == 1


@pytest.mark.timing  # the barrier waits 5 s for the second thread
def test_sync_callables_run_in_parallel_threads_with_jobs() -> None:
    # Two calls can only meet at the barrier if they run at the same time.
    def judge_with(barrier: threading.Barrier) -> Any:
        def judge(section: str, slice_: dict[str, Any]) -> bool:
            barrier.wait()
            return True

        return judge

    together = _run(judge_with(threading.Barrier(2, timeout=5)), _requests(2), jobs=2, retries=0)
    assert len(together) == 2 and all(o.verdict == Verdict(True) for o in together)
    alone = _run(judge_with(threading.Barrier(2, timeout=0.2)), _requests(2), jobs=1, retries=0)
    assert len(alone) == 2 and all(o.verdict is None and "BrokenBarrierError" in (o.error or "") for o in alone)


def test_callable_errors_are_retried_then_reported_not_scored() -> None:
    calls: dict[str, int] = {}

    def judge(section: str, slice_: dict[str, Any]) -> Any:
        calls[section] = calls.get(section, 0) + 1
        if section.endswith("0"):
            raise RuntimeError("rate limited\nplease retry")
        if section.endswith("1") and calls[section] == 1:
            return "garbage"
        return False

    out = _run(judge, _requests(3), retries=2)
    assert out[0].verdict is None and out[0].attempts == 3 and calls["section number 0"] == 3
    assert out[0].error == "raised RuntimeError: rate limited please retry"
    assert out[1].verdict == Verdict(False) and out[1].attempts == 2
    assert out[2].verdict == Verdict(False) and out[2].attempts == 1


def test_a_judges_own_timeout_error_is_not_our_timeout() -> None:
    # asyncio.TimeoutError is the builtin TimeoutError on Python >= 3.11.
    def sync_judge(section: str, slice_: dict[str, Any]) -> bool:
        raise TimeoutError("upstream API timed out")

    async def async_judge(section: str, slice_: dict[str, Any]) -> bool:
        raise asyncio.TimeoutError("upstream API timed out")

    for judge in (sync_judge, async_judge):
        out = _run(judge, _requests(1), retries=0, timeout=30.0)
        assert out[0].error == "raised TimeoutError: upstream API timed out"


@pytest.mark.timing
def test_async_callable_timeout() -> None:
    hang = 30  # seconds: a bound on waiting for the judge, not a speed limit

    async def hangs(section: str, slice_: dict[str, Any]) -> bool:
        await asyncio.sleep(hang)
        return True

    start = time.monotonic()
    out = _run(hangs, _requests(2), jobs=2, retries=1, timeout=0.1)
    assert time.monotonic() - start < hang  # cut off, not waited for
    assert len(out) == 2 and all(o.verdict is None and o.error == "timed out after 0.1s" and o.attempts == 2 for o in out)


def test_command_judges_speak_the_protocol() -> None:
    assert [o.verdict for o in _run(_cmd("always_pass.py"), _requests(2))] == [Verdict(True)] * 2
    assert [o.verdict for o in _run(_cmd("always_fail.py"), _requests(2))] == [Verdict(False)] * 2
    fixed = _run(_cmd("spans_judge.py", "fixed"), _requests(1))
    assert fixed[0].verdict == Verdict(False, ((0, 10),))


def test_command_judge_errors_retries_and_stderr(tmp_path: Path) -> None:
    # flaky.py: odd-length sections always exit 7; others print garbage once, then FAIL.
    requests = [Request("even", SLICE, 0), Request("odd", SLICE, 0)]
    once = _run(_cmd("flaky.py", str(tmp_path / "a")), requests, retries=0)
    assert once[0].verdict is None and once[0].error is not None and "unrecognised output" in once[0].error
    assert once[1].verdict is None and once[1].error == "exited with status 7: model overloaded"
    again = _run(_cmd("flaky.py", str(tmp_path / "b")), requests, retries=1)
    assert again[0].verdict == Verdict(False) and again[0].attempts == 2
    assert again[1].verdict is None and again[1].attempts == 2


def test_missing_program_is_a_judge_error() -> None:
    out = _run(["/nonexistent/judge-binary"], _requests(1), retries=0)
    assert out[0].verdict is None and "cannot run" in (out[0].error or "")


@pytest.mark.timing
def test_command_timeout_kills_the_judge(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    sleep = 60  # the judge's own run time: a bound on waiting for it, not a speed limit
    start = time.monotonic()
    out = _run(_cmd("slow.py", str(pids), str(sleep)), _requests(2), jobs=2, retries=1, timeout=0.5)
    assert time.monotonic() - start < sleep  # killed, not waited for
    assert len(out) == 2 and all(
        o.verdict is None and o.error == "timed out after 0.5s (killed)" and o.attempts == 2 for o in out
    )
    started = [int(p) for p in pids.read_text().split()]
    assert len(started) == 4
    for pid in started:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_cache_resumes_and_skips_done_items(tmp_path: Path) -> None:
    calls: list[str] = []

    def judge(section: str, slice_: dict[str, Any]) -> Any:
        calls.append(section)
        return (False, [[0, 3]]) if section.endswith("1") else True

    cache = VerdictCache(tmp_path / "cache")
    first = _run(CallableJudge(judge, identity="counting"), _requests(3), cache=cache)
    assert len(calls) == 3 and not any(o.cached for o in first)
    second = _run(CallableJudge(judge, identity="counting"), _requests(3), cache=cache)
    assert len(calls) == 3 and all(o.cached for o in second)
    assert [o.verdict for o in second] == [o.verdict for o in first]
    assert second[1].verdict == Verdict(False, ((0, 3),))
    # Another judge identity, or another sample of the same text, is a different entry.
    _run(CallableJudge(judge, identity="other"), _requests(1), cache=cache)
    _run(CallableJudge(judge, identity="counting"), _requests(1, sample=1), cache=cache)
    assert len(calls) == 5
    assert len(list((tmp_path / "cache").rglob("*.json"))) == 5


def test_cache_does_not_store_judge_errors(tmp_path: Path) -> None:
    healthy = False

    def judge(section: str, slice_: dict[str, Any]) -> bool:
        if not healthy:
            raise ConnectionError("down")
        return True

    cache = VerdictCache(tmp_path)
    assert _run(judge, _requests(1), cache=cache, retries=0)[0].verdict is None
    healthy = True
    out = _run(judge, _requests(1), cache=cache, retries=0)
    assert out[0].verdict == Verdict(True) and not out[0].cached


def test_cache_ignores_corrupt_entries(tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path)
    key = cache_key("j", "text", SLICE, 0)
    cache.put(key, "j", Verdict(False, ((1, 2),)))
    assert cache.get(key) == Verdict(False, ((1, 2),))
    entry = next(tmp_path.rglob(f"{key}.json"))
    for garbage in (
        "{not json",
        json.dumps({"format": 1, "verdict": "maybe"}),
        "[]",
        json.dumps({"format": 1, "verdict": "pass", "spans": [[3, 1]]}),
        '{"format": 1, "verdict": "pass", "spans": ' + "[" * 100_000,
    ):
        entry.write_text(garbage, encoding="utf-8")
        assert cache.get(key) is None


def test_cache_key_is_canonical() -> None:
    reordered = dict(reversed(list(SLICE.items())))
    assert cache_key("j", "t", SLICE, 0) == cache_key("j", "t", reordered, 0)
    assert (
        len(
            {
                cache_key("j", "t", SLICE, 0),
                cache_key("k", "t", SLICE, 0),
                cache_key("j", "u", SLICE, 0),
                cache_key("j", "t", SLICE, 1),
            }
        )
        == 4
    )


def test_cache_directory_that_is_a_file(tmp_path: Path) -> None:
    from qcgrade.files import InputError

    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(InputError, match="cache"):
        VerdictCache(blocker)


def test_reference_judge_spans_are_findings() -> None:
    from qcgrade import grade

    text = "Revenue grew 30% [E9]."
    slice_ = {"section": "s1", "cards": [{"id": "E1", "stance": "bull"}]}
    out = _run("qcgrade", [Request(text, slice_, 0)])
    report = grade(text, slice_)
    assert out[0].verdict == Verdict(False, tuple(sorted((f.start, f.end) for f in report.findings)))
    assert out[0].verdict is not None and out[0].verdict.spans


def test_example_judge_runs_with_the_python_running_qcgrade(tmp_path: Path) -> None:
    """`--judge example` needs no activated venv: it is this interpreter running the bundled file."""
    from qcgrade.auditing.judges import CommandJudge, command_argv, example_command, make_judge

    argv = example_command()
    assert argv[0] == sys.executable and Path(argv[1]).is_file() and Path(argv[1]).name == "example_judge.py"
    judge = make_judge("example")
    assert isinstance(judge, CommandJudge) and list(judge.argv) == argv
    assert judge.identity == "qcgrade example judge"
    assert command_argv("{python} my_judge.py --strict") == [sys.executable, "my_judge.py", "--strict"]
    assert make_judge("{python}  my_judge.py").identity == "{python} my_judge.py"
    assert command_argv("python3 judge.py") == ["python3", "judge.py"]  # only a first word is expanded
    assert command_argv("judge {python}") == ["judge", "{python}"]


def test_cli_audit_with_the_example_judge_and_a_python_placeholder(tmp_path: Path) -> None:
    from qcgrade.cli import main

    corpus = str(ROOT / "fixtures" / "appendix-a")
    env = {"PATH": "/nonexistent"}  # no python on PATH: only sys.executable can run the judge
    by_name = CliRunner().invoke(main, ["audit", corpus, "--judge", "example", "--format", "json"], env=env)
    assert by_name.exit_code == 0, by_name.output
    copy = tmp_path / "my_judge.py"
    copy.write_text((ROOT / "qcgrade" / "auditing" / "example_judge.py").read_text(encoding="utf-8"), encoding="utf-8")
    by_file = CliRunner().invoke(main, ["audit", corpus, "--judge", f"{{python}} {copy}", "--format", "json"], env=env)
    assert by_file.exit_code == 0, by_file.output
    first, second = json.loads(by_name.stdout), json.loads(by_file.stdout)
    assert first["judge"] == "qcgrade example judge"
    assert first["rho_fp"] == second["rho_fp"] and first["per_class"] == second["per_class"]
    assert first["per_class"]["orphan_citation"]["flag_rate"] == 1.0


# --- the judge's own words: kept with the verdict, never scored ------------------------------


@pytest.mark.parametrize(
    ("value", "note"),
    [
        ("PASS", None),
        ("FAIL\nthe TL;DR is missing\n  and 30% is uncited  \n", "the TL;DR is missing\n  and 30% is uncited"),
        ('{"verdict": "fail", "reason": "no TL;DR"}', "no TL;DR"),
        ('{"verdict": "pass", "reason": "   "}', None),
        ({"verdict": "fail", "reason": "x" * 5000}, "x" * 1997 + "..."),
    ],
)
def test_a_judges_reason_is_its_note(value: Any, note: str | None) -> None:
    verdict = coerce(value)
    assert verdict.note == note
    assert verdict == Verdict(verdict.passed, verdict.spans)  # notes are not part of the answer's equality


def test_a_reason_that_is_not_text_is_a_judge_error() -> None:
    with pytest.raises(JudgeError, match='"reason" must be a string'):
        parse_output('{"verdict": "pass", "reason": 3}')


def test_an_llm_answers_problems_are_its_note() -> None:
    from qcgrade.auditing.prompt import parse_answer

    section = "Revenue grew 30% last year.\nMargins fell.\n"
    content = (
        '{"flagged": [{"quote": "30%", "problem": "no citation"}, {"quote": "Margins  fell", "problem": ""}], "verdict": "FAIL"}'
    )
    verdict = parse_answer(content, section)
    assert verdict.note == '"30%": no citation\n"Margins fell"'
    assert verdict.spans == ((13, 16), (28, 40))


def test_the_reference_judge_says_what_it_found() -> None:
    verdict = asyncio.run(ReferenceJudge().judge("Revenue grew 30% [E9].\n", SLICE, None))  # type: ignore[arg-type]
    assert verdict.passed is False and verdict.note is not None
    assert "1:19 orphan_citation: citation [E9] names no card of slice 's1'" in verdict.note.splitlines()


def test_the_cache_keeps_the_note(tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path)
    cache.put("k" * 64, "judge", Verdict(False, ((0, 3),), note="why <not>"))
    assert cache.get("k" * 64) == Verdict(False, ((0, 3),))
    assert cache.get("k" * 64).note == "why <not>"  # type: ignore[union-attr]
    cache.put("j" * 64, "judge", Verdict(True))
    assert cache.get("j" * 64).note is None  # type: ignore[union-attr]
