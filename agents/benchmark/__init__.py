"""``spades benchmark AGENT``: the standard evaluation, one score card a paper can cite (docs/benchmark.md).

Duplicate matches of the agent against a fixed pool of versioned agents
(:data:`.pool.POOLS`), in single hands and in games to 500, under the
default and the house rules, at published seeds: one resumable tournament
per cell (:mod:`spades_env.agents.tournament`), then the score card.

- :mod:`.pool`: the pool, the seeds, the tiers and the cells;
- :mod:`.run`: the cells' tournaments and the card written as they finish;
- :mod:`.card`: the card as JSON, Markdown and a terminal table, with the versions and the machine;
- :mod:`.cli`: the command line.
"""

from .card import markdown_card, print_card
from .cli import build_parser, main
from .pool import BENCHMARK_SEED, POOLS, SEED_OFFSETS, TIERS, Cell, Tier, plan_cells
from .run import run_benchmark

__all__ = ["BENCHMARK_SEED", "POOLS", "SEED_OFFSETS", "TIERS", "Cell", "Tier", "build_parser", "main",
           "markdown_card", "plan_cells", "print_card", "run_benchmark"]
