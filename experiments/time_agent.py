"""CPU milliseconds per decision of any registry agent, on one thread, over single-hand games.

The agent plays seat 0 (and its partner's seat in the four-player game)
against the heuristic, hands dealt from seeds ``--seed``, ``--seed + 1``, ...;
only the agent's own ``act`` calls are timed, by process CPU time, with
torch on one thread (a forced move, the only legal one, is played without
asking, as in a tournament). Issue 14's goal for a distilled network is under 1 ms::

    python -m spades_env.experiments.time_agent ppo-2p --num-players 2
    python -m spades_env.experiments.time_agent ppo --games 100
"""

from __future__ import annotations

import argparse
import time

import torch

from spades_env.agents.match import play_game
from spades_env.agents.registry import make_agent
from spades_env.game import SpadesConfig


class Timed:
    """An agent seen through a stopwatch: ``act`` is timed, everything else (``reset``, the observation kind it
    reads, the variants it plays) is the agent's own."""

    def __init__(self, agent) -> None:
        self.agent, self.spent, self.decisions = agent, 0.0, 0

    def __getattr__(self, name: str):
        return getattr(self.agent, name)

    def act(self, observation, action_mask, view) -> int:
        start = time.process_time()
        action = self.agent.act(observation, action_mask, view)
        self.spent += time.process_time() - start
        self.decisions += 1
        return action


def time_agent(spec: str, num_players: int, games: int, seed: int) -> tuple[int, float]:
    """(decisions, CPU ms per decision) of ``spec`` over ``games`` single hands (forced moves are not asked)."""
    timed = [Timed(make_agent(spec)) for _ in range(num_players // 2)]
    seats = [seat for agent in timed for seat in (agent, make_agent("heuristic"))]
    for game in range(games):
        play_game(seats, seed=seed + game, config=SpadesConfig(num_players=num_players, single_hand=True),
                  agent_seeds=[seed + game] * num_players)  # a seeded agent replays its choices: the same decisions
    decisions = sum(agent.decisions for agent in timed)
    return decisions, 1000 * sum(agent.spent for agent in timed) / max(decisions, 1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("agent", help="a registry agent spec, e.g. ppo-2p or search:worlds=8")
    parser.add_argument("--num-players", type=int, choices=(4, 2), default=4, help="the variant")
    parser.add_argument("--games", type=int, default=200, help="single-hand games to time")
    parser.add_argument("--seed", type=int, default=10_000, help="the first game's deal seed")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    decisions, ms = time_agent(args.agent, args.num_players, args.games, args.seed)
    print(f"{args.agent}: {decisions} decisions, {ms:.3f} CPU ms per decision "
          f"({args.num_players} players, one thread)")


if __name__ == "__main__":
    main()
