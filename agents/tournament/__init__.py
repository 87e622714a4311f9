"""Duplicate round-robin tournaments between agents (``spades tournament``).

Format. Every pairing of the pool (A, B) plays *boards*: a board is one reset
seed, hence one fixed sequence of deals by seat (the engine deals later
hands from its seeded generator), played twice — A's side holds seats
(0, 2) in the first game and (1, 3) in the second, so both partnerships see
the same cards and card luck cancels. Games go to the target score (500) or,
with ``single_hand``, last one hand. Every pairing plays the same boards.

Reproducibility and resuming. Game ``index`` is fully determined by the
master seed and the index (its board, pairing, side swap, deal seed and the
agents' seeds are derived from them), and games are independent, so they run
in any order on any number of processes. Each finished game is appended at
once to ``games.jsonl`` in the output folder; a rerun reads it back (dropping
a last line cut short by a kill), plays only the missing indices, and the
summary — computed from the records sorted by index — is the same as that
of an uninterrupted run. Raising ``--games`` on a rerun adds boards.

Outputs in ``--out``: ``config.json``, ``games.jsonl`` (one record per game
with the engine's hand records, replayable), ``summary.json``,
``pairings.csv``, ``summary.md`` and ``pairwise.png``.

Modules, running apart from reporting:

- :mod:`.schedule`: the spec and each game's plan (pairing, board, seeds);
- :mod:`.backends`: playing game ``index``, in this process, a process pool or Ray tasks;
- :mod:`.run`: the resumable run into a folder, and :func:`evaluate`, a match in memory;
- :mod:`.stats`: statistics and ratings from the records, and the summary;
- :mod:`.reports`: the summary as JSON, CSV, Markdown, a heat map and console lines;
- :mod:`.cli`: the ``spades tournament`` command line (also ``python -m spades_env.agents.tournament``).
"""

from .backends import game_record, play_index, play_indices, run_games, run_local, run_ray
from .cli import build_parser, main
from .reports import csv_report, markdown_report, plot_pairwise, print_summary, write_reports
from .run import RECORDS, evaluate, load_records, run_tournament
from .schedule import GamePlan, TournamentSpec, derive_seed, unique_labels
from .stats import summarize

__all__ = [
    "RECORDS", "GamePlan", "TournamentSpec", "build_parser", "csv_report", "derive_seed", "evaluate",
    "game_record", "load_records", "main", "markdown_report", "play_index", "play_indices", "plot_pairwise",
    "print_summary", "run_games", "run_local", "run_ray", "run_tournament", "summarize", "unique_labels",
    "write_reports",
]
