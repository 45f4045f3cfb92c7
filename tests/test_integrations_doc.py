"""docs/integrations.md, true for every host version: the lines each host's own run showed wrong before.

The hosts themselves run in the opt-in tests (test_trl_real.py, test_verl_real.py,
test_openrlhf_real.py), which check these same lines against the host's code.
"""

from __future__ import annotations

import re

import helpers
from qcgrade.checks import TIER1
from qcgrade.rewards.adapters import stat_keys

DOC = (helpers.ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")


def test_the_trl_example_says_use_cpu_for_a_machine_without_a_gpu() -> None:
    assert 'GRPOConfig(output_dir="out", use_cpu=True)' in DOC
    assert "Your setup doesn't support bf16/gpu" in DOC


def test_verl_0_8_row_says_main_ppo_sync_does_not_migrate_the_old_key() -> None:
    (row,) = [line for line in DOC.splitlines() if line.startswith("| 0.8.x |")]
    assert "main_ppo_sync" in row and "does not migrate" in row and "silently not loaded" in row


def test_the_0_7_0_yaml_comment_names_use_reward_loop_false() -> None:
    (comment,) = [line for line in DOC.splitlines() if "compute_score_batch" in line and line.lstrip().startswith("name:")]
    assert "reward_model.reward_manager=batch" in comment and "reward_model.use_reward_loop=false" in comment


def test_the_verl_manager_list_has_rate_limited() -> None:
    found = re.search(r"`reward\.reward_manager\.name`: ([^)]*)\)", DOC)
    assert found and {"naive", "dapo", "gdpo", "remote", "rate_limited"} <= set(re.findall(r"`(\w+)`", found.group(1)))


def test_every_host_has_an_install_line_marked_as_the_hosts_packaging() -> None:
    section = DOC.split("## Installing a host to try qcgrade in it", 1)[1].split("\n## ", 1)[0]
    assert "the host's packaging, not qcgrade's" in section
    lines = {
        row.split("|")[1].strip(): row
        for row in section.splitlines()
        if row.startswith("| ") and not row.startswith(("| host", "|---"))
    }
    assert set(lines) == {"TRL 1.16.0", "verl 0.9.1", "verl 0.8.0", "verl 0.7.0", "OpenRLHF 0.11.2"}
    for host in ("verl 0.9.1", "verl 0.8.0", "verl 0.7.0"):
        assert all(needed in lines[host] for needed in ("'pyarrow<23'", "cachetools", "uvicorn", "fastapi"))
    assert "'transformers<5' 'datasets<5'" in lines["verl 0.7.0"]
    assert "--no-deps openrlhf==0.11.2" in lines["OpenRLHF 0.11.2"]
    assert all(row.count("pip install torch==2.13.0 &&") == 1 for row in lines.values())


def test_the_metric_names_documented_are_the_adapters() -> None:
    section = DOC.split("## What the trainer sees: per-check metrics, by host", 1)[1].split("\n## ", 1)[0]
    assert "`qcgrade/<check>`" in section and "`qcgrade/pass`" in section and "`qcgrade/ungraded`" in section
    assert "`val-aux/<data_source>/qcgrade_<check>/mean@<n>`" in section
    assert "`train/qcgrade_<check>`" in section
    # The keys the verl and OpenRLHF adapters send: every check's, plus the two documented.
    assert set(stat_keys(False)) == {"qcgrade_violations", "qcgrade_slice_error", *(f"qcgrade_{name}" for name in TIER1)}


def test_ci_installs_each_host_with_the_documented_line() -> None:
    """.ci/hosts runs each host's tests in a venv made with the line the docs give (qcgrade as -e '.[dev]')."""
    script = (helpers.ROOT / ".ci" / "hosts").read_text(encoding="utf-8")
    section = DOC.split("## Installing a host to try qcgrade in it", 1)[1].split("\n## ", 1)[0]
    for row in section.splitlines():
        if not row.startswith("| verl "):
            continue
        line = re.search(r"`pip install torch==2\.13\.0 && pip install (.*?) qcgrade`", row)
        assert line, row
        assert f"{line.group(1)} -e '.[dev]'" in script, line.group(1)
    assert "--no-deps openrlhf==0.11.2" in script
    assert "'transformers==5.15.0' aiohttp pylatexenc datasets jsonlines 'ray[default]==2.55.0' -e '.[dev]'" in script
