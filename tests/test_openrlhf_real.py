"""qcgrade's reward file inside OpenRLHF's own code (opt-in: ``pytest -m openrlhf``).

Needs OpenRLHF 0.11.2 importable, which a machine without a GPU toolchain
gets only without its dependencies (it fails building flash-attn): the
install line of docs/integrations.md. vLLM, which OpenRLHF imports at module
level, is replaced by an empty stand-in: nothing here generates.

What runs is OpenRLHF's: ``SingleTurnAgentExecutor`` loads the reward file
by path and calls it as in training; ``_process_response_into_experience``
turns its answer into ``Experience.info``; its loggers name the step
metrics (``train/<key>``).
"""

from __future__ import annotations

import asyncio
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType, SimpleNamespace
from typing import Any
from unittest import mock

import pytest

import helpers
from qcgrade.rewards.adapters import stat_keys

pytestmark = pytest.mark.openrlhf

SECTION = helpers.FIXTURES / "cloudmeadow-saas" / "s3.md"
CLEAN = SECTION.read_text(encoding="utf-8")
SLICE_JSON = SECTION.with_suffix(".json").read_text(encoding="utf-8")
DIRTY = CLEAN + "\n\nRevenue grew 7% last year.\n"
PROMPT = "<|user|>Write section s3.<|assistant|>"
REWARD_FILE = helpers.ROOT / "qcgrade" / "integrations" / "openrlhf.py"


class _NoVllm(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """vllm and its submodules as empty stand-ins (OpenRLHF imports them at module level)."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name == "vllm" or name.startswith("vllm."):
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = mock.MagicMock(name=spec.name)
        module.__path__ = []
        module.__spec__ = spec
        return module  # type: ignore[no-any-return]

    def exec_module(self, module: ModuleType) -> None:
        pass


@pytest.fixture(scope="module")
def openrlhf() -> Any:
    finder = _NoVllm()
    sys.meta_path.insert(0, finder)
    try:
        import openrlhf.trainer.ppo_utils.samples_generator as samples_generator
        import openrlhf.utils.agent as agent
        import openrlhf.utils.logging_utils as logging_utils
    except ImportError as exc:  # an opt-in run without its host is a failure, not a skip
        pytest.fail(f"the openrlhf tests need openrlhf installed (docs/integrations.md): {exc}")
    finally:
        sys.meta_path.remove(finder)
    return SimpleNamespace(agent=agent, samples_generator=samples_generator, logging_utils=logging_utils)


def rewards_info(openrlhf: Any, text: str, label: str) -> dict[str, Any]:
    executor = openrlhf.agent.SingleTurnAgentExecutor(remote_rm_url=str(REWARD_FILE))
    (info,) = asyncio.run(executor._fetch_rewards_via_func([PROMPT + text], [PROMPT], [label]))
    return info  # type: ignore[no-any-return]


def experience_info(openrlhf: Any, info: dict[str, Any]) -> dict[str, Any]:
    """OpenRLHF's own conversion of one rollout (as its executor fills it) into Experience.info."""
    response = {
        "prompt": PROMPT,
        "label": SLICE_JSON,
        "observation_tokens": [1, 2, 3, 4],
        "action_ranges": [(2, 4)],
        "rollout_log_probs": None,
        "truncated": False,
        "images": None,
        "mm_train_inputs": None,
        "reward": info.get("rewards"),
        "scores": info.get("scores") if info.get("scores") is not None else info.get("rewards"),
        "extra_logs": info.get("extra_logs") or {},
    }
    generator = openrlhf.samples_generator.SamplesGenerator.__new__(openrlhf.samples_generator.SamplesGenerator)
    experience = generator._process_response_into_experience(response, max_len=64)
    return {key: value.item() if hasattr(value, "item") else value for key, value in experience.info.items()}


def test_the_executor_loads_the_reward_file_and_gets_per_check_logs(openrlhf: Any) -> None:
    clean, dirty = rewards_info(openrlhf, CLEAN, SLICE_JSON), rewards_info(openrlhf, DIRTY, SLICE_JSON)
    assert [float(clean["rewards"][0]), float(dirty["rewards"][0])] == [1.0, 0.0]
    assert list(clean["extra_logs"]) == list(stat_keys(False))
    assert float(dirty["extra_logs"]["qcgrade_bare_number"][0]) == 1.0


def test_per_check_keys_reach_experience_info(openrlhf: Any) -> None:
    info = experience_info(openrlhf, rewards_info(openrlhf, DIRTY, SLICE_JSON))
    assert {"reward", "score", *stat_keys(False)} <= set(info)
    assert info["qcgrade_bare_number"] == 1.0 and info["qcgrade_violations"] == 1.0 and info["score"] == 0.0


def test_a_bad_label_still_gives_every_key(openrlhf: Any) -> None:
    with pytest.warns(RuntimeWarning, match="unusable label"):
        info = experience_info(openrlhf, rewards_info(openrlhf, CLEAN, "{"))
    assert info["qcgrade_slice_error"] == 1.0 and info["reward"] == 0.0


def test_the_step_metrics_are_logged_as_train_key(openrlhf: Any) -> None:
    """What docs/integrations.md names: OpenRLHF's TensorBoard logger writes each status key as train/<key>."""
    written: list[tuple[str, float, int]] = []
    logger = openrlhf.logging_utils.TensorboardLogger.__new__(openrlhf.logging_utils.TensorboardLogger)
    logger.writer = SimpleNamespace(add_scalar=lambda name, value, step: written.append((name, value, step)))
    logger.log_train(3, {"qcgrade_bare_number": 0.5, "score": 0.5})
    assert written == [("train/qcgrade_bare_number", 0.5, 3), ("train/score", 0.5, 3)]
