"""A resumable per-item cache of judge verdicts: one small JSON file per item.

LLM judges are slow and cost money, so an interrupted audit should not start
over. Each verdict is stored under a SHA-256 of the canonical JSON of
``(judge identity, section text, slice, sample)``. ``sample`` (the seed) is in
the key on purpose: clean sections are judged once per seed so that a
stochastic judge is *sampled*; without it every repeat would replay the first
answer.

Only verdicts are stored, with what the answer cost when the judge reported
it (tokens, cost), so a resumed audit reports the same totals as a fresh one.
A judge error is not cached, so the next run asks
again. Change the judge (prompt, model, script) and the identity should change
too -- for a command the identity is the command line, so use a fresh cache
directory (or a distinct ``identity``) when the script behind it changes.
Files are written atomically (temp file + rename), so a kill mid-write leaves
either the old state or the new one; an unreadable entry is treated as absent.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..errors import JudgeError
from ..files import InputError
from .protocol import Usage, Verdict, read_spans

_FORMAT = 1


def cache_key(identity: str, section: str, slice_: dict[str, Any], sample: int) -> str:
    material = json.dumps(
        {"judge": identity, "sample": sample, "section": section, "slice": slice_},
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def _usage(value: Any) -> Usage | None:
    """Usage stored with a verdict; anything malformed reads as "not recorded", never as an error."""
    if not isinstance(value, dict):
        return None
    counts: list[int] = []
    for key in ("prompt_tokens", "completion_tokens", "total_tokens"):
        count = value.get(key)
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            return None
        counts.append(count)
    cost = value.get("cost")
    if isinstance(cost, bool) or not isinstance(cost, (int, float)):
        cost = None
    return Usage(counts[0], counts[1], counts[2], None if cost is None else float(cost))


class VerdictCache:
    """Verdicts on disk under ``directory``, created on first use."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"{self.directory}: cannot create cache directory: {exc.strerror or exc}") from None
        if not self.directory.is_dir():
            raise InputError(f"{self.directory}: cache path is not a directory")

    def _path(self, key: str) -> Path:
        # Two-level fan-out keeps directories small for audits of many thousand items.
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> Verdict | None:
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
            if data.get("format") != _FORMAT or data.get("verdict") not in ("pass", "fail"):
                return None
            note = data.get("note")
            return Verdict(
                data["verdict"] == "pass",
                read_spans(data.get("spans")),
                _usage(data.get("usage")),
                note if isinstance(note, str) else None,
            )
        except (OSError, ValueError, AttributeError, RecursionError, JudgeError):
            return None

    def put(self, key: str, identity: str, verdict: Verdict) -> None:
        path = self._path(key)
        record: dict[str, Any] = {
            "format": _FORMAT,
            "judge": identity,
            "spans": [list(s) for s in verdict.spans] if verdict.spans is not None else None,
            "verdict": "pass" if verdict.passed else "fail",
        }
        if verdict.note is not None:
            record["note"] = verdict.note
        if verdict.usage is not None:
            u = verdict.usage
            record["usage"] = {
                "completion_tokens": u.completion_tokens,
                "cost": u.cost,
                "prompt_tokens": u.prompt_tokens,
                "total_tokens": u.total_tokens,
            }
        try:
            path.parent.mkdir(exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(record, handle, sort_keys=True)
            os.replace(tmp, path)
        except OSError as exc:
            raise InputError(f"{path}: cannot write cache entry: {exc.strerror or exc}") from None
