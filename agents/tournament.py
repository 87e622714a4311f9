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
"""

from __future__ import annotations

import argparse
import csv
import io
import itertools
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path

import numpy as np

from spades_env import records
from spades_env.game import SpadesConfig

from .base import Agent, make_agent
from .match import play_game
from .ratings import agent_stats, openskill_ratings, pairing_stats

RECORDS = "games.jsonl"


def derive_seed(*key: int) -> int:
    """A 63-bit seed from a tuple of non-negative ints (numpy's SeedSequence hashing: well mixed, stable)."""
    return int(np.random.SeedSequence(list(key)).generate_state(1, np.uint64)[0] >> np.uint64(1))


def unique_labels(specs: Sequence[str]) -> tuple[str, ...]:
    """Labels for the pool: the spec itself, with ``#2``, ``#3`` added to repeats."""
    seen: dict[str, int] = {}
    labels = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return tuple(labels)


@dataclass(frozen=True)
class GamePlan:
    index: int
    board: int
    pairing: int
    swap: int  # 0: the pairing's first agent holds side 0; 1: it holds side 1
    side_agents: tuple[int, int]  # pool index of the agent on side 0 and side 1
    seat_agents: tuple[int, ...]  # pool index of the agent at each seat
    deal_seed: int
    agent_seeds: tuple[int, ...]


@dataclass(frozen=True)
class TournamentSpec:
    """What defines a tournament's results. ``games`` counts games per pairing (two per board)."""

    agents: tuple[str, ...]
    games: int
    seed: int = 0
    num_players: int = 4
    single_hand: bool = False
    target_score: int = 500
    max_hands: int = 50
    include_self: bool = False
    labels: tuple[str, ...] = field(default=(), init=False, compare=False)

    def __post_init__(self) -> None:
        if not self.agents:
            raise ValueError("a tournament needs at least one agent")
        if self.games < 1:
            raise ValueError(f"games must be >= 1, got {self.games}")
        if self.seed < 0:
            raise ValueError(f"seed must be >= 0, got {self.seed}")
        object.__setattr__(self, "agents", tuple(self.agents))
        object.__setattr__(self, "labels", unique_labels(self.agents))
        self.config()  # validate the rules options now

    def config(self) -> SpadesConfig:
        return SpadesConfig(num_players=self.num_players, single_hand=self.single_hand,
                            target_score=self.target_score, max_hands=self.max_hands)

    @property
    def pairings(self) -> list[tuple[int, int]]:
        """Round robin over the pool; a pool of one plays itself (a mirror match)."""
        n = len(self.agents)
        if n == 1:
            return [(0, 0)]
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        return pairs + [(i, i) for i in range(n)] if self.include_self else pairs

    @property
    def boards(self) -> int:
        return math.ceil(self.games / 2)

    @property
    def total_games(self) -> int:
        return self.boards * len(self.pairings) * 2

    def plan(self, index: int) -> GamePlan:
        """Game ``index``: boards outermost, so a partial run has every pairing on the same boards."""
        if not 0 <= index < self.total_games:
            raise IndexError(f"game index {index} is not in 0..{self.total_games - 1}")
        pairing, swap = divmod(index, 2)
        board, pairing = divmod(pairing, len(self.pairings))
        a, b = self.pairings[pairing]
        sides = (a, b) if swap == 0 else (b, a)
        n = self.num_players
        return GamePlan(
            index=index, board=board, pairing=pairing, swap=swap, side_agents=sides,
            seat_agents=tuple(sides[seat % 2] for seat in range(n)),
            deal_seed=derive_seed(self.seed, 0, board),
            agent_seeds=tuple(derive_seed(self.seed, 1, board, swap, seat) for seat in range(n)),
        )

    def to_dict(self) -> dict:
        d = asdict(self)
        d["agents"], d["labels"] = list(self.agents), list(self.labels)
        return d


def game_record(spec: TournamentSpec, plan: GamePlan, game) -> dict:
    """One finished game: the project's game record (:mod:`spades_env.records`, replayable by
    ``spades replay`` and ``records.replay_game``) plus where it sits in the tournament."""
    a, b = spec.pairings[plan.pairing]
    return {
        **records.game_record(game, seed=plan.deal_seed),
        "index": plan.index,
        "board": plan.board,
        "pairing": plan.pairing,
        "swap": plan.swap,
        "agents": [spec.labels[a], spec.labels[b]],
        "sides": [spec.labels[i] for i in plan.side_agents],
        "seats": [spec.labels[i] for i in plan.seat_agents],
        "agent_seeds": list(plan.agent_seeds),
    }


# ------------------------------------------------------------------ playing

_AGENT_CACHE: dict[tuple[str, int], Agent] = {}


def _cached_agent(agent_spec: str, seat: int) -> Agent:
    """One agent object per (spec, seat) per process: built once, ``reset`` by the driver every game."""
    key = (agent_spec, seat)
    if key not in _AGENT_CACHE:
        _AGENT_CACHE[key] = make_agent(agent_spec)
    return _AGENT_CACHE[key]


def play_index(spec: TournamentSpec, index: int) -> dict:
    """Play game ``index`` of the tournament and return its record (runs in any worker)."""
    plan = spec.plan(index)
    agents = [_cached_agent(spec.agents[i], seat) for seat, i in enumerate(plan.seat_agents)]
    game = play_game(agents, seed=plan.deal_seed, config=spec.config(), agent_seeds=plan.agent_seeds)
    return game_record(spec, plan, game)


def play_indices(spec: TournamentSpec, indices: Sequence[int]) -> list[dict]:
    return [play_index(spec, i) for i in indices]


def _init_worker() -> None:
    # One BLAS/torch thread per process: the processes already use every core.
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("MKL_NUM_THREADS", "1")


def run_local(spec: TournamentSpec, indices: Sequence[int], workers: int) -> Iterator[dict]:
    """Records of ``indices`` as they finish, over ``workers`` processes (in this process when 1)."""
    if workers <= 1 or len(indices) <= 1:
        for i in indices:
            yield play_index(spec, i)
        return
    import multiprocessing

    # spawn: safe with torch and threads, and the same on every platform.
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(min(workers, len(indices)), initializer=_init_worker) as pool:
        yield from pool.imap_unordered(partial(play_index, spec), indices, chunksize=1)


def run_ray(spec: TournamentSpec, indices: Sequence[int], address: str | None = None,
            chunk: int = 2) -> Iterator[dict]:
    """Records of ``indices`` as they finish, from Ray tasks (a local Ray instance unless ``address``)."""
    try:
        import ray
    except ImportError:
        raise SystemExit("--backend ray needs Ray: pip install -e '.[ray]'") from None
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 runtime_env={"env_vars": {"OMP_NUM_THREADS": "1"}})
    try:
        task = ray.remote(play_indices)
        chunks = iter([list(indices[k:k + chunk]) for k in range(0, len(indices), chunk)])
        spec_ref = ray.put(spec)
        limit = 4 * max(1, int(ray.cluster_resources().get("CPU", 1)))  # tasks in flight
        pending = [task.remote(spec_ref, c) for c in itertools.islice(chunks, limit)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            pending += [task.remote(spec_ref, c) for c in itertools.islice(chunks, 1)]
            yield from ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


# -------------------------------------------------------------- records I/O

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


# ------------------------------------------------------------------ summary

def summarize(spec: TournamentSpec, records: Sequence[dict]) -> dict:
    """Statistics of a tournament from its records (sorted by index first, so order never matters)."""
    records = sorted(records, key=lambda r: r["index"])
    by_pairing: dict[int, list[dict]] = {}
    for rec in records:
        by_pairing.setdefault(rec["pairing"], []).append(rec)
    pairings = []
    for k, (a, b) in enumerate(spec.pairings):
        stats = pairing_stats(by_pairing.get(k, []), spec.labels[a], spec.labels[b])
        pairings.append(stats)
    ratings = openskill_ratings(records, spec.labels)
    agents = {label: {"spec": s, "games": sum(label in r["sides"] for r in records),
                      "rating": ratings[label], "stats": agent_stats(records, label)}
              for label, s in zip(spec.labels, spec.agents)}
    return {"spec": spec.to_dict(), "games_played": len(records), "games_planned": spec.total_games,
            "pairings": pairings, "agents": agents}


def _fmt(x: float | None, digits: int = 1, pct: bool = False) -> str:
    if x is None:
        return "–"
    return f"{100 * x:.{digits}f}%" if pct else f"{x:.{digits}f}"


def _ci_text(ci: dict) -> str:
    if ci["mean"] is None:
        return "–"
    if ci["low"] is None:
        return f"{ci['mean']:+.1f}"
    return f"{ci['mean']:+.1f} [{ci['low']:+.1f}, {ci['high']:+.1f}]"


def markdown_report(summary: dict) -> str:
    spec = summary["spec"]
    variant = f"{spec['num_players']} players, " + ("single-hand boards" if spec["single_hand"]
                                                    else f"games to {spec['target_score']}")
    out = [f"# Duplicate tournament ({variant}, seed {spec['seed']})", "",
           f"{summary['games_played']} of {summary['games_planned']} games played.", "",
           "## Pairings", "",
           "Points per deal: A's side minus B's side per hand, averaged per board (both games of a deal "
           "sequence), 95% CI over boards.", "",
           "| A | B | games | A wins | B wins | draws | A win rate | A − B points/deal [95% CI] "
           "| set rate A / B | Nil success A / B | Blind Nil success A / B | bags/hand A / B "
           "| bid / tricks A | bid / tricks B |",
           "|---|---|---:|---:|---:|---:|---:|---|---|---|---|---|---|---|"]
    for p in summary["pairings"]:
        sa, sb = p["agent_a"], p["agent_b"]

        def nil(s: dict, kind: str) -> str:
            return f"{_fmt(s[kind + '_success'], 0, True)} ({s[kind + '_attempts']})"

        out.append(
            f"| {p['a']} | {p['b']} | {p['games']} | {p['wins_a']} | {p['wins_b']} | {p['draws']} "
            f"| {_fmt(p['win_rate_a'], 1, True)} | {_ci_text(p['points_per_deal_diff'])} "
            f"| {_fmt(sa['set_rate'], 1, True)} / {_fmt(sb['set_rate'], 1, True)} "
            f"| {nil(sa, 'nil')} / {nil(sb, 'nil')} | {nil(sa, 'blind_nil')} / {nil(sb, 'blind_nil')} "
            f"| {_fmt(sa['bags_per_hand'], 2)} / {_fmt(sb['bags_per_hand'], 2)} "
            f"| {_fmt(sa['mean_bid'], 2)} / {_fmt(sa['mean_tricks'], 2)} "
            f"| {_fmt(sb['mean_bid'], 2)} / {_fmt(sb['mean_tricks'], 2)} |")
    out += ["", "## Agents", "",
            "OpenSkill (Plackett–Luce) ratings from game results; ordinal = mu − 3 sigma. "
            "Per-hand statistics over every hand the agent's side played.", "",
            "| agent | games | mu | sigma | ordinal | points/hand | set rate | Nil success | Blind Nil success "
            "| bags/hand | bid | tricks |",
            "|---|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|"]
    for label, a in summary["agents"].items():
        r, s = a["rating"], a["stats"]
        out.append(
            f"| {label} | {a['games']} | {r['mu']:.2f} | {r['sigma']:.2f} | {r['ordinal']:.2f} "
            f"| {_fmt(s['points_per_hand'])} | {_fmt(s['set_rate'], 1, True)} "
            f"| {_fmt(s['nil_success'], 0, True)} ({s['nil_attempts']}) "
            f"| {_fmt(s['blind_nil_success'], 0, True)} ({s['blind_nil_attempts']}) "
            f"| {_fmt(s['bags_per_hand'], 2)} | {_fmt(s['mean_bid'], 2)} | {_fmt(s['mean_tricks'], 2)} |")
    return "\n".join(out) + "\n"


def csv_report(summary: dict) -> str:
    buf = io.StringIO()
    rows = []
    for p in summary["pairings"]:
        ci = p["points_per_deal_diff"]
        row = {k: p[k] for k in ("a", "b", "games", "boards", "wins_a", "wins_b", "draws", "truncated",
                                 "win_rate_a")}
        row.update(ppd_diff=ci["mean"], ppd_low=ci["low"], ppd_high=ci["high"])
        for who in ("a", "b"):
            row.update({f"{k}_{who}": v for k, v in p[f"agent_{who}"].items()})
        rows.append(row)
    if rows:
        writer = csv.DictWriter(buf, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return buf.getvalue()


def plot_pairwise(summary: dict, path: Path) -> None:
    """Heat map of A-minus-B points per deal (row agent vs column agent), CI and win rate in each cell."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = summary["spec"]["labels"]
    n = len(labels)
    grid = np.full((n, n), np.nan)
    text = [[""] * n for _ in range(n)]
    index = {label: i for i, label in enumerate(labels)}
    for p in summary["pairings"]:
        ci, i, j = p["points_per_deal_diff"], index[p["a"]], index[p["b"]]
        if ci["mean"] is None:
            continue
        half = "" if ci["low"] is None else f"\n±{(ci['high'] - ci['low']) / 2:.1f}"
        win = p["win_rate_a"]
        grid[i, j] = ci["mean"]
        text[i][j] = f"{ci['mean']:+.1f}{half}\nwin {100 * win:.1f}%"
        if i != j:
            grid[j, i] = -ci["mean"]
            text[j][i] = f"{-ci['mean']:+.1f}{half}\nwin {100 * (1 - win):.1f}%"
    fig, ax = plt.subplots(figsize=(2.2 + 1.6 * n, 1.6 + 1.4 * n))
    bound = max(1.0, float(np.nanmax(np.abs(grid)))) if not np.all(np.isnan(grid)) else 1.0
    im = ax.imshow(grid, cmap="RdBu", vmin=-bound, vmax=bound)
    for i in range(n):
        for j in range(n):
            if text[i][j]:
                dark = abs(grid[i, j]) > 0.6 * bound
                ax.text(j, i, text[i][j], ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_xticks(range(n), labels, rotation=30, ha="right")
    ax.set_yticks(range(n), labels)
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    spec = summary["spec"]
    ax.set_title(f"points per deal vs opponent (duplicate, {spec['num_players']}p, "
                 f"{summary['games_played']} games)", fontsize=9)
    fig.colorbar(im, ax=ax, shrink=0.8, label="points per deal (row − column)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_reports(out: Path, summary: dict, plot: bool = True) -> None:
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    (out / "pairings.csv").write_text(csv_report(summary))
    (out / "summary.md").write_text(markdown_report(summary))
    if plot:
        try:
            plot_pairwise(summary, out / "pairwise.png")
        except ImportError:
            print("matplotlib is not installed: no pairwise.png (pip install matplotlib)", file=sys.stderr)


# ------------------------------------------------------------------ running

def run_tournament(spec: TournamentSpec, out: str | Path, *, workers: int = 1, backend: str = "local",
                   ray_address: str | None = None, progress: bool = True, plot: bool = True) -> dict:
    """Play every game of ``spec`` not yet recorded in ``out``, then write and return the summary."""
    from tqdm import tqdm

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    _check_resume(spec, out)
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    path = out / RECORDS
    # The writer flushes every game as one line, so a kill loses at most the line being written.
    with records.GameWriter(path) as writer:
        done = {i: r for i, r in load_records(path).items() if i < spec.total_games}
        todo = [i for i in range(spec.total_games) if i not in done]
        results = run_ray(spec, todo, ray_address) if backend == "ray" else run_local(spec, todo, workers)
        with tqdm(total=spec.total_games, initial=len(done), unit="game", desc="tournament",
                  disable=not progress) as bar:
            for rec in results:
                writer.write(rec)
                done[rec["index"]] = rec
                bar.update()
    summary = summarize(spec, list(done.values()))
    write_reports(out, summary, plot=plot)
    return summary


def evaluate(agent_a: str | Agent | Callable[[], Agent], agent_b: str | Agent | Callable[[], Agent], *,
             games: int = 200, seed: int = 0, num_players: int = 4, single_hand: bool = False,
             target_score: int = 500, max_hands: int = 50) -> dict:
    """A duplicate match between two agents in this process, without files (for training-time evaluation).

    Agents are given as registry specs, zero-argument factories, or agent
    objects; an object plays every seat of its side, so it must not keep
    per-seat state between calls (``reset`` is called for each seat it
    holds). Returns :func:`spades_env.agents.ratings.pairing_stats` of A against B.
    """
    spec = TournamentSpec(agents=("a", "b"), games=games, seed=seed, num_players=num_players,
                          single_hand=single_hand, target_score=target_score, max_hands=max_hands)

    def per_seat(agent) -> list[Agent]:
        if isinstance(agent, str):
            return [make_agent(agent) for _ in range(num_players)]
        if hasattr(agent, "act"):
            return [agent] * num_players
        return [agent() for _ in range(num_players)]

    pools = [per_seat(agent_a), per_seat(agent_b)]
    records = []
    for index in range(spec.total_games):
        plan = spec.plan(index)
        agents = [pools[i][seat] for seat, i in enumerate(plan.seat_agents)]
        game = play_game(agents, seed=plan.deal_seed, config=spec.config(), agent_seeds=plan.agent_seeds)
        records.append(game_record(spec, plan, game))
    return pairing_stats(records, "a", "b")


def print_summary(summary: dict, file=sys.stdout) -> None:
    for p in summary["pairings"]:
        ci = p["points_per_deal_diff"]
        print(f"{p['a']} vs {p['b']}: {p['games']} games, {p['a']} wins {_fmt(p['win_rate_a'], 1, True)}, "
              f"points/deal {_ci_text(ci)}", file=file)
    for label, a in summary["agents"].items():
        r = a["rating"]
        print(f"  {label}: OpenSkill mu {r['mu']:.2f} sigma {r['sigma']:.2f}", file=file)


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
    p.add_argument("--backend", choices=("local", "ray"), default="local")
    p.add_argument("--ray-address", default=None, help="Ray cluster address (default: start a local Ray)")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--no-plot", action="store_true")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    spec = TournamentSpec(agents=tuple(args.agents), games=args.games, seed=args.seed,
                          num_players=args.num_players, single_hand=args.single_hand,
                          target_score=args.target_score, max_hands=args.max_hands, include_self=args.include_self)
    for agent in dict.fromkeys(spec.agents):
        make_agent(agent)  # fail now, with the registry's message, not inside a worker
    start = time.perf_counter()
    summary = run_tournament(spec, args.out, workers=args.workers, backend=args.backend,
                             ray_address=args.ray_address, progress=not args.no_progress, plot=not args.no_plot)
    print_summary(summary)
    print(f"wrote {args.out}/summary.md, summary.json, pairings.csv{'' if args.no_plot else ', pairwise.png'} "
          f"({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
