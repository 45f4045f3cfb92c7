"""An LLM judge behind any server that speaks the OpenAI Chat Completions API.

OpenAI itself, vLLM, SGLang, Ollama, llama.cpp's server, LiteLLM and most
hosted gateways all accept ``POST {base_url}/chat/completions``; this judge
sends the rubric prompt (:mod:`.prompt`) and reads a strict JSON verdict.

Why httpx and not the ``openai`` SDK: the judge needs exactly one endpoint
and full control of what happens around it -- which statuses are retried,
how ``Retry-After`` is honoured and bounded, a hard per-request deadline,
falling back from ``json_schema`` to ``json_object`` to plain text when a
server rejects a response format, reading provider extras such as
``usage.cost`` -- and a missing key must not be an error for a local server.
The SDK would add its own retry loop on top of ours (to be disabled), demand
an API key, and hide the raw response behind typed models that lag the
servers' extensions; it also depends on httpx, so httpx alone is the smaller
install.

Errors: a setup problem (no key for the OpenAI API, a server that cannot be
reached, a model it does not serve) raises :class:`JudgeSetupError` from
:meth:`OpenAIJudge.start`, before any item. A failure of one call (a timeout,
an HTTP error after the retries, a malformed or truncated answer, a refusal)
raises :class:`JudgeError`: reported per item, never scored.
"""

from __future__ import annotations

import asyncio
import email.utils
import math
import os
import random
import time
from collections import Counter
from concurrent.futures import Executor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from ..errors import JudgeError, JudgeSetupError
from .prompt import ANSWER_SCHEMA, Prompt, load_prompt, parse_answer
from .protocol import Judge, Usage, Verdict

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
#: Hosts that always need a key: a missing one is reported before any request.
KEYED_HOSTS = frozenset({"api.openai.com"})
#: ``response_format`` levels, strongest first; ``auto`` starts at the first and steps down when refused.
FORMATS = ("json_schema", "json_object", "text")
_FORMAT_WORDS = ("response_format", "json_schema", "json_object", "schema", "structured", "guided")
_QUOTE = 120
#: Most connections per httpx pool; more calls in flight get more pools.
POOL_SIZE = 8


def _one_line(text: str, limit: int = _QUOTE) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def retry_after(headers: httpx.Headers, now: float | None = None) -> float | None:
    """Seconds the server asks us to wait: ``retry-after-ms``, else ``Retry-After`` as seconds or an HTTP-date.

    None when there is no usable header; a date in the past means "now" (0).
    """
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            value = float(millis)
        except ValueError:
            value = math.nan
        if math.isfinite(value) and value >= 0:
            return value / 1000.0
    raw = headers.get("retry-after")
    if raw is None:
        return None
    raw = raw.strip()
    try:
        seconds = float(raw)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:  # HTTP-dates are GMT; a zone-less one is read the same way
            return None
        return max(0.0, when.timestamp() - (time.time() if now is None else now))
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def _error_text(response: httpx.Response) -> str:
    """The server's own words for an error: ``error.message`` (plus ``code``) when JSON, else the body."""
    try:
        data = response.json()
    except ValueError:
        return _one_line(response.text) or response.reason_phrase
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict):
        message = str(error.get("message") or "")
        code = error.get("code") or error.get("type")
        return _one_line(f"{message} ({code})" if code and str(code) not in message else message)
    if isinstance(error, str):
        return _one_line(error)
    if isinstance(data, dict) and isinstance(data.get("detail"), str):  # FastAPI-style servers
        return _one_line(data["detail"])
    return _one_line(response.text)


def _error_code(response: httpx.Response) -> str:
    try:
        error = response.json().get("error")
    except (ValueError, AttributeError):
        return ""
    return str(error.get("code") or "") if isinstance(error, dict) else ""


def _usage(value: Any) -> Usage | None:
    """Token counts from a response's ``usage`` (and ``usage.cost`` where the server reports a price)."""
    if not isinstance(value, dict):
        return None

    def count(key: str) -> int:
        n = value.get(key)
        return n if isinstance(n, int) and not isinstance(n, bool) and n >= 0 else 0

    cost = value.get("cost")
    price = float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) and math.isfinite(cost) else None
    prompt, completion = count("prompt_tokens"), count("completion_tokens")
    return Usage(prompt, completion, count("total_tokens") or prompt + completion, price)


def _content(message: dict[str, Any]) -> str | None:
    """The answer text; some servers send a list of content parts instead of a string."""
    content = message.get("content")
    if isinstance(content, list):
        parts = [str(p["text"]) for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
        return "".join(parts) if parts else None
    return content if isinstance(content, str) else None


class OpenAIJudge(Judge):
    """A Chat Completions model as a judge (see the module docstring).

    ``api_key`` wins over the environment variable named by ``api_key_env``;
    with neither, no ``Authorization`` header is sent (local servers need
    none). ``seed`` is sent when given (servers that honour it then answer
    repeats alike). ``timeout`` bounds each HTTP request, start to last byte.
    429 and 5xx answers and dropped connections are retried up to
    ``max_retries`` times, waiting ``Retry-After`` when the server sends it
    (giving up when it asks for more than ``max_retry_after`` seconds), else
    an exponential backoff from ``backoff`` seconds, capped at ``max_backoff``.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        api_key: str | None = None,
        api_key_env: str = DEFAULT_KEY_ENV,
        temperature: float = 0.0,
        seed: int | None = None,
        max_tokens: int = 600,
        timeout: float | None = 60.0,
        prompt: Prompt | str | Path | None = None,
        response_format: str = "auto",
        max_retries: int = 4,
        backoff: float = 0.5,
        max_backoff: float = 30.0,
        max_retry_after: float = 120.0,
        probe: bool = True,
        identity: str | None = None,
    ) -> None:
        model = model.strip()
        if not model:
            raise JudgeSetupError("openai judge: name a model, e.g. --judge openai:gpt-4o-mini")
        parts = urlsplit(base_url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise JudgeSetupError(f"--base-url: expected an http(s) URL such as {DEFAULT_BASE_URL}, got {base_url!r}")
        if not (math.isfinite(temperature) and temperature >= 0):
            raise JudgeSetupError(f"--temperature: expected a number >= 0, got {temperature!r}")
        if max_tokens < 1:
            raise JudgeSetupError(f"--max-tokens: expected an integer >= 1, got {max_tokens!r}")
        if response_format != "auto" and response_format not in FORMATS:
            raise JudgeSetupError(f"--response-format: expected auto or one of {', '.join(FORMATS)}, got {response_format!r}")
        self.model = model
        # The URL without credentials or query: what reports show and the cache key holds.
        port = f":{parts.port}" if parts.port else ""
        self.host = f"{parts.hostname}{port}"
        self.base_url = f"{parts.scheme}://{self.host}{parts.path.rstrip('/')}"
        self.api_key_env = api_key_env
        self._api_key = api_key if api_key is not None else os.environ.get(api_key_env, "").strip()
        self.temperature = float(temperature)
        self.seed = seed
        self.max_tokens = max_tokens
        self.timeout = timeout
        self.prompt = prompt if isinstance(prompt, Prompt) else load_prompt(prompt)
        self.response_format = response_format
        self._format = FORMATS[0] if response_format == "auto" else response_format
        self._token_field = "max_tokens"
        self.max_retries, self.backoff = max_retries, backoff
        self.max_backoff, self.max_retry_after = max_backoff, max_retry_after
        self.probe = probe
        self.identity = identity or (
            f"openai:{model} at {self.base_url} (prompt {self.prompt.name} sha256:{self.prompt.sha256}, "
            f"temperature {self.temperature:g}, seed {'none' if seed is None else seed}, max_tokens {max_tokens})"
        )
        self._clients: list[httpx.AsyncClient] = []
        self._busy: list[int] = []
        # Jitter spreads concurrent retries apart; seeded so runs are repeatable (it affects timing only).
        self._jitter = random.Random(0)
        #: This run's traffic (not in the report: a resumed audit sends fewer requests for the same answers).
        self.stats: Counter[str] = Counter()

    # -- lifecycle ---------------------------------------------------------

    def _open(self, jobs: int) -> None:
        """Connection pools for ``jobs`` calls in flight, each kept alive between items.

        Several small pools rather than one big one: httpcore scans every
        connection of a pool on each request event, so one pool of 32 costs
        about twice the CPU per call of four pools of 8 (bench_judge_http.py).
        """
        headers = {"Content-Type": "application/json", "User-Agent": "qcgrade-audit"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        pools = -(-jobs // POOL_SIZE)
        size = -(-jobs // pools)
        limits = httpx.Limits(max_connections=size, max_keepalive_connections=size)
        self._clients = [
            httpx.AsyncClient(headers=headers, timeout=httpx.Timeout(self.timeout), limits=limits) for _ in range(pools)
        ]
        self._busy = [0] * pools

    async def start(self, jobs: int) -> None:
        """Check the key, reach the server and find the model, before any item (:class:`JudgeSetupError`)."""
        if not self._api_key and self.host in KEYED_HOSTS:
            raise JudgeSetupError(
                f"openai judge: no API key for {self.base_url}: set {self.api_key_env} "
                "(a local server needs none: pass --base-url http://HOST:PORT/v1)"
            )
        await self.stop()
        self._open(max(1, jobs))
        if not self.probe:
            return
        try:
            await self._probe()
        except BaseException:
            await self.stop()
            raise

    async def stop(self) -> None:
        clients, self._clients, self._busy = self._clients, [], []
        for client in clients:
            await client.aclose()

    # -- HTTP --------------------------------------------------------------

    def _wait(self, attempt: int) -> float:
        return min(self.max_backoff, self.backoff * 2**attempt) * (0.5 + 0.5 * self._jitter.random())

    async def _send(self, method: str, path: str, body: dict[str, Any] | None = None, reconnect: bool = True) -> httpx.Response:
        """One logical request, retried on 429, 5xx and (if ``reconnect``) dropped connections.

        A timeout, or a connection that fails for good, is a :class:`JudgeError`.
        """
        if not self._clients:
            self._open(64)  # judge() without start(): no probe, generous pools
        url = f"{self.base_url}{path}"
        for attempt in range(self.max_retries + 1):
            last = attempt == self.max_retries
            self.stats["requests"] += 1
            # The least busy pool always has a free connection while calls in flight <= jobs.
            pool = min(range(len(self._busy)), key=self._busy.__getitem__)
            self._busy[pool] += 1
            try:
                # httpx's timeout bounds each phase; wait_for bounds the whole exchange (a trickling server).
                response = await asyncio.wait_for(self._clients[pool].request(method, url, json=body), self.timeout)
            except (asyncio.TimeoutError, httpx.TimeoutException):
                self.stats["timeouts"] += 1
                raise JudgeError(f"no answer from {self.host} within {self.timeout:g}s") from None
            except httpx.TransportError as exc:
                self.stats["connection errors"] += 1
                if last or not reconnect:
                    raise JudgeError(f"cannot reach {self.base_url}: {_one_line(str(exc)) or type(exc).__name__}") from None
                response = None
            finally:
                self._busy[pool] -= 1
            if response is None:  # a dropped connection: back off, then reconnect
                await asyncio.sleep(self._wait(attempt))
                continue
            status = response.status_code
            if status != 429 and status < 500:
                return response
            self.stats[f"HTTP {status}"] += 1
            if last:
                return response
            asked = retry_after(response.headers)
            if asked is not None and asked > self.max_retry_after:
                raise JudgeError(
                    f"HTTP {status} from {self.host}: asked to retry after {asked:g}s, "
                    f"more than the {self.max_retry_after:g}s allowed: {_error_text(response)}"
                )
            self.stats["retries"] += 1
            await asyncio.sleep(asked if asked is not None else self._wait(attempt))
        raise AssertionError("unreachable")  # the last attempt returns or raises

    def _chat_body(self, messages: list[dict[str, str]], fmt: str, max_tokens: int) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": self.temperature}
        body[self._token_field] = max_tokens
        if self.seed is not None:
            body["seed"] = self.seed
        if fmt == "json_schema":
            schema = {"name": "qcgrade_verdict", "strict": True, "schema": ANSWER_SCHEMA}
            body["response_format"] = {"type": "json_schema", "json_schema": schema}
        elif fmt == "json_object":
            body["response_format"] = {"type": "json_object"}
        return body

    async def _chat(self, messages: list[dict[str, str]], max_tokens: int, fmt: str | None = None) -> httpx.Response:
        """POST the messages; step down the response format (or the token field) when the server refuses it."""
        adaptive = fmt is None
        while True:
            current = self._format if fmt is None else fmt
            response = await self._send("POST", "/chat/completions", self._chat_body(messages, current, max_tokens))
            if response.status_code not in (400, 422):
                return response
            said = _error_text(response).lower()
            if self._token_field == "max_tokens" and "max_completion_tokens" in said:
                self._token_field = "max_completion_tokens"  # newer OpenAI models refuse the old name
                continue
            lower = FORMATS.index(current) + 1
            if adaptive and self.response_format == "auto" and lower < len(FORMATS) and any(w in said for w in _FORMAT_WORDS):
                # Concurrent calls may race here; taking the lower level keeps them all moving down.
                self._format = FORMATS[max(lower, FORMATS.index(self._format))]
                self.stats[f"response_format -> {self._format}"] += 1
                continue
            return response

    # -- the probe ----------------------------------------------------------

    def _setup_error(self, response: httpx.Response, what: str) -> JudgeSetupError:
        status = response.status_code
        said = _error_text(response)
        if status in (401, 403):
            key = f"the key in {self.api_key_env}" if self._api_key else f"no API key ({self.api_key_env} is not set)"
            return JudgeSetupError(f"openai judge: {self.host} refused {what} with HTTP {status} for {key}: {said}")
        return JudgeSetupError(f"openai judge: {self.host} answered {what} with HTTP {status}: {said}")

    async def _probe(self) -> None:
        try:
            # No reconnecting here: a server that is not there should be one quick line, not a wait.
            listed = await self._send("GET", "/models", reconnect=False)
        except JudgeError as exc:
            raise JudgeSetupError(f"openai judge: {exc}") from None
        served: list[str] = []
        if listed.status_code in (401, 403):
            raise self._setup_error(listed, "GET /models")
        if listed.status_code == 200:
            try:
                data = listed.json().get("data")
                served = [m["id"] for m in data if isinstance(m, dict) and isinstance(m.get("id"), str)]
            except (ValueError, AttributeError, TypeError, KeyError):
                served = []
            if self.model in served:
                return
        # No /models, or the model is not listed (servers accept aliases they do not list): ask for one token.
        try:
            answer = await self._chat([{"role": "user", "content": "Reply with OK."}], 1, fmt="text")
        except JudgeError as exc:
            raise JudgeSetupError(f"openai judge: {exc}") from None
        status = answer.status_code
        if status == 200:
            return
        said = _error_text(answer)
        lowered = said.lower()
        unknown = "model" in lowered and any(w in lowered for w in ("not found", "does not exist", "unknown", "not exist"))
        if status == 404 or "model_not_found" in _error_code(answer) or unknown:
            offer = f"; it serves: {', '.join(served[:8])}{' ...' if len(served) > 8 else ''}" if served else ""
            if not served and listed.status_code == 404:
                offer = " (and GET /models is not there either: does --base-url end in /v1?)"
            where = f"at {self.base_url} (HTTP {status}: {said})"
            raise JudgeSetupError(f"openai judge: model {self.model!r} not found {where}{offer}")
        if status in (401, 403) or status == 429 or status >= 500:
            raise self._setup_error(answer, "a one-token test request")
        # Any other 4xx refuses the tiny test request itself (e.g. a token minimum), not the model: carry on.

    # -- one judgement -----------------------------------------------------

    async def judge(self, section: str, slice_: dict[str, Any], pool: Executor) -> Verdict:
        response = await self._chat(self.prompt.messages(section, slice_), self.max_tokens)
        if response.status_code != 200:
            raise JudgeError(f"HTTP {response.status_code} from {self.host}: {_error_text(response)}")
        try:
            data = response.json()
            choice = data["choices"][0]
            message = choice["message"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise JudgeError(f"not a chat completion from {self.host}: {_one_line(response.text, 60)!r}") from None
        if not isinstance(message, dict):
            raise JudgeError(f"not a chat completion from {self.host}: message is {type(message).__name__}")
        usage = _usage(data.get("usage"))
        if usage is not None:
            self.stats["tokens"] += usage.total_tokens
        if isinstance(message.get("refusal"), str) and message["refusal"].strip():
            raise JudgeError(f"the model refused: {_one_line(message['refusal'], 60)}")
        if choice.get("finish_reason") == "length":
            raise JudgeError(f"answer cut off at {self.max_tokens} tokens (finish_reason 'length'); raise --max-tokens")
        content = _content(message)
        if content is None:
            raise JudgeError("the answer has no text content")
        verdict = parse_answer(content, section)
        self.stats["answers"] += 1
        return Verdict(verdict.passed, verdict.spans, usage)

    # -- reporting ----------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        """The report's ``judge_info`` (the runner adds ``usage``); never the key, only its variable's name."""
        return {
            "api_key_env": self.api_key_env,
            "base_url_host": self.host,
            "kind": "openai",
            "max_tokens": self.max_tokens,
            "model": self.model,
            "prompt": self.prompt.name,
            "prompt_sha256": self.prompt.sha256,
            "response_format": self.response_format,
            "seed": self.seed,
            "temperature": self.temperature,
        }

    def traffic(self) -> str:
        """One line on this run's requests, for stderr (cached answers cost none)."""
        s = self.stats
        extra = sorted(k for k in s if k.startswith(("HTTP ", "response_format")) or k in ("timeouts", "connection errors"))
        detail = "".join(f", {k}: {s[k]}" for k in extra)
        return (
            f"openai judge {self.model} at {self.host}: {s['requests']} requests, {s['answers']} answers, "
            f"{s['retries']} retried, {s['tokens']} tokens this run (response format {self._format}{detail})"
        )
