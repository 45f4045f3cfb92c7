"""What the RL adapters add on top of ``grade()``: their unpacking, and nothing more.

Two measurements per adapter, each adapter called exactly as its trainer calls
it, on every fixture section with a GRPO-sized group of completions:

1. paired: a bare ``grade()`` on the same text and the same slice form (JSON
   text, as a dataset column or label holds it) against the adapter call,
   alternating section by section so load on the machine hits both alike; the
   overhead is the median over rounds of ``adapter time / grade time - 1``;
2. isolated: the adapter with grading replaced by a precomputed result, which
   leaves exactly its unpacking and packing; reported per call and as a share
   of the grading time. This one stays stable on a busy machine.

The target is an overhead under 5%.

    python benchmarks/bench_reward.py [--rounds 15] [--check]

``--check`` exits 1 when an adapter's isolated unpacking share is over the
target (the paired figure is printed too, but shared machines make it noisy).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import qcgrade
from qcgrade.rewards import openrlhf, trl, verl
from qcgrade.rewards.base import Score, score

TARGET = 0.05
GENERATIONS = 8  # completions per prompt in a GRPO group
PROMPT = "<|im_start|>user\nWrite the section from its evidence slice.<|im_end|>\n<|im_start|>assistant\n"
Case = tuple[str, str]


def load_cases() -> list[Case]:
    """(section text, slice JSON text) for every fixture section, or the bundled demo."""
    root = Path(__file__).resolve().parent.parent / "fixtures"
    cases = []
    for md in sorted(root.glob("*/*.md")):
        beside = md.with_suffix(".json")
        if beside.is_file():
            cases.append((md.read_text(encoding="utf-8"), beside.read_text(encoding="utf-8")))
    if cases:
        return cases
    demo = resources.files("qcgrade") / "demo"
    return [((demo / "clean.md").read_text(encoding="utf-8"), (demo / "slice.json").read_text(encoding="utf-8"))]


def bare(case: Case) -> None:
    text, slice_json = case
    for _ in range(GENERATIONS):
        qcgrade.grade(text, slice_json)


TRL_STANDARD = trl.make_reward_func()
TRL_CHAT = trl.make_reward_func()


def trl_standard(case: Case) -> None:
    text, slice_json = case
    TRL_STANDARD(
        prompts=[PROMPT] * GENERATIONS,
        completions=[text] * GENERATIONS,
        completion_ids=[[0]] * GENERATIONS,
        slice=[slice_json] * GENERATIONS,
        trainer_state=None,
    )


def trl_conversational(case: Case) -> None:
    text, slice_json = case
    TRL_CHAT(
        prompts=[[{"role": "user", "content": "write"}]] * GENERATIONS,
        completions=[[{"role": "assistant", "content": text}]] * GENERATIONS,
        completion_ids=[[0]] * GENERATIONS,
        slice=[slice_json] * GENERATIONS,
        trainer_state=None,
    )


def verl_float(case: Case) -> None:
    text, slice_json = case
    for _ in range(GENERATIONS):
        verl.compute_score(data_source="qcgrade", solution_str=text, ground_truth=slice_json, extra_info={"index": 0})


def verl_dict(case: Case) -> None:
    text, slice_json = case
    for _ in range(GENERATIONS):
        verl.compute_score(
            data_source="qcgrade", solution_str=text, ground_truth=slice_json, extra_info={"index": 0}, return_dict=True
        )


def openrlhf_func(case: Case) -> None:
    text, slice_json = case
    query = PROMPT + text
    for _ in range(GENERATIONS):
        openrlhf.reward_func([query], [PROMPT], [slice_json])


ADAPTERS: dict[str, Callable[[Case], None]] = {
    "trl (standard)": trl_standard,
    "trl (conversational)": trl_conversational,
    "verl compute_score": verl_float,
    "verl return_dict": verl_dict,
    "openrlhf reward_func": openrlhf_func,
}


def timed(run: Callable[[Case], None], case: Case) -> int:
    start = time.perf_counter_ns()
    run(case)
    return time.perf_counter_ns() - start


def paired(run: Callable[[Case], None], cases: list[Case], rounds: int) -> tuple[float, float, float]:
    """(median overhead ratio, median bare seconds, median adapter seconds) per round."""
    for case in cases:  # warm both paths: slice cache, imports
        run(case)
        bare(case)
    ratios, bare_times, adapter_times = [], [], []
    for index in range(rounds):
        gc.collect()
        bare_ns = adapter_ns = 0
        for position, case in enumerate(cases):
            # Alternate which goes first so neither always runs on a warmer cache.
            if (index + position) % 2 == 0:
                bare_ns += timed(bare, case)
                adapter_ns += timed(run, case)
            else:
                adapter_ns += timed(run, case)
                bare_ns += timed(bare, case)
        ratios.append(adapter_ns / bare_ns - 1.0)
        bare_times.append(bare_ns / 1e9)
        adapter_times.append(adapter_ns / 1e9)
    return statistics.median(ratios), statistics.median(bare_times), statistics.median(adapter_times)


@contextmanager
def grading_stubbed(cases: list[Case]) -> Iterator[None]:
    """Each adapter's ``score`` answers from a table computed beforehand: only unpacking remains."""
    table = {text: score(text, slice_json) for text, slice_json in cases}

    def precomputed(section: str, slice: Any, *, tier2: bool = False) -> Score:
        return table[section]

    namespaces = [vars(module) for module in (trl, verl, openrlhf)]
    saved = [namespace["score"] for namespace in namespaces]
    for namespace in namespaces:
        namespace["score"] = precomputed
    try:
        yield
    finally:
        for namespace, original in zip(namespaces, saved, strict=True):
            namespace["score"] = original


def isolated(run: Callable[[Case], None], cases: list[Case], rounds: int) -> float:
    """Median seconds per round of the adapter alone."""
    with grading_stubbed(cases):
        for case in cases:
            run(case)
        times = []
        for _ in range(rounds):
            gc.collect()
            times.append(sum(timed(run, case) for case in cases) / 1e9)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--check", action="store_true", help="exit 1 when an adapter is over the target")
    args = parser.parse_args(argv)
    cases = load_cases()
    calls = len(cases) * GENERATIONS
    tensors = "lists (torch not importable)" if openrlhf._tensor_factory() is list else "torch tensors"
    print(f"{len(cases)} sections x {GENERATIONS} completions = {calls} graded per round, {args.rounds} rounds")
    print(f"openrlhf returns {tensors}")
    header = ("adapter", "grade us", "adapter us", "paired overhead", "unpacking us", "unpacking/grade")
    print(f"{header[0]:<21} {header[1]:>9} {header[2]:>10} {header[3]:>16} {header[4]:>12} {header[5]:>16}")
    over = []
    for name, run in ADAPTERS.items():
        ratio, bare_s, adapter_s = paired(run, cases, args.rounds)
        alone_s = isolated(run, cases, args.rounds)
        share = alone_s / bare_s
        print(
            f"{name:<21} {bare_s / calls * 1e6:>9.1f} {adapter_s / calls * 1e6:>10.1f} {ratio * 100:>15.2f}%"
            f" {alone_s / calls * 1e6:>12.2f} {share * 100:>15.2f}%"
        )
        if share > TARGET:
            over.append(name)
    print("(us = microseconds per graded completion; paired = median over rounds of adapter/grade - 1)")
    verdict = "every adapter's unpacking is under" if not over else "over: " + ", ".join(over) + "; above"
    print(f"target: overhead < {TARGET:.0%} of grading ({verdict} the target)")
    return 1 if args.check and over else 0


if __name__ == "__main__":
    sys.exit(main())
