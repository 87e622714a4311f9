"""Running a tournament: into a results folder that a rerun resumes, or in memory for a quick match.

Resuming. Each finished game is appended at once to ``games.jsonl`` in the
output folder; a rerun reads it back (dropping a last line cut short by a
kill), plays only the missing indices, and the summary, computed from the
records sorted by index, is the same as that of an uninterrupted run.
``config.json`` guards the folder against records of another tournament.

Checking first. :func:`check_run` builds each agent once and asks whether it
plays the tournament's config, and checks the folder, before anything is
written or any worker starts; its :class:`RunInputError` says what is wrong
in one line. A folder holding a config but no game yet (a run stopped before
its first game) does not block a rerun with other settings.
"""

from __future__ import annotations

import json
from pathlib import Path

from spades_env import records
from spades_env.agent import UnsupportedConfigError, check_config, close_agent
from spades_env.rules import SpadesConfig

from ..match import AgentSource, seat_agents
from ..registry import AgentSpecError, make_agent
from .backends import check_backend, play_planned, run_games
from .reports import write_reports
from .schedule import TournamentSpec
from .stats import pairing_stats, summarize

RECORDS = "games.jsonl"
GAME_PAGES = "games"  # the folder of the games' web pages (--html-games)


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


# What may differ when a folder is resumed: the length of the run, and how the rules were spelled.
RESUMABLE_CHANGES = ("games", "preset", "rules", "rules_described")


class RunInputError(ValueError):
    """A tournament that cannot start as given (an agent, its variant, the output folder); nothing was written."""


def _check_folder(spec: TournamentSpec, out: Path) -> None:
    """Refuse an ``out`` that is (or lies under) a file, or holds the records of a different tournament."""
    for folder in (out, *out.parents):
        if folder.exists():
            if not folder.is_dir():
                raise RunInputError(f"--out {out}: {folder} is a file, not a folder; choose another --out")
            break
    diff = recorded_differences(spec, out)
    if diff:
        raise RunInputError(f"{out} holds a different tournament ({', '.join(diff)} differ); "
                            "use another --out or the same settings")


def recorded_differences(spec: TournamentSpec, out: Path) -> list[str] | None:
    """The settings in which the games recorded in ``out`` differ from ``spec`` (its length aside), or
    None when ``out`` holds no games yet."""
    path = out / "config.json"
    records_path = out / RECORDS
    if not path.exists() or not records_path.exists() or records_path.stat().st_size == 0:
        return None  # nothing recorded yet: any settings may (re)start here
    mine, theirs = spec.to_dict(), json.loads(path.read_text())
    try:  # a folder written before an option was added: it played at the option's default
        theirs["config"] = SpadesConfig(**theirs["config"]).to_dict()
    except (KeyError, TypeError, ValueError):
        pass
    # "config" holds every rule option in effect, however the preset and overrides spelled them
    return [k for k in mine if k not in RESUMABLE_CHANGES and theirs.get(k) != mine[k]]


def _check_agents(spec: TournamentSpec) -> None:
    """Build each agent once and ask it whether it plays ``spec``'s config, so a mismatch fails before game 1."""
    config = spec.config()
    for agent_spec, label in dict(zip(spec.agents, spec.labels)).items():
        try:
            agent = make_agent(agent_spec)
        except AgentSpecError as exc:
            raise RunInputError(str(exc)) from None
        except (ValueError, OSError) as exc:  # e.g. a policy file that is missing or not a policy
            raise RunInputError(f"agent {agent_spec!r}: {exc}") from None
        try:
            check_config(agent, config, label)
        except UnsupportedConfigError as exc:
            raise RunInputError(str(exc)) from None
        finally:
            close_agent(agent)


def check_run(spec: TournamentSpec, out: str | Path, backend: str = "local") -> None:
    """Raise :class:`RunInputError` when ``spec`` cannot run into ``out``; writes nothing."""
    try:
        check_backend(backend)
    except ValueError as exc:
        raise RunInputError(str(exc)) from None
    _check_folder(spec, Path(out))
    _check_agents(spec)


def write_config(spec: TournamentSpec, out: Path) -> None:
    """``out/config.json``: the settings that the folder's games were played under."""
    path = out / "config.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(spec.to_dict(), indent=2) + "\n")
    tmp.replace(path)


def run_tournament(spec: TournamentSpec, out: str | Path, *, workers: int = 1, backend: str = "local",
                   ray_address: str | None = None, progress: bool = True, plot: bool = True,
                   html_games: bool = False) -> dict:
    """Play every game of ``spec`` not yet recorded in ``out``, then write and return the summary.

    ``html_games``: also write each game as a web page, ``out/games/game_NNNNN.html``, and ``out/games/index.html``.

    Checks first (:func:`check_run`), so an agent that cannot play the
    variant, or a folder of another tournament, raises :class:`RunInputError`
    before anything is written.
    """
    from tqdm import tqdm

    out = Path(out)
    check_run(spec, out, backend)
    out.mkdir(parents=True, exist_ok=True)
    write_config(spec, out)
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
    if html_games:
        from ..replay_html import write_game_pages

        write_game_pages((done[i] for i in sorted(done)), out / GAME_PAGES)
    return summary


def evaluate(agent_a: AgentSource, agent_b: AgentSource, *,
             games: int = 200, seed: int = 0, num_players: int = 4, single_hand: bool = False,
             target_score: int | None = None, max_hands: int | None = None, rules: dict | None = None,
             preset: str = "default") -> dict:
    """A duplicate match between two agents in this process, without files (for training-time evaluation).

    Agents are given as registry specs, zero-argument factories, agent
    objects or bare act functions (:func:`spades_env.agents.match.seat_agents`);
    an object or function plays every seat of its side, so it must not keep
    per-seat state between calls (``reset`` is called for each seat it
    holds). ``preset`` names the rules (:data:`spades_env.rules.PRESETS`), ``rules`` overrides any of its
    options (``{"nil": False}``), as do ``target_score`` and ``max_hands`` (None: the preset's).
    Returns :func:`spades_env.agents.tournament.stats.pairing_stats` of A against B.
    """
    rules = dict(rules or {})
    target_score, max_hands = rules.pop("target_score", target_score), rules.pop("max_hands", max_hands)
    spec = TournamentSpec(agents=("a", "b"), games=games, seed=seed, num_players=num_players,
                          single_hand=single_hand, target_score=target_score, max_hands=max_hands,
                          rules=rules, preset=preset)
    pools = [seat_agents(agent_a, num_players), seat_agents(agent_b, num_players)]
    played = []
    for index in range(spec.total_games):
        plan = spec.plan(index)
        played.append(play_planned(spec, plan, [pools[i][seat] for seat, i in enumerate(plan.seat_agents)]))
    for source, pool in zip((agent_a, agent_b), pools):
        if isinstance(source, str):  # built here: closed here; objects and factories belong to the caller
            for agent in pool:
                close_agent(agent)
    return pairing_stats(played, "a", "b")
