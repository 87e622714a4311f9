"""RLCard: a DQN for one side (seats 0 and 2 share it) against the heuristic, on ``rlcard.make("spades")``.

    pip install -e ".[rlcard]"
    python examples/rlcard_dqn.py --episodes 2000
    python examples/rlcard_dqn.py --episodes 8 --eval-games 20    # a smoke run

It trains RLCard's ``DQNAgent`` with RLCard's own loop (``env.run``, ``reorganize``, ``feed``), one hand an
episode, the heuristic (``heuristic-v2``, seated through ``AgentPlayer``) at seats 1 and 3; it saves the agent's
checkpoint (``save_checkpoint``) and scores that file, loaded as the agent ``rlcard:PATH``, in duplicate matches
against the heuristic and random; the same spec enters ``spades tournament``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
from pathlib import Path

import numpy as np
import rlcard
import torch
from rlcard.agents import DQNAgent
from rlcard.utils import reorganize

from spades_env.agents import make_agent
from spades_env.agents.library import score, score_lines
from spades_env.wrappers.rlcard import AgentPlayer

PARTNERS = (0, 2)  # the seats the DQN plays


def train(episodes: int = 2000, seed: int = 0, save: str | None = None, opponent: str = "heuristic-v2") -> list[float]:
    """RLCard's DQN loop; returns the side's payoff (points margin / 100) of each episode.

    With ``save``, the agent's checkpoint is written there (``save_checkpoint``: the ``rlcard:`` agent's format).
    """
    torch.manual_seed(seed)
    np.random.seed(seed)  # RLCard's DQN explores with NumPy's global generator ...
    random.seed(seed)  # ... and samples its replay memory with Python's
    env = rlcard.make("spades", config={"seed": seed})
    agent = DQNAgent(num_actions=env.num_actions, state_shape=env.state_shape[0], mlp_layers=[256, 256],
                     replay_memory_init_size=200, train_every=4, epsilon_decay_steps=20 * episodes)
    seats = [agent if seat in PARTNERS else AgentPlayer(make_agent(opponent), env, seed=seed + seat)
             for seat in range(env.num_players)]
    env.set_agents(seats)
    payoffs = []
    for _ in range(episodes):
        trajectories, payoff = env.run(is_training=True)
        transitions = reorganize(trajectories, payoff)
        with contextlib.redirect_stdout(io.StringIO()):  # DQNAgent prints its loss at every update
            for seat in PARTNERS:
                for ts in transitions[seat]:
                    agent.feed(ts)
        payoffs.append(float(payoff[PARTNERS[0]]))
    if save:
        path = Path(save)
        path.parent.mkdir(parents=True, exist_ok=True)
        agent.save_checkpoint(str(path.parent), path.name)
    return payoffs


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2000, help="hands played for training")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default="results/rlcard_dqn.pt", help="where the agent's checkpoint is saved")
    parser.add_argument("--eval-games", type=int, default=400, help="games per duplicate match (two per deal)")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # a small network: more CPU threads only contend
    payoffs = train(args.episodes, args.seed, args.save)
    step = max(1, len(payoffs) // 10)
    for start in range(0, len(payoffs), step):
        print(f"episodes {start}-{start + step - 1}: mean margin {100 * np.mean(payoffs[start:start + step]):+.1f} "
              "points a hand against the heuristic")
    print(f"saved {args.save}; scoring it as the agent rlcard:{args.save} on seeded single-hand deals")
    for line in score_lines(score(f"rlcard:{args.save}", games=args.eval_games, single_hand=True)):
        print(line)


if __name__ == "__main__":
    main()
