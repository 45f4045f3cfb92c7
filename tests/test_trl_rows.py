"""TRL rows one at a time: the reward, and the one warning a bad row must raise (cases in cases/hosts/trl_rows.toml)."""

from __future__ import annotations

import json
import re
import warnings
from typing import Any

import pytest

import helpers
from qcgrade.rewards.trl import make_reward_func

SECTION = helpers.FIXTURES / "cloudmeadow-saas" / "s3.md"
CLEAN = SECTION.read_text(encoding="utf-8")
SLICE_JSON = SECTION.with_suffix(".json").read_text(encoding="utf-8")
DIRTY = CLEAN + "\n\nRevenue grew 7% last year.\n"
ROWS = helpers.load_toml(helpers.CASES / "hosts" / "trl_rows.toml")["row"]


def completion_of(case: dict[str, Any]) -> Any:
    if "completion_value" in case:
        return case["completion_value"]
    return {"clean": CLEAN, "dirty": DIRTY}[case["completion"]]


def slice_of(case: dict[str, Any]) -> Any:
    if "slice_value" in case:
        return case["slice_value"]
    return {"json": SLICE_JSON, "dict": json.loads(SLICE_JSON), "none": None}[case["slice"]]


@pytest.mark.parametrize("case", ROWS, ids=[c["name"] for c in ROWS])
def test_trl_row(case: dict[str, Any]) -> None:
    func = make_reward_func()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rewards = func(
            prompts=["Write section s3."],
            completions=[completion_of(case)],
            completion_ids=[[1, 2]],
            slice=[slice_of(case)],
            trainer_state=None,
            log_extra=lambda column, values: None,
            log_metric=lambda name, value: None,
        )
    assert rewards == [case.get("reward")]
    messages = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    if "warning" in case:
        assert len(messages) == 1, messages
        assert re.search(case["warning"], messages[0]), messages[0]
    else:
        assert messages == []


def test_no_message_doubles_a_word() -> None:
    """Every bad-slice warning above reads without a repeated word ("at at")."""
    for case in ROWS:
        if "slice_value" not in case:
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            make_reward_func()(prompts=["p"], completions=[CLEAN], slice=[case["slice_value"]], log_metric=lambda n, v: None)
        for w in caught:
            assert not re.search(r"\b(\w+) \1\b", str(w.message)), str(w.message)
