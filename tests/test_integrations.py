"""Each adapter called exactly as its trainer calls it (no trainer installed)."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import pickle
import sys
import types
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import helpers
import qcgrade.rewards.openrlhf as openrlhf_module
import qcgrade.rewards.trl as trl_module
import qcgrade.rewards.verl as verl_module
from qcgrade.evidence import SliceError
from qcgrade.rewards.adapters import resolve_slice, stat_keys
from qcgrade.rewards.bad_rows import BadRows
from qcgrade.rewards.base import reward, score
from qcgrade.rewards.openrlhf import make_reward_func as make_openrlhf_func
from qcgrade.rewards.openrlhf import reward_func, strip_prompt
from qcgrade.rewards.trl import completion_text, make_reward_func
from qcgrade.rewards.verl import compute_score, compute_score_batch

SECTION = helpers.FIXTURES / "cloudmeadow-saas" / "s3.md"
CLEAN = SECTION.read_text(encoding="utf-8")
SLICE_JSON = SECTION.with_suffix(".json").read_text(encoding="utf-8")
SLICE = json.loads(SLICE_JSON)
DIRTY = CLEAN + "\n\nRevenue grew 7% last year [EV-999].\n"  # bare_number + orphan_citation
# A prompt that fails the checks itself: graded by mistake, it would zero a clean response.
PROMPT = "<|im_start|>user\nWrite 3 paragraphs, 400 words, from slice s3.<|im_end|>\n<|im_start|>assistant\n"


class FakeArray:
    """What numpy hands over for a list in an Arrow/parquet row: has ``tolist``."""

    def __init__(self, items: list[Any]) -> None:
        self.items = items

    def tolist(self) -> list[Any]:
        return list(self.items)


def arrow_style(slice_dict: dict[str, Any]) -> dict[str, Any]:
    """The slice as a struct column returns it: absent fields as None, lists as arrays."""
    out = dict(slice_dict, purpose=None)
    out["cards"] = FakeArray([dict(card, quote=None, metric_refs=FakeArray(card["metric_refs"])) for card in slice_dict["cards"]])
    out["xref"] = FakeArray(slice_dict["xref"])
    return out


@pytest.fixture(autouse=True)
def fresh_bad_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with adapters that have named no bad row yet (they name only the first few)."""
    monkeypatch.setattr(verl_module, "BAD_ROWS", BadRows())
    if hasattr(openrlhf_module, "BAD_ROWS"):
        monkeypatch.setattr(openrlhf_module, "BAD_ROWS", BadRows())


def trl_call(func: Any, completions: list[Any], **columns: Any) -> list[float | None]:
    """Call a reward function the way GRPOTrainer does: all keywords, extras included."""
    n = len(completions)
    return func(
        prompts=[PROMPT] * n,
        completions=completions,
        completion_ids=[[1, 2, 3]] * n,
        trainer_state=object(),
        log_extra=lambda *a, **k: None,
        log_metric=lambda *a, **k: None,
        **columns,
    )


# --- shared slice resolution -------------------------------------------------


def test_resolve_slice_accepts_every_dataset_form() -> None:
    expected = resolve_slice(SLICE_JSON)
    assert resolve_slice(SLICE) == expected
    assert resolve_slice(SLICE_JSON.encode()) == expected
    assert resolve_slice(expected) is expected
    cleaned = resolve_slice(arrow_style(SLICE))
    assert cleaned.card_ids == expected.card_ids
    assert cleaned.cards[0].quote == ""  # the dropped None took the default


@pytest.mark.parametrize("bad", [None, 42, "{", "[]", {"section": "s3", "cards": [{"id": "E1"}]}])
def test_resolve_slice_rejects_with_a_slice_error(bad: Any) -> None:
    with pytest.raises(SliceError):
        resolve_slice(bad)


# --- TRL ----------------------------------------------------------------------


def test_trl_standard_completions_get_the_binary_reward() -> None:
    func = make_reward_func()
    assert func.__name__ == "qcgrade"
    rewards = trl_call(func, [CLEAN, DIRTY, CLEAN], slice=[SLICE_JSON, SLICE_JSON, SLICE])
    assert rewards == [1.0, 0.0, 1.0]
    assert rewards == [reward(c, SLICE_JSON) for c in (CLEAN, DIRTY, CLEAN)]


def test_trl_conversational_completions_grade_the_last_assistant_message() -> None:
    func = make_reward_func()
    with_tools = [
        {"role": "assistant", "content": "", "tool_calls": [{"name": "lookup"}]},
        {"role": "tool", "content": "Revenue 7%"},
        {"role": "assistant", "content": CLEAN},
    ]
    parts = [{"role": "assistant", "content": [{"type": "text", "text": DIRTY}]}]
    completions = [[{"role": "assistant", "content": CLEAN}], with_tools, parts]
    assert trl_call(func, completions, slice=[SLICE_JSON] * 3) == [1.0, 1.0, 0.0]


def test_trl_rows_without_a_slice_get_none_not_a_crash() -> None:
    func = make_reward_func()
    with pytest.warns(RuntimeWarning) as caught:
        rewards = trl_call(func, [CLEAN, CLEAN, CLEAN, 12345], slice=[None, "{not json", SLICE_JSON, SLICE_JSON])
    assert rewards == [None, None, 1.0, None]
    messages = [str(w.message) for w in caught]
    assert [m.split(" (prompt")[0] for m in messages] == [
        "qcgrade reward: batch row 0",
        "qcgrade reward: batch row 1",
        "qcgrade reward: batch row 3",
    ]
    assert messages[0].endswith("no slice in column 'slice'")


def test_trl_missing_column_gives_all_none_and_one_warning() -> None:
    func = make_reward_func()
    with pytest.warns(RuntimeWarning, match="no dataset column 'slice'") as caught:
        assert trl_call(func, [CLEAN, CLEAN], evidence=[SLICE_JSON] * 2) == [None, None]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert trl_call(func, [CLEAN], evidence=[SLICE_JSON]) == [None]  # warned once only
    assert len(caught) == 1


@pytest.mark.parametrize("column", [SLICE, SLICE_JSON, SLICE_JSON.encode()])
def test_trl_one_slice_instead_of_a_column_gives_none_not_a_crash(column: Any) -> None:
    """A dict would raise KeyError on column[0]; a string would be graded against its first character."""
    func = make_reward_func()
    with pytest.warns(RuntimeWarning, match="must hold one slice per completion"):
        assert trl_call(func, [CLEAN, CLEAN], slice=column) == [None, None]


def test_trl_slice_column_is_configurable_and_arrow_rows_work() -> None:
    func = make_reward_func(slice_column="evidence")
    assert trl_call(func, [CLEAN, DIRTY], evidence=[arrow_style(SLICE)] * 2) == [1.0, 0.0]


def test_trl_tier2_and_shaped_options() -> None:
    weak = dict(SLICE, cards=[dict(SLICE["cards"][0], status="weak"), *SLICE["cards"][1:]])
    assert trl_call(make_reward_func(), [CLEAN], slice=[weak]) == [1.0]
    tier2 = make_reward_func(tier2=True)
    assert tier2.__name__ == "qcgrade_tier2"
    assert trl_call(tier2, [CLEAN], slice=[weak]) == [0.0]
    shaped = make_reward_func(shaped=True)
    assert shaped.__name__ == "qcgrade_shaped"
    assert trl_call(shaped, [CLEAN, DIRTY], slice=[SLICE_JSON] * 2) == [1.0, pytest.approx(1 / 3)]


def test_trl_reward_func_survives_pickling() -> None:
    func = pickle.loads(pickle.dumps(make_reward_func(slice_column="s", tier2=True)))
    assert (func.slice_column, func.tier2, func.__name__) == ("s", True, "qcgrade_tier2")
    assert trl_call(func, [CLEAN], s=[SLICE_JSON]) == [1.0]


@pytest.mark.parametrize(
    ("completion", "text"),
    [
        ("plain", "plain"),
        ({"role": "assistant", "content": "one"}, "one"),
        ([{"role": "user", "content": "q"}], None),
        ([{"role": "assistant", "content": None}], ""),
        (
            [
                {
                    "role": "assistant",
                    "content": [{"type": "image"}, {"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
                }
            ],
            "ab",
        ),
        (3.5, None),
        ([], None),
    ],
)
def test_completion_text(completion: Any, text: str | None) -> None:
    assert completion_text(completion) == text


# --- verl ---------------------------------------------------------------------


def verl_naive_call(fn: Any, reward_kwargs: dict[str, Any], **call: Any) -> Any:
    """What verl's NaiveRewardManager does: keywords, reward_kwargs merged in (they win)."""
    return fn(**{**call, **reward_kwargs})


@pytest.mark.parametrize(
    ("ground_truth", "extra_info"),
    [
        (SLICE_JSON, None),
        (SLICE, {"index": 3}),
        (None, {"slice": SLICE_JSON, "num_turns": 1, "rollout_reward_scores": {}}),
        ("", {"slice": SLICE}),
        (arrow_style(SLICE), {"index": 0}),
    ],
    ids=["json", "dict", "extra-json", "extra-dict", "arrow-dict"],
)
def test_verl_finds_the_slice_in_every_documented_place(ground_truth: Any, extra_info: Any) -> None:
    for text, expected in ((CLEAN, 1.0), (DIRTY, 0.0)):
        value = verl_naive_call(
            compute_score,
            {},
            data_source="qcgrade",
            solution_str=text,
            ground_truth=ground_truth,
            extra_info=extra_info,
        )
        assert value == expected and type(value) is float


def test_verl_return_dict_via_reward_kwargs() -> None:
    out = verl_naive_call(
        compute_score,
        {"return_dict": True},
        data_source="qcgrade",
        solution_str=DIRTY,
        ground_truth=SLICE_JSON,
        extra_info=None,
    )
    expected = score(DIRTY, SLICE_JSON)
    assert out["score"] == 0.0
    assert out["qcgrade_violations"] == expected.violations == 2
    assert out["qcgrade_bare_number"] == 1 and out["qcgrade_orphan_citation"] == 1
    assert out["qcgrade_slice_error"] == 0
    assert list(out) == ["score", *stat_keys(False)]


def test_verl_bad_slice_scores_zero_with_the_same_keys() -> None:
    kwargs = {"return_dict": True, "tier2": True}
    good = verl_naive_call(compute_score, kwargs, data_source="x", solution_str=CLEAN, ground_truth=SLICE_JSON, extra_info=None)
    with pytest.warns(RuntimeWarning, match="unusable slice"):
        bad = verl_naive_call(compute_score, kwargs, data_source="x", solution_str=CLEAN, ground_truth="{", extra_info=None)
    with pytest.warns(RuntimeWarning, match="no slice"):
        missing = verl_naive_call(compute_score, kwargs, data_source="x", solution_str=CLEAN, ground_truth=None, extra_info={})
    assert list(good) == list(bad) == list(missing)  # verl stacks these per key across the batch
    assert good["score"] == 1.0 and good["qcgrade_slice_error"] == 0
    for row in (bad, missing):
        assert row["score"] == 0.0 and row["qcgrade_slice_error"] == 1 and row["qcgrade_violations"] == 0
    with pytest.warns(RuntimeWarning):
        assert compute_score(data_source="x", solution_str=CLEAN, ground_truth="{", extra_info=None) == 0.0


def test_verl_shaped_and_tier2_kwargs() -> None:
    call = {"data_source": "x", "solution_str": DIRTY, "ground_truth": SLICE_JSON, "extra_info": None}
    assert verl_naive_call(compute_score, {"shaped": True}, **call) == pytest.approx(1 / 3)
    tiers = verl_naive_call(compute_score, {"tier2": True, "return_dict": True}, **call)
    assert "qcgrade_coverage_floor" in tiers
    assert "qcgrade_coverage_floor" not in verl_naive_call(compute_score, {"return_dict": True}, **call)
    weak = dict(SLICE, cards=[dict(SLICE["cards"][0], status="weak"), *SLICE["cards"][1:]])
    clean_weak = {"data_source": "x", "solution_str": CLEAN, "ground_truth": weak, "extra_info": None}
    assert verl_naive_call(compute_score, {}, **clean_weak) == 1.0
    assert verl_naive_call(compute_score, {"tier2": True}, **clean_weak) == 0.0
    batch = compute_score_batch(data_sources=["x"], solution_strs=[CLEAN], ground_truths=[weak], extra_infos=[None], tier2=True)
    assert batch == [0.0]


def test_verl_batch_variant_matches_the_single_calls() -> None:
    texts = [CLEAN, DIRTY, CLEAN, CLEAN]
    truths = [SLICE_JSON, SLICE, None, "{"]
    extras = [None, {"index": 1}, {"slice": SLICE_JSON}, None]
    with pytest.warns(RuntimeWarning):
        batch = compute_score_batch(
            data_sources=FakeArray(["qcgrade"] * 4).tolist(),
            solution_strs=texts,
            ground_truths=truths,
            extra_infos=extras,
            return_dict=True,
        )
    with pytest.warns(RuntimeWarning):
        single = [compute_score("qcgrade", t, g, e, return_dict=True) for t, g, e in zip(texts, truths, extras, strict=True)]
    assert batch == single
    assert [row["score"] for row in batch if isinstance(row, dict)] == [1.0, 0.0, 1.0, 0.0]
    assert compute_score_batch(data_sources=["a"], solution_strs=[CLEAN], ground_truths=[SLICE_JSON], extra_infos=None) == [1.0]


# --- OpenRLHF -------------------------------------------------------------------


@pytest.fixture
def no_torch(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(sys.modules, "torch", None)  # makes `import torch` raise ImportError
    openrlhf_module._tensor_factory.cache_clear()
    yield
    openrlhf_module._tensor_factory.cache_clear()


@pytest.fixture
def fake_torch(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[list[float], Any]]]:
    made: list[tuple[list[float], Any]] = []
    module = types.ModuleType("torch")
    module.float32 = "float32-marker"  # type: ignore[attr-defined]

    def tensor(values: list[float], dtype: Any = None) -> tuple[str, list[float]]:
        made.append((list(values), dtype))
        return ("tensor", list(values))

    module.tensor = tensor  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torch", module)
    openrlhf_module._tensor_factory.cache_clear()
    yield made
    openrlhf_module._tensor_factory.cache_clear()


def test_openrlhf_one_sample_per_call_returns_lists_without_torch(no_torch: None) -> None:
    out = reward_func([PROMPT + CLEAN], [PROMPT], [SLICE_JSON])
    assert set(out) == {"rewards", "scores", "extra_logs"}
    assert out["rewards"] == [1.0] and out["scores"] == [1.0]
    assert list(out["extra_logs"]) == list(stat_keys(False))
    assert all(values == [0.0] for values in out["extra_logs"].values())
    dirty = reward_func([PROMPT + DIRTY], [PROMPT], [SLICE_JSON])
    assert dirty["rewards"] == [0.0] and dirty["scores"] == [0.0]
    assert dirty["extra_logs"]["qcgrade_violations"] == [2.0]
    assert dirty["extra_logs"]["qcgrade_orphan_citation"] == [1.0]


def test_openrlhf_returns_float32_tensors_when_torch_imports(fake_torch: list[tuple[list[float], Any]]) -> None:
    out = reward_func([PROMPT + DIRTY], [PROMPT], [SLICE_JSON])
    assert out["rewards"] == ("tensor", [0.0])
    assert out["scores"] == ("tensor", [0.0])
    assert out["extra_logs"]["qcgrade_violations"] == ("tensor", [2.0])
    assert len(fake_torch) == 2 + len(stat_keys(False))
    assert {dtype for _, dtype in fake_torch} == {"float32-marker"}


def test_openrlhf_strips_the_prompt_before_grading(no_torch: None) -> None:
    assert reward(PROMPT + CLEAN, SLICE_JSON) == 0.0  # the prompt's numbers would fail it
    assert reward_func([PROMPT + CLEAN], [PROMPT], [SLICE_JSON])["rewards"] == [1.0]


def test_openrlhf_bad_label_scores_zero_and_flags_it(no_torch: None) -> None:
    with pytest.warns(RuntimeWarning, match="unusable label"):
        out = reward_func([PROMPT + CLEAN], [PROMPT], ["{broken"])
    assert out["rewards"] == [0.0] and out["scores"] == [0.0]
    assert out["extra_logs"]["qcgrade_slice_error"] == [1.0]
    assert list(out["extra_logs"]) == list(reward_func([PROMPT + CLEAN], [PROMPT], [SLICE_JSON])["extra_logs"])


def test_openrlhf_never_raises_on_missing_lists_or_non_text_queries(no_torch: None) -> None:
    """The documented promise: a bad sample scores 0.0, flagged, and the call returns."""
    with pytest.warns(RuntimeWarning):
        for queries, prompts, labels in (
            ([PROMPT + CLEAN], [PROMPT], None),
            ([None], [PROMPT], [SLICE_JSON]),
            ([(PROMPT + CLEAN).encode()], [PROMPT], [SLICE_JSON]),
        ):
            out = reward_func(queries, prompts, labels)
            assert out["rewards"] == [0.0] and out["scores"] == [0.0]
            assert out["extra_logs"]["qcgrade_slice_error"] == [1.0]
    # No prompts at all: the whole query is the response.
    assert reward_func([CLEAN], None, [SLICE_JSON])["rewards"] == [1.0]


def test_verl_batch_without_solutions_is_an_empty_batch() -> None:
    assert compute_score_batch(data_sources=None, solution_strs=None, ground_truths=None, extra_infos=None) == []


def test_openrlhf_options_and_batches(no_torch: None) -> None:
    shaped = make_openrlhf_func(shaped=True)
    out = shaped([PROMPT + CLEAN, PROMPT + DIRTY], [PROMPT, PROMPT], [SLICE_JSON, SLICE])
    assert out["rewards"] == [1.0, pytest.approx(1 / 3)]
    assert out["scores"] == [1.0, 0.0]  # dynamic filtering keeps the 0/1 pass
    tier2 = make_openrlhf_func(tier2=True)([PROMPT + CLEAN], [PROMPT], [SLICE_JSON])
    assert "qcgrade_missing_stance" in tier2["extra_logs"]


def test_openrlhf_concurrent_calls_from_threads(no_torch: None) -> None:
    """OpenRLHF runs reward_func via asyncio.to_thread, one sample per call, concurrently."""
    texts = [CLEAN, DIRTY] * 8

    async def run() -> list[dict[str, Any]]:
        return await asyncio.gather(*(asyncio.to_thread(reward_func, [PROMPT + t], [PROMPT], [SLICE_JSON]) for t in texts))

    results = asyncio.run(run())
    assert [r["rewards"][0] for r in results] == [1.0, 0.0] * 8


@pytest.mark.parametrize(
    ("query", "prompt", "response"),
    [
        ("PROMPT:answer", "PROMPT:", "answer"),
        ("<s> PROMPT:answer", "PROMPT:", "answer"),  # a marker the tokenizer put in front
        ("MPT:answer", "PROMPT:", "answer"),  # prompt truncated on the left
        ("answer", "PROMPT:", "answer"),  # no overlap: all of it
        ("answer", "", "answer"),
        ("PROMPT:", "PROMPT:", ""),
    ],
)
def test_strip_prompt(query: str, prompt: str, response: str) -> None:
    assert strip_prompt(query, prompt) == response


@pytest.mark.timing
def test_strip_prompt_is_linear_on_adversarial_input() -> None:
    # The prompt never occurs in the query, and its longest suffix that
    # begins the query is all but one character: the worst case for overlap.
    small = ("a" * 49_999 + "b", "a" * 50_000)
    large = ("a" * 199_999 + "b", "a" * 200_000)
    assert strip_prompt(*small) == strip_prompt(*large) == "b"
    ratio = helpers.best_time(lambda: strip_prompt(*large)) / helpers.best_time(lambda: strip_prompt(*small))
    assert ratio < 11, ratio  # 4x the input: about 4x the time if linear, 16x if quadratic


# --- loading by file path, as verl and OpenRLHF do ------------------------------


def load_by_path(module: types.ModuleType, name: str) -> types.ModuleType:
    path = Path(module.__file__ or "")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def test_adapters_load_from_their_file_path(no_torch: None) -> None:
    verl_file = load_by_path(verl_module, "custom_module")  # verl's get_custom_reward_fn
    assert verl_file.compute_score(data_source="x", solution_str=CLEAN, ground_truth=SLICE_JSON, extra_info=None) == 1.0
    openrlhf_file = load_by_path(openrlhf_module, "reward_func")  # OpenRLHF's SingleTurnAgentExecutor
    assert openrlhf_file.reward_func([PROMPT + DIRTY], [PROMPT], [SLICE_JSON])["rewards"] == [0.0]
    trl_file = load_by_path(trl_module, "trl_reward_file")
    assert trl_call(trl_file.make_reward_func(), [CLEAN], slice=[SLICE_JSON]) == [1.0]
