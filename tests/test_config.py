"""Configuration: [tool.qcgrade] / qcgrade.toml discovery, strict validation, flags over file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import helpers
from qcgrade import grade
from qcgrade.checks import CHECK_NAMES
from qcgrade.cli import main
from qcgrade.config import ConfigError, find_config, load_config, parse_settings
from qcgrade.options import DEFAULT_HEDGES, Options

SLICE = {"section": "s1", "cards": [{"id": "E001", "stance": "bull"}]}
# One orphan citation and one bare year: which fire depends on the configuration.
SECTION = "Revenue grew 30% [E001]. The firm was founded in 1999. Margins fell [E009].\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ({}, Options()),
        ({"select": ["bare_number"]}, Options(select=frozenset({"bare_number"}))),
        ({"ignore": ["bare_number", "missing_tldr"]}, Options(ignore=frozenset({"bare_number", "missing_tldr"}))),
        ({"tier2": True}, Options(tier2=True)),
        ({"hedge_words": ["maybe", "according to"]}, Options(hedge_words=("maybe", "according to"))),
        ({"hedge_words": []}, Options(hedge_words=())),
        ({"coverage_floor": 0}, Options(coverage_floor=0)),
        ({"coverage_floor": 3}, Options(coverage_floor=3)),
        ({"allow_years": True}, Options(allow_years=True)),
    ],
)
def test_valid_settings_become_options(table: dict, expected: Options) -> None:
    assert parse_settings(table) == expected


@pytest.mark.parametrize(
    ("table", "needle"),
    [
        ({"selct": ["bare_number"]}, "unknown key 'selct' (did you mean 'select'?)"),
        ({"allow_year": True}, "unknown key 'allow_year' (did you mean 'allow_years'?)"),
        ({"zzzzqqq": 1}, "unknown key 'zzzzqqq'; known keys:"),
        ({"select": "bare_number"}, "select: expected a list of check names, got a string"),
        ({"select": []}, "select: must name at least one check"),
        ({"select": ["bare_numbr"]}, "select: unknown check 'bare_numbr' (did you mean 'bare_number'?)"),
        ({"ignore": ["nope", 3]}, "ignore: expected a list of check names, got an array containing a non-string"),
        ({"ignore": ["no_such_check_here"]}, "ignore: unknown check 'no_such_check_here'"),
        ({"tier2": "yes"}, "tier2: expected true or false, got a string ('yes')"),
        ({"tier2": 1}, "tier2: expected true or false, got an integer (1)"),
        ({"allow_years": 0}, "allow_years: expected true or false, got an integer (0)"),
        ({"hedge_words": "may"}, "hedge_words: expected a list of strings, got a string"),
        ({"hedge_words": ["may", "  "]}, "hedge_words: contains an empty word"),
        ({"coverage_floor": -1}, "coverage_floor: must be >= 0, got -1"),
        ({"coverage_floor": True}, "coverage_floor: expected a whole number of cards, got a boolean (True)"),
        ({"coverage_floor": 2.5}, "coverage_floor: expected a whole number of cards, got a float (2.5)"),
    ],
)
def test_invalid_settings_name_the_key(table: dict, needle: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_settings(table, "here.toml")
    message = str(info.value)
    assert message.startswith("here.toml: ")
    assert needle in message
    assert "\n" not in message


def test_qcgrade_toml_wins_over_pyproject_in_the_same_directory(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.qcgrade]\ntier2 = true\n")
    write(tmp_path / "qcgrade.toml", "allow_years = true\n")
    config = load_config(start=tmp_path)
    assert config.source == (tmp_path / "qcgrade.toml").resolve()
    assert config.options == Options(allow_years=True)  # no merging with the pyproject table
    assert config.keys == {"allow-years"}  # keys as qcgrade spells them, whichever spelling the file used


def test_search_walks_up_and_skips_pyproject_without_the_table(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.qcgrade]\nselect = ["bare_number"]\n')
    inner = tmp_path / "pkg" / "sub"
    write(tmp_path / "pkg" / "pyproject.toml", '[project]\nname = "x"\n')  # no [tool.qcgrade]
    inner.mkdir(parents=True)
    assert find_config(inner) == (tmp_path / "pyproject.toml").resolve()
    config = load_config(start=inner)
    assert config.options.select == frozenset({"bare_number"})
    assert config.table == "[tool.qcgrade]"


def test_nearest_configuration_wins(tmp_path: Path) -> None:
    write(tmp_path / "qcgrade.toml", "tier2 = true\n")
    write(tmp_path / "a" / "qcgrade.toml", "tier2 = false\n")
    assert load_config(start=tmp_path / "a").options.tier2 is False
    assert load_config(start=tmp_path).options.tier2 is True


def test_explicit_file_is_read_at_its_top_level_unless_it_is_a_pyproject(tmp_path: Path) -> None:
    custom = write(tmp_path / "policy.toml", "coverage_floor = 2\n")
    assert load_config(custom).options.coverage_floor == 2
    bare = write(tmp_path / "other" / "pyproject.toml", '[project]\nname = "x"\n')
    with pytest.raises(ConfigError, match=r"pyproject.toml: no \[tool.qcgrade\] table"):
        load_config(bare)


@pytest.mark.parametrize(
    ("name", "text", "needle"),
    [
        ("qcgrade.toml", "tier2 = \n", "invalid TOML"),
        ("qcgrade.toml", "[section]\nx = 1\n", "unknown key 'section'"),
        ("pyproject.toml", "[tool]\nqcgrade = 3\n", "tool.qcgrade: expected a table, got an integer (3)"),
        ("pyproject.toml", '[tool.qcgrade]\nselect = ["orphan"]\n', "select: unknown check 'orphan'"),
        ("qcgrade.toml", "select = " + "[" * 5000 + "\n", "invalid TOML: nested too deeply"),
    ],
)
def test_bad_files_are_errors_naming_the_file(tmp_path: Path, name: str, text: str, needle: str) -> None:
    path = write(tmp_path / name, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value).startswith(str(path))
    assert needle in str(info.value)


def test_the_repository_configuration_is_valid() -> None:
    # Whatever configuration applies at the repository root must load, or every
    # `qcgrade` run from a checkout would exit 2.
    config = load_config(start=helpers.ROOT)
    # ...and leave some check to run (an isinstance test of the options could not fail).
    assert grade("Revenue grew 42% [E001].", SLICE, config.options).checks_run


# --- the command line -------------------------------------------------------


def run(args: list[str], cwd: Path) -> tuple[int, str, str]:
    import os

    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, args)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def test_config_command_prints_defaults_that_load_back(tmp_path: Path) -> None:
    code, out, err = run(["config"], tmp_path)
    assert code == 0, err
    assert out.startswith("# qcgrade configuration from defaults")
    reloaded = parse_settings(helpers.tomllib.loads(out))
    assert reloaded == Options()
    assert "# checks that run: orphan_citation, unregistered_metric, bare_number, broken_xref, missing_tldr" in out


def test_config_command_shows_file_and_flag_overrides(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.qcgrade]\ntier2 = true\nhedge_words = ["maybe"]\ncoverage_floor = 2\n')
    code, out, err = run(["config", "--no-tier2", "--ignore", "bare_number"], tmp_path)
    assert code == 0, err
    assert "pyproject.toml [tool.qcgrade]" in out.splitlines()[0]
    assert "# overridden by flags: ignore, tier2" in out
    assert 'hedge-words = ["maybe"]' in out and "coverage-floor = 2" in out
    reloaded = parse_settings(helpers.tomllib.loads(out))
    assert reloaded == Options(tier2=False, hedge_words=("maybe",), coverage_floor=2, ignore=frozenset({"bare_number"}))


def test_config_command_json(tmp_path: Path) -> None:
    write(tmp_path / "qcgrade.toml", 'select = ["bare_number", "orphan_citation"]\n')
    code, out, err = run(["config", "--format", "json", "--allow-years"], tmp_path)
    assert code == 0, err
    payload = json.loads(out)
    assert payload["source"] == str((tmp_path / "qcgrade.toml").resolve())
    assert payload["settings"]["select"] == ["bare_number", "orphan_citation"]
    assert payload["settings"]["allow-years"] is True
    assert payload["settings"]["hedge-words"] == list(DEFAULT_HEDGES)
    assert payload["checks"] == ["orphan_citation", "bare_number"]  # canonical order
    assert payload["overridden_by_flags"] == ["allow-years"]


@pytest.mark.parametrize(
    ("args", "files", "needle"),
    [
        (["config"], {"qcgrade.toml": "tier3 = true\n"}, "qcgrade.toml: unknown key 'tier3' (did you mean 'tier2'?)"),
        (["config", "--config", "missing.toml"], {}, "missing.toml: no such file"),
        (["config", "--select", "bare_nubmer"], {}, "--select: unknown check 'bare_nubmer' (did you mean 'bare_number'?)"),
        (
            ["check", "s.md"],
            {"qcgrade.toml": 'coverage_floor = "2"\n', "s.md": SECTION},
            "coverage_floor: expected a whole number",
        ),
        # A policy that selects nothing would pass every section.
        (
            ["check", "s.md"],
            {"qcgrade.toml": 'select = ["bare_number"]\nignore = ["bare_number"]\n', "s.md": SECTION},
            "qcgrade.toml: no check left to run",
        ),
        (["config", "--ignore", ",".join(CHECK_NAMES[:5])], {}, "--select/--ignore: no check left to run"),
    ],
)
def test_bad_configuration_is_one_line_and_exit_2(tmp_path: Path, args: list[str], files: dict, needle: str) -> None:
    for name, text in files.items():
        write(tmp_path / name, text)
    write(tmp_path / "s.json", json.dumps(SLICE))
    code, _, err = run(args, tmp_path)
    assert code == 2
    assert err.startswith("qcgrade: error: ")
    assert needle in err
    assert err.count("\n") == 1 and "Traceback" not in err


def findings_by_check(out: str) -> list[str]:
    return sorted(v["check"] for v in json.loads(out)["violations"])


@pytest.mark.parametrize(
    ("config", "flags", "expected"),
    [
        (None, [], ["bare_number", "orphan_citation"]),
        ("allow_years = true\n", [], ["orphan_citation"]),
        ("allow_years = true\n", ["--no-allow-years"], ["bare_number", "orphan_citation"]),
        ('select = ["bare_number"]\n', [], ["bare_number"]),
        ('select = ["bare_number"]\n', ["--select", "orphan_citation"], ["orphan_citation"]),
        ('ignore = ["orphan_citation"]\n', [], ["bare_number"]),
        ("tier2 = true\ncoverage_floor = 2\n", [], ["bare_number", "coverage_floor", "orphan_citation"]),
        ("tier2 = true\ncoverage_floor = 2\n", ["--coverage-floor", "1"], ["bare_number", "orphan_citation"]),
        ("tier2 = true\n", ["--no-tier2"], ["bare_number", "orphan_citation"]),
        # tier2 adds the tier-2 checks to an explicit selection too, from a flag or from the file.
        ('select = ["bare_number"]\ncoverage_floor = 2\n', ["--tier2"], ["bare_number", "coverage_floor"]),
        ('select = ["bare_number"]\ntier2 = true\ncoverage_floor = 2\n', [], ["bare_number", "coverage_floor"]),
        ('select = ["bare_number"]\ntier2 = true\ncoverage_floor = 2\n', ["--no-tier2"], ["bare_number"]),
        ("coverage_floor = 2\n", ["--select", "orphan_citation", "--tier2"], ["coverage_floor", "orphan_citation"]),
        ('select = ["bare_number"]\ncoverage_floor = 2\n', ["--tier2", "--ignore", "coverage_floor"], ["bare_number"]),
    ],
)
def test_check_honours_configuration_and_flags_override_it(
    tmp_path: Path, config: str | None, flags: list[str], expected: list[str]
) -> None:
    write(tmp_path / "s.md", SECTION)
    write(tmp_path / "s.json", json.dumps(SLICE))
    if config is not None:
        write(tmp_path / "pyproject.toml", "[tool.qcgrade]\n" + config)
    code, out, err = run(["check", "s.md", "--format", "json", *flags], tmp_path)
    assert code == 1, err
    assert findings_by_check(out) == expected


def test_check_with_explicit_config_ignores_the_discovered_one(tmp_path: Path) -> None:
    write(tmp_path / "s.md", SECTION)
    write(tmp_path / "s.json", json.dumps(SLICE))
    write(tmp_path / "qcgrade.toml", 'select = ["bare_number"]\n')
    write(tmp_path / "ci" / "strict.toml", 'select = ["orphan_citation"]\n')
    code, out, _ = run(["check", "s.md", "--format", "json", "--config", "ci/strict.toml"], tmp_path)
    assert code == 1
    assert findings_by_check(out) == ["orphan_citation"]


def test_every_check_name_is_accepted_in_select() -> None:
    assert parse_settings({"select": list(CHECK_NAMES)}).select == frozenset(CHECK_NAMES)


def test_config_lists_the_tier2_checks_a_selection_gains(tmp_path: Path) -> None:
    write(tmp_path / "qcgrade.toml", 'select = ["bare_number"]\n')
    code, out, _ = run(["config", "--tier2", "--format", "json"], tmp_path)
    assert code == 0
    assert json.loads(out)["checks"] == [
        "bare_number",
        "unhedged_weak_card",
        "missing_stance",
        "coverage_floor",
        "spelled_number",
    ]


def test_grounding_adds_the_tier3_checks_to_a_selection_like_tier2() -> None:
    from qcgrade.checks import CHECKS
    from qcgrade.grader import active_checks

    tier3 = [c.name for c in CHECKS if c.tier == 3]
    assert tier3
    chosen = [c.name for c in active_checks(Options(select=frozenset({"bare_number"}), grounding=True))]
    assert chosen == ["bare_number", *tier3]
    assert [c.name for c in active_checks(Options(select=frozenset({"bare_number"})))] == ["bare_number"]


# --- extend, do not replace (ruff's select / extend-select) ------------------------------

WEAK_SLICE = {
    "section": "s1",
    "cards": [{"id": "E001", "stance": "bull"}, {"id": "E003", "stance": "bear", "status": "weak"}],
}
# Hedged with a built-in hedge word ("likely"): passes tier 2 unless the built-ins are replaced.
HEDGED = "Demand grew [E001]. A price war is likely a risk [E003].\n"


def usage_config_example() -> dict:
    """The [tool.qcgrade] example of docs/usage.md, parsed as a user would copy it."""
    text = (helpers.ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
    block = text.split("## Configuration", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    return helpers.tomllib.loads(block)["tool"]["qcgrade"]


def test_the_documented_example_keeps_the_built_in_hedges() -> None:
    table = usage_config_example()
    options = parse_settings(table, "docs/usage.md")
    assert set(DEFAULT_HEDGES) <= set(options.hedge_words)
    assert len(options.hedge_words) > len(DEFAULT_HEDGES)
    # A sentence the built-in hedges pass still passes unhedged_weak_card with the documented policy.
    assert grade(HEDGED, WEAK_SLICE, Options(tier2=True)).passed
    report = grade(HEDGED, WEAK_SLICE, options.with_(tier2=True))
    assert "unhedged_weak_card" in report.checks_run
    assert "unhedged_weak_card" not in {f.check for f in report.findings}


@pytest.mark.parametrize(
    ("table", "hedges"),
    [
        ({"extend-hedge-words": ["plausibly"]}, (*DEFAULT_HEDGES, "plausibly")),
        ({"extend_hedge_words": ["plausibly", "may"]}, (*DEFAULT_HEDGES, "plausibly")),  # no duplicates
        ({"hedge-words": ["plausibly"]}, ("plausibly",)),
        ({"hedge_words": ["plausibly"], "extend-hedge-words": ["maybe"]}, ("plausibly", "maybe")),
        ({"hedge-words": []}, ()),
    ],
)
def test_extend_adds_to_the_built_in_hedges_and_the_plain_key_replaces_them(table: dict, hedges: tuple) -> None:
    assert parse_settings(table).hedge_words == hedges


def test_replacing_the_hedges_is_what_fails_the_hedged_sentence() -> None:
    replaced = parse_settings({"hedge-words": ["estimate", "reportedly", "may", "could", "suggests"], "tier2": True})
    assert [f.check for f in grade(HEDGED, WEAK_SLICE, replaced).findings] == ["unhedged_weak_card"]
    extended = parse_settings({"extend-hedge-words": ["plausibly"], "tier2": True})
    assert grade(HEDGED, WEAK_SLICE, extended).passed


@pytest.mark.parametrize(
    ("table", "select", "ignore"),
    [
        (
            {"extend-select": ["coverage_floor"]},
            {"orphan_citation", "unregistered_metric", "bare_number", "broken_xref", "missing_tldr", "coverage_floor"},
            set(),
        ),
        ({"select": ["bare_number"], "extend-select": ["coverage_floor"]}, {"bare_number", "coverage_floor"}, set()),
        ({"extend-select": []}, {"orphan_citation", "unregistered_metric", "bare_number", "broken_xref", "missing_tldr"}, set()),
        ({"extend-ignore": ["bare_number"]}, None, {"bare_number"}),
        ({"ignore": ["bare_number"], "extend-ignore": ["missing_tldr"]}, None, {"bare_number", "missing_tldr"}),
    ],
)
def test_extend_select_and_extend_ignore(table: dict, select: set | None, ignore: set) -> None:
    options = parse_settings(table)
    assert options.select == (frozenset(select) if select is not None else None)
    assert options.ignore == frozenset(ignore)


@pytest.mark.parametrize(
    ("table", "needle"),
    [
        ({"extend-hedges": ["x"]}, "unknown key 'extend-hedges' (did you mean 'extend-hedge-words'?)"),
        ({"extend_selct": ["bare_number"]}, "unknown key 'extend_selct' (did you mean 'extend_select'?)"),
        ({"extend-tier2": True}, "unknown key 'extend-tier2'"),
        ({"hedge_words": ["a"], "hedge-words": ["b"]}, "'hedge-words' and 'hedge_words' are the same key; give it once"),
        ({"extend-select": ["bare_numbr"]}, "extend-select: unknown check 'bare_numbr' (did you mean 'bare_number'?)"),
        ({"extend-hedge-words": "may"}, "extend-hedge-words: expected a list of strings, got a string"),
    ],
)
def test_bad_extend_keys_are_one_line_errors(table: dict, needle: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_settings(table, "here.toml")
    assert str(info.value).startswith("here.toml: ") and needle in str(info.value)


def test_flags_extend_or_replace_the_file_by_the_same_rules(tmp_path: Path) -> None:
    write(tmp_path / "qcgrade.toml", 'extend-hedge-words = ["plausibly"]\nextend-select = ["coverage_floor"]\n')
    code, out, err = run(["config", "--format", "json", "--extend-hedge-words", "conceivably"], tmp_path)
    assert code == 0, err
    settings = json.loads(out)["settings"]
    assert settings["hedge-words"] == [*DEFAULT_HEDGES, "plausibly", "conceivably"]
    assert "coverage_floor" in settings["select"] and "bare_number" in settings["select"]
    code, out, _ = run(["config", "--format", "json", "--hedge-words", "maybe", "--select", "bare_number"], tmp_path)
    assert json.loads(out)["settings"]["hedge-words"] == ["maybe"]
    assert json.loads(out)["settings"]["select"] == ["bare_number"]
    code, out, _ = run(
        ["config", "--format", "json", "--extend-select", "missing_stance", "--extend-ignore", "bare_number"], tmp_path
    )
    payload = json.loads(out)
    assert {"coverage_floor", "missing_stance"} <= set(payload["settings"]["select"])
    assert "bare_number" not in payload["checks"]
    code, _, err = run(["config", "--extend-select", "coverage_flor"], tmp_path)
    assert code == 2 and "--extend-select: unknown check 'coverage_flor' (did you mean 'coverage_floor'?)" in err


def test_the_printed_configuration_loads_back_with_extensions_folded_in(tmp_path: Path) -> None:
    write(tmp_path / "qcgrade.toml", 'extend-hedge-words = ["plausibly"]\nallow_years = true\n')
    code, out, _ = run(["config"], tmp_path)
    assert code == 0
    assert parse_settings(helpers.tomllib.loads(out)) == load_config(start=tmp_path).options
