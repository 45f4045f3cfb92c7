"""qcgrade's verl function against verl's own code (opt-in: ``pytest -m verl``).

Needs verl installed as docs/integrations.md says for its version (0.7.0,
0.8.0 or 0.9.1 were run). What runs is verl's: the reward-manager registry
the trainer looks managers up in, the stacking of ``reward_extra_info`` the
reward loop does, and the validation metrics code that names the per-check
keys. verl's training step metrics carry no ``reward_extra_info`` key in
these versions (``RayPPOTrainer.fit``: ``compute_data_metrics`` reads the
token-level scores only), which docs/integrations.md says.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path
from typing import Any

import pytest

import helpers
from qcgrade.rewards.adapters import stat_keys
from qcgrade.rewards.verl import compute_score

pytestmark = pytest.mark.verl

SECTION = helpers.FIXTURES / "cloudmeadow-saas" / "s3.md"
CLEAN = SECTION.read_text(encoding="utf-8")
SLICE_JSON = SECTION.with_suffix(".json").read_text(encoding="utf-8")
DIRTY = CLEAN + "\n\nRevenue grew 7% last year.\n"
DOC = (helpers.ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def verl() -> Any:
    try:
        return importlib.import_module("verl")
    except ImportError as exc:  # an opt-in run without its host is a failure, not a skip
        pytest.fail(f"the verl tests need verl installed (docs/integrations.md): {exc}")


def version(verl: Any) -> tuple[int, int]:
    major, minor = verl.__version__.split(".")[:2]
    return int(major), int(minor)


def documented_managers() -> list[str]:
    """The manager names docs/integrations.md lists for verl 0.7.1 and later."""
    found = re.search(r"`reward\.reward_manager\.name`: ([^)]*)\)", DOC)
    assert found, "docs/integrations.md lists no reward managers"
    return re.findall(r"`(\w+)`", found.group(1))


def test_the_documented_managers_are_verls_and_batch_is_not(verl: Any) -> None:
    from verl.experimental.reward_loop.reward_manager import get_reward_manager_cls

    names = documented_managers()
    assert "rate_limited" in names
    if version(verl) >= (0, 8):
        for name in names:
            assert get_reward_manager_cls(name) is not None
    else:  # 0.7.0's reward loop has no gdpo yet; the others are there
        for name in (n for n in names if n != "gdpo"):
            assert get_reward_manager_cls(name) is not None
    with pytest.raises(ValueError, match="batch"):
        get_reward_manager_cls("batch")


def test_which_main_ppo_migrates_the_old_top_level_key(verl: Any) -> None:
    """The version table: 0.8.x main_ppo migrates (and is deprecated), main_ppo_sync does not; 0.9.x main_ppo does not."""
    main_ppo = inspect.getsource(importlib.import_module("verl.trainer.main_ppo"))
    if version(verl) == (0, 8):
        assert "migrate_legacy_reward_impl(config)" in main_ppo and "deprecated" in main_ppo
        assert "migrate_legacy_reward_impl" not in inspect.getsource(importlib.import_module("verl.trainer.main_ppo_sync"))
    elif version(verl) >= (0, 9):
        assert "migrate_legacy_reward_impl(config)" not in main_ppo
    else:  # 0.7.0 reads the top-level key itself
        reward = inspect.getsource(importlib.import_module("verl.trainer.ppo.reward"))
        assert 'config.get("custom_reward_function")' in reward


def test_0_7_0_runs_the_reward_loop_by_default(verl: Any) -> None:
    """Why the 0.7.0 YAML needs reward_model.use_reward_loop=false for the batch manager."""
    if version(verl) != (0, 7):
        pytest.skip(f"about verl 0.7.0; this is {verl.__version__}")
    config = (Path(verl.__file__).parent / "trainer" / "config" / "_generated_ppo_trainer.yaml").read_text(encoding="utf-8")
    assert re.search(r"^  use_reward_loop: true$", config, re.MULTILINE)


def reward_extra_infos(texts: list[str]) -> dict[str, Any]:
    """What the naive manager returns per sample, stacked per key as verl's reward loop stacks it."""
    import numpy as np  # verl's dependency, not qcgrade's: imported where verl is

    infos = []
    for text in texts:
        result = compute_score("qcgrade", text, SLICE_JSON, {"index": 0}, return_dict=True)
        assert isinstance(result, dict)
        infos.append(dict(result))  # the naive manager copies every key of the dict
    keys = list(infos[0])
    return {key: np.array([info[key] for info in infos]) for key in keys}


def test_per_check_keys_become_validation_metrics(verl: Any) -> None:
    import numpy as np
    from verl.trainer.ppo.metric_utils import process_validation_metrics
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    stacked = reward_extra_infos([CLEAN, DIRTY, CLEAN, DIRTY])
    infos = {"reward": [1.0, 0.0, 1.0, 0.0], **{key: list(values) for key, values in stacked.items()}}
    sources = np.array(["qcgrade"] * 4)
    uids = ["a", "a", "b", "b"]
    grouped = process_validation_metrics(list(sources), uids, infos)
    assert set(stat_keys(False)) <= set(grouped["qcgrade"])
    assert grouped["qcgrade"]["qcgrade_bare_number"]["mean@2"] == pytest.approx(0.5)
    if not hasattr(RayPPOTrainer, "_val_metrics_update"):
        # 0.7.0 names them inline in _validate, in the same words (read): val-aux/<source>/<key>/<metric>.
        assert 'pfx = f"{metric_sec}/{data_source}/{var_name}/{metric_name}"' in inspect.getsource(RayPPOTrainer._validate)
        return
    # _val_metrics_update reads nothing of the trainer: verl's own naming of the validation metrics.
    metrics = RayPPOTrainer._val_metrics_update(None, sources, uids, infos, [])
    for key in stat_keys(False):
        assert f"val-aux/qcgrade/{key}/mean@2" in metrics
    assert metrics["val-aux/qcgrade/qcgrade_bare_number/mean@2"] == pytest.approx(0.5)
    assert metrics["val-core/qcgrade/reward/mean@2"] == pytest.approx(0.5)
