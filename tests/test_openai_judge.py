"""The OpenAI-compatible judge against a real HTTP server on 127.0.0.1 (tests/chat_server.py).

Every test here talks HTTP for real: the client, its retries and backoff, its
timeouts, its concurrency, the probe and the cache are exercised end to end.
"""

from __future__ import annotations

import asyncio
import email.utils
import hashlib
import json
import re
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from chat_server import ChatServer, Reply, Seen, coin, completion, error, verdict
from click.testing import CliRunner

from helpers import FIXTURES, ROOT, copy_fixtures, load_toml
from qcgrade.auditing import audit
from qcgrade.auditing.judges import JudgeSetupError, make_judge
from qcgrade.auditing.openai_judge import OpenAIJudge, retry_after
from qcgrade.auditing.prompt import default_prompt, parse_answer
from qcgrade.auditing.runner import Outcome, Request, judge_all
from qcgrade.cli import main

CASES = load_toml(ROOT / "tests" / "data" / "openai_answers.toml")
SLICE = {"section": "s1", "cards": [{"id": "E1", "claim": "Revenue rose 30%."}]}
SMALL = ("brinewave-lines/s1", "voltaris-cells/s2")
#: Three of the fixture reports (13 sections): enough items for tight intervals, quick to build.
RATES_CORPUS = ("appendix-a", "brinewave-lines", "voltaris-cells")
USAGE = {"prompt_tokens": 100, "completion_tokens": 7, "total_tokens": 107, "cost": 0.25}


def judge_for(server: ChatServer, **kw: Any) -> OpenAIJudge:
    kw.setdefault("backoff", 0.01)
    return OpenAIJudge("test-model", base_url=server.base_url, api_key_env="QCGRADE_TEST_NO_SUCH_KEY", **kw)


def run(judge: OpenAIJudge, requests: list[Request], jobs: int = 1, retries: int = 0, **kw: Any) -> list[Outcome]:
    async def go() -> list[Outcome]:
        await judge.start(jobs)
        try:
            return await judge_all(judge, requests, jobs=jobs, retries=retries, **kw)
        finally:
            await judge.stop()

    return asyncio.run(go())


def sections(n: int) -> list[Request]:
    return [Request(f"Revenue rose 30% [E1]. Item {i}.", SLICE, 0) for i in range(n)]


def small_corpus(tmp_path: Path, ids: tuple[str, ...] = SMALL) -> Path:
    return copy_fixtures(tmp_path, ids)


def cli(*args: str, env: dict[str, str | None] | None = None) -> Any:
    return CliRunner().invoke(main, list(args), env={"OPENAI_API_KEY": None, **(env or {})})


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# -- reading answers (data-driven) -----------------------------------------------------------


@pytest.mark.parametrize("case", CASES["accept"], ids=lambda c: c["name"])
def test_answers_that_are_read(case: dict[str, Any]) -> None:
    got = parse_answer(case["content"], case["section"])
    assert got.passed is case["passed"]
    expected = tuple(tuple(s) for s in case["spans"]) if "spans" in case else None
    assert got.spans == expected
    for start, end in got.spans or ():
        assert case["section"][start:end].split() != []  # a span covers real text


@pytest.mark.parametrize("case", CASES["reject"], ids=lambda c: c["name"])
def test_answers_that_are_judge_errors_served_for_real(case: dict[str, Any]) -> None:
    """A malformed answer is a judge error (retried, then reported), never a pass or a fail."""
    with ChatServer(lambda seen: Reply(body=completion(case["content"]))) as server:
        outcomes = run(judge_for(server), sections(1), retries=1)
    [outcome] = outcomes
    assert outcome.verdict is None and outcome.attempts == 2
    assert re.search(case["error"], outcome.error or ""), outcome.error
    assert "\n" not in (outcome.error or "")
    assert len(server.chats()) == 2


@pytest.mark.parametrize("case", CASES["response"], ids=lambda c: c["name"])
def test_responses_that_are_judge_errors(case: dict[str, Any]) -> None:
    try:
        body: Any = json.loads(case["body"])
    except ValueError:
        body = case["body"]
    with ChatServer(lambda seen: Reply(body=body)) as server:
        [outcome] = run(judge_for(server), sections(1))
    assert outcome.verdict is None
    assert re.search(case["error"], outcome.error or ""), outcome.error


# -- the request ---------------------------------------------------------------------------


def test_the_request_carries_the_rubric_the_options_and_the_key() -> None:
    section = "Revenue rose 30% [E9]. Margins held."
    with ChatServer(lambda seen: verdict(False, ("[E9]",), usage=USAGE)) as server:
        judge = judge_for(server, api_key="sk-test-secret", temperature=0.3, seed=7, max_tokens=123)
        [outcome] = run(judge, [Request(section, SLICE, 0)])
    assert outcome.verdict is not None and not outcome.verdict.passed
    assert outcome.verdict.spans == ((17, 21),)
    assert outcome.verdict.usage is not None and outcome.verdict.usage.total_tokens == 107
    [chat] = server.chats()
    body = chat.body
    assert body["model"] == "test-model" and body["temperature"] == 0.3 and body["seed"] == 7 and body["max_tokens"] == 123
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"]["properties"]["verdict"]["enum"] == ["PASS", "FAIL"]
    assert chat.headers["authorization"] == "Bearer sk-test-secret"
    system, user = body["messages"]
    assert system["role"] == "system" and "PASS" in system["content"] and "claim" in system["content"]
    assert chat.section == section
    assert json.loads(user["content"].split("```json\n")[1].split("\n```")[0]) == SLICE
    # The probe went first: GET /models found the model, so no test completion was needed.
    assert [s.method + " " + s.path for s in server.seen] == ["GET /v1/models", "POST /v1/chat/completions"]


def test_no_key_no_authorization_header_for_a_local_server() -> None:
    with ChatServer(lambda seen: verdict(True)) as server:
        [outcome] = run(judge_for(server), sections(1))
    assert outcome.verdict is not None and outcome.verdict.passed
    assert all("authorization" not in s.headers for s in server.seen)


def test_the_key_comes_from_the_named_environment_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_JUDGE_KEY", "sk-from-env")
    with ChatServer(lambda seen: verdict(True)) as server:
        run(OpenAIJudge("test-model", base_url=server.base_url, api_key_env="MY_JUDGE_KEY"), sections(1))
    assert {s.headers.get("authorization") for s in server.seen} == {"Bearer sk-from-env"}


def test_response_format_steps_down_when_the_server_refuses_it() -> None:
    """json_schema refused -> json_object refused -> plain text, remembered for later calls."""

    def script(seen: Seen) -> Reply:
        kind = seen.body.get("response_format", {}).get("type")
        if kind == "json_schema":
            return error(400, "response_format of type json_schema is not supported by this model")
        if kind == "json_object":
            return error(422, "Unsupported response_format json_object")
        return verdict(True)

    with ChatServer(script) as server:
        judge = judge_for(server)
        outcomes = run(judge, sections(3))
    assert all(o.verdict is not None and o.verdict.passed for o in outcomes)
    kinds = [s.body.get("response_format", {}).get("type") for s in server.chats()]
    assert kinds[:3] == ["json_schema", "json_object", None]
    assert kinds[3:] == [None, None]  # the step down sticks
    assert "response format text" in judge.traffic()


def test_an_unrelated_400_is_a_judge_error_not_a_format_fallback() -> None:
    with ChatServer(
        lambda seen: error(400, "This model's maximum context length is 8192 tokens", "context_length_exceeded")
    ) as server:
        [outcome] = run(judge_for(server), sections(1))
    assert outcome.verdict is None and "HTTP 400" in (outcome.error or "") and "context length" in (outcome.error or "")
    assert len(server.chats()) == 1


def test_max_completion_tokens_when_max_tokens_is_refused() -> None:
    def script(seen: Seen) -> Reply:
        if "max_tokens" in seen.body:
            return error(
                400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."
            )
        return verdict(False)

    with ChatServer(script) as server:
        outcomes = run(judge_for(server, max_tokens=50), sections(2))
    assert all(o.verdict is not None and not o.verdict.passed for o in outcomes)
    assert [("max_tokens" in s.body, s.body.get("max_completion_tokens")) for s in server.chats()] == [
        (True, None),
        (False, 50),
        (False, 50),
    ]


# -- retries, Retry-After, timeouts -------------------------------------------------------------


def first_then(first: Callable[[], Reply], then: Reply) -> Callable[[Seen], Reply]:
    """The first request for each section gets ``first()``, later ones ``then``."""
    counts: Counter[str] = Counter()
    lock = threading.Lock()

    def script(seen: Seen) -> Reply:
        with lock:
            counts[seen.section] += 1
            n = counts[seen.section]
        return first() if n == 1 else then

    return script


def gaps(server: ChatServer) -> list[float]:
    by_section: dict[str, list[float]] = {}
    for s in server.chats():
        by_section.setdefault(s.section, []).append(s.arrived)
    return [t[1] - t[0] for t in by_section.values() if len(t) == 2]


def test_429_waits_retry_after_seconds() -> None:
    script = first_then(lambda: error(429, "Rate limit reached", "rate_limit_exceeded", {"Retry-After": "1"}), verdict(True))
    with ChatServer(script) as server:
        judge = judge_for(server)
        outcomes = run(judge, sections(3), jobs=3)
    assert all(o.verdict is not None and o.verdict.passed and o.attempts == 1 for o in outcomes)
    waited = gaps(server)
    assert len(waited) == 3 and all(1.0 <= g < 2.0 for g in waited), waited
    assert judge.stats["retries"] == 3 and judge.stats["HTTP 429"] == 3


def test_429_waits_until_an_http_date() -> None:
    def later() -> Reply:
        when = email.utils.formatdate(time.time() + 2, usegmt=True)  # whole seconds: waits 1 to 2 s
        return error(429, "slow down", headers={"Retry-After": when})

    with ChatServer(first_then(later, verdict(False))) as server:
        [outcome] = run(judge_for(server), sections(1))
    assert outcome.verdict is not None and not outcome.verdict.passed
    [waited] = gaps(server)
    assert 0.9 <= waited < 2.6, waited


def test_retry_after_ms_wins_over_retry_after() -> None:
    headers = {"retry-after-ms": "300", "Retry-After": "20"}
    with ChatServer(first_then(lambda: error(429, "slow down", headers=headers), verdict(True))) as server:
        [outcome] = run(judge_for(server), sections(1))
    assert outcome.verdict is not None
    [waited] = gaps(server)
    assert 0.28 <= waited < 1.5, waited


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "3"}, 3.0),
        ({"Retry-After": " 1.5 "}, 1.5),
        ({"Retry-After": "Wed, 21 Oct 2015 07:28:10 GMT"}, 10.0),
        ({"Retry-After": "Wed, 21 Oct 2015 07:27:00 GMT"}, 0.0),  # in the past: now
        ({"Retry-After": "-4"}, None),
        ({"Retry-After": "soon"}, None),
        ({"Retry-After": "nan"}, None),
        ({"retry-after-ms": "250"}, 0.25),
        ({"retry-after-ms": "x", "Retry-After": "2"}, 2.0),
        ({}, None),
    ],
)
def test_retry_after_parsing(headers: dict[str, str], expected: float | None) -> None:
    now = email.utils.parsedate_to_datetime("Wed, 21 Oct 2015 07:28:00 GMT").timestamp()
    assert retry_after(httpx.Headers(headers), now=now) == expected


def test_500_is_retried_with_growing_backoff_then_reported() -> None:
    with ChatServer(lambda seen: error(500, "upstream exploded")) as server:
        judge = judge_for(server, max_retries=3, backoff=0.1)
        [outcome] = run(judge, sections(1))
    assert outcome.verdict is None
    assert outcome.error == "HTTP 500 from " + judge.host + ": upstream exploded (test_error)"
    times = [s.arrived for s in server.chats()]
    assert len(times) == 4  # one try and three retries
    waits = [b - a for a, b in zip(times, times[1:])]
    # Backoff 0.1 * 2**k with jitter in [0.5, 1]: each wait within its band, the bands growing.
    for k, wait in enumerate(waits):
        assert 0.1 * 2**k * 0.5 <= wait < 0.1 * 2**k + 0.25, waits


def test_503_then_answer_recovers() -> None:
    script = first_then(lambda: error(503, "loading model"), verdict(True, usage=USAGE))
    with ChatServer(script) as server:
        outcomes = run(judge_for(server), sections(4), jobs=4)
    assert all(o.verdict is not None and o.verdict.passed for o in outcomes)
    assert len(server.chats()) == 8


def test_retry_after_beyond_the_limit_gives_up_at_once() -> None:
    with ChatServer(lambda seen: error(429, "quota exhausted", headers={"Retry-After": "3600"})) as server:
        [outcome] = run(judge_for(server, max_retry_after=30), sections(1))
    assert outcome.verdict is None
    assert "asked to retry after 3600s, more than the 30s allowed" in (outcome.error or "")
    assert len(server.chats()) == 1


def test_a_slow_answer_times_out_and_is_retried_by_the_runner() -> None:
    script = first_then(lambda: Reply(body=completion('{"verdict": "FAIL"}'), delay=3.0), verdict(True))
    with ChatServer(script) as server:
        began = time.monotonic()
        [outcome] = run(judge_for(server, timeout=0.4), sections(1), retries=1)
        took = time.monotonic() - began
    assert outcome.verdict is not None and outcome.verdict.passed and outcome.attempts == 2
    assert took < 2.5  # the 3 s answer was not waited for


def test_a_slow_answer_without_retries_is_a_timeout_error() -> None:
    with ChatServer(lambda seen: Reply(body=completion('{"verdict": "PASS"}'), delay=2.0)) as server:
        [outcome] = run(judge_for(server, timeout=0.3), sections(1))
        host = judge_for(server).host
    assert outcome.verdict is None and outcome.error == f"no answer from {host} within 0.3s"


# -- concurrency --------------------------------------------------------------------------------


@pytest.mark.parametrize(("jobs", "waves"), [(1, 3), (8, 2), (24, 2)])
def test_jobs_bound_the_requests_in_flight(jobs: int, waves: int) -> None:
    """``jobs`` requests reach the server at once, never more; the calls take ``waves`` answer delays."""
    delay = 0.5  # long enough for all jobs to arrive while the first is still answered, on a loaded machine
    with ChatServer(lambda seen: Reply(body=completion('{"verdict": "PASS", "flagged": []}'), delay=delay)) as server:
        began = time.monotonic()
        outcomes = run(judge_for(server), sections(jobs * waves), jobs=jobs)
        took = time.monotonic() - began
    assert all(o.verdict is not None for o in outcomes)
    assert server.peak == jobs
    assert waves * delay <= took < waves * delay + 2.0  # one call at a time would take jobs times longer


# -- the probe and setup errors (CLI: one line, exit 2, before any item) -------------------------


def test_no_key_for_the_openai_api_is_one_line_before_any_request(tmp_path: Path) -> None:
    result = cli("audit", "--judge", "openai:gpt-4o-mini", str(small_corpus(tmp_path)))
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0
    assert "no API key for https://api.openai.com/v1: set OPENAI_API_KEY" in result.stderr
    assert result.stdout == ""


def test_unreachable_server(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    result = cli("audit", "--judge", "openai:m", "--base-url", url, str(small_corpus(tmp_path)))
    assert result.exit_code == 2 and result.stderr.strip().count("\n") == 0
    assert f"cannot reach {url}" in result.stderr


def test_wrong_model_name(tmp_path: Path) -> None:
    def script(seen: Seen) -> Reply:
        return error(404, f"The model `{seen.body['model']}` does not exist", "model_not_found")

    with ChatServer(script, models=["llama-3-8b", "qwen2.5-7b"]) as server:
        result = cli("audit", "--judge", "openai:gtp-4o", "--base-url", server.base_url, str(small_corpus(tmp_path)))
    assert result.exit_code == 2 and result.stderr.strip().count("\n") == 0
    assert "model 'gtp-4o' not found" in result.stderr and "it serves: llama-3-8b, qwen2.5-7b" in result.stderr
    assert len(server.chats()) == 1  # the one-token probe, no item


def test_rejected_key(tmp_path: Path) -> None:
    with ChatServer(
        lambda seen: verdict(True), models_reply=error(401, "Incorrect API key provided", "invalid_api_key")
    ) as server:
        result = cli(
            "audit",
            "--judge",
            "openai:test-model",
            "--base-url",
            server.base_url,
            str(small_corpus(tmp_path)),
            env={"OPENAI_API_KEY": "sk-wrong"},
        )
    assert result.exit_code == 2 and result.stderr.strip().count("\n") == 0
    assert "refused GET /models with HTTP 401 for the key in OPENAI_API_KEY" in result.stderr
    assert "sk-wrong" not in result.stderr and server.chats() == []


def test_a_local_server_that_wants_a_key_says_which_variable(tmp_path: Path) -> None:
    with ChatServer(lambda seen: error(401, "missing bearer token"), models_reply=error(404, "Not Found")) as server:
        result = cli("audit", "--judge", "openai:test-model", "--base-url", server.base_url, str(small_corpus(tmp_path)))
    assert result.exit_code == 2 and result.stderr.strip().count("\n") == 0
    assert "refused a one-token test request with HTTP 401 for no API key (OPENAI_API_KEY is not set)" in result.stderr


def test_a_server_without_models_is_probed_with_one_token() -> None:
    """llama.cpp-style: no /models route; an unlisted alias still works after a one-token request."""
    with ChatServer(lambda seen: verdict(True), models_reply=error(404, "Not Found")) as server:
        [outcome] = run(judge_for(server), sections(1))
    assert outcome.verdict is not None and outcome.verdict.passed
    probe, item = server.chats()
    assert probe.body["max_tokens"] == 1 and "response_format" not in probe.body
    assert item.body["max_tokens"] == 600


def test_bad_options_are_one_line(tmp_path: Path) -> None:
    corpus = str(small_corpus(tmp_path))
    cases = [
        (("--judge", "openai:m", "--base-url", "localhost:8000"), "--base-url: expected an http(s) URL"),
        (("--judge", "openai:m", "--temperature", "-1"), "--temperature: expected a number >= 0"),
        (("--judge", "openai:m", "--max-tokens", "0"), "--max-tokens: expected an integer >= 1"),
        (("--judge", "openai:", "--base-url", "http://127.0.0.1:9/v1"), "name a model"),
        (("--judge", "qcgrade", "--base-url", "http://x/v1"), "--base-url: only for --judge openai:MODEL"),
        (("--judge", "openai:m", "--prompt", str(tmp_path / "nope.md")), "nope.md: no such prompt file"),
    ]
    for args, message in cases:
        result = cli("audit", *args, corpus)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.stderr and result.stderr.strip().count("\n") == 0, (args, result.stderr)


def test_missing_httpx_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "httpx", None)  # import httpx now raises ImportError
    monkeypatch.delitem(sys.modules, "qcgrade.auditing.openai_judge", raising=False)
    with pytest.raises(JudgeSetupError, match=r"^the openai judge needs httpx: pip install 'qcgrade\[llm\]'$"):
        make_judge("openai:gpt-4o-mini")
    result = cli("audit", "--judge", "openai:m", "--base-url", "http://127.0.0.1:9/v1", str(small_corpus(tmp_path)))
    assert result.exit_code == 2
    assert result.stderr == "qcgrade: error: the openai judge needs httpx: pip install 'qcgrade[llm]'\n"


# -- the prompt ---------------------------------------------------------------------------------


def test_a_prompt_file_replaces_the_rubric_and_its_hash_keys_the_cache(tmp_path: Path) -> None:
    corpus = str(small_corpus(tmp_path))
    prompt = tmp_path / "strict.md"
    prompt.write_text(
        "Be strict. Answer JSON.\n<!-- user -->\nSLICE {{slice}}\n````markdown\n{{section}}\n````\n", encoding="utf-8"
    )
    cache = str(tmp_path / "cache")
    with ChatServer(lambda seen: verdict(False)) as server:
        base = ("audit", "--judge", "openai:test-model", "--base-url", server.base_url, corpus, "--cache", cache)
        first = cli(*base, "--prompt", str(prompt), "--format", "json")
        asked = len(server.chats())
        again = cli(*base, "--prompt", str(prompt), "--format", "json")
        assert len(server.chats()) == asked  # same prompt: every answer from the cache
        default = cli(*base, "--format", "json")
        assert len(server.chats()) == 2 * asked  # another prompt: asked afresh
    assert first.exit_code == 0 and again.stdout == first.stdout
    info = json.loads(first.stdout)["judge_info"]
    assert info["prompt"] == "strict.md" and info["prompt_sha256"] == hashlib.sha256(prompt.read_bytes()).hexdigest()
    assert json.loads(default.stdout)["judge_info"]["prompt_sha256"] == default_prompt().sha256
    assert server.chats()[0].body["messages"][0] == {"role": "system", "content": "Be strict. Answer JSON."}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("no placeholders at all", "prompt has no {{section}} placeholder"),
        ("{{section}} only", "prompt has no {{slice}} placeholder"),
        (
            "a\n<!-- user -->\n{{slice}}\n<!-- user -->\n{{section}}",
            "prompt has 2 '<!-- user -->' lines; at most one splits system from user",
        ),
    ],
)
def test_bad_prompt_files_are_one_line(tmp_path: Path, text: str, message: str) -> None:
    prompt = tmp_path / "p.md"
    prompt.write_text(text, encoding="utf-8")
    result = cli(
        "audit",
        "--judge",
        "openai:m",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--prompt",
        str(prompt),
        str(small_corpus(tmp_path)),
    )
    assert result.exit_code == 2
    assert result.stderr == f"qcgrade: error: {prompt}: {message}\n"


def test_placeholders_are_filled_once() -> None:
    """A section that contains "{{slice}}" is sent as written, not expanded."""
    [system, user] = default_prompt().messages("quote {{slice}} here", {"k": "v"})
    assert "quote {{slice}} here" in user["content"] and user["content"].count('"k": "v"') == 1
    assert "{{" not in system["content"]


# -- the audit through HTTP: report fields, cache, known rates ------------------------------------


def test_report_records_the_judge_and_what_it_cost_but_never_the_key(tmp_path: Path) -> None:
    corpus = str(small_corpus(tmp_path))
    with ChatServer(lambda seen: verdict(True, usage=USAGE)) as server:
        result = cli(
            "audit",
            "--judge",
            "openai:test-model",
            "--base-url",
            server.base_url,
            corpus,
            "-j",
            "4",
            "--judge-seed",
            "3",
            "--temperature",
            "0.5",
            "--format",
            "json",
            env={"OPENAI_API_KEY": "sk-very-secret"},
        )
        n = len(server.chats())
    assert result.exit_code == 0, result.stderr
    assert "sk-very-secret" not in result.stdout + result.stderr
    data = json.loads(result.stdout)
    info = data["judge_info"]
    assert info == {
        "api_key_env": "OPENAI_API_KEY",
        "base_url_host": server.base_url.split("//")[1][: -len("/v1")],
        "kind": "openai",
        "max_tokens": 600,
        "model": "test-model",
        "prompt": "default",
        "prompt_sha256": default_prompt().sha256,
        "response_format": "auto",
        "seed": 3,
        "temperature": 0.5,
        "usage": {
            "answers": n,
            "completion_tokens": 7 * n,
            "cost": pytest.approx(0.25 * n),
            "prompt_tokens": 100 * n,
            "total_tokens": 107 * n,
        },
    }
    assert n == data["counts"]["items"] and data["rho_fp"] == 1.0
    assert data["judge"].startswith("openai:test-model at http://127.0.0.1:")
    assert f"{n + 1} requests, {n} answers, 0 retried, {107 * n} tokens this run" in result.stderr  # + GET /models


def test_text_and_html_reports_name_model_host_and_prompt(tmp_path: Path) -> None:
    page = tmp_path / "audit.html"
    with ChatServer(lambda seen: verdict(False, usage=USAGE)) as server:
        result = cli(
            "audit",
            "--judge",
            "openai:test-model",
            "--base-url",
            server.base_url,
            str(small_corpus(tmp_path)),
            "--html",
            str(page),
        )
    assert result.exit_code == 0, result.stderr
    n = len(server.chats())
    line = result.stdout.splitlines()[1]
    host = judge_for(server).host
    assert line == (
        f"model test-model at {host}, prompt sha256 {default_prompt().sha256}: "
        f"{100 * n} prompt + {7 * n} completion tokens over {n} answers, cost {0.25 * n:.6g}"
    )
    assert f'<p class="muted">{line}</p>' in page.read_text(encoding="utf-8")


def test_judges_that_do_not_describe_themselves_add_no_judge_info() -> None:
    entries = [
        ("s", (FIXTURES / "appendix-a" / "s3.md").read_text(), json.loads((FIXTURES / "appendix-a" / "s3.json").read_text()))
    ]
    report = audit(lambda text, slice_: True, entries)
    assert report.judge_info is None and "judge_info" not in report.to_dict()


def test_an_interrupted_audit_resumes_from_the_cache_without_asking_twice(tmp_path: Path) -> None:
    corpus = str(small_corpus(tmp_path))
    cache = str(tmp_path / "cache")

    def broken(seen: Seen) -> Reply:  # half the items get an answer that is no verdict, every time
        if hashlib.sha256(seen.section.encode()).digest()[0] % 2:
            return Reply(body=completion("Sorry, I am overloaded."))
        return verdict(coin(seen), usage=USAGE)

    with ChatServer(broken) as server:
        args = (
            "audit",
            "--judge",
            "openai:test-model",
            "--base-url",
            server.base_url,
            corpus,
            "--format",
            "json",
            "-j",
            "4",
        )
        first = json.loads(cli(*args, "--cache", cache, "--retries", "0").stdout)
    failed = {e["id"] for e in first["judge_errors"]}
    assert 0 < len(failed) < first["counts"]["items"]

    with ChatServer(lambda seen: verdict(coin(seen), usage=USAGE)) as server:
        args = (
            "audit",
            "--judge",
            "openai:test-model",
            "--base-url",
            server.base_url,
            corpus,
            "--format",
            "json",
            "-j",
            "4",
        )
        resumed = cli(*args, "--cache", cache)
        fresh = cli(*args)
    assert resumed.exit_code == 0 and fresh.exit_code == 0
    # The report (usage totals included) equals a fresh run's, byte for byte.
    assert resumed.stdout == fresh.stdout
    resumed_data = json.loads(resumed.stdout)
    assert resumed_data["judge_errors"] == [] and resumed_data["judge_info"]["usage"]["answers"] == first["counts"]["items"]


def test_resume_asks_exactly_the_failed_items(tmp_path: Path) -> None:
    corpus = small_corpus(tmp_path)
    cache = tmp_path / "cache"
    fail_these: set[str] = set()

    def script(seen: Seen) -> Reply:
        digest = hashlib.sha256(seen.section.encode()).hexdigest()
        if digest in fail_these:
            return error(500, "down")
        return verdict(True)

    entries = [
        (f"s{i}", (corpus / f"{ident}.md").read_text(), json.loads((corpus / f"{ident}.json").read_text()))
        for i, ident in enumerate(SMALL)
    ]
    with ChatServer(script) as server:
        judge = lambda: OpenAIJudge("test-model", base_url=server.base_url, backoff=0.01, max_retries=0)
        everything = audit(judge(), entries, seeds=1, retries=0)
        distinct = {hashlib.sha256(s.section.encode()).hexdigest() for s in server.chats()}
        fail_these.update(sorted(distinct)[:5])
        server.seen.clear()
        first = audit(judge(), entries, seeds=1, retries=0, cache=cache)
        assert len(first.judge_errors) >= 5
        fail_these.clear()
        server.seen.clear()
        second = audit(judge(), entries, seeds=1, retries=0, cache=cache)
        asked_again = len(server.chats())
    assert asked_again == len(first.judge_errors)  # the probe found the model via /models: no probe chat
    assert second.to_dict() == everything.to_dict()


@pytest.mark.parametrize(
    ("name", "answer", "rho_fp", "rho_pf"),
    [
        ("always_pass", lambda seen: True, 1.0, 0.0),
        ("always_fail", lambda seen: False, 0.0, 1.0),
        ("coin", coin, 0.5, 0.5),
    ],
)
def test_deterministic_judges_through_http_recover_their_rates(
    tmp_path: Path, name: str, answer: Callable[[Seen], bool], rho_fp: float, rho_pf: float
) -> None:
    """A scripted server answering like the bundled judges: the audit finds their known rates."""
    corpus = tmp_path / "corpus"
    for report_dir in RATES_CORPUS:
        for file in (FIXTURES / report_dir).iterdir():
            (corpus / report_dir).mkdir(parents=True, exist_ok=True)
            (corpus / report_dir / file.name).write_bytes(file.read_bytes())

    def script(seen: Seen) -> Reply:
        reply = verdict(answer(seen))
        reply.delay = 0.02  # long enough for calls in flight to overlap at the server
        return reply

    with ChatServer(script) as server:
        report = audit(OpenAIJudge("test-model", base_url=server.base_url), corpus, seeds=1, jobs=8)
        assert 1 < server.peak <= 8
    assert report.judge_errors == ()
    assert report.rho_fp.ci_low <= rho_fp <= report.rho_fp.ci_high, report.rho_fp
    assert report.rho_pf.ci_low <= rho_pf <= report.rho_pf.ci_high, report.rho_pf
    assert report.rho_fp.n >= 80 and report.rho_pf.n == report.sections == 13
    if name != "coin":
        assert (report.rho_fp.value, report.rho_pf.value) == (rho_fp, rho_pf)
    else:
        # The same coin in-process gives item-for-item the same verdicts: HTTP changed nothing.
        in_process = audit(
            lambda text, slice_: coin(
                Seen("POST", "", {}, {"messages": [{"role": "user", "content": f"````markdown\n{text}\n````"}]}, 0.0)
            ),
            corpus,
            seeds=1,
        )
        assert [i.passed for i in report.items] == [i.passed for i in in_process.items]
        assert 0.0 < report.rho_fp.value < 1.0 and 0.0 < report.rho_pf.value < 1.0


# -- import cost ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "absent"),
    [
        (None, ("httpx", "asyncio", "qcgrade.auditing.openai_judge")),  # import qcgrade
        (["check", "fixtures/appendix-a/s3.md"], ("httpx", "asyncio", "qcgrade.auditing.openai_judge")),
        (["audit", "--help"], ("httpx", "qcgrade.auditing.openai_judge")),
    ],
)
def test_the_judge_is_imported_only_when_used(argv: list[str] | None, absent: tuple[str, ...]) -> None:
    """`import qcgrade` and `qcgrade check` load neither httpx nor asyncio; even `audit --help` skips httpx."""
    import subprocess

    run = (
        ""
        if argv is None
        else f"import runpy; sys.argv = ['qcgrade', *{argv!r}]\ntry:\n    runpy.run_module('qcgrade', run_name='__main__')\n"
        "except SystemExit as exc:\n    assert exc.code in (0, None), exc.code\n"
    )
    code = f"import sys, qcgrade\n{run}print(sorted(m for m in {list(absent)!r} if m in sys.modules))\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout


# -- the whole flow: freeze, replay two HTTP judges with --composite, compare ----------------------


def test_freeze_replay_two_http_judges_and_compare(tmp_path: Path) -> None:
    corpus = str(small_corpus(tmp_path))
    items = tmp_path / "items.jsonl"
    assert cli("items", corpus, "-o", str(items)).exit_code == 0
    reports = {}
    for name, answer in (("lenient", lambda seen: True), ("coin", coin)):
        out = tmp_path / f"{name}.json"
        with ChatServer(lambda seen, answer=answer: verdict(answer(seen))) as server:
            result = cli(
                "audit", "--items", str(items), "--judge", "openai:test-model", "--base-url", server.base_url,
                "-j", "4", "--composite", "--format", "json", "-o", str(out),
            )  # fmt: skip
            asked = len(server.chats())
        assert result.exit_code == 0, result.stderr
        reports[name] = json.loads(out.read_text(encoding="utf-8"))
        assert asked == reports[name]["counts"]["items"]  # exactly the frozen items, each once
    lenient = reports["lenient"]["composite"]["signals"]
    assert lenient["judge"]["rho_fp"]["value"] == 1.0 and lenient["judge"]["verdict"] == "blind curator"
    assert lenient["composite"]["rho_fp"] == lenient["qcgrade"]["rho_fp"]
    assert lenient["composite"]["rho_fp"]["value"] < reports["coin"]["composite"]["signals"]["judge"]["rho_fp"]["value"]

    compared = cli("audit", "compare", str(tmp_path / "lenient.json"), str(tmp_path / "coin.json"), "--format", "json")
    assert compared.exit_code == 0, compared.stderr
    data = json.loads(compared.stdout)
    assert data["shared"] == reports["lenient"]["counts"]["items"] and data["only_a"] == data["only_b"] == 0
    fp = data["false_pass"]
    assert fp["b_only"] == 0 and fp["a_only"] == fp["n"] - fp["both"]  # the lenient judge passes every item the coin passes
    assert fp["a_only"] > 0 and fp["difference"]["value"] == pytest.approx(fp["a_only"] / fp["n"])
    assert fp["mcnemar_p"] == pytest.approx(min(1.0, 2 * 0.5 ** fp["a_only"]))  # all discordant pairs one way
