"""What a judge is and what it answers: the :class:`Judge` base class, :class:`Verdict`, and reading an answer.

The bottom of the audit's judge layer: :mod:`.judges` (the ways to supply a
judge), :mod:`.prompt` and :mod:`.openai_judge` (the LLM judge), :mod:`.cache`
and :mod:`.runner` all import from here, and this module imports none of them,
so the judge layer has no import circle.

A command judge's standard output is read by :func:`parse_output` and a
Python judge's return value by :func:`coerce`; see :mod:`.judges` for the
shapes both accept. Anything else raises :class:`~qcgrade.errors.JudgeError`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from ..errors import JudgeError
from ..evidence import json_error_text

Span = tuple[int, int]

#: How much of unparseable output to quote back in an error message.
_QUOTE = 60


@dataclass(frozen=True, slots=True)
class Usage:
    """What one answer cost, as the server reported it (``cost`` only when it reports one)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    cost: float | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    """A judge's answer: pass or fail, and optionally where the problems are.

    ``spans`` is None when the judge gave none (a span-less judge is not
    scored on localisation), else character offsets into the section text.
    ``usage`` (tokens, cost) and ``note`` (the judge's own words on why, where
    it gives any: a JSON ``"reason"``, the lines after ``PASS``/``FAIL``, an
    LLM's flagged problems) are shown to people, not scored, so two verdicts
    that differ only in them are equal.
    """

    passed: bool
    spans: tuple[Span, ...] | None = None
    usage: Usage | None = field(default=None, compare=False)
    note: str | None = field(default=None, compare=False)


#: The longest note kept with a verdict (a judge may explain at length; a report shows the start).
NOTE_LIMIT = 2000


def note_text(text: str | None) -> str | None:
    """A judge's explanation as kept: stripped, at most :data:`NOTE_LIMIT` characters, None when empty."""
    if text is None or not text.strip():
        return None
    text = text.strip()
    return text if len(text) <= NOTE_LIMIT else text[: NOTE_LIMIT - 3] + "..."


def one_line(text: str) -> str:
    """``text`` on one line, cut to about 60 characters, for quoting back in an error."""
    flat = " ".join(text.split())
    return flat if len(flat) <= _QUOTE else flat[: _QUOTE - 3] + "..."


def read_spans(value: Any) -> tuple[Span, ...] | None:
    """``[[start, end], ...]`` from a judge as sorted span pairs; None stays None."""
    if value is None:
        return None
    if not isinstance(value, (list, tuple)):
        raise JudgeError(f"spans must be a list of [start, end] pairs, got {type(value).__name__}")
    out: list[Span] = []
    for pair in value:
        ok = (
            isinstance(pair, (list, tuple))
            and len(pair) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in pair)
            and 0 <= pair[0] <= pair[1]
        )
        if not ok:
            raise JudgeError(f"bad span {one_line(repr(pair))}: expected [start, end] with 0 <= start <= end")
        out.append((pair[0], pair[1]))
    return tuple(sorted(out))


def _from_mapping(obj: Mapping[str, Any]) -> Verdict:
    word = obj.get("verdict")
    if not isinstance(word, str) or word.strip().lower() not in ("pass", "fail"):
        raise JudgeError(f'JSON output needs "verdict": "pass" or "fail", got {one_line(repr(word))}')
    reason = obj.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise JudgeError(f'"reason" must be a string, got {type(reason).__name__}')
    return Verdict(word.strip().lower() == "pass", read_spans(obj.get("spans")), note=note_text(reason))


def parse_output(stdout: str) -> Verdict:
    """Read a command judge's standard output (see the module docstring).

    Verdict words are matched case-insensitively; blank lines before the
    first line are ignored. Anything else raises :class:`JudgeError`.
    """
    body = stdout.strip()
    if body.startswith("{"):
        try:
            obj = json.loads(body)
        except json.JSONDecodeError as exc:
            raise JudgeError(f"output is not valid JSON ({json_error_text(exc)})") from None
        except (ValueError, RecursionError) as exc:  # a 5,000-digit number, arrays nested 100k deep
            raise JudgeError(f"output is not usable JSON ({one_line(str(exc))})") from None
        if not isinstance(obj, dict):
            raise JudgeError("JSON output must be an object")
        return _from_mapping(obj)
    first = body.splitlines()[0].strip() if body else ""
    if first.upper() in ("PASS", "FAIL"):
        rest = body.split("\n", 1)[1] if "\n" in body else None  # anything after the verdict line: its reason
        return Verdict(first.upper() == "PASS", note=note_text(rest))
    if not body:
        raise JudgeError("printed nothing (expected PASS, FAIL or a JSON verdict)")
    raise JudgeError(f"unrecognised output {one_line(first)!r} (expected PASS, FAIL or a JSON verdict)")


def coerce(result: Any) -> Verdict:
    """Turn whatever a Python judge returned into a :class:`Verdict`."""
    if isinstance(result, Verdict):
        return result
    if isinstance(result, bool):
        return Verdict(result)
    if isinstance(result, tuple) and len(result) == 2 and isinstance(result[0], bool):
        return Verdict(result[0], read_spans(result[1]))
    if isinstance(result, Mapping):
        return _from_mapping(result)
    if isinstance(result, str):
        return parse_output(result)
    raise JudgeError(f"judge returned {type(result).__name__}; expected bool, (bool, spans), a verdict dict or 'PASS'/'FAIL'")


class Judge:
    """Base class: a named judge the runner can call concurrently.

    ``identity`` names the judge in reports and in cache keys, so two judges
    with the same identity must give the same answers.
    """

    identity: str = "judge"

    async def judge(self, section: str, slice_: dict[str, Any], pool: Executor) -> Verdict:
        raise NotImplementedError

    def abort(self) -> None:
        """Stop calls still in flight (the audit was interrupted); default: nothing to stop."""

    async def start(self, jobs: int) -> None:
        """Get ready for up to ``jobs`` concurrent calls; raise :class:`JudgeSetupError` if the judge is unusable."""

    async def stop(self) -> None:
        """Release what :meth:`start` acquired (connections); called once the calls are done."""

    def describe(self) -> dict[str, Any] | None:
        """Facts about the judge for the report's ``judge_info`` block (None: nothing to add)."""
        return None
