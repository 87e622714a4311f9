"""What gets installed: one top-level package, ``spades_env``, even though the repository keeps ``agents/`` and
``experiments/`` at its top level. A user's own ``agents`` package must not shadow ours."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]

USER_AGENTS = '''"""A user's own agents package, named like ours."""
class LowestCard:
    def act(self, observation, action_mask, view):
        return int(action_mask.nonzero()[0][0])
'''

GYM_SCRIPT = '''
import gymnasium, numpy as np
import agents  # the user's package
import spades_env.wrappers  # registers spades_env/Spades-v0
env = gymnasium.make("spades_env/Spades-v0", opponents="heuristic", single_hand=True)
obs, info = env.reset(seed=1)
done = False
while not done:
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    done = terminated or truncated
print("gym ok", agents.LowestCard.__module__)
'''


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300)


def test_every_package_folder_is_installed_under_spades_env():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    dirs = {"spades_env": "spades_env", **config["package-dir"]}
    installed = set(config["packages"])
    for name, folder in dirs.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            sub = init.parent.relative_to(ROOT / folder).parts
            assert ".".join((name, *sub)) in installed, f"{init.parent} is not listed in pyproject's packages"
    assert all(p.split(".")[0] == "spades_env" for p in installed)


def test_a_user_project_with_its_own_agents_package(tmp_path):
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "__init__.py").write_text(USER_AGENTS)
    gym = _run([sys.executable, "-c", GYM_SCRIPT], tmp_path)
    assert gym.returncode == 0, gym.stderr
    assert "gym ok agents" in gym.stdout

    out = tmp_path / "t"
    tour = _run([sys.executable, "-m", "spades_env.agents.cli", "tournament", "--agents", "heuristic",
                 "agents:LowestCard", "--games", "2", "--single-hand", "--workers", "1", "--no-plot",
                 "--no-progress", "--out", str(out)], tmp_path)
    assert tour.returncode == 0, tour.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games_played"] == 2 and summary["pairings"][0]["b"] == "agents:LowestCard"
