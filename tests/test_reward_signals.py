"""What the trainer sees besides the reward: per-check metrics and the warnings about rows that could not be graded.

The hosts' own code is exercised in the opt-in host tests (test_trl_real.py,
test_verl_real.py, test_openrlhf_real.py); here each adapter is called the
way its host calls it.
"""

from __future__ import annotations

import asyncio
import re
import warnings
from collections.abc import Callable
from typing import Any

import pytest

import helpers
import qcgrade.rewards.openrlhf as openrlhf_module
import qcgrade.rewards.verl as verl_module
from qcgrade.checks import TIER1
from qcgrade.rewards.adapters import check_names
from qcgrade.rewards.bad_rows import FIRST, BadRows
from qcgrade.rewards.trl import make_reward_func

SECTION = helpers.FIXTURES / "cloudmeadow-saas" / "s3.md"
CLEAN = SECTION.read_text(encoding="utf-8")
SLICE_JSON = SECTION.with_suffix(".json").read_text(encoding="utf-8")
ONE_BARE_ONE_ORPHAN = CLEAN + "\n\nRevenue grew 7% last year [EV-999].\n"
TWO_BARE = CLEAN + "\n\nRevenue grew 7% and margins 3% last year.\n"


@pytest.fixture(autouse=True)
def fresh_bad_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verl_module, "BAD_ROWS", BadRows())
    monkeypatch.setattr(openrlhf_module, "BAD_ROWS", BadRows())


class State:
    """TRL's TrainerState as a reward function sees it: the steps already taken."""

    def __init__(self, global_step: int) -> None:
        self.global_step = global_step


class Metrics:
    """Stands in for TRL's ``log_metric``: records every (name, value)."""

    def __init__(self) -> None:
        self.logged: list[tuple[str, float]] = []

    def __call__(self, name: str, value: float) -> None:
        self.logged.append((name, value))

    def as_dict(self) -> dict[str, float]:
        out = dict(self.logged)
        assert len(out) == len(self.logged), "a metric was logged twice in one call"
        return out


def trl_call(func: Any, completions: list[Any], log_metric: Callable[..., None] | None, step: int = 0, **columns: Any) -> Any:
    n = len(completions)
    extras: dict[str, Any] = {"trainer_state": State(step), "log_extra": lambda column, values: None}
    if log_metric is not None:
        extras["log_metric"] = log_metric
    prompts = [f"Write section s3 (row {i})." for i in range(n)]
    return func(prompts=prompts, completions=completions, completion_ids=[[1]] * n, **extras, **columns)


def caught_messages(run: Callable[[], Any]) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run()
    return result, [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]


# --- TRL: per-check metrics through log_metric ------------------------------------


def test_trl_logs_each_checks_violations_per_completion_the_pass_rate_and_the_ungraded() -> None:
    metrics = Metrics()
    completions = [CLEAN, ONE_BARE_ONE_ORPHAN, TWO_BARE, CLEAN]
    slices = [SLICE_JSON, SLICE_JSON, SLICE_JSON, "{not json"]
    rewards, _ = caught_messages(lambda: trl_call(make_reward_func(), completions, metrics, slice=slices))
    assert rewards == [1.0, 0.0, 0.0, None]
    logged = metrics.as_dict()
    assert set(logged) == {f"qcgrade/{name}" for name in TIER1} | {"qcgrade/pass", "qcgrade/ungraded"}
    # Three completions graded: 0 + 1 + 2 bare numbers, 0 + 1 + 0 orphan citations, one pass.
    assert logged["qcgrade/bare_number"] == pytest.approx(1.0)
    assert logged["qcgrade/orphan_citation"] == pytest.approx(1 / 3)
    assert logged["qcgrade/broken_xref"] == 0.0
    assert logged["qcgrade/pass"] == pytest.approx(1 / 3)
    assert logged["qcgrade/ungraded"] == 1.0


def test_trl_metric_names_follow_the_reward_functions_name() -> None:
    metrics = Metrics()
    func = make_reward_func(tier2=True, shaped=True)
    trl_call(func, [CLEAN], metrics, slice=[SLICE_JSON])
    names = set(metrics.as_dict())
    assert names == {f"qcgrade_tier2_shaped/{name}" for name in check_names(True)} | {
        "qcgrade_tier2_shaped/pass",
        "qcgrade_tier2_shaped/ungraded",
    }
    assert "qcgrade_tier2_shaped/missing_stance" in names


def test_trl_a_call_with_nothing_graded_logs_only_the_ungraded_count() -> None:
    metrics = Metrics()
    caught_messages(lambda: trl_call(make_reward_func(), [CLEAN, CLEAN], metrics, evidence=[SLICE_JSON] * 2))
    assert metrics.as_dict() == {"qcgrade/ungraded": 2.0}  # no rate over nothing (TRL would average a NaN in)


def test_trl_without_log_metric_says_so_once_and_keeps_rewarding() -> None:
    func = make_reward_func()
    rewards, first = caught_messages(lambda: trl_call(func, [CLEAN, TWO_BARE], None, slice=[SLICE_JSON] * 2))
    assert rewards == [1.0, 0.0]
    assert len(first) == 1 and "passes no log_metric" in first[0] and "TRL before 1.0" in first[0]
    rewards, again = caught_messages(lambda: trl_call(func, [CLEAN], None, slice=[SLICE_JSON]))
    assert rewards == [1.0] and again == []


# --- bad rows: named by where they are, then counted -----------------------------


def test_trl_names_bad_rows_by_dataset_index_then_counts_them_per_step() -> None:
    func = make_reward_func()
    bad = ["{not json", None, "[]", None, "{"]
    slices = [SLICE_JSON, *bad]
    _, messages = caught_messages(
        lambda: trl_call(func, [CLEAN] * 6, Metrics(), step=6, slice=slices, index=[100, 101, 102, 103, 104, 105])
    )
    assert [m.split(":")[1].strip() for m in messages[:FIRST]] == ["dataset row 101", "dataset row 102", "dataset row 103"]
    assert messages[FIRST:] == [
        "qcgrade reward: training step 7: 2 more rows could not be graded (no slice: 1, unusable slice: 1)"
    ]
    # The next step: only its count, no row named again.
    _, messages = caught_messages(lambda: trl_call(func, [CLEAN, CLEAN], Metrics(), step=7, slice=[None, "{"], index=[7, 8]))
    assert messages == ["qcgrade reward: training step 8: 2 more rows could not be graded (no slice: 1, unusable slice: 1)"]
    # A step without bad rows says nothing.
    _, messages = caught_messages(lambda: trl_call(func, [CLEAN], Metrics(), step=8, slice=[SLICE_JSON], index=[9]))
    assert messages == []


def test_trl_without_an_index_column_names_the_step_batch_row_and_prompt() -> None:
    _, messages = caught_messages(
        lambda: trl_call(make_reward_func(), [CLEAN, CLEAN], Metrics(), step=2, slice=[SLICE_JSON, None])
    )
    assert messages == [
        "qcgrade reward: batch row 1 at training step 3 (prompt 'Write section s3 (row 1).'): no slice in column 'slice'"
    ]


def test_verl_names_bad_rows_by_extra_info_index_then_counts_at_powers_of_two() -> None:
    def call(i: int) -> Any:
        return verl_module.compute_score("qcgrade", CLEAN, "{", {"index": i}, return_dict=True)

    results, messages = caught_messages(lambda: [call(i) for i in range(FIRST + 16)])
    assert all(r["score"] == 0.0 and r["qcgrade_slice_error"] == 1 for r in results)
    assert [m.split(":")[1].strip() for m in messages[:FIRST]] == [f"dataset row {i}" for i in range(FIRST)]
    counts = [
        re.match(r"qcgrade reward: (\d+) more rows could not be graded so far \(unusable slice: \1\)", m)
        for m in messages[FIRST:]
    ]
    assert all(counts), messages[FIRST:]
    assert [int(m.group(1)) for m in counts if m] == [4, 8, 16]


def test_verl_batch_rows_are_named_by_index_and_place_in_the_batch() -> None:
    _, messages = caught_messages(
        lambda: verl_module.compute_score_batch(
            data_sources=["q"] * 2,
            solution_strs=[CLEAN, CLEAN],
            ground_truths=[SLICE_JSON, None],
            extra_infos=[{"index": 5}, {"index": 6}],
        )
    )
    assert messages == [
        "qcgrade reward: dataset row 6 (batch row 1): no slice in ground_truth or extra_info['slice']; scoring 0.0"
    ]


def test_openrlhf_names_bad_samples_by_prompt_then_counts_them() -> None:
    prompts = [f"Write section s3, take {i}." for i in range(FIRST + 4)]

    def run() -> list[Any]:
        return [openrlhf_module.reward_func([p + CLEAN], [p], ["{"]) for p in prompts]

    _, messages = caught_messages(run)
    assert messages[:FIRST] == [
        f"qcgrade reward: a sample (prompt {p!r}): unusable label: invalid JSON: Expecting property name enclosed in double quotes at line 1 column 2; scoring 0.0"
        for p in prompts[:FIRST]
    ]
    assert messages[FIRST:] == [
        "qcgrade reward: 4 more rows could not be graded so far (unusable label: 4); the first 3 were named above"
    ]


def test_concurrent_bad_samples_are_named_no_more_than_the_first_few() -> None:
    """OpenRLHF calls from worker threads: the reporter counts under a lock."""

    async def run() -> list[Any]:
        calls = [asyncio.to_thread(openrlhf_module.reward_func, ["x"], [""], ["{"]) for _ in range(40)]
        return await asyncio.gather(*calls)

    _, messages = caught_messages(lambda: asyncio.run(run()))
    named = [m for m in messages if "a sample" in m]
    counted = [int(m.split()[2]) for m in messages if "so far" in m]
    assert len(named) == FIRST
    assert counted == [4, 8, 16, 32]  # 37 counted in all: the last report was at 32
