"""CPU time a decision of a greedy network: the numpy forward a ``PPOAgent`` plays by against the torch forward,
on the same observations, in one run (``python -m spades_env.experiments.bench_act``).

The observations are those the network met in ``--games`` single hands against ``heuristic-v2`` (its own
decisions, forced ones included); each round times every one of them both ways, the ways alternating, on one
torch thread. ``torch``: ``PPOAgent.act`` with its numpy forward switched off (what it ran before ``greedy.py``);
``numpy``: ``PPOAgent.act`` as it plays. The actions are checked equal.

Then each agent of ``--agents`` that plays a network (``endgame:ppo-v3:...``) is timed whole, both ways: seats 0
and 2 against ``heuristic-v2`` over the same ``--games`` single hands (house rule), its ``act`` calls by process
time as ``time_agent`` times them, the torch way with the network's numpy forward switched off.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from contextlib import contextmanager, nullcontext

import numpy as np
import torch

from spades_env.agents.match import play_game
from spades_env.agents.ppo.model import PPOAgent
from spades_env.agents.registry import agent_spec_argument, make_agent
from spades_env.experiments.time_agent import Timed
from spades_env.game import SpadesConfig


def observations(spec: str, games: int, num_players: int) -> list[tuple[np.ndarray, np.ndarray]]:
    seen = []
    agent = make_agent(spec)
    inner = agent.act

    def recording(observation, mask, view=None):
        seen.append((np.array(observation, np.float32), np.array(mask, bool)))
        return inner(observation, mask, view)

    agent.act = recording
    config = SpadesConfig(num_players=num_players, single_hand=True)
    for seed in range(games):
        seats = [agent if seat % 2 == 0 else make_agent("heuristic-v2") for seat in range(num_players)]
        play_game(seats, seed=seed, config=config, ask_forced=True)
    return seen


class TorchOnly:
    """A stand-in for :class:`~spades_env.agents.ppo.greedy.GreedyForward` that leaves every decision to torch."""

    def act(self, observation: np.ndarray, mask: np.ndarray) -> None:
        return None


@contextmanager
def torch_forward(agent):
    """``agent`` (a ``PPOAgent`` or a wrapper holding one as ``.agent``) playing by the torch forward."""
    network = agent if isinstance(agent, PPOAgent) else agent.agent
    fast, network.fast = network.fast, TorchOnly()
    try:
        yield
    finally:
        network.fast = fast


def agent_times(spec: str, games: int, rounds: int) -> dict[str, list[float]]:
    """CPU ms a decision of ``spec`` at seats 0 and 2 over ``games`` house-rule single hands, each round both
    ways (after an untimed round: the compiled code's loading is start-up)."""
    rows: defaultdict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    agents = [Timed(make_agent(spec), rows), Timed(make_agent(spec), rows)]
    config = SpadesConfig.from_preset("house", single_hand=True)

    def play() -> float:
        rows.clear()
        for seed in range(games):
            play_game([agents[0], make_agent("heuristic-v2"), agents[1], make_agent("heuristic-v2")], seed=seed,
                      config=config)
        return 1000 * sum(spent for _, spent in rows.values()) / sum(count for count, _ in rows.values())

    play()
    times: dict[str, list[float]] = {"torch": [], "numpy": []}
    for _ in range(rounds):
        with torch_forward(agents[0].agent), torch_forward(agents[1].agent):
            times["torch"].append(play())
        times["numpy"].append(play())
    return times


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--agents", nargs="*", type=agent_spec_argument, default=["endgame:ppo-v3:tricks=4,bag_cost=10"])
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    print(f"{'network':10} {'decisions':>9} {'torch us':>9} {'numpy us':>9} {'ratio':>6}")
    for spec, players in (("ppo-v3", 4), ("ppo-2p", 2)):
        seen = observations(spec, args.games, players)
        agent = make_agent(spec)
        assert isinstance(agent, PPOAgent)
        with torch_forward(agent):
            by_torch = [agent.act(o, m) for o, m in seen]
        assert [agent.act(o, m) for o, m in seen] == by_torch, "the two forwards chose differently"
        times: dict[str, list[float]] = {"torch": [], "numpy": []}
        for _ in range(args.rounds):
            for name in ("torch", "numpy"):
                with torch_forward(agent) if name == "torch" else nullcontext():
                    start = time.process_time()
                    for observation, mask in seen:
                        agent.act(observation, mask)
                    times[name].append(1e6 * (time.process_time() - start) / len(seen))
        before, now = (statistics.median(times[k]) for k in ("torch", "numpy"))
        print(f"{spec:10} {len(seen):9d} {before:9.1f} {now:9.1f} {before / now:5.1f}x")
    for spec in args.agents:
        times = agent_times(spec, args.games, args.rounds)
        before, now = (statistics.median(times[k]) for k in ("torch", "numpy"))
        print(f"{spec}: CPU ms a decision, torch {before:.3f}, numpy {now:.3f} ({before / now:.2f}x; rounds: "
              + ", ".join(f"{a:.3f}/{b:.3f}" for a, b in zip(times["torch"], times["numpy"])) + ")")


if __name__ == "__main__":
    main()
