"""The pytest plugin, run through pytest's own ``pytester``; and the assertion helper."""

from __future__ import annotations

import json
from importlib.metadata import entry_points
from pathlib import Path

import pytest

import helpers
from qcgrade.findings import Finding, Report
from qcgrade.grader import grade
from qcgrade.testing.asserts import SectionFailure, assert_passes, format_failure, glob_matcher

pytest_plugins = ["pytester"]

SECTION = helpers.FIXTURES / "cloudmeadow-saas" / "s3.md"
CLEAN = SECTION.read_text(encoding="utf-8")
SLICE_JSON = SECTION.with_suffix(".json").read_text(encoding="utf-8")
DIRTY = CLEAN + "\n\nRevenue grew 7% last year [EV-999].\n"
WEAK_SLICE = json.dumps(
    dict(
        json.loads(SLICE_JSON),
        cards=[dict(json.loads(SLICE_JSON)["cards"][0], status="weak"), *json.loads(SLICE_JSON)["cards"][1:]],
    )
)
# Where the two defects are, found independently of the grader's positions.
DEFECT_LINE = DIRTY.count("\n", 0, DIRTY.index("7%")) + 1
SEVEN_COL = DIRTY.index("7%") - DIRTY.rindex("\n", 0, DIRTY.index("7%"))
EV_COL = DIRTY.index("EV-999") - DIRTY.rindex("\n", 0, DIRTY.index("EV-999"))
INI = "[pytest]\nqcgrade_sections =\n    reports/**/*.md\n"


@pytest.fixture(autouse=True)
def plugin_autoload(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    # hypothesis's plugin costs about a second per inner session and is not under test.
    return pytester.runpytest("-p", "no:hypothesispytest", *args)


def write_section(
    pytester: pytest.Pytester, rel: str, text: str, slice_text: str | None = SLICE_JSON, slice_suffix: str = ".json"
) -> None:
    path = pytester.path / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if slice_text is not None:
        path.with_suffix(slice_suffix).write_text(slice_text, encoding="utf-8")


# --- the assertion helper (no pytester needed) ----------------------------------


def test_assert_passes_returns_the_report_for_a_clean_section() -> None:
    report = assert_passes(CLEAN, SLICE_JSON)
    assert report.passed


def test_assert_passes_lists_every_violation_with_its_text() -> None:
    with pytest.raises(SectionFailure) as caught:
        assert_passes(DIRTY, SLICE_JSON)
    assert isinstance(caught.value, AssertionError)
    lines = str(caught.value).splitlines()
    report = grade(DIRTY, SLICE_JSON)
    assert lines[0] == "section failed 2 qcgrade checks"
    assert len(lines) == 1 + len(report.findings)
    for line, finding in zip(lines[1:], report.findings, strict=True):
        quoted = json.dumps(DIRTY[finding.start : finding.end])
        assert line == f"  {finding.line}:{finding.column} {finding.check} {finding.message}: {quoted}"
    assert lines[1].startswith(f"  {DEFECT_LINE}:{SEVEN_COL} bare_number ") and lines[1].endswith(': "7%"')
    assert lines[2].startswith(f"  {DEFECT_LINE}:{EV_COL} orphan_citation ") and lines[2].endswith(': "EV-999"')
    assert caught.value.report == report


def test_one_violation_is_singular() -> None:
    with pytest.raises(SectionFailure, match=r"^section failed 1 qcgrade check\n"):
        assert_passes(CLEAN + "\n\nSee §zz.\n", SLICE_JSON)


def test_assert_passes_tier2() -> None:
    assert_passes(CLEAN, WEAK_SLICE)
    with pytest.raises(SectionFailure, match="unhedged_weak_card"):
        assert_passes(CLEAN, WEAK_SLICE, tier2=True)


def test_failure_quotes_are_one_line_and_bounded() -> None:
    text = "first\nsecond " + "y" * 200
    spanning = Finding("bare_number", "spans lines", 0, 12, 1, 1, 2, 7)
    long = Finding("broken_xref", "long", 13, len(text), 2, 8, 2, 208)
    report = Report((spanning, long), ("bare_number", "broken_xref"), text)
    lines = format_failure(report, "docs/a.md").splitlines()
    assert lines == [
        "section failed 2 qcgrade checks",
        '  docs/a.md:1:1 bare_number spans lines: "first\\nsecond"',
        '  docs/a.md:2:8 broken_xref long: "' + "y" * 30 + "..." + "y" * 30 + '"',
    ]


def test_empty_spans_are_not_quoted() -> None:
    report = grade("", SLICE_JSON)
    lines = format_failure(report).splitlines()[1:]
    assert lines and all(not line.endswith('""') for line in lines)
    assert any("missing_tldr" in line for line in lines)


def test_a_bad_slice_is_an_error_not_a_failure() -> None:
    with pytest.raises(Exception) as caught:
        assert_passes(CLEAN, "{")
    assert not isinstance(caught.value, AssertionError)


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("reports/**/*.md", "reports/a.md", True),
        ("reports/**/*.md", "reports/x/y/a.md", True),
        ("reports/**/*.md", "reportsx/a.md", False),
        ("reports/**/*.md", "reports/a.mdx", False),
        ("reports/*.md", "reports/x/a.md", False),
        ("*.md", "a.md", True),
        ("*.md", "d/a.md", False),
        ("s?.md", "s3.md", True),
        ("s[0-9].md", "s3.md", True),
        ("s[!0-9].md", "s3.md", False),
        ("s[!0-9].md", "sa.md", True),
        ("docs/**", "docs/x/y.md", True),
        ("a+b(c).md", "a+b(c).md", True),
    ],
)
def test_glob_matcher(pattern: str, path: str, matches: bool) -> None:
    assert glob_matcher([pattern])(path) is matches


def test_glob_matcher_with_no_patterns_matches_nothing() -> None:
    assert glob_matcher([])("a.md") is False
    assert glob_matcher(["", "  "])("a.md") is False


# --- the plugin, through pytester -----------------------------------------------


def test_entry_point_registers_the_plugin() -> None:
    plugins = {ep.name: ep.value for ep in entry_points(group="pytest11")}
    assert plugins.get("qcgrade") == "qcgrade.testing.plugin"


def test_a_passing_section_is_one_passing_item(pytester: pytest.Pytester) -> None:
    pytester.makeini(INI)
    write_section(pytester, "reports/acme/s3.md", CLEAN)
    pytester.makefile(".md", README="# not a section: outside the globs")
    result = run(pytester, "-v")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*reports/acme/s3.md::s3 PASSED*"])


def test_a_failing_section_shows_the_violation_list(pytester: pytest.Pytester) -> None:
    pytester.makeini(INI)
    write_section(pytester, "reports/acme/s3.md", DIRTY)
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "section failed 2 qcgrade checks",
            f"  reports/acme/s3.md:{DEFECT_LINE}:{SEVEN_COL} bare_number number '7%' *: \"7%\"",
            f'  reports/acme/s3.md:{DEFECT_LINE}:{EV_COL} orphan_citation citation [[]EV-999] names *: "EV-999"',
        ]
    )
    assert "Traceback" not in result.stdout.str()
    assert "def runtest" not in result.stdout.str()


def test_k_selects_by_section_name(pytester: pytest.Pytester) -> None:
    pytester.makeini(INI)
    write_section(pytester, "reports/acme/s3.md", CLEAN)
    write_section(pytester, "reports/acme/s9.md", DIRTY)
    run(pytester, "-k", "s3").assert_outcomes(passed=1, deselected=1)
    run(pytester, "-k", "s9").assert_outcomes(failed=1, deselected=1)
    run(pytester).assert_outcomes(passed=1, failed=1)


def test_slice_json_beside_as_name_dot_slice_json(pytester: pytest.Pytester) -> None:
    pytester.makeini(INI)
    write_section(pytester, "reports/s3.md", CLEAN, slice_suffix=".slice.json")
    run(pytester).assert_outcomes(passed=1)


def test_missing_slice_fails_that_item_with_one_line(pytester: pytest.Pytester) -> None:
    pytester.makeini(INI)
    write_section(pytester, "reports/s3.md", CLEAN)
    write_section(pytester, "reports/s4.md", CLEAN, slice_text=None)
    result = run(pytester)
    result.assert_outcomes(passed=1, failed=1)  # collection survived: s3 still ran
    result.stdout.fnmatch_lines(["reports/s4.md: no slice beside it: expected s4.json or s4.slice.json"])
    assert "Traceback" not in result.stdout.str()


def test_bad_slice_fails_that_item_with_one_line(pytester: pytest.Pytester) -> None:
    pytester.makeini(INI)
    write_section(pytester, "reports/s3.md", CLEAN, slice_text='{"section": "s3", "cards": [{"id": "E1", "stance": "up"}]}')
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*s3.json: cards[[]0].stance: Input should be 'bull' or 'bear'"])
    assert "Traceback" not in result.stdout.str()


def test_without_the_ini_option_nothing_is_collected(pytester: pytest.Pytester) -> None:
    write_section(pytester, "reports/s3.md", DIRTY)
    result = run(pytester, "reports")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_tier2_ini_option(pytester: pytest.Pytester) -> None:
    write_section(pytester, "reports/s3.md", CLEAN, slice_text=WEAK_SLICE)
    pytester.makeini(INI)
    run(pytester).assert_outcomes(passed=1)
    pytester.makeini(INI + "qcgrade_tier2 = true\n")
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*reports/s3.md:*unhedged_weak_card*"])


def test_configured_in_pyproject(pytester: pytest.Pytester) -> None:
    pytester.makepyprojecttoml('[tool.pytest.ini_options]\nqcgrade_sections = ["reports/**/*.md"]\n')
    write_section(pytester, "reports/deep/er/s3.md", DIRTY)
    run(pytester).assert_outcomes(failed=1)


def test_fixture_passes_and_fails_readably(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\n")
    pytester.makepyfile(
        test_sections=f"""
        CLEAN = {CLEAN!r}
        DIRTY = {DIRTY!r}
        SLICE = {SLICE_JSON!r}

        def test_clean(qcgrade_assert):
            assert qcgrade_assert(CLEAN, SLICE).passed

        def test_dirty(qcgrade_assert):
            qcgrade_assert(DIRTY, SLICE)
        """
    )
    result = run(pytester)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*qcgrade_assert(DIRTY, SLICE)",
            "E*section failed 2 qcgrade checks",
            f'E*{DEFECT_LINE}:{SEVEN_COL} bare_number *"7%"',
            f'E*{DEFECT_LINE}:{EV_COL} orphan_citation *"EV-999"',
        ]
    )
    assert "__tracebackhide__" not in result.stdout.str()


def test_fixture_follows_the_tier2_ini_option(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nqcgrade_tier2 = true\n")
    pytester.makepyfile(
        test_weak=f"""
        CLEAN = {CLEAN!r}
        SLICE = {WEAK_SLICE!r}

        def test_default_follows_ini(qcgrade_assert):
            qcgrade_assert(CLEAN, SLICE)

        def test_explicit_override(qcgrade_assert):
            qcgrade_assert(CLEAN, SLICE, tier2=False)
        """
    )
    result = run(pytester)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*_ test_default_follows_ini _*", "E*section failed 2 qcgrade checks", "E*unhedged_weak_card*"])


def test_load_with_autoload_disabled(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    pytester.makeini(INI)
    write_section(pytester, "reports/s3.md", CLEAN)
    run(pytester).assert_outcomes()  # not loaded: nothing collected
    run(pytester, "-p", "qcgrade").assert_outcomes(passed=1)


# --- one configuration: the plugin grades as `qcgrade check` does ------------------

POLICY_SLICE = json.dumps(
    {
        "section": "s1",
        "cards": [
            {"id": "E001", "stance": "bull", "claim": "Revenue grew 30%.", "quote": "Revenue grew 30% in FY25."},
            {"id": "E002", "stance": "bear", "status": "weak", "claim": "Churn may rise.", "quote": "Churn may rise."},
        ],
    }
)
# Each passes the defaults; one fails tier 2 (a weak card stated flatly), one grounding (30% quoted as 35%).
UNHEDGED = "Revenue grew 30% [E001]. Churn will rise [E002].\n"
MISQUOTED = "Revenue grew 35% [E001]. Churn may rise [E002].\n"
PROJECT = '[tool.pytest.ini_options]\nqcgrade_sections = ["reports/*.md"]\n\n[tool.qcgrade]\ntier2 = true\ngrounding = true\n'


def qcgrade_check(pytester: pytest.Pytester, *args: str) -> dict[str, bool]:
    """``qcgrade check reports`` run where pytest runs: each section's verdict."""
    from click.testing import CliRunner

    from qcgrade.cli import main

    assert Path.cwd() == pytester.path  # pytester works inside its folder, as a user would
    result = CliRunner().invoke(main, ["check", "reports", "--format", "json", *args])
    assert result.exit_code in (0, 1), result.stderr
    return {Path(s["path"]).stem: s["passed"] for s in json.loads(result.stdout)["sections"]}


def pytest_verdicts(result: pytest.RunResult) -> dict[str, bool]:
    reports = result.reprec.getreports("pytest_runtest_logreport")  # type: ignore[attr-defined]
    return {r.nodeid.rsplit("::", 1)[1]: r.passed for r in reports if r.when == "call"}


def policy_project(pytester: pytest.Pytester, pyproject: str = PROJECT) -> None:
    pytester.makepyprojecttoml(pyproject)
    write_section(pytester, "reports/s1.md", UNHEDGED, slice_text=POLICY_SLICE)
    write_section(pytester, "reports/s2.md", MISQUOTED, slice_text=POLICY_SLICE)
    write_section(pytester, "reports/s3.md", "Revenue grew 30% [E001]. Churn may rise [E002].\n", slice_text=POLICY_SLICE)


def test_one_pyproject_gives_pytest_and_check_the_same_verdicts(pytester: pytest.Pytester) -> None:
    policy_project(pytester)
    expected = {"s1": False, "s2": False, "s3": True}
    assert qcgrade_check(pytester) == expected
    result = run(pytester)
    result.assert_outcomes(passed=1, failed=2)
    assert pytest_verdicts(result) == expected
    result.stdout.fnmatch_lines(["*reports/s1.md:1:*unhedged_weak_card*", "*reports/s2.md:1:*value_mismatch*"])
    result.stdout.fnmatch_lines(["qcgrade: configuration from *pyproject.toml [[]tool.qcgrade[]]; checks: *value_mismatch*"])


@pytest.mark.parametrize(
    ("pytest_args", "check_args", "expected"),
    [
        (["--qcgrade-no-grounding"], ["--no-grounding"], {"s1": False, "s2": True, "s3": True}),
        (["--qcgrade-no-tier2"], ["--no-tier2"], {"s1": True, "s2": False, "s3": True}),
        (
            ["--qcgrade-no-tier2", "--qcgrade-no-grounding"],
            ["--no-tier2", "--no-grounding"],
            {"s1": True, "s2": True, "s3": True},
        ),
    ],
)
def test_the_plugin_switches_override_the_configuration_like_the_flags(
    pytester: pytest.Pytester, pytest_args: list[str], check_args: list[str], expected: dict[str, bool]
) -> None:
    policy_project(pytester)
    assert qcgrade_check(pytester, *check_args) == expected
    assert pytest_verdicts(run(pytester, *pytest_args)) == expected


def test_grounding_switch_in_the_ini_and_on_the_command_line(pytester: pytest.Pytester) -> None:
    policy_project(pytester, '[tool.pytest.ini_options]\nqcgrade_sections = ["reports/*.md"]\nqcgrade_grounding = true\n')
    assert pytest_verdicts(run(pytester)) == {"s1": True, "s2": False, "s3": True}
    assert pytest_verdicts(run(pytester, "--qcgrade-no-grounding")) == {"s1": True, "s2": True, "s3": True}
    assert pytest_verdicts(run(pytester, "--qcgrade-tier2")) == {"s1": False, "s2": False, "s3": True}


def test_an_explicit_configuration_file(pytester: pytest.Pytester) -> None:
    policy_project(pytester)
    (pytester.path / "ci").mkdir()
    (pytester.path / "ci" / "strict.toml").write_text('select = ["bare_number"]\n', encoding="utf-8")
    assert pytest_verdicts(run(pytester, "--qcgrade-config", "ci/strict.toml")) == {"s1": True, "s2": True, "s3": True}
    assert qcgrade_check(pytester, "--config", "ci/strict.toml") == {"s1": True, "s2": True, "s3": True}


def test_a_bad_configuration_stops_the_run_with_one_line(pytester: pytest.Pytester) -> None:
    policy_project(
        pytester, '[tool.pytest.ini_options]\nqcgrade_sections = ["reports/*.md"]\n\n[tool.qcgrade]\nextend-hedges = ["x"]\n'
    )
    result = run(pytester)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*qcgrade: *pyproject.toml: unknown key 'extend-hedges' (did you mean 'extend-hedge-words'?)*"])


def test_the_fixture_grades_with_the_project_configuration(pytester: pytest.Pytester) -> None:
    pytester.makepyprojecttoml("[tool.qcgrade]\ngrounding = true\n")
    pytester.makepyfile(
        test_policy=f"""
        SLICE = {POLICY_SLICE!r}

        def test_misquoted(qcgrade_assert):
            qcgrade_assert({MISQUOTED!r}, SLICE)

        def test_misquoted_without_grounding(qcgrade_assert):
            qcgrade_assert({MISQUOTED!r}, SLICE, grounding=False)
        """
    )
    result = run(pytester)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*_ test_misquoted _*", "E*value_mismatch*"])
