"""A scripted Chat Completions server on 127.0.0.1, for tests and benchmarks.

It speaks just enough of the OpenAI protocol -- ``GET /v1/models`` and
``POST /v1/chat/completions`` over HTTP/1.1 with keep-alive -- and answers
each chat request with whatever a script returns: a verdict, malformed
content, an HTTP error with headers (``Retry-After``), or a slow answer.
It records every request (arrival time, headers, body) and the peak number
of chat requests in flight at once, so tests can check what the client did.

    with ChatServer(lambda seen: verdict(True)) as server:
        judge = OpenAIJudge("test-model", base_url=server.base_url)

Run as a script it serves a fixed verdict after a fixed delay (for the
throughput benchmark): ``python tests/chat_server.py --delay 0.2``, which
prints its base URL on the first line of standard output.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SECTION_OPEN = "````markdown\n"
SECTION_CLOSE = "\n````"


@dataclass
class Reply:
    """What the server sends back: ``body`` a dict (sent as JSON) or raw text, after ``delay`` seconds."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass(frozen=True)
class Seen:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    arrived: float

    @property
    def user_text(self) -> str:
        """The last user message (the rendered prompt)."""
        messages = self.body.get("messages", []) if isinstance(self.body, dict) else []
        users = [m.get("content", "") for m in messages if m.get("role") == "user"]
        return users[-1] if users else ""

    @property
    def section(self) -> str:
        """The section text, cut out of the default prompt's fenced block."""
        text = self.user_text
        start = text.find(SECTION_OPEN)
        end = text.rfind(SECTION_CLOSE)
        return text[start + len(SECTION_OPEN) : end] if 0 <= start < end else ""


def completion(content: str | None, *, usage: dict[str, Any] | None = None, finish_reason: str = "stop") -> dict[str, Any]:
    """A chat.completion response body with one choice."""
    body: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}],
    }
    if usage is not None:
        body["usage"] = usage
    return body


def verdict(passed: bool, quotes: tuple[str, ...] = (), **kw: Any) -> Reply:
    """A well-formed verdict answer (``quotes`` become the ``flagged`` list)."""
    answer = {"flagged": [{"quote": q, "problem": "test"} for q in quotes], "verdict": "PASS" if passed else "FAIL"}
    return Reply(body=completion(json.dumps(answer), **kw))


def error(status: int, message: str, code: str | None = None, headers: dict[str, str] | None = None) -> Reply:
    """An OpenAI-shaped error body."""
    return Reply(status, {"error": {"message": message, "type": "test_error", "code": code}}, headers or {})


def coin(seen: Seen, seed: str = "coin", p_pass: float = 0.5) -> bool:
    """A seeded coin keyed on the section: the same section always lands the same way."""
    digest = hashlib.sha256(f"{seed}\x00{seen.section}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < p_pass


Script = Callable[[Seen], Reply]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # many clients connect at once (-j 32); the default backlog of 5 would stall them


class ChatServer:
    """The server, on an ephemeral port in a daemon thread; use as a context manager."""

    def __init__(self, script: Script, models: list[str] | None = None, models_reply: Reply | None = None) -> None:
        self.script = script
        self.models = ["test-model"] if models is None else models
        self.models_reply = models_reply
        self.seen: list[Seen] = []
        self.in_flight = 0
        self.peak = 0
        self._lock = threading.Lock()
        self._httpd = _Server(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="chat-server", daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def chats(self) -> list[Seen]:
        with self._lock:
            return [s for s in self.seen if s.path.endswith("/chat/completions")]

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def _record(self, seen: Seen) -> None:
        with self._lock:
            self.seen.append(seen)

    def _enter(self) -> None:
        with self._lock:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as real servers do

            def setup(self) -> None:
                super().setup()
                # Headers and body go out in two writes; without NODELAY, Nagle holds the body for the client's delayed ACK.
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def _send(self, reply: Reply) -> None:
                if isinstance(reply.body, (dict, list)):
                    payload = json.dumps(reply.body).encode()
                    kind = "application/json"
                else:
                    payload = str(reply.body or "").encode()
                    kind = "text/plain"
                self.send_response(reply.status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(payload)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                try:
                    self.wfile.write(payload)
                except OSError:  # the client gave up (a timeout test)
                    pass

            def _seen(self, body: Any) -> Seen:
                seen = Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body, time.monotonic())
                server._record(seen)
                return seen

            def do_GET(self) -> None:
                self._seen(None)
                if self.path.rstrip("/").endswith("/models"):
                    if server.models_reply is not None:
                        self._send(server.models_reply)
                    else:
                        data = [{"id": m, "object": "model", "owned_by": "test"} for m in server.models]
                        self._send(Reply(body={"object": "list", "data": data}))
                else:
                    self._send(error(404, f"no route {self.path}"))

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                seen = self._seen(body)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(error(404, f"no route {self.path}"))
                    return
                server._enter()
                try:
                    reply = server.script(seen)
                    if reply.delay:
                        time.sleep(reply.delay)
                    self._send(reply)
                finally:
                    server._leave()

        return Handler


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.2, help="seconds before each chat answer")
    args = parser.parse_args()
    answer = verdict(True, usage={"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15})
    answer.delay = args.delay
    with ChatServer(lambda seen: answer) as server:
        print(server.base_url, flush=True)
        try:
            sys.stdin.read()  # serve until the parent closes our stdin
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
