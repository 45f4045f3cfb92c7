"""Paired comparison of two audits on the items they share (``qcgrade audit compare``).

Two judges measured on different items differ by the items as much as by
the judges; the paper's own lesson (appendix G) is that unpaired means hide
real differences and that pairing cancels per-item difficulty. So the
comparison takes only the items both audits scored -- same id, same class,
same judged text (by its SHA-256) -- and asks, item by item, where they
disagree:

* false passes, on the injected items: McNemar's exact test on the
  discordant pairs (A passes and B fails, against A fails and B passes), and
  the paired difference ``rho_fp(A) - rho_fp(B)`` with Newcombe's interval
  for paired proportions (his method 10: Wilson intervals of both rates and
  the phi correlation of the pairs);
* false fails, on the clean items: the same for ``rho_pf``.

Freeze the items first (``qcgrade items``, then ``audit --items``) and the
two audits share every item.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from ..curator.stats import wilson_interval
from ..errors import InputError
from .items import CLEAN
from .measure import rate
from .report import Rate

SIGNALS = ("judge", "qcgrade", "composite")


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value for ``b`` and ``c`` discordant pairs (1.0 when there are none).

    Under the null each discordant pair falls either way with probability
    1/2, so ``min(b, c)`` is Binomial(b + c, 1/2); the p-value doubles its
    lower tail, capped at 1. Computed in exact integers.
    """
    if b < 0 or c < 0:
        raise ValueError(f"counts must be >= 0, got {b}, {c}")
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(b, c) + 1))
    return min(1.0, 2 * tail / 2**n)


def paired_difference(both: int, a_only: int, b_only: int, neither: int) -> tuple[float, float, float]:
    """``p_a - p_b`` for paired binary outcomes and its 95% interval (Newcombe 1998, paired method 10).

    ``both``: pairs where A and B have the outcome; ``a_only``/``b_only``: only
    one of them; ``neither``. With no pairs the difference is 0 in [-1, 1].
    """
    n = both + a_only + b_only + neither
    if n == 0:
        return 0.0, -1.0, 1.0
    p_a, p_b = (both + a_only) / n, (both + b_only) / n
    lo_a, hi_a = wilson_interval(both + a_only, n)
    lo_b, hi_b = wilson_interval(both + b_only, n)
    margins = (both + a_only) * (b_only + neither) * (both + b_only) * (a_only + neither)
    # Newcombe's phi estimate of the correlation between the two rates, with his continuity
    # correction: a positive cross-product counts only beyond n/2, a small one as none.
    cross = both * neither - a_only * b_only
    if margins == 0 or 0 <= cross <= n / 2:
        phi = 0.0
    else:
        phi = (cross - n / 2 if cross > 0 else cross) / math.sqrt(margins)
    d = p_a - p_b
    low = d - math.sqrt(max(0.0, (p_a - lo_a) ** 2 - 2 * phi * (p_a - lo_a) * (hi_b - p_b) + (hi_b - p_b) ** 2))
    high = d + math.sqrt(max(0.0, (hi_a - p_a) ** 2 - 2 * phi * (hi_a - p_a) * (p_b - lo_b) + (p_b - lo_b) ** 2))
    return d, max(-1.0, low), min(1.0, high)


@dataclass(frozen=True, slots=True)
class Side:
    """One audit as the comparison reads it."""

    name: str
    judge: str
    verdicts: dict[str, tuple[str, str | None, bool]]  # id -> (class, text sha256, passed)


@dataclass(frozen=True, slots=True)
class PairedRate:
    """One error rate of both audits on the same items, and how they differ."""

    name: str
    a: Rate
    b: Rate
    both: int
    a_only: int
    b_only: int
    neither: int
    p_value: float
    difference: tuple[float, float, float]

    def to_dict(self) -> dict[str, Any]:
        d, low, high = self.difference
        return {
            "a": self.a.to_dict(),
            "a_only": self.a_only,
            "b": self.b.to_dict(),
            "b_only": self.b_only,
            "both": self.both,
            "difference": {"ci_high": high, "ci_low": low, "value": d},
            "mcnemar_p": self.p_value,
            "n": self.a.n,
            "neither": self.neither,
        }


@dataclass(frozen=True, slots=True)
class Comparison:
    """``a`` against ``b`` on their shared items; JSON keys are stable (see :meth:`to_dict`)."""

    a: Side
    b: Side
    signal: str
    shared: int
    only_a: int
    only_b: int
    false_pass: PairedRate
    false_fail: PairedRate

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": {"file": self.a.name, "judge": self.a.judge},
            "b": {"file": self.b.name, "judge": self.b.judge},
            "false_fail": self.false_fail.to_dict(),
            "false_pass": self.false_pass.to_dict(),
            "only_a": self.only_a,
            "only_b": self.only_b,
            "shared": self.shared,
            "signal": self.signal,
        }


def _verdicts(data: Any, name: str, signal: str) -> Side:
    """Item verdicts of one audit JSON; a file that is no audit report is one line."""
    if not isinstance(data, dict) or not isinstance(data.get("items"), list) or not isinstance(data.get("judge"), str):
        raise InputError(f"{name}: not an audit report (qcgrade audit --format json): no judge and items")
    items = data["items"]
    judge = data["judge"]
    if signal != "judge":
        block = data.get("composite")
        if not isinstance(block, dict) or not isinstance(block.get("items"), list):
            raise InputError(f"{name}: --signal {signal}: the audit was run without --composite")
        by_id = {e.get("id"): e for e in block["items"] if isinstance(e, dict)}
        signals = block.get("signals")
        if isinstance(signals, dict) and isinstance(signals.get(signal), dict):
            judge = str(signals[signal].get("identity", judge))
    out: dict[str, tuple[str, str | None, bool]] = {}
    for index, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) or not isinstance(item.get("class"), str):
            raise InputError(f"{name}: items[{index}]: expected an object with id and class")
        word = item.get("verdict") if signal == "judge" else by_id.get(item["id"], {}).get(signal)
        if word is None:
            continue  # a judge error: not scored, not compared
        if word not in ("pass", "fail"):
            raise InputError(f"{name}: items[{index}]: verdict must be pass, fail or null, got {word!r}")
        digest = item.get("text_sha256")
        out[item["id"]] = (item["class"], digest if isinstance(digest, str) else None, word == "pass")
    return Side(name, judge, out)


def load_side(raw: bytes, name: str, signal: str = "judge") -> Side:
    if signal not in SIGNALS:
        raise InputError(f"--signal: expected one of {', '.join(SIGNALS)}, got {signal!r}")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 (byte {exc.start})") from None
    except ValueError as exc:
        raise InputError(f"{name}: not JSON: {str(exc).splitlines()[0]}") from None
    return _verdicts(data, name, signal)


def _paired(name: str, pairs: list[tuple[bool, bool]]) -> PairedRate:
    """``pairs`` of (A has the error, B has the error)."""
    both = sum(1 for a, b in pairs if a and b)
    a_only = sum(1 for a, b in pairs if a and not b)
    b_only = sum(1 for a, b in pairs if b and not a)
    neither = len(pairs) - both - a_only - b_only
    return PairedRate(
        name,
        rate(both + a_only, len(pairs)),
        rate(both + b_only, len(pairs)),
        both,
        a_only,
        b_only,
        neither,
        mcnemar_exact(a_only, b_only),
        paired_difference(both, a_only, b_only, neither),
    )


def compare(a: Side, b: Side, signal: str = "judge") -> Comparison:
    """Pair ``a`` and ``b`` on the items both scored; items that differ in class or text are an error."""
    shared = [ident for ident in a.verdicts if ident in b.verdicts]
    for ident in shared:
        (kind_a, text_a, _), (kind_b, text_b, _) = a.verdicts[ident], b.verdicts[ident]
        if kind_a != kind_b or (text_a is not None and text_b is not None and text_a != text_b):
            raise InputError(
                f"{a.name} and {b.name} judged different items under the id {ident}: "
                "freeze one item set (qcgrade items) and replay it (audit --items)"
            )
    if not shared:
        raise InputError(f"{a.name} and {b.name} share no scored items: nothing to compare")
    # A false pass is a pass on an injected item; a false fail a fail on a clean one.
    injected = [(a.verdicts[i][2], b.verdicts[i][2]) for i in shared if a.verdicts[i][0] != CLEAN]
    false_pass = _paired("false_pass", injected)
    clean = [(not a.verdicts[i][2], not b.verdicts[i][2]) for i in shared if a.verdicts[i][0] == CLEAN]
    false_fail = _paired("false_fail", clean)
    return Comparison(
        a=a,
        b=b,
        signal=signal,
        shared=len(shared),
        only_a=sum(1 for i in a.verdicts if i not in b.verdicts),
        only_b=sum(1 for i in b.verdicts if i not in a.verdicts),
        false_pass=false_pass,
        false_fail=false_fail,
    )
