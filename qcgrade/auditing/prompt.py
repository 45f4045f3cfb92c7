"""The rubric prompt of an LLM judge and the strict reading of its answer.

A prompt is a text file (the default ships as ``prompts/default.md``) with two
placeholders, ``{{slice}}`` (the evidence slice as indented JSON) and
``{{section}}`` (the section text). A line ``<!-- user -->`` splits it into a
system message (above) and a user message (below); without that line the whole
file is one user message. Placeholders are filled in one pass, so a section
that itself contains ``{{slice}}`` is sent as written.

The answer must be one JSON object (a single surrounding code fence is
tolerated)::

    {"flagged": [{"quote": "...", "problem": "..."}], "verdict": "PASS" | "FAIL"}

``flagged`` is optional. Quotes are located in the section (exactly, else with
runs of whitespace matched loosely) to become character spans; a quote that is
not in the section is dropped, which scores as poor localisation rather than
as an error. Anything else -- not JSON, no verdict, a verdict other than
PASS/FAIL, ``flagged`` of the wrong shape -- is a :class:`JudgeError`.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import JudgeError
from ..files import InputError
from .protocol import Span, Verdict, note_text

USER_MARKER = "<!-- user -->"
PLACEHOLDERS = ("section", "slice")
_PLACEHOLDER = re.compile(r"\{\{(section|slice)\}\}")
_FENCE = re.compile(r"\A```[A-Za-z0-9_-]*[ \t]*\n(.*)\n```\Z", re.DOTALL)
#: Most flagged quotes read from one answer (the JSON schema says the same).
MAX_FLAGGED = 64
_QUOTE_CHARS = 60

#: What the judge must answer; sent as ``response_format`` where the server supports JSON schemas.
ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "flagged": {
            "type": "array",
            "maxItems": MAX_FLAGGED,
            "items": {
                "type": "object",
                "properties": {"quote": {"type": "string"}, "problem": {"type": "string"}},
                "required": ["quote", "problem"],
                "additionalProperties": False,
            },
        },
        "verdict": {"type": "string", "enum": ["PASS", "FAIL"]},
    },
    "required": ["flagged", "verdict"],
    "additionalProperties": False,
}


@dataclass(frozen=True, slots=True)
class Prompt:
    """A rubric template: ``name`` for reports, ``sha256`` of the file's bytes (in the cache key)."""

    name: str
    system: str | None
    user: str
    sha256: str

    def messages(self, section: str, slice_: dict[str, Any]) -> list[dict[str, str]]:
        values = {"section": section, "slice": json.dumps(slice_, ensure_ascii=False, sort_keys=True, indent=2)}

        def fill(template: str) -> str:
            return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)

        out = [{"role": "system", "content": fill(self.system)}] if self.system is not None else []
        out.append({"role": "user", "content": fill(self.user)})
        return out


def parse_prompt(raw: bytes, name: str, source: str | None = None) -> Prompt:
    """A :class:`Prompt` from a file's bytes; a bad file is one :class:`InputError` line naming ``source`` (or ``name``)."""
    where = source or name
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{where}: prompt is not UTF-8 (byte {exc.start})") from None
    for placeholder in PLACEHOLDERS:
        if "{{" + placeholder + "}}" not in text:
            raise InputError(f"{where}: prompt has no {{{{{placeholder}}}}} placeholder")
    lines = text.split("\n")
    marks = [i for i, line in enumerate(lines) if line.strip() == USER_MARKER]
    if len(marks) > 1:
        raise InputError(f"{where}: prompt has {len(marks)} '{USER_MARKER}' lines; at most one splits system from user")
    if marks:
        system, user = "\n".join(lines[: marks[0]]).strip("\n"), "\n".join(lines[marks[0] + 1 :]).strip("\n")
        if not user.strip():
            raise InputError(f"{where}: prompt has nothing below '{USER_MARKER}'")
        prompt = Prompt(name, system or None, user, hashlib.sha256(raw).hexdigest())
    else:
        prompt = Prompt(name, None, text.strip("\n"), hashlib.sha256(raw).hexdigest())
    return prompt


def default_prompt() -> Prompt:
    """The rubric shipped with qcgrade (``qcgrade/auditing/prompts/default.md``)."""
    raw = resources.files("qcgrade.auditing").joinpath("prompts").joinpath("default.md").read_bytes()
    return parse_prompt(raw, "default")


def load_prompt(path: str | Path | None) -> Prompt:
    """The prompt file at ``path``, or the default rubric when None. Reports name a file by its base name."""
    if path is None:
        return default_prompt()
    file = Path(path)
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise InputError(f"{file}: cannot read prompt: {exc.strerror or exc}") from None
    return parse_prompt(raw, file.name, str(file))


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _QUOTE_CHARS else flat[: _QUOTE_CHARS - 3] + "..."


def _unfence(content: str) -> str:
    body = content.strip()
    fenced = _FENCE.match(body)
    return fenced.group(1).strip() if fenced else body


class _Locator:
    """Finds quotes in a section: exactly, else with whitespace runs collapsed on both sides (linear time)."""

    def __init__(self, section: str) -> None:
        self.section = section
        self._flat: str | None = None
        self._starts: list[int] = []
        self._ends: list[int] = []

    def _collapse(self) -> str:
        # One space per whitespace run; _starts/_ends map each kept character back to the section.
        chars: list[str] = []
        for match in re.finditer(r"\s+|\S+", self.section):
            if match.group()[0].isspace():
                chars.append(" ")
                self._starts.append(match.start())
                self._ends.append(match.end())
            else:
                for offset, ch in enumerate(match.group()):
                    chars.append(ch)
                    self._starts.append(match.start() + offset)
                    self._ends.append(match.start() + offset + 1)
        return "".join(chars)

    def find(self, quote: str) -> Span | None:
        at = self.section.find(quote)
        if at >= 0:
            return (at, at + len(quote))
        needle = " ".join(quote.split())
        if not needle:
            return None
        if self._flat is None:
            self._flat = self._collapse()
        at = self._flat.find(needle)
        if at < 0:
            return None
        return (self._starts[at], self._ends[at + len(needle) - 1])


def _flagged_spans(value: Any, section: str) -> tuple[Span, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise JudgeError(f'"flagged" must be a list, got {type(value).__name__}')
    if len(value) > MAX_FLAGGED:
        raise JudgeError(f'"flagged" lists {len(value)} problems; at most {MAX_FLAGGED} are read')
    locate = _Locator(section)
    spans: set[Span] = set()
    for entry in value:
        quote = entry.get("quote") if isinstance(entry, dict) else None
        if not isinstance(quote, str):
            raise JudgeError(f'each "flagged" entry needs a "quote" string, got {_quote(repr(entry))}')
        if quote.strip():
            span = locate.find(quote)
            if span is not None:
                spans.add(span)
    return tuple(sorted(spans))


def parse_answer(content: str, section: str) -> Verdict:
    """Read a judge's answer strictly (see the module docstring); spans are offsets into ``section``."""
    body = _unfence(content)
    if not body.startswith("{"):
        what = f"{_quote(body)!r}" if body else "nothing"
        raise JudgeError(f"answer is not a JSON object: {what}")
    try:
        obj = json.loads(body)
    except json.JSONDecodeError as exc:
        raise JudgeError(f"answer is not valid JSON ({exc.msg} at char {exc.pos}): {_quote(body)!r}") from None
    except (ValueError, RecursionError) as exc:
        raise JudgeError(f"answer is not usable JSON ({_quote(str(exc))})") from None
    if not isinstance(obj, dict):
        raise JudgeError("answer must be a JSON object")
    word = obj.get("verdict")
    if not isinstance(word, str) or word.strip().upper() not in ("PASS", "FAIL"):
        raise JudgeError(f'answer needs "verdict": "PASS" or "FAIL", got {_quote(repr(word))}')
    flagged = obj.get("flagged")
    return Verdict(word.strip().upper() == "PASS", _flagged_spans(flagged, section), note=_problems(flagged))


def _problems(flagged: Any) -> str | None:
    """The flagged quotes and problems as one note, one per line (already checked by ``_flagged_spans``)."""
    if not isinstance(flagged, list):
        return None
    lines = []
    for entry in flagged:
        problem = entry.get("problem")
        quote = " ".join(str(entry.get("quote", "")).split())
        lines.append(f'"{quote}": {problem}' if isinstance(problem, str) and problem.strip() else f'"{quote}"')
    return note_text("\n".join(lines))
