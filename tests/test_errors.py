"""One error tree: every exception qcgrade raises on purpose derives from QcgradeError."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from click.testing import CliRunner

import qcgrade
from qcgrade import errors
from qcgrade.cli import main

# Modules that need an optional extra (Ray) are skipped when it is missing.
_OPTIONAL = {"qcgrade.scale.ray", "qcgrade.ray"}


def _public_exceptions() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(qcgrade.__path__, "qcgrade."):
        if info.name.endswith("__main__") or info.name in _OPTIONAL:
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, BaseException) and not name.startswith("_"):
                if value.__module__.startswith("qcgrade"):
                    found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


def test_every_public_exception_derives_from_the_base() -> None:
    found = _public_exceptions()
    assert len(found) >= 10
    strays = sorted(name for name, cls in found.items() if not issubclass(cls, errors.QcgradeError))
    assert strays == []


def test_every_exception_is_defined_in_errors_and_drawn_in_its_tree() -> None:
    found = _public_exceptions()
    elsewhere = sorted(name for name in found if not name.startswith("qcgrade.errors."))
    assert elsewhere == []
    tree = errors.__doc__ or ""
    for cls in found.values():
        assert cls.__name__ in tree.split(), f"{cls.__name__} is missing from the tree in qcgrade/errors.py"


@pytest.mark.parametrize("name", ["SliceError", "UnknownCheckError", "UnknownDefectError", "NotApplicable", "RevertError"])
def test_former_value_errors_still_are(name: str) -> None:
    assert issubclass(getattr(errors, name), ValueError)


def test_the_cli_maps_the_base_to_exit_2_and_a_bug_to_exit_4(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    section = tmp_path / "s.md"
    section.write_text("Text [E1].\n", encoding="utf-8")
    (tmp_path / "s.json").write_text('{"section": "s1", "cards": [{"id": "E1", "stance": "bull"}]}', encoding="utf-8")
    check_cli = importlib.import_module("qcgrade.cli.check")  # the module, not the command it defines

    def bad_input(*args: object, **kwargs: object) -> None:
        raise errors.InputError("s.md: something the user can fix")

    monkeypatch.setattr(check_cli, "grade", bad_input)
    result = CliRunner().invoke(main, ["check", str(section)])
    assert result.exit_code == 2
    assert "s.md: something the user can fix" in result.output

    def bug(*args: object, **kwargs: object) -> None:
        raise ValueError("a bug, not bad input")

    monkeypatch.setattr(check_cli, "grade", bug)
    result = CliRunner().invoke(main, ["check", str(section)])
    assert result.exit_code == 4
    assert "internal error: ValueError: a bug, not bad input" in result.output
