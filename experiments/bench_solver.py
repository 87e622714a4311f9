"""Time the double-dummy solver by tricks left: median and 90th-percentile time and nodes per solve.

Positions: random deals (fixed seed), bids and Blind Nil choices by the
heuristic agent (so contracts, Nil bids and bags look like real hands), then
uniformly random card play up to the start of the trick with the given
number of tricks left. Each solve runs on one core with the compiled search
already loaded (the compile or cache load is timed separately); ``--every-move``
times exact values for every legal card (what a search agent reads) instead of
the value and the optimal cards.

Usage: ``python -m spades_env.experiments.bench_solver --positions 30 --json solver.json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from dataclasses import asdict, dataclass

import numpy as np

from spades_env.agent import ask
from spades_env.agents.base import make_agent
from spades_env.game import Phase, SpadesGame
from spades_env.solver import position_arrays, position_of, solve_arrays, warm_up


@dataclass
class Row:
    variant: str
    tricks_left: int
    positions: int
    median_ms: float
    p90_ms: float
    max_ms: float
    median_nodes: int
    p90_nodes: int


def random_position(rng: np.random.Generator, num_players: int, tricks_left: int) -> SpadesGame:
    """A game at the start of a trick with ``tricks_left`` tricks to play, reached as the module docstring says."""
    game = SpadesGame(num_players=num_players, single_hand=True)
    game.reset(seed=int(rng.integers(1 << 31)))
    bidder = make_agent("heuristic")
    while game.phase != Phase.PLAY:
        game.apply(ask(bidder, game, None))
    for _ in range(num_players * (13 - tricks_left)):
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    return game


def bench(num_players: int, tricks_left: int, positions: int, seed: int, every_move: bool) -> Row:
    rng = np.random.default_rng([seed, num_players, tricks_left])
    times, nodes = [], []
    for _ in range(positions):
        arrays = position_arrays(position_of(random_position(rng, num_players, tricks_left)))
        start = time.perf_counter()
        _, _, searched = solve_arrays(**arrays, every_move=every_move)
        times.append(1000 * (time.perf_counter() - start))
        nodes.append(searched)
    return Row(f"{num_players}p", tricks_left, positions, round(float(np.median(times)), 3),
               round(float(np.percentile(times, 90)), 3), round(max(times), 3), int(np.median(nodes)),
               int(np.percentile(nodes, 90)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=30, help="positions per row")
    parser.add_argument("--tricks", default="4,7,10,13", help="tricks left, comma-separated")
    parser.add_argument("--players", default="4,2", help="variants: 4 and/or 2 players")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--every-move", action="store_true", help="exact values for every legal card")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    warm_up()
    load_s = time.perf_counter() - start
    print(f"compile or cache load: {load_s:.1f} s; {'every move exact' if args.every_move else 'value + best moves'}")
    print(f"{'variant':>7} {'tricks':>6} {'n':>4} {'median ms':>10} {'p90 ms':>9} {'max ms':>9} "
          f"{'median nodes':>13} {'p90 nodes':>10}")
    rows = []
    for players in (int(p) for p in args.players.split(",")):
        for tricks in (int(t) for t in args.tricks.split(",")):
            row = bench(players, tricks, args.positions, args.seed, args.every_move)
            rows.append(row)
            print(f"{row.variant:>7} {row.tricks_left:>6} {row.positions:>4} {row.median_ms:>10.3f} "
                  f"{row.p90_ms:>9.3f} {row.max_ms:>9.3f} {row.median_nodes:>13} {row.p90_nodes:>10}", flush=True)
    if args.json:
        meta = {"seed": args.seed, "every_move": args.every_move, "load_s": round(load_s, 2),
                "machine": platform.processor() or platform.machine(), "python": platform.python_version()}
        with open(args.json, "w") as fh:
            json.dump({"meta": meta, "rows": [asdict(r) for r in rows]}, fh, indent=1)


if __name__ == "__main__":
    main()
