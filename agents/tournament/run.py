"""Running a tournament: into a results folder that a rerun resumes, or in memory for a quick match.

Resuming. Each finished game is appended at once to ``games.jsonl`` in the
output folder; a rerun reads it back (dropping a last line cut short by a
kill), plays only the missing indices, and the summary, computed from the
records sorted by index, is the same as that of an uninterrupted run.
``config.json`` guards the folder against records of another tournament.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from spades_env import records

from ..base import Agent, make_agent
from .backends import check_backend, play_planned, run_games
from .reports import write_reports
from .schedule import TournamentSpec
from .stats import pairing_stats, summarize

RECORDS = "games.jsonl"


def load_records(path: Path) -> dict[int, dict]:
    """Records already in ``path``, by game index (the first of any repeats).

    Open a :class:`~spades_env.records.GameWriter` on the file first: it cuts
    off a last line left unfinished by a kill, so what is read here is exactly
    what stays in the file.
    """
    if not path.exists():
        return {}
    done: dict[int, dict] = {}
    for rec in records.read_games(path):
        done.setdefault(int(rec["index"]), rec)
    return done


def _check_resume(spec: TournamentSpec, out: Path) -> None:
    """Refuse to mix records of a different tournament into this folder."""
    path = out / "config.json"
    mine = spec.to_dict()
    if path.exists():
        theirs = json.loads(path.read_text())
        keys = [k for k in mine if k != "games"]
        diff = [k for k in keys if theirs.get(k) != mine[k]]
        if diff:
            raise SystemExit(f"{out} holds a different tournament ({', '.join(diff)} differ); "
                             "use another --out or the same settings")
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(mine, indent=2) + "\n")
    tmp.replace(path)


def run_tournament(spec: TournamentSpec, out: str | Path, *, workers: int = 1, backend: str = "local",
                   ray_address: str | None = None, progress: bool = True, plot: bool = True) -> dict:
    """Play every game of ``spec`` not yet recorded in ``out``, then write and return the summary."""
    from tqdm import tqdm

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    _check_resume(spec, out)
    check_backend(backend)
    path = out / RECORDS
    # The writer flushes every game as one line, so a kill loses at most the line being written.
    with records.GameWriter(path) as writer:
        done = {i: r for i, r in load_records(path).items() if i < spec.total_games}
        todo = [i for i in range(spec.total_games) if i not in done]
        results = run_games(spec, todo, backend=backend, workers=workers, ray_address=ray_address)
        with tqdm(total=spec.total_games, initial=len(done), unit="game", desc="tournament",
                  disable=not progress) as bar:
            for rec in results:
                writer.write(rec)
                done[rec["index"]] = rec
                bar.update()
    summary = summarize(spec, list(done.values()))
    write_reports(out, summary, plot=plot)
    return summary


AgentSource = str | Agent | Callable[[], Agent]


def _per_seat(agent: AgentSource, num_players: int) -> list[Agent]:
    """One agent per seat from a registry spec (one object each), an agent object (shared) or a factory."""
    if isinstance(agent, str):
        return [make_agent(agent) for _ in range(num_players)]
    if hasattr(agent, "act"):
        return [agent] * num_players
    return [agent() for _ in range(num_players)]


def evaluate(agent_a: AgentSource, agent_b: AgentSource, *,
             games: int = 200, seed: int = 0, num_players: int = 4, single_hand: bool = False,
             target_score: int = 500, max_hands: int = 50) -> dict:
    """A duplicate match between two agents in this process, without files (for training-time evaluation).

    Agents are given as registry specs, zero-argument factories, or agent
    objects; an object plays every seat of its side, so it must not keep
    per-seat state between calls (``reset`` is called for each seat it
    holds). Returns :func:`spades_env.agents.tournament.stats.pairing_stats` of A against B.
    """
    spec = TournamentSpec(agents=("a", "b"), games=games, seed=seed, num_players=num_players,
                          single_hand=single_hand, target_score=target_score, max_hands=max_hands)
    pools = [_per_seat(agent_a, num_players), _per_seat(agent_b, num_players)]
    played = []
    for index in range(spec.total_games):
        plan = spec.plan(index)
        played.append(play_planned(spec, plan, [pools[i][seat] for seat, i in enumerate(plan.seat_agents)]))
    return pairing_stats(played, "a", "b")
