"""Time the double-dummy solver by tricks left: median and 90th-percentile time and nodes per solve.

Positions: random deals (fixed seed), bids and Blind Nil choices by the
first heuristic agent (``heuristic-v1``) (so contracts, Nil bids and bags look like real hands), then
uniformly random card play up to the start of the trick with the given
number of tricks left. Each solve runs on one core with the compiled search
already loaded (the compile or cache load is timed separately); ``--every-move``
times exact values for every legal card (what a search agent reads) instead of
the value and the optimal cards, and ``--one-best`` the value and one optimal
card (what a player of one optimal card needs; DDS's ``solutions=1``). A solve that needs more than ``--max-nodes``
is stopped and counted in ``capped`` (its time counts as infinite in the
percentiles); ``nil`` counts positions with a Nil bidder who has not taken a
trick yet, the hard case. ``total nodes`` sums the solves that finished: node
counts do not depend on the machine, so they compare two versions of the
solver on a loaded machine where times do not (``--nodes`` prints every
position's count).

``--dds`` (four players; needs ``pip install endplay``, a benchmark-only
dependency) solves the same deals, tricks only with spades as trumps, with
the bridge solver DDS in the same process, in the mode matching this run's
(every card, the optimal cards, one optimal card), and prints its median and
p90 beside ours and the ratio of the medians. DDS knows neither Nil, bags nor
the rule against leading spades before they are broken, so the ratio is a
speed anchor, not a like-for-like comparison; ``tricks-only`` is this solver
on the same deals scored by tricks alone (no Nil, no bags), which is.

Usage: ``python -m spades_env.experiments.bench_solver --positions 30 --json solver.json``;
``taskset -c 1 python -m spades_env.experiments.bench_solver --positions 30 --max-nodes 5000000 --dds --players 4``.
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
from spades_env.agents.heuristic import HeuristicAgent
from spades_env.cards import RANKS
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
    total_nodes: int  # of the solves that finished
    nodes: list[float]  # per position (inf: capped)
    dds_median_ms: float | None = None
    dds_p90_ms: float | None = None
    tricks_only_median_ms: float | None = None
    tricks_only_median_nodes: float | None = None


def random_position(rng: np.random.Generator, num_players: int, tricks_left: int, nil: bool = True) -> SpadesGame:
    """A game at the start of a trick with ``tricks_left`` tricks to play, reached as the module docstring says
    (with ``nil`` false, the heuristic's Nil and Blind Nil bids become bids of 1)."""
    game = SpadesGame(num_players=num_players, single_hand=True)
    seed = int(rng.integers(1 << 31))
    game.reset(seed=seed)
    # seeded: its bids' jitter would otherwise vary by process; the first heuristic's rules (heuristic-v1), so that the
    # positions stay those of every figure measured before (a later heuristic bids Blind Nil more often)
    bidder = HeuristicAgent(seed=seed)
    while game.phase != Phase.PLAY:
        action = ask(bidder, game, None)
        if not nil and action in (A.BLIND_NIL, A.bid_action(0)):
            action = A.LOOK if action == A.BLIND_NIL else A.bid_action(1)
        game.apply(action)
    for _ in range(num_players * (13 - tricks_left)):
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    return game


def benchmark_positions(num_players: int, tricks_left: int, count: int, seed: int, nil: bool = True,
                        bag_cost: int = 0) -> list[dict]:
    """The benchmark's ``count`` positions of one row (:func:`random_position` from ``seed``), as
    :func:`~spades_env.solver.solve_arrays`' keyword arguments, carried bags priced at ``bag_cost``."""
    rng = np.random.default_rng([seed, num_players, tricks_left])
    return [position_arrays(position_of(random_position(rng, num_players, tricks_left, nil), bag_cost))
            for _ in range(count)]


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that change the benchmark's positions (this script's and ``compare_solver``'s)."""
    parser.add_argument("--no-nil", action="store_true", help="the heuristic's Nil bids become bids of 1")
    parser.add_argument("--bag-cost", type=int, default=0,
                        help="each bag a side takes counted this many points against it (the search's bag_cost)")


def position_notes(args: argparse.Namespace) -> list[str]:
    """What :func:`add_position_arguments`' options changed, for a run's header."""
    return ["no Nil bids"] * args.no_nil + [f"bags priced at {args.bag_cost}"] * bool(args.bag_cost)


def percentile(values: list[float], q: int) -> float:
    """No interpolation, so that a capped solve stays infinite."""
    return float(np.percentile(values, q, method="inverted_cdf"))


def timed_solve(arrays: dict, every_move: bool, max_nodes: int, one_best: bool) -> tuple[float, float]:
    """(ms, nodes) of one solve; both infinite when it was capped."""
    start = time.perf_counter()
    try:
        _, _, searched = solve_arrays(**arrays, every_move=every_move, max_nodes=max_nodes, one_best=one_best)
    except NodeLimitReached:
        return math.inf, math.inf
    return 1000 * (time.perf_counter() - start), searched


def tricks_only(arrays: dict) -> dict:
    """The same position scored by tricks alone: each side's points are its tricks (no Nil, no bags)."""
    tables = np.zeros_like(arrays["tables"])
    taken = np.add.outer(np.arange(tables.shape[1]), np.arange(tables.shape[2]))
    tables[0], tables[1] = taken, taken
    return {**arrays, "tables": tables, "merge": np.ones(2, np.int64), "nil_bid": np.zeros(4, np.int64)}


def dds_deal(arrays: dict):
    """The position as an endplay ``Deal`` (seat 0 North, spades trumps, the leader on lead), at a trick's start."""
    from endplay.types import Deal, Denom, Player

    def holding(mask: int, suit: int) -> str:
        return "".join(RANKS[r] for r in range(12, -1, -1) if mask >> (13 * suit + r) & 1)
    hands = " ".join(".".join(holding(int(h), suit) for suit in (3, 2, 1, 0)) for h in arrays["hands"])
    deal = Deal("N:" + hands)
    deal.first, deal.trump = Player(int(arrays["leader"])), Denom.spades
    return deal


def dds_solver(every_move: bool, one_best: bool):
    """A function timing DDS on one position in the mode matching ours, in ms."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    mode = SolveMode.Default if every_move else SolveMode.OptimalOne if one_best else SolveMode.OptimalAll

    def run(arrays: dict) -> float:
        deal = dds_deal(arrays)
        start = time.perf_counter()
        solve_board(deal, mode)
        return 1000 * (time.perf_counter() - start)
    return run


def bench(num_players: int, tricks_left: int, positions: int, seed: int, every_move: bool, max_nodes: int,
          nil: bool = True, one_best: bool = False, dds: bool = False, bag_cost: int = 0) -> Row:
    times, nodes, standing = [], [], 0
    dds_times, plain_times, plain_nodes = [], [], []
    run_dds = dds_solver(every_move, one_best) if dds and num_players == 4 else None
    for arrays in benchmark_positions(num_players, tricks_left, positions, seed, nil, bag_cost):
        standing += bool(arrays["nil_bid"].any())
        elapsed, searched = timed_solve(arrays, every_move, max_nodes, one_best)
        times.append(elapsed)
        nodes.append(searched)
        if run_dds is not None:
            dds_times.append(run_dds(arrays))
            elapsed, searched = timed_solve(tricks_only(arrays), every_move, max_nodes, one_best)
            plain_times.append(elapsed)
            plain_nodes.append(searched)
    capped = sum(t == math.inf for t in times)
    row = Row(f"{num_players}p", tricks_left, positions, standing, capped, round(percentile(times, 50), 3),
              round(percentile(times, 90), 3), round(max(times), 3), percentile(nodes, 50), percentile(nodes, 90),
              int(sum(n for n in nodes if n != math.inf)), nodes)
    if run_dds is not None:
        row.dds_median_ms, row.dds_p90_ms = round(percentile(dds_times, 50), 3), round(percentile(dds_times, 90), 3)
        row.tricks_only_median_ms = round(percentile(plain_times, 50), 3)
        row.tricks_only_median_nodes = percentile(plain_nodes, 50)
    return row


def number(x: float | None, digits: int) -> str:
    return "" if x is None else "capped" if x == math.inf else f"{x:.{digits}f}"


def show(row: Row) -> str:
    text = (f"{row.variant:>7} {row.tricks_left:>6} {row.positions:>4} {row.nil:>4} {row.capped:>6} "
            f"{number(row.median_ms, 3):>10} {number(row.p90_ms, 3):>10} {number(row.max_ms, 3):>10} "
            f"{number(row.median_nodes, 0):>12} {number(row.p90_nodes, 0):>12} {row.total_nodes:>12}")
    if row.dds_median_ms is not None:
        ratio = row.median_ms / row.dds_median_ms if row.dds_median_ms else math.inf
        text += (f" {number(row.dds_median_ms, 3):>10} {number(row.dds_p90_ms, 3):>10} {number(ratio, 2):>7}"
                 f" {number(row.tricks_only_median_ms, 3):>10} {number(row.tricks_only_median_nodes, 0):>12}")
    return text


HEADER = (f"{'variant':>7} {'tricks':>6} {'n':>4} {'nil':>4} {'capped':>6} {'median ms':>10} {'p90 ms':>10} "
          f"{'max ms':>10} {'median nodes':>12} {'p90 nodes':>12} {'total nodes':>12}")
DDS_HEADER = (f" {'DDS med ms':>10} {'DDS p90 ms':>10} {'/ DDS':>7} {'tricks ms':>10} {'tricks nodes':>12}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=30, help="positions per row")
    parser.add_argument("--tricks", default="4,7,10,13", help="tricks left, comma-separated")
    parser.add_argument("--players", default="4,2", help="variants: 4 and/or 2 players")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--every-move", action="store_true", help="exact values for every legal card")
    parser.add_argument("--one-best", action="store_true", help="the value and one optimal card only")
    parser.add_argument("--max-nodes", type=int, default=20_000_000, help="stop a solve after this many nodes")
    add_position_arguments(parser)
    parser.add_argument("--dds", action="store_true",
                        help="four players: DDS (pip install endplay) on the same deals, tricks only, side by side")
    parser.add_argument("--nodes", action="store_true", help="print every position's node count")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    if args.dds:
        try:
            import endplay  # noqa: F401
        except ImportError:
            parser.error("--dds needs the bridge solver DDS's Python package: pip install endplay")
    start = time.perf_counter()
    warm_up()
    load_s = time.perf_counter() - start
    load_before = os.getloadavg()[0]
    mode = "every move exact" if args.every_move else "value + one best move" if args.one_best else "value + best moves"
    print("; ".join([f"compile or cache load: {load_s:.1f} s", mode, *position_notes(args),
                     f"load average {load_before:.2f}"]))
    print(HEADER + (DDS_HEADER if args.dds else ""))
    rows = []
    for players in (int(p) for p in args.players.split(",")):
        for tricks in (int(t) for t in args.tricks.split(",")):
            row = bench(players, tricks, args.positions, args.seed, args.every_move, args.max_nodes, not args.no_nil,
                        args.one_best, args.dds, args.bag_cost)
            rows.append(row)
            print(show(row), flush=True)
            if args.nodes:
                print("        nodes:", " ".join(number(n, 0) for n in row.nodes), flush=True)
    if args.json:
        meta = {"command": " ".join(["python -m spades_env.experiments.bench_solver", *sys.argv[1:]]),
                "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],  # at the start, at the end
                "seed": args.seed, "every_move": args.every_move,
                "one_best": args.one_best and not args.every_move, "load_s": round(load_s, 2),
                "max_nodes": args.max_nodes, "nil_bids": not args.no_nil, "bag_cost": args.bag_cost,
                "machine": platform.processor() or platform.machine(), "python": platform.python_version()}
        with open(args.json, "w") as fh:
            finite = [{k: [None if n == math.inf else n for n in v] if k == "nodes" else None if v == math.inf else v
                       for k, v in asdict(r).items()} for r in rows]  # None: capped
            json.dump({"meta": meta, "rows": finite}, fh, indent=1)


if __name__ == "__main__":
    main()
