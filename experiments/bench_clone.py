"""Microseconds per call of the search API: ``clone()`` against ``copy.deepcopy``, ``resample`` and
``information_state_key``, on mid-hand positions of both variants.

Positions: ``--positions`` games per variant, each played at random to its 6th trick (22 cards
played in the four-player game, 10 in the two-player game; Blind Nil is never bid, so the
positions are ordinary ones), seeds 0, 1, .... Each call is timed by ``timeit`` over many
repetitions and the best of ``--rounds`` rounds is kept (the least disturbed by other jobs);
the table gives the median over positions. ``resample`` is timed for seat 0.

    python -m spades_env.experiments.bench_clone
"""

from __future__ import annotations

import argparse
import copy
import random
import timeit

import numpy as np

from spades_env.determinize import information_state_key, resample
from spades_env.game import SpadesGame

CARDS_PLAYED = {4: 22, 2: 10}


def position(num_players: int, seed: int) -> SpadesGame:
    game = SpadesGame(num_players=num_players, blind_nil=False)
    game.reset(seed=seed)
    r = random.Random(seed)
    while len(game.plays) < CARDS_PLAYED[num_players]:
        game.apply(r.choice(game.legal_actions()))
    return game


def micros(call, number: int, rounds: int) -> float:
    return min(timeit.repeat(call, number=number, repeat=rounds)) / number * 1e6


def time_position(game: SpadesGame, rounds: int) -> tuple[float, float, float, float]:
    """(deepcopy, clone, resample, information_state_key) microseconds for one position."""
    rng = np.random.default_rng(0)
    return (micros(lambda: copy.deepcopy(game), 200, rounds), micros(game.clone, 5000, rounds),
            micros(lambda: resample(game, 0, rng), 300, rounds),
            micros(lambda: information_state_key(game, 0), 1000, rounds))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"{'players':>7} {'deepcopy µs':>12} {'clone µs':>9} {'ratio':>6} {'resample µs':>12} {'key µs':>7}")
    for n in (4, 2):
        rows = [time_position(position(n, seed), args.rounds) for seed in range(args.positions)]
        deep, clone, sample, key = (float(np.median(col)) for col in zip(*rows))
        print(f"{n:>7} {deep:>12.1f} {clone:>9.2f} {deep / clone:>5.0f}x {sample:>12.1f} {key:>7.1f}")
    print(f"(medians over {args.positions} positions of the best of {args.rounds} rounds)")


if __name__ == "__main__":
    main()
