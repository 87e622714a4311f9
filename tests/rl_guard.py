"""Helpers for the RL-library tests: count what reaches the rules engine, run torch on one thread, load examples,
and put a saved library policy through ``spades tournament``."""

from __future__ import annotations

import contextlib
import json
import runpy
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from spades_env import spades_v0
from spades_env.agents import make_agent
from spades_env.agents.tournament import cli
from spades_env.game import SpadesGame
from spades_env.records import read_games, replay_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@contextlib.contextmanager
def engine_actions() -> Iterator[dict[str, int]]:
    """Count every action applied to any :class:`SpadesGame` in this process, and the illegal ones.

    The count is taken before the engine checks the action, so an illegal
    action is counted even though the engine then raises.
    """
    counts = {"actions": 0, "illegal": 0}
    apply = SpadesGame.apply

    def counting_apply(game: SpadesGame, action) -> None:
        counts["actions"] += 1
        counts["illegal"] += not game.is_legal(int(action))
        apply(game, action)

    SpadesGame.apply = counting_apply
    try:
        yield counts
    finally:
        SpadesGame.apply = apply


@contextlib.contextmanager
def one_torch_thread() -> Iterator[None]:
    """Tiny networks on a shared 2-core machine: more threads only contend."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def example(name: str) -> dict:
    """The globals of ``examples/<name>.py`` (run without its ``__main__`` block)."""
    return runpy.run_path(str(EXAMPLES / f"{name}.py"), run_name=f"example_{name}")


def tournament_summary(spec: str, out: Path, workers: int = 2) -> dict:
    """``spades tournament --agents SPEC heuristic`` over one single-hand board (2 games) in ``workers`` processes.

    Each worker process builds the agent from ``spec`` itself, as a user's run
    does. Every game record is replayed through the engine (which rejects an
    illegal action), and the summary is returned.
    """
    assert cli.main(["--agents", spec, "heuristic", "--games", "2", "--single-hand", "--workers", str(workers),
                     "--out", str(out), "--no-progress", "--no-plot"]) == 0
    games = list(read_games(out / "games.jsonl"))
    assert len(games) == 2
    for game in games:
        replay_game(game)
    summary = json.loads((out / "summary.json").read_text())
    (pairing,) = summary["pairings"]
    assert pairing["games"] == 2 and pairing["boards"] == 1
    return summary


def assert_plays_legally(spec: str, seed: int = 0) -> None:
    """Load ``spec`` and check, at every seat's first decision, that it plays a legal action and obeys the mask.

    With every action allowed the policy names its favourite; when that one
    is then masked out (among the legal actions), it must choose another
    legal one.
    """
    env = spades_v0.env()
    env.reset(seed=seed)
    agent = make_agent(spec)
    seats_seen = set()
    while len(seats_seen) < env.unwrapped.game.num_players:
        name = env.agent_selection
        seat = env.possible_agents.index(name)
        obs = env.observe(name)
        agent.reset(seat, seed)
        legal = obs["action_mask"].astype(bool)
        action = agent.act(obs["observation"], obs["action_mask"], None)
        assert legal[action]
        favourite = agent.act(obs["observation"], np.ones_like(obs["action_mask"]), None)
        if legal[favourite] and legal.sum() > 1:
            masked = obs["action_mask"].copy()
            masked[favourite] = 0
            other = agent.act(obs["observation"], masked, None)
            assert other != favourite and masked[other]
        seats_seen.add(seat)
        env.step(action)
