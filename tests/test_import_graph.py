"""The import graph: the engine loads alone (no gymnasium, pettingzoo or torch behind ``import
spades_env.game``), the package's names still load on first use, and no modules import each other
in a cycle (a cycle makes the import order matter and hides which layer is below which)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Where each importable tree lives, and its name once installed (pyproject's package-dir).
TREES = {"spades_env": "spades_env", "agents": "spades_env.agents", "experiments": "spades_env.experiments"}
HEAVY = ("gymnasium", "pettingzoo", "torch")


def module_files() -> dict[str, Path]:
    """Every module of the package by its installed dotted name (a package by its ``__init__``)."""
    modules = {}
    for folder, name in TREES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join((name, *parts))] = path
    return modules


def _is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING"))


def _import_nodes(tree: ast.AST):
    """The import statements that run (those under ``if TYPE_CHECKING:`` only serve annotations)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif not _is_type_checking_block(node):
            yield from _import_nodes(node)


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that the module ``name`` (file ``path``) imports, anywhere in its body."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            if node.level:
                base = ".".join(filter(None, (base, node.module or "")))
            else:
                base = node.module or ""
            # ``from pkg import sub`` imports the module pkg.sub; ``from mod import name`` the module mod
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        for target in targets:
            while target and target not in modules:  # ``import a.b.c`` of a non-module tail: its module
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def test_no_modules_import_each_other():
    modules = module_files()
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    assert graph["spades_env.game"] >= {"spades_env.cards", "spades_env.scoring"}  # the parser sees imports
    assert import_cycles(graph) == [], "modules importing each other (move what both need into a module below them)"


def test_the_cycle_finder_sees_a_cycle_and_skips_type_checking_imports(tmp_path):
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []
    probe = tmp_path / "probe.py"
    probe.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import SpadesGame\n"
                     "def f():\n    from . import cards\n    import spades_env.scoring\n")
    modules = dict.fromkeys(("spades_env.game", "spades_env.cards", "spades_env.scoring", "spades_env.probe"), probe)
    assert imports_of("spades_env.probe", probe, modules) == {"spades_env.cards", "spades_env.scoring"}


def _loaded_after(statement: str) -> set[str]:
    code = f"import sys\n{statement}\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return set(result.stdout.split())


@pytest.mark.parametrize("statement", ["import spades_env.game", "import spades_env.solver",
                                       "import spades_env.determinize, spades_env.view, spades_env.scoring",
                                       "from spades_env import SpadesGame, SpadesConfig"])
def test_the_engine_loads_without_gymnasium_pettingzoo_or_torch(statement):
    assert _loaded_after(statement) == set()


def test_the_package_names_load_on_first_use():
    assert _loaded_after("from spades_env import spades_v0") >= {"gymnasium", "pettingzoo"}
    import spades_env

    for name in spades_env.__all__:
        assert getattr(spades_env, name) is not None
    assert spades_env.render.__name__ == "spades_env.render"  # any submodule, as after an eager import
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        spades_env.no_such_name  # noqa: B018
