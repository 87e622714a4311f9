"""Running the benchmark: one resumable duplicate tournament per cell, then the score card.

Each cell is a :func:`spades_env.agents.tournament.run_tournament` into its
own folder under ``out`` (``default/single/heuristic-v1``), so a rerun with
the same ``out`` plays only the games still missing, on the tournament's
backends (local processes or Ray). Every cell is checked (the agents build
and play the variant, no folder holds another tournament) before the first
game, and ``benchmark.json`` guards ``out`` against a benchmark of another
agent, variant, pool or seed. The card is rewritten after every cell, so a
stopped run leaves the card of the cells it finished.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path

from ..registry import versioned_name
from ..tournament.backends import ray_session
from ..tournament.run import RunInputError, check_run, run_tournament
from ..tournament.schedule import TournamentSpec
from .card import CARD_VERSION, cell_row, machine, markdown_card, software
from .mirror import mirror_cell, mirrored_source
from .pool import FORMATS, POOLS, TIERS, Cell, cell_seed, plan_cells

SETTINGS = "benchmark.json"
CARD_JSON, CARD_MD = "scorecard.json", "scorecard.md"


def cell_spec(agent: str, num_players: int, cell: Cell) -> TournamentSpec:
    return TournamentSpec(agents=(versioned_name(agent), cell.opponent), games=cell.games, seed=cell.seed,
                          num_players=num_players, single_hand=cell.format == "single", preset=cell.preset)


def _settings(agent: str, num_players: int, pool: tuple[str, ...], seed: int | None) -> dict:
    """What makes two benchmark runs the same (sizes may grow on a rerun, like a tournament's games)."""
    return {"agent": versioned_name(agent), "num_players": num_players, "pool": [versioned_name(p) for p in pool],
            "seed": seed}


def _check_settings(out: Path, settings: dict) -> None:
    path = out / SETTINGS
    if path.is_file():
        theirs = json.loads(path.read_text())
        diff = [k for k in settings if theirs.get(k) != settings[k]]
        if diff:
            raise RunInputError(f"{out} holds a benchmark of other settings ({', '.join(diff)}); "
                                "use another --out or the same agent, --num-players, --pool and --seed")


def _sizes_text(cells: list[Cell]) -> str:
    """The sizes actually planned, e.g. "single hands 2000 deals, games to 500 400 games; search 500 / 100"."""
    parts = []
    for fmt, name in FORMATS.items():
        sizes = sorted({c.games // (2 if fmt == "single" else 1) for c in cells if c.format == fmt}, reverse=True)
        unit = "deals" if fmt == "single" else "games"
        parts.append(f"{name}: {' or '.join(map(str, sizes))} {unit} a cell")
    return "; ".join(parts)


def build_card(agent: str, num_players: int, tier: str, pool: tuple[str, ...], seed: int | None,
               deals: int | None, games: int | None, cells: list[Cell], rows: list[dict]) -> dict:
    seeds = {f"{p}/{f}": cell_seed(num_players, p, f, seed) for p, f in {(c.preset, c.format) for c in cells}}
    return {
        "card": CARD_VERSION,
        "benchmark": {"agent": agent, "agent_versioned": versioned_name(agent), "num_players": num_players,
                      "tier": tier, "tier_sizes": asdict(TIERS[tier]), "sizes_text": _sizes_text(cells),
                      "pool": [versioned_name(p) for p in pool], "standard_pool": tuple(pool) == POOLS[num_players],
                      "seed": seed, "published_seeds": seed is None, "seeds": dict(sorted(seeds.items())),
                      "deals": deals, "games": games},
        "software": software(), "machine": machine(),
        "complete": len(rows) == len(cells) and all(r["games_played"] == r["games_planned"] for r in rows),
        "cells_done": len(rows), "cells_planned": len(cells), "cells": rows,
    }


def write_card(out: Path, card: dict) -> None:
    for name, text in ((CARD_JSON, json.dumps(card, indent=2) + "\n"), (CARD_MD, markdown_card(card))):
        tmp = out / (name + ".tmp")
        tmp.write_text(text)
        tmp.replace(out / name)


def run_benchmark(agent: str, out: str | Path, *, num_players: int = 4, tier: str = "full",
                  pool: tuple[str, ...] | None = None, seed: int | None = None, deals: int | None = None,
                  games: int | None = None, workers: int = 1, backend: str = "local", ray_address: str | None = None,
                  progress: bool = True, mirror: Sequence[Path] = (), say: Callable[[str], None] = print) -> dict:
    """Play every cell not yet finished in ``out`` and return the score card (also written to ``out``).

    ``mirror``: other benchmark folders (the pool agents' own cards) whose cells against this agent are
    copied, seen from the other side, instead of played again (:mod:`.mirror`).

    Raises :class:`RunInputError` (one line, nothing written) for an agent or pool entry that cannot play
    the variant, or an ``out`` that holds something else.
    """
    if tier not in TIERS:
        raise RunInputError(f"unknown tier {tier!r}; the tiers: {', '.join(TIERS)}")
    out, pool = Path(out), tuple(pool or POOLS[num_players])
    cells = plan_cells(agent, num_players, TIERS[tier], pool, seed, deals, games)
    if not cells:
        raise RunInputError(f"the pool {' '.join(pool)} holds only the agent itself: nothing to play")
    settings = _settings(agent, num_players, pool, seed)
    _check_settings(out, settings)
    for folder in mirror:
        if not (Path(folder) / SETTINGS).is_file():
            raise RunInputError(f"--mirror {folder}: not a benchmark folder (no {SETTINGS}); give the output "
                                "folders of other agents' benchmarks, e.g. results/benchmark/heuristic-v2-4p-full")
    specs = [cell_spec(agent, num_players, cell) for cell in cells]
    for cell, spec in zip(cells, specs):
        check_run(spec, out / cell.folder, backend)
    out.mkdir(parents=True, exist_ok=True)
    (out / SETTINGS).write_text(json.dumps(settings, indent=2) + "\n")
    rows: list[dict] = []
    with ray_session(ray_address, backend == "ray"):
        for k, (cell, spec) in enumerate(zip(cells, specs), 1):
            say(f"cell {k}/{len(cells)}: {cell.preset} rules, {FORMATS[cell.format]}, vs {cell.opponent} "
                f"({cell.games} games, seed {cell.seed})")
            copied = mirror_cell(spec, cell, out, mirror)
            if copied:
                say(f"  {copied} games copied from {mirrored_source(out, cell)} (the same match, other side)")
            summary = run_tournament(spec, out / cell.folder, workers=workers, backend=backend,
                                     ray_address=ray_address, progress=progress, plot=False)
            rows.append({**cell_row(cell, summary, num_players), "mirrored_from": mirrored_source(out, cell)})
            card = build_card(agent, num_players, tier, pool, seed, deals, games, cells, rows)
            write_card(out, card)
    return card
