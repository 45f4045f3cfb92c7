"""An example judge speaking qcgrade's judge protocol: copy it, replace ``decide``.

Run an audit against it (``example`` runs this file with the Python that runs
qcgrade, so no virtual environment needs activating)::

    qcgrade audit fixtures/ --judge example

A copy of your own runs the same way with ``{python}``, which qcgrade replaces
by its own interpreter::

    qcgrade audit fixtures/ --judge "{python} my_judge.py"

The protocol, once per item:

* standard input: one JSON object ``{"section": "<markdown>", "slice": {...}}``
  (the slice is the evidence slice of paper appendix A: cards, metrics, xref);
* standard output: ``{"verdict": "pass"|"fail", "spans": [[start, end], ...],
  "reason": "..."}`` (spans optional: character offsets of what is wrong, end
  exclusive; reason optional: shown in the audit's HTML report, never
  scored), or simply a first line ``PASS`` or ``FAIL`` (later lines are the
  reason);
* exit status 0. A non-zero status, a timeout or any other output is a judge
  error: qcgrade retries it (``--retries``) and reports it apart, never as a
  pass or a fail.

The stand-in ``decide`` below is deliberately a weak judge: it only checks
that every bracketed citation names a card in the slice, so it misses five of
the seven defect classes and the audit will rate it past the cliff. An LLM
judge would replace it with a call such as::

    def decide(section, slice_):
        prompt = RUBRIC.format(section=section, cards=json.dumps(slice_["cards"]))
        answer = client.complete(prompt, temperature=0)        # your model client
        return answer.strip().upper().startswith("PASS"), []

Keep the judge's own randomness seeded (or at temperature 0) if you want a
reproducible audit; otherwise use ``--seeds N`` so each clean section is
sampled N times.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

_BRACKETS = re.compile(r"\[([^\[\]\n]+)\](?!\()")  # [E1] or [E1, E2]; not a link's [text](url)
_ID = re.compile(r"[^\s,;]+")


def decide(section: str, slice_: dict[str, Any]) -> tuple[bool, list[list[int]]]:
    """Pass unless a bracketed citation names no card; spans locate the unknown ids."""
    known = {card.get("id") for card in slice_.get("cards", []) if isinstance(card, dict)}
    bad: list[list[int]] = []
    for group in _BRACKETS.finditer(section):
        inner = group.group(1)
        if " " in inner.strip() and "," not in inner and ";" not in inner:
            continue  # several words without separators are prose in brackets, not a citation
        for token in _ID.finditer(inner):
            if token.group() not in known:
                start = group.start(1) + token.start()
                bad.append([start, start + len(token.group())])
    return not bad, bad


def main() -> int:
    request = json.load(sys.stdin)
    passed, spans = decide(request["section"], request["slice"])
    json.dump({"verdict": "pass" if passed else "fail", "spans": spans}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
