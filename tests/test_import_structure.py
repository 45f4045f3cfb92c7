"""The package imports downward: no module of qcgrade reaches, through its imports, back to itself.

An import circle works or breaks depending on which module happens to load
first: ``qcgrade simulate --html`` exited 4 in a fresh process while its test
passed inside the suite, where an earlier test had already imported the audit.
So the graph is read from the source (every ``import``, at module level,
inside functions and under ``TYPE_CHECKING`` alike) and must have no cycle,
and the commands that broke are run once each in a fresh interpreter.

Importing ``a.b.c`` from outside package ``a.b`` first runs ``a/b/__init__.py``,
so such an import is also an edge to that package; an ``__init__`` importing
its own submodules is not a circle. The root package ``qcgrade`` is left out:
every module lives in it, and it loads its heavy names lazily (PEP 562).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import helpers

PACKAGE = helpers.ROOT / "qcgrade"


def module_files() -> dict[str, Path]:
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(helpers.ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def imported_modules(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Every qcgrade module ``name`` imports, anywhere in its source."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = (
                ".".join(package[: len(package) - node.level + 1] + [node.module or ""]).strip(".") if node.level else node.module
            )
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    found.add(f"{base}.{alias.name}")
                elif base in known:
                    found.add(str(base))
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
    return found


def import_graph() -> dict[str, set[str]]:
    known = module_files()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 2)}
        targets = {t for t in imported_modules(name, path, known) if t != name and t != "qcgrade"}
        entered = {
            ".".join(t.split(".")[:i])
            for t in targets
            for i in range(2, t.count(".") + 1)
            if ".".join(t.split(".")[:i]) not in own
        }
        graph[name] = targets | entered
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_reader_sees_every_module_and_the_imports_it_should() -> None:
    graph = import_graph()
    assert len(graph) > 100
    # A module-level, a function-level and a package import, each read.
    assert "qcgrade.auditing.protocol" in graph["qcgrade.auditing.judges"]
    assert "qcgrade.auditing.openai_judge" in graph["qcgrade.auditing.judges"]
    assert "qcgrade.auditing" in graph["qcgrade.render.audit_html"]


def test_a_circle_is_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_package_has_no_import_circle() -> None:
    assert cycles(import_graph()) == []


def run_fresh(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "qcgrade", *args], cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "--rounds", "2", "--tasks-per-round", "100", "--html", "sim.html"),
        ("audit", "CORPUS", "--judge", "qcgrade", "--html", "sim.html", "-o", "audit.txt"),
    ],
    ids=["simulate", "audit"],
)
def test_html_pages_are_written_in_a_fresh_process(tmp_path: Path, args: tuple[str, ...]) -> None:
    corpus = helpers.copy_fixtures(tmp_path, ("brinewave-lines/s1",))
    result = run_fresh(*(str(corpus) if a == "CORPUS" else a for a in args), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "sim.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("module", ["qcgrade.render.audit_html", "qcgrade.auditing.composite", "qcgrade.auditing.prompt"])
def test_modules_that_were_in_a_circle_import_first(module: str) -> None:
    subprocess.run([sys.executable, "-c", f"import {module}"], check=True, timeout=120)
