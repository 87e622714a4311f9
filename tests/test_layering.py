"""The layers: the engine, env, encoders and wrappers (``spades_env/``) never import the agents or the
experiments above them (a game never imports a bot)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HIGHER = ("spades_env.agents", "spades_env.experiments", "agents", "experiments")


def imported_modules(path: Path) -> set[str]:
    """Every module an ``import`` or ``from ... import`` statement of ``path`` names (relative ones resolved)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package if node.level else ""
            names.add(".".join(filter(None, (base, node.module or ""))))
    return names


def test_the_engine_layer_imports_nothing_above_it():
    offenders = {}
    for path in sorted((ROOT / "spades_env").rglob("*.py")):
        bad = {m for m in imported_modules(path) if any(m == h or m.startswith(h + ".") for h in HIGHER)}
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert not offenders, f"spades_env/ must not import agents or experiments: {offenders}"


def test_the_checker_sees_a_bad_import():
    bad = ROOT / "spades_env" / "_layering_probe.py"
    try:
        bad.write_text("from spades_env.agents.registry import make_agent\nfrom .agents import x\n")
        assert imported_modules(bad) >= {"spades_env.agents.registry", "spades_env.agents"}
    finally:
        bad.unlink()
