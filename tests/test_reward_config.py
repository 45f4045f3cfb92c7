"""The reward adapters grade with a project's configuration when asked (``config=``), and never find one on their own."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

import qcgrade.rewards.openrlhf as openrlhf_module
from qcgrade.config import load_config
from qcgrade.errors import ConfigError, InputError
from qcgrade.rewards.adapters import reward_options, stat_keys
from qcgrade.rewards.openrlhf import make_reward_func as make_openrlhf_func
from qcgrade.rewards.trl import make_reward_func
from qcgrade.rewards.verl import compute_score, compute_score_batch

SLICE = json.dumps(
    {
        "section": "s1",
        "cards": [
            {"id": "E001", "stance": "bull", "claim": "Revenue grew 30%.", "quote": "Revenue grew 30% in FY25."},
            {"id": "E002", "stance": "bear", "status": "weak", "claim": "Churn may rise.", "quote": "Churn may rise."},
        ],
    }
)
# Passes tier 1; fails the grounding tier (the card says 30%).
MISQUOTED = "Revenue grew 35% [E001]. Churn may rise [E002].\n"
POLICY = "[tool.qcgrade]\ngrounding = true\n"


@pytest.fixture
def policy(tmp_path: Path) -> Path:
    path = tmp_path / "pyproject.toml"
    path.write_text(POLICY, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def no_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    openrlhf_module._tensor_factory.cache_clear()


def test_reward_options_read_the_file_as_the_command_line_does(policy: Path) -> None:
    assert reward_options() == reward_options(None, None, None)
    assert reward_options().grounding is False
    assert reward_options(policy) == load_config(policy).options
    assert reward_options(str(policy)).grounding is True
    assert reward_options(policy, grounding=False).grounding is False  # an explicit switch wins


def test_trl_with_and_without_config(policy: Path) -> None:
    call = {"prompts": ["p"], "completions": [MISQUOTED], "slice": [SLICE]}
    assert make_reward_func()(**call) == [1.0]
    configured = make_reward_func(config=policy)
    assert configured(**call) == [0.0]
    assert configured.__name__ == "qcgrade_grounding"
    assert "config=" in repr(configured)
    assert make_reward_func(config=policy, grounding=False)(**call) == [1.0]


def test_verl_with_and_without_config(policy: Path) -> None:
    call = {"data_source": "x", "solution_str": MISQUOTED, "ground_truth": SLICE, "extra_info": None}
    assert compute_score(**call) == 1.0
    out = compute_score(**call, config=str(policy), return_dict=True)
    assert out["score"] == 0.0 and out["qcgrade_value_mismatch"] == 1
    assert list(out) == ["score", *stat_keys(reward_options(policy))]
    batch = compute_score_batch(None, [MISQUOTED], [SLICE], None, config=str(policy))
    assert batch == [0.0]


def test_openrlhf_with_and_without_config(policy: Path) -> None:
    assert make_openrlhf_func()([MISQUOTED], [""], [SLICE])["rewards"] == [1.0]
    out = make_openrlhf_func(config=policy)([MISQUOTED], [""], [SLICE])
    assert out["rewards"] == [0.0] and out["extra_logs"]["qcgrade_value_mismatch"] == [1.0]


def test_no_config_means_no_file_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text(POLICY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # a configuration a search would find: the rewards must not use it
    assert make_reward_func()(prompts=["p"], completions=[MISQUOTED], slice=[SLICE]) == [1.0]
    assert compute_score("x", MISQUOTED, SLICE, None) == 1.0
    assert make_openrlhf_func()([MISQUOTED], [""], [SLICE])["rewards"] == [1.0]


def test_an_edited_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "qcgrade.toml"
    path.write_text("grounding = true\n", encoding="utf-8")
    assert compute_score("x", MISQUOTED, SLICE, None, config=str(path)) == 0.0
    path.write_text("grounding = false\n# edited\n", encoding="utf-8")
    assert compute_score("x", MISQUOTED, SLICE, None, config=str(path)) == 1.0


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("extend-hedges = ['x']\n", "unknown key 'extend-hedges' (did you mean 'extend-hedge-words'?)"),
        ("grounding = 'yes'\n", "grounding: expected true or false"),
    ],
)
def test_a_bad_configuration_fails_when_the_reward_is_built(tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "qcgrade.toml"
    path.write_text(text, encoding="utf-8")
    for build in (lambda: make_reward_func(config=path), lambda: make_openrlhf_func(config=path)):
        with pytest.raises(ConfigError, match=re.escape(needle)):
            build()
    with pytest.raises(InputError, match="missing.toml: no such file"):
        make_reward_func(config=tmp_path / "missing.toml")
