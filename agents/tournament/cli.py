"""Duplicate round-robin tournaments between agents (``spades tournament``).

The command line: parse the options into a :class:`.schedule.TournamentSpec`,
check the agents before any worker starts, run, and print the summary.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from pathlib import Path

from ..base import make_agent
from .backends import BACKENDS
from .reports import print_summary
from .run import run_tournament
from .schedule import TournamentSpec


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="spades tournament", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--agents", nargs="+", required=True,
                   help="agent pool: registered names (random, heuristic), ppo:path, or module:Class; "
                        "one agent plays itself")
    p.add_argument("--games", type=int, default=100, help="games per pairing (two per board, rounded up)")
    p.add_argument("--seed", type=int, default=0, help="master seed: deals and agents' seeds derive from it")
    p.add_argument("--out", type=Path, default=Path("results/tournament"),
                   help="output folder; a rerun with the same folder resumes")
    p.add_argument("--num-players", type=int, choices=(4, 2), default=4)
    p.add_argument("--single-hand", action="store_true", help="boards of one hand instead of games to the target")
    p.add_argument("--target-score", type=int, default=500)
    p.add_argument("--max-hands", type=int, default=50, help="a game still open after this many hands is a draw")
    p.add_argument("--include-self", action="store_true", help="also play each agent against itself")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (local backend)")
    p.add_argument("--backend", choices=BACKENDS, default="local")
    p.add_argument("--ray-address", default=None, help="Ray cluster address (default: start a local Ray)")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--no-plot", action="store_true")
    return p


def spec_from_args(args: argparse.Namespace) -> TournamentSpec:
    return TournamentSpec(agents=tuple(args.agents), games=args.games, seed=args.seed,
                          num_players=args.num_players, single_hand=args.single_hand,
                          target_score=args.target_score, max_hands=args.max_hands, include_self=args.include_self)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    spec = spec_from_args(args)
    for agent in dict.fromkeys(spec.agents):
        make_agent(agent)  # fail now, with the registry's message, not inside a worker
    start = time.perf_counter()
    summary = run_tournament(spec, args.out, workers=args.workers, backend=args.backend,
                             ray_address=args.ray_address, progress=not args.no_progress, plot=not args.no_plot)
    print_summary(summary)
    print(f"wrote {args.out}/summary.md, summary.json, pairings.csv{'' if args.no_plot else ', pairwise.png'} "
          f"({time.perf_counter() - start:.1f} s)")
    return 0
