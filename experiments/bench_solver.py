"""Time the double-dummy solver by tricks left: median and 90th-percentile time and nodes per solve.

Positions: random deals (fixed seed), bids and Blind Nil choices by the
heuristic agent (so contracts, Nil bids and bags look like real hands), then
uniformly random card play up to the start of the trick with the given
number of tricks left. Each solve runs on one core with the compiled search
already loaded (the compile or cache load is timed separately); ``--every-move``
times exact values for every legal card (what a search agent reads) instead of
the value and the optimal cards, and ``--one-best`` the value and one optimal
card (what a player of one optimal card needs; DDS's ``solutions=1``). A solve that needs more than ``--max-nodes``
is stopped and counted in ``capped`` (its time counts as infinite in the
percentiles); ``nil`` counts positions with a Nil bidder who has not taken a
trick yet, the hard case.

Usage: ``python -m spades_env.experiments.bench_solver --positions 30 --json solver.json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import sys
import time
from dataclasses import asdict, dataclass

import numpy as np

from spades_env import actions as A
from spades_env.agent import ask
from spades_env.agents.base import make_agent
from spades_env.game import Phase, SpadesGame
from spades_env.solver import NodeLimitReached, position_arrays, position_of, solve_arrays, warm_up


@dataclass
class Row:
    variant: str
    tricks_left: int
    positions: int
    nil: int
    capped: int
    median_ms: float
    p90_ms: float
    max_ms: float
    median_nodes: float
    p90_nodes: float


def random_position(rng: np.random.Generator, num_players: int, tricks_left: int, nil: bool = True) -> SpadesGame:
    """A game at the start of a trick with ``tricks_left`` tricks to play, reached as the module docstring says
    (with ``nil`` false, the heuristic's Nil and Blind Nil bids become bids of 1)."""
    game = SpadesGame(num_players=num_players, single_hand=True)
    seed = int(rng.integers(1 << 31))
    game.reset(seed=seed)
    bidder = make_agent("heuristic", seed=seed)  # seeded: its bids' jitter would otherwise vary by process
    while game.phase != Phase.PLAY:
        action = ask(bidder, game, None)
        if not nil and action in (A.BLIND_NIL, A.bid_action(0)):
            action = A.LOOK if action == A.BLIND_NIL else A.bid_action(1)
        game.apply(action)
    for _ in range(num_players * (13 - tricks_left)):
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    return game


def bench(num_players: int, tricks_left: int, positions: int, seed: int, every_move: bool, max_nodes: int,
          nil: bool = True, one_best: bool = False) -> Row:
    rng = np.random.default_rng([seed, num_players, tricks_left])
    times, nodes, standing = [], [], 0
    for _ in range(positions):
        arrays = position_arrays(position_of(random_position(rng, num_players, tricks_left, nil)))
        standing += bool(arrays["nil_bid"].any())
        start = time.perf_counter()
        try:
            _, _, searched = solve_arrays(**arrays, every_move=every_move, max_nodes=max_nodes, one_best=one_best)
        except NodeLimitReached:
            searched, elapsed = math.inf, math.inf
        else:
            elapsed = 1000 * (time.perf_counter() - start)
        times.append(elapsed)
        nodes.append(searched)
    def pct(values: list[float], q: int) -> float:  # no interpolation, so that a capped solve stays infinite
        return float(np.percentile(values, q, method="inverted_cdf"))
    capped = sum(t == math.inf for t in times)
    return Row(f"{num_players}p", tricks_left, positions, standing, capped, round(pct(times, 50), 3),
               round(pct(times, 90), 3), round(max(times), 3), pct(nodes, 50), pct(nodes, 90))


def show(row: Row) -> str:
    def number(x: float, digits: int) -> str:
        return "capped" if x == math.inf else f"{x:.{digits}f}"
    return (f"{row.variant:>7} {row.tricks_left:>6} {row.positions:>4} {row.nil:>4} {row.capped:>6} "
            f"{number(row.median_ms, 3):>10} {number(row.p90_ms, 3):>10} {number(row.max_ms, 3):>10} "
            f"{number(row.median_nodes, 0):>12} {number(row.p90_nodes, 0):>12}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=30, help="positions per row")
    parser.add_argument("--tricks", default="4,7,10,13", help="tricks left, comma-separated")
    parser.add_argument("--players", default="4,2", help="variants: 4 and/or 2 players")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--every-move", action="store_true", help="exact values for every legal card")
    parser.add_argument("--one-best", action="store_true", help="the value and one optimal card only")
    parser.add_argument("--max-nodes", type=int, default=20_000_000, help="stop a solve after this many nodes")
    parser.add_argument("--no-nil", action="store_true", help="the heuristic's Nil bids become bids of 1")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    warm_up()
    load_s = time.perf_counter() - start
    load_before = os.getloadavg()[0]
    mode = "every move exact" if args.every_move else "value + one best move" if args.one_best else "value + best moves"
    print(f"compile or cache load: {load_s:.1f} s; {mode}"
          f"{'; no Nil bids' if args.no_nil else ''}; load average {load_before:.2f}")
    print(f"{'variant':>7} {'tricks':>6} {'n':>4} {'nil':>4} {'capped':>6} {'median ms':>10} {'p90 ms':>10} "
          f"{'max ms':>10} {'median nodes':>12} {'p90 nodes':>12}")
    rows = []
    for players in (int(p) for p in args.players.split(",")):
        for tricks in (int(t) for t in args.tricks.split(",")):
            row = bench(players, tricks, args.positions, args.seed, args.every_move, args.max_nodes, not args.no_nil,
                        args.one_best)
            rows.append(row)
            print(show(row), flush=True)
    if args.json:
        meta = {"command": " ".join(["python -m spades_env.experiments.bench_solver", *sys.argv[1:]]),
                "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],  # at the start, at the end
                "seed": args.seed, "every_move": args.every_move,
                "one_best": args.one_best and not args.every_move, "load_s": round(load_s, 2),
                "max_nodes": args.max_nodes, "nil_bids": not args.no_nil,
                "machine": platform.processor() or platform.machine(), "python": platform.python_version()}
        with open(args.json, "w") as fh:
            finite = [{k: None if v == math.inf else v for k, v in asdict(r).items()} for r in rows]  # None: capped
            json.dump({"meta": meta, "rows": finite}, fh, indent=1)


if __name__ == "__main__":
    main()
