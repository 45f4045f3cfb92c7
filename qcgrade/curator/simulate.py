"""A tiny Monte-Carlo of the paper's curator loop (sections 3 and 6, appendix C).

Why it exists: the paper's central claim is mechanical -- symmetric judge noise
only compresses the retirement statistic, while false-pass bias displaces it
past a cliff ``rho_fp = (1 - tau)/2`` after which no skill is retired at any
sample size. This module lets anyone check that claim (and size tau, N_min and
the cap for their own judge) without an LLM in the loop.

The model, one round at a time:

* Skill bank. Starts empty. Each synthesized skill draws a true pass rate from
  a seeded mixture: with probability ``harmful_fraction`` a *harmful* skill
  (uniform on ``harmful_range``, well below pi_tau) else a *good* one
  (uniform on ``good_range``). While the bank is empty, tasks take the NONE
  route at ``base_pass_rate``.
* Router. Round-robin over ACTIVE skills (in id order, cursor carried across
  rounds). Round-robin rather than uniform-random so that every active skill
  gets an equal share of trials (Prop. 1's router condition) and routing adds
  no variance: the only randomness is the outcome, the channel and synthesis.
* Judge. Each true outcome ~ Bernoulli(p_skill) passes through a
  :class:`~qcgrade.channel.Channel`; the curator and synthesizer see only the
  observed label.
* Curator, at the end of each round (Ratchet's curation step, not per trial,
  so the retirement test is not re-run thousands of times):
  1. genuine retirement of every active skill with ``n >= n_min`` and
     ``2*p_hat - 1 <= -tau``;
  2. synthesis: the round's observed-failure *fraction* times ``synth_rate``
     is added to a credit, and ``floor(credit)`` new skills are created
     (remainder carried). Synthesis is fed only by observed failures, so
     false passes starve it -- the paper's second effect;
  3. cap: while more than ``cap`` skills are active, evict the one with the
     lowest observed contribution (ties: oldest), never one created this
     round if any older one exists. Evictions are counted separately from
     genuine retirements because only the latter reflects the curator's
     judgment (paper, sections 6 and 8).

Default ``tasks_per_round`` is large (1200, i.e. >= 100 trials per skill per
round at the cap) on purpose: the cliff is an asymptotic statement ("no amount
of data"). At the first look (n >= 100) a harmful skill seen through
``rho_fp = 0.6`` (observed rate >= 0.64) dips to pi_tau = 0.45 with binomial
probability < 1e-4; at n = 24 it would be ~2% per look, and the finite-sample
tail would blur the cliff into a slope.

Determinism: separate ``random.Random`` streams (seeded from strings, which
Python hashes with SHA-512, independent of PYTHONHASHSEED) for skills,
outcomes and the channel; the k-th synthesized skill therefore has the same
true pass rate under every channel for a given seed. No global RNG, no clock.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from qcgrade.curator.channel import Channel
from qcgrade.curator.stats import mean
from qcgrade.curator.theory import cliff, true_pass_threshold

# Float slack so an exact tie "contribution == -tau" (the paper's "falls to
# -tau") is not lost to round-off in (2k - n)/n or in the synthesis credit.
_EPS = 1e-9


def _sorted_fields(obj: Any) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in sorted(fields(obj), key=lambda f: f.name)}


@dataclass(slots=True)
class _Skill:
    id: int
    p: float
    harmful: bool
    born: int
    trials: int = 0
    passes: int = 0
    status: str = "active"
    ended: int | None = None

    def contribution(self) -> float:
        # Untried skills are neutral: no evidence either way.
        return (2 * self.passes - self.trials) / self.trials if self.trials else 0.0


@dataclass(frozen=True, slots=True)
class SkillRecord:
    """Final state of one skill. ``status`` is "active", "retired" or "evicted"."""

    id: int
    true_pass_rate: float
    harmful: bool
    born_round: int
    trials: int
    observed_passes: int
    status: str
    ended_round: int | None

    def to_dict(self) -> dict[str, Any]:
        return _sorted_fields(self)


@dataclass(frozen=True, slots=True)
class RoundStats:
    """What happened in one round; ``active``/``harmful_active`` are after curation."""

    round: int
    tasks: int
    true_failures: int
    observed_failures: int
    flipped: int
    synthesized: int
    genuine_retirements: int
    harmful_retired: int
    evictions: int
    active: int
    harmful_active: int

    def to_dict(self) -> dict[str, Any]:
        return _sorted_fields(self)


_TOTALS = ("evictions", "flipped", "genuine_retirements", "harmful_retired", "observed_failures", "synthesized", "true_failures")


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """Parameters, per-round counts and final skill states of one run."""

    params: tuple[tuple[str, Any], ...]
    per_round: tuple[RoundStats, ...]
    skills: tuple[SkillRecord, ...] = field(repr=False)

    def total(self, name: str) -> int:
        if name not in _TOTALS:
            raise KeyError(name)
        return sum(getattr(r, name) for r in self.per_round)

    @property
    def genuine_retirements(self) -> int:
        return self.total("genuine_retirements")

    @property
    def evictions(self) -> int:
        return self.total("evictions")

    @property
    def synthesized(self) -> int:
        return self.total("synthesized")

    @property
    def observed_failures(self) -> int:
        return self.total("observed_failures")

    @property
    def true_failures(self) -> int:
        return self.total("true_failures")

    @property
    def harmful_retired(self) -> int:
        return self.total("harmful_retired")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with sorted keys at every level (stable output)."""
        p = dict(self.params)
        tau, rho_fp, rho_pf = p["tau"], p["rho_fp"], p["rho_pf"]
        return {
            "params": {k: list(v) if isinstance(v, tuple) else v for k, v in sorted(p.items())},
            "per_round": [r.to_dict() for r in self.per_round],
            "skills": [s.to_dict() for s in self.skills],
            "theory": {
                "cliff": cliff(tau),
                "true_pass_threshold": true_pass_threshold(tau, rho_fp, rho_pf),
            },
            "totals": {name: self.total(name) for name in _TOTALS},
        }


def _check_range(name: str, lo_hi: tuple[float, float]) -> None:
    lo, hi = lo_hi
    if not 0.0 <= lo <= hi <= 1.0:
        raise ValueError(f"{name} must satisfy 0 <= lo <= hi <= 1, got {lo_hi!r}")


@dataclass(frozen=True, slots=True)
class SimulationParams:
    """Everything one run depends on, validated when built (a ``ValueError`` names the field).

    ``synth_rate`` is the number of skills synthesized in a round where every
    task is observed to fail (so ~2 per round at a ~35% observed failure
    rate, ~20-25 over 12 rounds, like the paper's clean runs of ~22).
    Defaults besides the paper's (tau 0.10, N_min 24, cap 12, 12 rounds) are
    this toy's own choices; see the module docstring for why. The ranges are
    kept as tuples whatever sequence they were given as.
    """

    rho_fp: float = 0.0
    rho_pf: float = 0.0
    tau: float = 0.10
    n_min: int = 24
    cap: int = 12
    rounds: int = 12
    seed: int = 42
    tasks_per_round: int = 1200
    synth_rate: float = 6.0
    harmful_fraction: float = 0.4
    harmful_range: tuple[float, float] = (0.1, 0.3)
    good_range: tuple[float, float] = (0.6, 0.9)
    base_pass_rate: float = 0.5

    def __post_init__(self) -> None:
        Channel(self.rho_fp, self.rho_pf)  # validates both rates
        cliff(self.tau)  # validates tau in [0, 1]
        for name, least in (("n_min", 0), ("cap", 1), ("rounds", 1), ("tasks_per_round", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be an integer >= {least}, got {value!r}")
        # The seed is formatted into the stream seeds, so 42.0 would silently differ from 42.
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ValueError(f"seed must be an integer, got {self.seed!r}")
        if not (math.isfinite(self.synth_rate) and self.synth_rate >= 0.0):
            raise ValueError(f"synth_rate must be finite and >= 0, got {self.synth_rate!r}")
        if not 0.0 <= self.harmful_fraction <= 1.0 or not 0.0 <= self.base_pass_rate <= 1.0:
            raise ValueError("harmful_fraction and base_pass_rate must be in [0, 1]")
        _check_range("harmful_range", self.harmful_range)
        _check_range("good_range", self.good_range)
        object.__setattr__(self, "harmful_range", tuple(self.harmful_range))
        object.__setattr__(self, "good_range", tuple(self.good_range))

    @property
    def channel(self) -> Channel:
        return Channel(self.rho_fp, self.rho_pf)

    def items(self) -> tuple[tuple[str, Any], ...]:
        """``(name, value)`` pairs sorted by name, as :attr:`SimulationResult.params` holds them."""
        return tuple(sorted(_sorted_fields(self).items()))


@dataclass(slots=True)
class _Run:
    """The state one run carries from round to round: the skill bank, the router and the streams."""

    params: SimulationParams
    channel: Channel
    skills_rng: random.Random
    outcome_rng: random.Random
    channel_rng: random.Random
    bank: list[_Skill] = field(default_factory=list)
    cursor: int = 0  # the round-robin router's position, carried across rounds
    credit: float = 0.0  # synthesis credit carried across rounds

    @classmethod
    def start(cls, params: SimulationParams) -> _Run:
        # Streams seeded from strings (hashed with SHA-512, independent of
        # PYTHONHASHSEED); their names are part of the output's identity.
        seed = params.seed
        return cls(
            params,
            params.channel,
            random.Random(f"qcgrade.simulate:{seed}:skills"),
            random.Random(f"qcgrade.simulate:{seed}:outcome"),
            random.Random(f"qcgrade.simulate:{seed}:channel"),
        )

    def active(self) -> list[_Skill]:
        return [s for s in self.bank if s.status == "active"]


def simulate(params: SimulationParams | None = None, /, **fields: Any) -> SimulationResult:
    """Run the curator loop once; same parameters give an identical result.

    Takes the fields of :class:`SimulationParams` as keywords
    (``simulate(rho_fp=0.3, seed=7)``), or a :class:`SimulationParams`,
    optionally with keywords that replace some of its fields.
    """
    chosen = SimulationParams(**fields) if params is None else replace(params, **fields)
    run = _Run.start(chosen)
    per_round = tuple(_round(run, rnd) for rnd in range(1, chosen.rounds + 1))
    skills = tuple(_record(s) for s in run.bank)
    return SimulationResult(params=chosen.items(), per_round=per_round, skills=skills)


def _round(run: _Run, rnd: int) -> RoundStats:
    """One round: route and judge every task, then retire, synthesize and evict, in that order."""
    active = run.active()
    true_fail, obs_fail, flipped = _route_tasks(run, active)
    retired, harmful_retired = _retire(active, run.params, rnd)
    synthesized = _synthesize(run, obs_fail, rnd)
    evicted = _evict(run, rnd)
    live = run.active()
    return RoundStats(
        round=rnd,
        tasks=run.params.tasks_per_round,
        true_failures=true_fail,
        observed_failures=obs_fail,
        flipped=flipped,
        synthesized=synthesized,
        genuine_retirements=retired,
        harmful_retired=harmful_retired,
        evictions=evicted,
        active=len(live),
        harmful_active=sum(s.harmful for s in live),
    )


def _route_tasks(run: _Run, active: list[_Skill]) -> tuple[int, int, int]:
    """Round-robin the round's tasks over the active skills; ``(true fails, observed fails, flips)``."""
    params, channel = run.params, run.channel
    true_fail = obs_fail = flipped = 0
    for _ in range(params.tasks_per_round):
        skill = active[run.cursor % len(active)] if active else None
        run.cursor += 1
        p = skill.p if skill is not None else params.base_pass_rate
        true_pass = run.outcome_rng.random() < p
        seen_pass = channel.observe(true_pass, run.channel_rng)
        true_fail += not true_pass
        obs_fail += not seen_pass
        flipped += true_pass != seen_pass
        if skill is not None:
            skill.trials += 1
            skill.passes += seen_pass
    return true_fail, obs_fail, flipped


def _retire(active: list[_Skill], params: SimulationParams, rnd: int) -> tuple[int, int]:
    """Genuine retirement: ``n >= n_min`` and ``2*p_hat - 1 <= -tau``; ``(retired, harmful among them)``."""
    retired = harmful_retired = 0
    for s in active:
        if s.trials >= params.n_min and s.contribution() <= -params.tau + _EPS:
            s.status, s.ended = "retired", rnd
            retired += 1
            harmful_retired += s.harmful
    return retired, harmful_retired


def _synthesize(run: _Run, obs_fail: int, rnd: int) -> int:
    """New skills from the round's observed-failure fraction (remainder of the credit carried)."""
    params = run.params
    run.credit += params.synth_rate * obs_fail / params.tasks_per_round
    n_new = math.floor(run.credit + _EPS)
    run.credit -= n_new
    for _ in range(n_new):
        # Always two draws per skill so the k-th skill is the same in every condition.
        harmful = run.skills_rng.random() < params.harmful_fraction
        lo, hi = params.harmful_range if harmful else params.good_range
        run.bank.append(_Skill(id=len(run.bank), p=lo + run.skills_rng.random() * (hi - lo), harmful=harmful, born=rnd))
    return n_new


def _evict(run: _Run, rnd: int) -> int:
    """The cap: evict the lowest contribution (ties: oldest), sparing this round's skills if possible."""
    evicted = 0
    while (live := run.active()) and len(live) > run.params.cap:
        old = [s for s in live if s.born < rnd] or live
        victim = min(old, key=lambda s: (s.contribution(), s.id))
        victim.status, victim.ended = "evicted", rnd
        evicted += 1
    return evicted


def _record(s: _Skill) -> SkillRecord:
    return SkillRecord(
        id=s.id,
        true_pass_rate=s.p,
        harmful=s.harmful,
        born_round=s.born,
        trials=s.trials,
        observed_passes=s.passes,
        status=s.status,
        ended_round=s.ended,
    )


def sweep(
    values: Iterable[float],
    kind: Literal["bias", "noise"] = "bias",
    seeds: Iterable[int] = (42, 43, 44),
    **params: Any,
) -> dict[float, float]:
    """Mean genuine retirements over ``seeds`` for each corruption level.

    ``kind="bias"`` sets ``rho_fp = v`` (``rho_pf`` from ``params``, default 0:
    the paper's pure false-pass channel); ``kind="noise"`` sets
    ``rho_fp = rho_pf = v``. Other keyword arguments go to :func:`simulate`.
    """
    if kind not in ("bias", "noise"):
        raise ValueError(f"kind must be 'bias' or 'noise', got {kind!r}")
    clash = {"rho_fp", "seed"} | ({"rho_pf"} if kind == "noise" else set())
    if clash & params.keys():
        raise ValueError(f"{sorted(clash & params.keys())} are set by sweep(kind={kind!r})")
    fixed_pf = params.pop("rho_pf", 0.0)
    seed_list = tuple(seeds)
    out: dict[float, float] = {}
    for v in values:
        pf = v if kind == "noise" else fixed_pf
        runs = [simulate(rho_fp=v, rho_pf=pf, seed=s, **params).genuine_retirements for s in seed_list]
        out[v] = mean([float(r) for r in runs])
    return out
