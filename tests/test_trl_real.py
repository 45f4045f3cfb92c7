"""qcgrade inside a real TRL ``GRPOTrainer`` run (opt-in: ``pytest -m trl``).

Needs torch and trl (``pip install torch trl``; a CPU build of torch is
enough) and no network: the model is a tiny random Qwen2 and the tokenizer a
byte-level BPE trained here on the fixture sections. Each run is two optimiser
steps on the CPU over a dataset whose ``slice`` column holds the fixture
slices, as JSON text or as dicts (an Arrow struct column, which hands a row
the fields it lacks as ``None``).

Two kinds of run:

- sampled: the model generates (random text), TRL calls the reward function,
  logs ``rewards/qcgrade/mean`` and the per-check metrics the function hands
  to TRL's ``log_metric`` (``qcgrade/bare_number``, ..., ``qcgrade/pass``,
  ``qcgrade/ungraded``); the test checks every call carried each row's own
  slice.
- forced: TRL's ``rollout_func`` (a documented, experimental GRPOTrainer
  argument) stands in for generation and returns, for each prompt, the
  fixture section itself and the same section with a bare number. Everything
  after generation is TRL's own: decoding the token ids, calling the reward
  function, the per-sample reward table and the logged means. Clean must get
  1.0, the defect 0.0, and TRL's logs must show one bare number per two
  completions and a pass rate of one half.

The default ``pytest`` run deselects these tests (pyproject ``addopts``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import helpers
from qcgrade.checks import TIER1
from qcgrade.rewards.base import score
from qcgrade.rewards.trl import RewardFunc, make_reward_func

# transformers warns about its own deprecated names while TRL sets up.
pytestmark = [pytest.mark.trl, pytest.mark.filterwarnings("ignore::FutureWarning:transformers")]

DEFECT = "\n\nMargins fell 12% last year.\n"  # a bare number: fails bare_number
#: Fields every check ignores at tier 1; a "lean" row leaves them out so that
#: Arrow has to fill them in as None.
LEAN_TOP = ("title", "purpose")
LEAN_CARD = ("quote", "source")
STEPS = 2
GENERATIONS = 2
PROMPTS_PER_STEP = 2


def fixture_rows() -> list[dict[str, Any]]:
    """One section from each of the first fixture reports, as many as two steps draw.

    Every other row's slice drops the optional fields. The sampler goes
    through the dataset once in the two steps, so every row is graded.
    """
    first_of_report: dict[str, tuple[Path, Path]] = {}
    for md, slice_path in helpers.fixture_pairs():
        first_of_report.setdefault(md.parent.name, (md, slice_path))
    chosen = list(first_of_report.values())[: STEPS * PROMPTS_PER_STEP]
    rows = []
    for index, (md, slice_path) in enumerate(chosen):
        evidence = json.loads(slice_path.read_text(encoding="utf-8"))
        if index % 2 == 1:
            evidence = {k: v for k, v in evidence.items() if k not in LEAN_TOP}
            evidence["cards"] = [{k: v for k, v in card.items() if k not in LEAN_CARD} for card in evidence["cards"]]
        rows.append(
            {
                "prompt": f"Write section {md.parent.name}/{md.stem}.",
                "section": md.read_text(encoding="utf-8"),
                "evidence": evidence,
            }
        )
    return rows


ROWS = fixture_rows()
BY_PROMPT = {row["prompt"]: row for row in ROWS}


def without_nones(value: Any) -> Any:
    """What the row held before Arrow filled in the fields it lacked."""
    if isinstance(value, dict):
        return {k: without_nones(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nones(v) for v in value]
    return value


def count_nones(value: Any) -> int:
    if value is None:
        return 1
    if isinstance(value, dict):
        return sum(count_nones(v) for v in value.values())
    if isinstance(value, list):
        return sum(count_nones(v) for v in value)
    return 0


class Stack:
    """The imported TRL stack and the tiny local model pieces."""

    def __init__(self, tmp: Path) -> None:
        import datasets
        import torch
        import transformers
        import trl
        from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

        self.torch, self.datasets, self.transformers, self.trl = torch, datasets, transformers, trl
        self.tmp = tmp
        bpe = Tokenizer(models.BPE())
        bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        bpe.decoder = decoders.ByteLevel()
        bpe.train_from_iterator(
            [row["section"] for row in ROWS],
            trainers.BpeTrainer(
                vocab_size=1000,
                special_tokens=["<pad>", "<eos>"],
                initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                show_progress=False,
            ),
        )
        self.tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_object=bpe, pad_token="<pad>", eos_token="<eos>")

    def model(self) -> Any:
        self.torch.manual_seed(0)
        config = self.transformers.Qwen2Config(
            vocab_size=len(self.tokenizer),
            hidden_size=32,
            intermediate_size=64,
            num_hidden_layers=2,
            num_attention_heads=2,
            num_key_value_heads=1,
            max_position_embeddings=4096,
            pad_token_id=self.tokenizer.pad_token_id,
            eos_token_id=self.tokenizer.eos_token_id,
        )
        return self.transformers.Qwen2ForCausalLM(config)

    def dataset(self, storage: str) -> Any:
        cells = [json.dumps(row["evidence"]) if storage == "json" else row["evidence"] for row in ROWS]
        return self.datasets.Dataset.from_dict({"prompt": [row["prompt"] for row in ROWS], "slice": cells})

    def trainer(self, reward: RewardFunc, storage: str, rollout_func: Any = None) -> Any:
        args = self.trl.GRPOConfig(
            output_dir=str(self.tmp / f"out-{storage}"),
            max_steps=STEPS,
            num_generations=GENERATIONS,
            per_device_train_batch_size=GENERATIONS * PROMPTS_PER_STEP,
            max_completion_length=16,
            use_cpu=True,
            report_to="none",
            logging_steps=1,
            save_strategy="no",
            seed=0,
            learning_rate=1e-3,
            disable_tqdm=True,
        )
        return self.trl.GRPOTrainer(
            model=self.model(),
            processing_class=self.tokenizer,
            reward_funcs=[reward],
            args=args,
            train_dataset=self.dataset(storage),
            rollout_func=rollout_func,
        )


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with pytest.MonkeyPatch.context() as mp:
        # No hub exists here; make sure nothing tries. TRL warns on rollout_func.
        tmp = tmp_path_factory.mktemp("trl")
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("HF_HOME", str(tmp / "hf"))
        mp.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
        try:
            yield Stack(tmp)
        except ImportError as exc:  # an opt-in run without its dependencies is a failure, not a skip
            pytest.fail(f"the trl tests need torch and trl installed: {exc} (pip install torch trl)")


class Recorder:
    """Sits in ``trainer.reward_funcs`` after TRL has read the real function's name, and forwards."""

    def __init__(self, inner: RewardFunc) -> None:
        self.inner = inner
        self.calls: list[dict[str, Any]] = []

    def __call__(self, **kwargs: Any) -> list[float | None]:
        rewards = self.inner(**kwargs)
        self.calls.append({**kwargs, "rewards": rewards})
        return rewards


def train(stack: Stack, storage: str, rollout_func: Any = None) -> tuple[Any, Recorder]:
    reward = make_reward_func()
    trainer = stack.trainer(reward, storage, rollout_func)
    assert trainer.reward_func_names == ["qcgrade"]  # TRL took the adapter's __name__
    recorder = Recorder(reward)
    trainer.reward_funcs[0] = recorder
    trainer.train()
    return trainer, recorder


def step_logs(trainer: Any) -> list[dict[str, float]]:
    return [entry for entry in trainer.state.log_history if "rewards/qcgrade/mean" in entry]


#: What the reward function logs through TRL's log_metric at every step.
CHECK_METRICS = [f"qcgrade/{name}" for name in TIER1]
METRICS = [*CHECK_METRICS, "qcgrade/pass", "qcgrade/ungraded"]


def expected_metrics(call: dict[str, Any]) -> dict[str, float]:
    """The per-check metrics of one reward call, recomputed from its completions and slices."""
    scores = [
        score(completion, json.loads(cell) if isinstance(cell, str) else without_nones(cell))
        for completion, cell in zip(call["completions"], call["slice"])
    ]
    out = {f"qcgrade/{name}": sum(s.counts[name] for s in scores) / len(scores) for name in TIER1}
    out["qcgrade/pass"] = sum(s.passed for s in scores) / len(scores)
    out["qcgrade/ungraded"] = 0.0
    return out


def assert_own_slices(call: dict[str, Any], storage: str) -> None:
    """Each completion's slice is the slice of the row its prompt came from."""
    assert len(call["slice"]) == len(call["prompts"]) == len(call["completions"])
    for prompt, cell in zip(call["prompts"], call["slice"]):
        own = BY_PROMPT[prompt]["evidence"]
        if storage == "json":
            assert cell == json.dumps(own)
        else:
            assert without_nones(cell) == own


@pytest.mark.parametrize("storage", ["json", "dict"])
def test_sampled_run_calls_qcgrade_with_each_rows_own_slice(stack: Stack, storage: str) -> None:
    trainer, recorder = train(stack, storage)
    assert len(recorder.calls) == STEPS
    assert {p for call in recorder.calls for p in call["prompts"]} == set(BY_PROMPT)
    for call in recorder.calls:
        assert len(call["prompts"]) == GENERATIONS * PROMPTS_PER_STEP
        assert_own_slices(call, storage)
        # Random text fails the checks; what matters is a number for every row, never None.
        assert all(r in (0.0, 1.0) for r in call["rewards"]), call["rewards"]
        assert {"completion_ids", "trainer_state", "log_extra", "log_metric"} <= set(call)
    logs = step_logs(trainer)
    assert [entry["step"] for entry in logs] == list(range(1, STEPS + 1))
    for entry, call in zip(logs, recorder.calls):
        assert entry["rewards/qcgrade/mean"] == pytest.approx(sum(call["rewards"]) / len(call["rewards"]))
        # The per-check signals reached TRL's own step logs, with the values of that step's completions.
        assert set(METRICS) <= set(entry), sorted(entry)
        expected = expected_metrics(call)
        assert {name: entry[name] for name in METRICS} == pytest.approx(expected)
        assert entry["qcgrade/pass"] == pytest.approx(entry["rewards/qcgrade/mean"])  # the binary reward is the pass


@pytest.mark.parametrize("storage", ["json", "dict"])
def test_forced_completions_get_one_when_clean_and_zero_with_a_defect(stack: Stack, storage: str) -> None:
    tokenizer = stack.tokenizer
    served: list[tuple[str, str]] = []

    def rollout(prompts: list[str], trainer: Any) -> dict[str, Any]:
        # TRL hands over each prompt once per generation: the first copy gets
        # the fixture section, the second the section with a bare number.
        seen: dict[str, int] = {}
        prompt_ids, completion_ids = [], []
        for prompt in prompts:
            copy = seen.get(prompt, 0)
            seen[prompt] = copy + 1
            text = BY_PROMPT[prompt]["section"] + ("" if copy % 2 == 0 else DEFECT)
            served.append((prompt, text))
            prompt_ids.append(tokenizer(prompt)["input_ids"])
            completion_ids.append(tokenizer(text)["input_ids"] + [tokenizer.eos_token_id])
        return {"prompt_ids": prompt_ids, "completion_ids": completion_ids, "logprobs": None}

    trainer, recorder = train(stack, storage, rollout)
    assert len(recorder.calls) == STEPS
    assert {p for call in recorder.calls for p in call["prompts"]} == set(BY_PROMPT)
    offset = 0
    for call in recorder.calls:
        assert_own_slices(call, storage)
        # TRL decoded the token ids back to exactly the text served.
        count = len(call["prompts"])
        assert list(zip(call["prompts"], call["completions"])) == served[offset : offset + count]
        offset += count
        expected = [0.0 if c.endswith(DEFECT) else 1.0 for c in call["completions"]]
        assert call["rewards"] == expected
        assert expected.count(1.0) == expected.count(0.0) == PROMPTS_PER_STEP
    if storage == "dict":
        # The lean rows came back from Arrow with their missing fields as None, and still scored.
        filled = {p for call in recorder.calls for p, cell in zip(call["prompts"], call["slice"]) if count_nones(cell)}
        assert filled == {row["prompt"] for i, row in enumerate(ROWS) if i % 2 == 1}
    # TRL's own numbers: the per-sample reward table of the last generation batch
    # (what it prints as the completions sample) and the logged means.
    table = list(zip(trainer._logs["completion"], trainer._logs["rewards"]["qcgrade"]))
    assert table and all(reward == (0.0 if completion.endswith(DEFECT) else 1.0) for completion, reward in table)
    for entry in step_logs(trainer):
        assert entry["rewards/qcgrade/mean"] == pytest.approx(0.5)
        assert entry["reward"] == pytest.approx(0.5)
        assert entry["rewards/qcgrade/std"] > 0
        assert not math.isnan(entry["loss"])
        # Half the completions carry one bare number, nothing else fails: TRL's logs say so per check.
        assert entry["qcgrade/bare_number"] == pytest.approx(0.5)
        assert entry["qcgrade/pass"] == pytest.approx(0.5)
        assert entry["qcgrade/ungraded"] == 0.0
        assert all(entry[name] == 0.0 for name in CHECK_METRICS if name != "qcgrade/bare_number")


def test_grpo_config_on_a_machine_without_a_gpu_needs_use_cpu(stack: Stack) -> None:
    """docs/integrations.md shows use_cpu=True because the default config refuses a CPU-only machine."""
    if stack.torch.cuda.is_available():
        pytest.skip("this machine has a GPU: the default GRPOConfig is accepted here")
    with pytest.raises(ValueError, match="bf16"):
        stack.trl.GRPOConfig(output_dir=str(stack.tmp / "default"))
    assert stack.trl.GRPOConfig(output_dir=str(stack.tmp / "cpu"), use_cpu=True).use_cpu
