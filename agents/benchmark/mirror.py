"""Matches already played from the other side: ``spades benchmark --mirror DIR``.

A duplicate match of A against B at a seed is the very games of B against A at that seed: game
2k of one is game 2k+1 of the other (the same deal, the same agent at each seat, the same agent
seeds; :meth:`~spades_env.agents.tournament.schedule.TournamentSpec.plan`). So a cell that another
benchmark folder played with the roles swapped (the opponent's card, its cell against this agent)
is copied from there, each record with its index, swap and agent order mirrored, instead of being
played again. The games are equal only while both agents play as they did then; the copy leaves
``mirrored.json`` in the cell folder naming its source, and the card says which cells were copied.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ... import records
from ..tournament.run import RECORDS, load_records, recorded_differences, write_config
from ..tournament.schedule import TournamentSpec
from .pool import Cell, cell_folder

MIRRORED = "mirrored.json"  # in a cell folder: where its copied games came from


def mirrored_record(record: dict) -> dict:
    """The record of the same game in the match with the agents' order swapped."""
    return {**record, "index": record["index"] ^ 1, "swap": 1 - record["swap"], "agents": record["agents"][::-1]}


def mirror_cell(spec: TournamentSpec, cell: Cell, out: Path, sources: Sequence[Path]) -> int:
    """Copy into the cell's folder under ``out`` the games of ``spec`` (the agent against ``cell``'s
    opponent) that a benchmark folder in ``sources`` played with the agents swapped (the opponent's card,
    its cell against the agent); returns how many games were copied."""
    target = out / cell.folder
    have = load_records(target / RECORDS)
    swapped = replace(spec, agents=spec.agents[::-1])
    for source in sources:
        folder = Path(source) / cell_folder(cell.preset, cell.format, spec.agents[0])
        if recorded_differences(swapped, folder) != []:  # None: nothing played there
            continue
        theirs = load_records(folder / RECORDS)
        new = [mirrored_record(rec) for i, rec in sorted(theirs.items())
               if i ^ 1 < spec.total_games and i ^ 1 not in have]
        if not new:
            return 0
        target.mkdir(parents=True, exist_ok=True)
        write_config(spec, target)
        with records.GameWriter(target / RECORDS) as writer:
            for rec in sorted(new, key=lambda r: r["index"]):
                writer.write(rec)
        note = {"source": str(folder), "games": len(new)}
        (target / MIRRORED).write_text(json.dumps(note, indent=2) + "\n")
        return len(new)
    return 0


def mirrored_source(out: Path, cell: Cell) -> str | None:
    """The folder a cell's games were copied from, if they were."""
    path = out / cell.folder / MIRRORED
    return json.loads(path.read_text())["source"] if path.is_file() else None
