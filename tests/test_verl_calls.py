"""The verl adapter called as verl 0.9.1 calls it, and docs/integrations.md's verl YAML by version.

verl wraps the configured function so that ``reward_kwargs`` from the config
win over the call's own keywords (``_call_with_kwargs`` in
``verl/trainer/ppo/reward.py``); its reward-loop ``naive`` manager adds
``num_turns`` and ``rollout_reward_scores`` to ``extra_info`` and, with a
reward model router, two more keywords.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import pytest
import yaml

import helpers
from qcgrade.rewards.adapters import stat_keys
from qcgrade.rewards.verl import compute_score

SECTION = helpers.FIXTURES / "cloudmeadow-saas" / "s3.md"
CLEAN = SECTION.read_text(encoding="utf-8")
SLICE_JSON = SECTION.with_suffix(".json").read_text(encoding="utf-8")
DIRTY = CLEAN + "\n\nRevenue grew 7% last year.\n"
DOC = helpers.ROOT / "docs" / "integrations.md"


def as_verl_loads_it(fn: Callable[..., Any], reward_kwargs: dict[str, Any]) -> Callable[..., Any]:
    """The configured function as verl hands it to a reward manager: config kwargs merged in, and winning."""

    def call(**kwargs: Any) -> Any:
        return fn(**{**kwargs, **reward_kwargs})

    return functools.update_wrapper(call, fn)


def naive_manager_call(fn: Callable[..., Any], solution: str, ground_truth: Any, extra_info: dict[str, Any]) -> Any:
    extra_info = dict(extra_info, num_turns=None, rollout_reward_scores={})
    return fn(
        data_source="qcgrade",
        solution_str=solution,
        ground_truth=ground_truth,
        extra_info=extra_info,
        reward_router_address="127.0.0.1:1",
        reward_model_tokenizer=None,
    )


@pytest.mark.parametrize(("solution", "score"), [(CLEAN, 1.0), (DIRTY, 0.0)])
def test_reward_loop_call_with_config_kwargs(solution: str, score: float) -> None:
    fn = as_verl_loads_it(compute_score, {"return_dict": True, "tier2": False, "shaped": False})
    result = naive_manager_call(fn, solution, SLICE_JSON, {"index": 3})
    assert result["score"] == score
    assert set(result) == {"score", *stat_keys(False)}  # the same keys for every row, so verl can stack them
    assert result["qcgrade_violations"] == (0 if score else 1)


def test_reward_loop_call_finds_the_slice_in_extra_info() -> None:
    fn = as_verl_loads_it(compute_score, {})
    assert naive_manager_call(fn, CLEAN, "", {"slice": SLICE_JSON}) == 1.0


def verl_yaml_blocks() -> dict[str, dict[str, Any]]:
    """The YAML blocks of the doc that start with a ``# verl <range>`` comment, by range."""
    text = DOC.read_text(encoding="utf-8")
    blocks = {}
    for body in re.findall(r"```yaml\n(.*?)```", text, flags=re.S):
        first = body.splitlines()[0]
        if first.startswith("# verl "):
            blocks[first[len("# verl ") :].strip()] = yaml.safe_load(body)
    return blocks


def test_doc_puts_the_verl_function_where_each_version_reads_it() -> None:
    blocks = verl_yaml_blocks()
    assert set(blocks) == {">= 0.7.1", "<= 0.7.0"}
    new = blocks[">= 0.7.1"]
    assert set(new) == {"reward"}  # the top-level key is ignored by main_ppo in 0.9.x
    assert new["reward"]["custom_reward_function"]["path"] == "qc_reward.py"
    assert new["reward"]["custom_reward_function"]["name"] == "compute_score"
    old = blocks["<= 0.7.0"]
    assert set(old) == {"custom_reward_function"}
    for block in (new["reward"], old):
        kwargs = block["custom_reward_function"]["reward_kwargs"]
        assert set(kwargs) <= {"return_dict", "tier2", "shaped"}
        compute_score(solution_str=CLEAN, ground_truth=SLICE_JSON, **kwargs)  # every documented kwarg is accepted


def test_doc_command_lines_prefix_reward_kwargs_with_plus() -> None:
    """reward_kwargs is in no default verl YAML: Hydra rejects it without '+'."""
    text = DOC.read_text(encoding="utf-8")
    overrides = re.findall(r"(\S*custom_reward_function\.reward_kwargs\S*)", text)
    command_line = [o for o in overrides if "=" in o]
    assert command_line, "the doc shows reward_kwargs on a command line"
    assert all(o.startswith("+") for o in command_line), command_line
