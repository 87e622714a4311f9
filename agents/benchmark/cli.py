"""The ``spades benchmark AGENT`` command line: parse, check, run the cells, print the score card."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ..cli import ArgumentParser, int_at_least, positive_int
from ..registry import versioned_name
from ..tournament.cli import add_backend_arguments
from ..tournament.run import RunInputError
from .card import print_card
from .pool import BENCHMARK_SEED, POOLS, TIERS
from .run import CARD_JSON, CARD_MD, run_benchmark

PROG = "spades benchmark"


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog=PROG, description="The standard evaluation: duplicate matches of AGENT against the "
                                              "versioned pool, in single hands and games to 500, under the "
                                              "default and house rules, at the published seeds (docs/benchmark.md).")
    p.add_argument("agent", metavar="AGENT", help="the agent's spec: ppo:runs/x/policy.pt, mybot:Bot, heuristic-v2")
    p.add_argument("--num-players", type=int, choices=(4, 2), default=4, help="the variant")
    tiers = p.add_mutually_exclusive_group()
    tiers.add_argument("--quick", dest="tier", action="store_const", const="quick",
                       help="the quick tier: about 10 minutes on 2 cores, wider intervals")
    tiers.add_argument("--tier", choices=tuple(TIERS), help="cell sizes (docs/benchmark.md) (default: full)")
    p.set_defaults(tier="full")
    p.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="output folder; a rerun with the same folder resumes (default: results/benchmark/"
                        "<agent>-<N>p-<tier>)")
    p.add_argument("--seed", type=int_at_least(0), default=None, metavar="S",
                   help=f"a private run's base seed (default: the published seeds, {BENCHMARK_SEED} + 1..8)")
    p.add_argument("--pool", nargs="+", metavar="SPEC", default=None,
                   help="other opponents than the standard pool (the card says so); default: "
                        + "; ".join(f"{n} players: {' '.join(pool)}" for n, pool in POOLS.items()))
    p.add_argument("--deals", type=positive_int, default=None, metavar="N",
                   help="single-hand deals per cell instead of the tier's (each played twice)")
    p.add_argument("--games", type=positive_int, default=None, metavar="N",
                   help="games to 500 per cell instead of the tier's")
    p.add_argument("--mirror", nargs="+", type=Path, default=(), metavar="DIR",
                   help="benchmark folders of the pool's agents: their cells against AGENT are the same games seen "
                        "from the other side, copied instead of played again")
    add_backend_arguments(p)
    return p


def default_out(agent: str, num_players: int, tier: str) -> Path:
    slug = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in versioned_name(agent)).strip("_.")
    return Path("results/benchmark") / f"{slug}-{num_players}p-{tier}"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    out = args.out or default_out(args.agent, args.num_players, args.tier)
    start = time.perf_counter()
    try:
        card = run_benchmark(args.agent, out, num_players=args.num_players, tier=args.tier,
                             pool=tuple(args.pool) if args.pool else None, seed=args.seed, deals=args.deals,
                             games=args.games, workers=args.workers, backend=args.backend,
                             ray_address=args.ray_address, progress=not args.no_progress, mirror=args.mirror,
                             say=lambda line: print(line, file=sys.stderr))
    except RunInputError as exc:  # raised before anything is written
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    print_card(card)
    print(f"wrote {out}/{CARD_MD} and {CARD_JSON} ({time.perf_counter() - start:.1f} s)")
    return 0
