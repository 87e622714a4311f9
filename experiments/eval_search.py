"""The search agent's strength evaluations (docs/search.md): long duplicate tournaments, resumable, and their report.

Each evaluation is a ``spades tournament`` run into its own folder, so that
running the same command again resumes it where it stopped (the tournament
resumes any folder with the same settings); the search agent appends its time
per decision by phase and tricks left to ``timings.jsonl`` in that folder when
the run ends. Meant for the background, one core::

    nohup python -m spades_env.experiments.eval_search heuristic-single > eval.log 2>&1 &
    python -m spades_env.experiments.eval_search heuristic-single --report   # what has finished so far

Evaluations (``--seed`` 31337 by default, a seed the agent was never tuned on):

- ``heuristic-single``: search vs heuristic, 1,000 single-hand games (500 deals);
- ``heuristic-games``: search vs heuristic, 200 games to 500 (100 boards);
- ``ppo-single``: search vs ppo, 1,000 single-hand games;
- ``heuristic-games-house``: search vs heuristic, 200 games to 500 under the house rule that offers
  Blind Nil only to a side 100 or more behind (``--blind-nil-min-deficit 100``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from spades_env.agents.tournament import main as tournament_main

# SearchAgent's arguments; unset, the agent's defaults
SETTINGS = ("worlds", "ms", "max_tricks", "bid_worlds", "blind_worlds")
EVALUATIONS = {
    "heuristic-single": ("heuristic", 1000, ["--single-hand"]),
    "heuristic-games": ("heuristic", 200, []),
    "ppo-single": ("ppo", 1000, ["--single-hand"]),
    "heuristic-games-house": ("heuristic", 200, ["--blind-nil-min-deficit", "100"]),
}


def tournament_args(name: str, out: Path, seed: int, games: int | None, settings: dict,
                    workers: int = 1) -> list[str]:
    opponent, default_games, extra = EVALUATIONS[name]
    given = "".join(f"{key}={value}," for key, value in settings.items() if value is not None)
    search = f"search-v1:{given}timings={out / 'timings.jsonl'},name=search"
    return ["--agents", search, opponent, "--games", str(games or default_games), "--seed", str(seed),
            "--out", str(out), "--workers", str(workers), "--no-progress", "--no-plot", *extra]


def report(out: Path) -> str:
    """Points per deal with the 95% CI, the per-side statistics, and the time per decision."""
    summary = json.loads((out / "summary.json").read_text())
    pairing = summary["pairings"][0]
    diff = pairing["points_per_deal_diff"]
    lines = [f"{out}: {summary['games_played']} of {summary['games_planned']} games, {pairing['boards']} boards",
             f"{pairing['a']} - {pairing['b']}: {diff['mean']:+.1f} points per deal {_interval(diff)}, "
             f"win rate {pairing['win_rate_a']:.1%}",
             f"{'side':<10} {'set rate':>8} {'Nil':>12} {'Blind Nil':>12} {'bags/hand':>9} {'bid':>5} {'tricks':>6}"]
    for key in ("agent_a", "agent_b"):
        s = pairing[key]
        lines.append(f"{pairing[key[-1]]:<10} {s['set_rate']:>8.1%} {_rate(s, 'nil'):>12} "
                     f"{_rate(s, 'blind_nil'):>12} {s['bags_per_hand']:>9.2f} {s['mean_bid']:>5.2f} "
                     f"{s['mean_tricks']:>6.2f}")
    lines += timing_lines(out / "timings.jsonl")
    return "\n".join(lines)


def _interval(diff: dict) -> str:
    return "(no interval yet)" if diff["low"] is None else f"[{diff['low']:+.1f}, {diff['high']:+.1f}]"


def _rate(stats: dict, kind: str) -> str:
    success = stats[f"{kind}_success"]
    return "-" if success is None else f"{success:.0%} ({stats[f'{kind}_attempts']})"


def timing_lines(path: Path) -> list[str]:
    """The search agent's time per decision by phase and tricks left, over every run recorded in ``path``."""
    if not path.exists():
        return ["(no timings yet: the agent writes them when a run ends)"]
    rows: dict[tuple[str, int], list[float]] = {}
    for line in path.read_text().splitlines():
        for r in json.loads(line)["rows"]:
            acc = rows.setdefault((r["phase"], r["tricks_left"]), [0, 0.0, 0.0])
            acc[0] += r["decisions"]
            acc[1] += r["decisions"] * r["cpu_ms"]
            acc[2] += r["decisions"] * r["searched"]
    total = sum(a[0] for a in rows.values())
    cpu = sum(a[1] for a in rows.values())
    out = [f"time per decision (CPU ms, one core): mean {cpu / max(1, total):.1f} over {total} decisions",
           f"{'phase':<7} {'tricks left':>11} {'decisions':>9} {'mean ms':>8} {'searched':>8}"]
    for (phase, left), (n, ms, searched) in sorted(rows.items(), key=lambda kv: (kv[0][0], -kv[0][1])):
        out.append(f"{phase:<7} {left:>11} {n:>9} {ms / n:>8.1f} {searched / n:>8.0%}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("evaluation", choices=sorted(EVALUATIONS))
    parser.add_argument("--out", type=Path, default=None, help="folder (default results/search_<evaluation>)")
    parser.add_argument("--seed", type=int, default=31337)
    parser.add_argument("--games", type=int, default=None, help="games (default: the evaluation's)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1: one core)")
    for key in SETTINGS:
        parser.add_argument(f"--{key.replace('_', '-')}", type=float if key == "ms" else int, default=None,
                            help=f"SearchAgent's {key} (default: the agent's)")
    parser.add_argument("--report", action="store_true", help="only print the report of what has finished")
    args = parser.parse_args(argv)
    out = args.out or Path("results") / f"search_{args.evaluation}"
    if not args.report:
        settings = {key: getattr(args, key) for key in SETTINGS}
        code = tournament_main(tournament_args(args.evaluation, out, args.seed, args.games, settings, args.workers))
        if code:
            return code
    print(report(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
