"""Decisions per second of ``rlcard.make("spades")`` beside RLCard's own trick-taking game, ``bridge``, in one run.

Both play RLCard's ``RandomAgent`` at every seat through RLCard's loop (``env.run``: every decision asked, the
state dict built for it, the final states of every player), rounds alternating between the two games so that a
change of the host's speed reaches both; each line gives the median of the rounds and the ratio of the medians.
Bridge is the nearest peer RLCard ships (a deal of 52 cards to four players, bidding, 13 tricks); it has no
Spades.

Usage: ``python -m spades_env.experiments.bench_rlcard --seconds 5 --rounds 3`` (needs the ``rlcard`` extra).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def decisions_per_second(name: str, seconds: float, seed: int) -> float:
    import rlcard
    from rlcard.agents import RandomAgent

    import spades_env.wrappers.rlcard  # noqa: F401  (registers "spades")

    env = rlcard.make(name, config={"seed": seed})
    np.random.seed(seed)  # RandomAgent draws from NumPy's global generator
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    env.run()  # imports and first-call costs outside the timing
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        trajectories, _ = env.run()
        decisions += sum(len(t) // 2 for t in trajectories)
    return decisions / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="timed play per game and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    games = ("spades", "bridge")
    rates: dict[str, list[float]] = {name: [] for name in games}
    for r in range(args.rounds):
        for name in games if r % 2 == 0 else games[::-1]:
            rates[name].append(decisions_per_second(name, args.seconds, args.seed + r))
    peer = statistics.median(rates["bridge"])
    print(f"RLCard's loop, RandomAgent at every seat, median of {args.rounds} rounds of {args.seconds:g} s")
    for name in games:
        rate = statistics.median(rates[name])
        print(f"{name:>7}: {rate:9,.0f} decisions/s  {rate / peer:5.2f}x bridge  "
              f"(rounds: {', '.join(f'{x:,.0f}' for x in rates[name])})")


if __name__ == "__main__":
    main()
