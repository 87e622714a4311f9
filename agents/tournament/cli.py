"""Duplicate round-robin tournaments between agents (``spades tournament``).

The command line: parse the options into a :class:`.schedule.TournamentSpec`
(``--rules PRESET``, and every rule option of ``spades_v0`` as a flag that
overrides it, generated from :mod:`spades_env.rules`), check the agents and
the output folder before anything is written (:func:`.run.check_run`), run,
and print the summary. An input error is one line and exit status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from spades_env.rules import OPTIONS, add_rule_arguments, flag_of, rule_overrides

from ..cli import ArgumentParser, int_at_least, positive_int
from ..registry import AgentSpecError, load_agents_file
from .backends import BACKENDS
from .reports import print_summary
from .run import RunInputError, run_tournament
from .schedule import TournamentSpec

PROG = "spades tournament"

def add_backend_arguments(p: argparse.ArgumentParser) -> None:
    """Where the games run: ``--workers``, ``--backend``, ``--ray-address``, and ``--no-progress``."""
    p.add_argument("--workers", type=positive_int, default=os.cpu_count() or 1, metavar="N",
                   help="processes for the local backend (default: the number of cores)")
    p.add_argument("--backend", choices=BACKENDS, default="local", help="where the games run")
    p.add_argument("--ray-address", default=None, metavar="ADDRESS",
                   help="Ray cluster address (default: start a local Ray)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog=PROG, description="A duplicate round robin between agents: every board (a fixed "
                                              "sequence of deals) is played twice, the sides swapped.",
                       epilog="Agent specs: heuristic, heuristic:seed=3, ppo:path/to.pt, mybot:Bot:depth=3,"
                              "name=deep, ./mybot.py:Bot (docs/agents.md#agent-specs).")
    agents = p.add_mutually_exclusive_group(required=True)
    agents.add_argument("--agents", nargs="+", metavar="SPEC",
                        help="the pool: agent specs (see the end); one agent plays itself")
    agents.add_argument("--agents-file", type=Path, metavar="FILE",
                        help="JSON or YAML mapping display names to specs, or to {spec, kwargs}")
    p.add_argument("--games", type=positive_int, default=100, metavar="N",
                   help="games per pairing (two per board, rounded up)")
    p.add_argument("--seed", type=int_at_least(0), default=0, metavar="S",
                   help="master seed: deals and agents' seeds derive from it")
    p.add_argument("--out", type=Path, default=Path("results/tournament"), metavar="DIR",
                   help="output folder; a rerun with the same folder resumes")
    p.add_argument("--include-self", action="store_true", help="also play each agent against itself")
    add_backend_arguments(p)
    p.add_argument("--no-plot", action="store_true", help="no pairwise.png")
    p.add_argument("--html-games", action="store_true",
                   help="also write every game as a web page (games/game_NNNNN.html, games/index.html)")
    add_rule_arguments(p)
    return p


def spec_from_args(args: argparse.Namespace) -> TournamentSpec:
    """The tournament the options describe; raises ValueError (AgentSpecError) on a bad agents file or option."""
    agents = load_agents_file(args.agents_file) if args.agents_file else args.agents
    fixed = {f.name for f in dataclasses.fields(TournamentSpec)}
    rules = rule_overrides(args)
    return TournamentSpec(agents=tuple(agents), games=args.games, seed=args.seed, include_self=args.include_self,
                          preset=args.rules, **{k: v for k, v in rules.items() if k in fixed},
                          rules={k: v for k, v in rules.items() if k not in fixed})


def _fail(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        spec = spec_from_args(args)
    except AgentSpecError as exc:
        return _fail(str(exc))
    except ValueError as exc:  # a rule option the engine refuses, e.g. --mercy-threshold above the target
        return _fail(re.sub(r"\b[a-z]+(_[a-z]+)+\b", lambda m: flag_of(m[0]) if m[0] in OPTIONS else m[0],
                            str(exc)))
    start = time.perf_counter()
    try:
        summary = run_tournament(spec, args.out, workers=args.workers, backend=args.backend,
                                 ray_address=args.ray_address, progress=not args.no_progress,
                                 plot=not args.no_plot, html_games=args.html_games)
    except RunInputError as exc:  # raised before anything is written
        return _fail(str(exc))
    print_summary(summary)
    extra = ("" if args.no_plot else ", pairwise.png") + (", games/index.html" if args.html_games else "")
    print(f"wrote {args.out}/summary.md, summary.html, summary.json, pairings.csv{extra} "
          f"({time.perf_counter() - start:.1f} s)")
    return 0
