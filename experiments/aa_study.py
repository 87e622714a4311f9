"""A/A study of the duplicate tournament's interval: coverage and bias when the true difference is 0.

Each tournament pairs heuristic-v1 with an exact copy that draws its bid
jitter from another stream (:class:`OtherLuckHeuristic`): the same policy
with its own luck, so the true points-per-deal difference is 0 while the
boards still differ (two copies on the same seeds would replay every board
exactly, since the tournament mirrors the agents' seeds by seat). Tournament
``t`` of a format and size is ``spades tournament --agents heuristic-v1
spades_env.experiments.aa_study:OtherLuckHeuristic --games 2*BOARDS --seed S``
with ``S = study_seed(format, boards, t)``, played through the tournament's
own game function (:func:`~spades_env.agents.tournament.play_indices`).

Resumable: each finished tournament is appended as one JSON line to
``RESULTS/{format}-{boards}.jsonl`` (its seed and, per board, A's margin and
hand count in each of its two games), and a rerun plays only the missing
tournaments. ``--report`` rewrites ``aa_study.md`` and ``aa_study.csv``
from every results file without playing.

    python -m spades_env.experiments.aa_study --format single --boards 100 --tournaments 200 --workers 1
    python -m spades_env.experiments.aa_study --format game --boards 100 --tournaments 200 --workers 1
    python -m spades_env.experiments.aa_study --report
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from spades_env.agents.heuristic.agent import HeuristicAgent
from spades_env.agents.tournament import TournamentSpec, derive_seed, play_indices
from spades_env.agents.tournament.schedule import SCHEDULE_VERSION
from spades_env.agents.tournament.stats import Z95, board_games, board_value, mean_ci

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "docs" / "results" / "aa_study"
AGENTS = ("heuristic-v1", "spades_env.experiments.aa_study:OtherLuckHeuristic")
FORMATS = {"game": 1, "single": 2}  # games to 500 / single-hand boards; the code leads each seed
POOL = 10  # tournaments pooled into one for the larger-size check


class OtherLuckHeuristic(HeuristicAgent):
    """The heuristic with its bid jitter drawn from its own stream, not the seat's tournament seed.

    The tournament gives the seat the same seed in both games of a board;
    without the salt this copy would bid exactly as the heuristic does in
    its place, and an A/A match would be every board 0.
    """

    def reset(self, seat: int, seed: int | None = None) -> None:
        super().reset(seat, None if seed is None else derive_seed(seed, 0xA1A))


def study_seed(fmt: str, boards: int, tournament: int) -> int:
    """The master seed of tournament ``tournament``: readable, and distinct across formats and sizes."""
    if not 0 <= tournament < 1000:
        raise ValueError(f"tournament must be in 0..999, got {tournament}")
    return FORMATS[fmt] * 10**10 + boards * 10**3 + tournament


def play_tournament(fmt: str, boards: int, tournament: int, agents: Sequence[str] = AGENTS) -> dict:
    """One A/A tournament as a results line: per board ``[margin, hands]`` of its two games, from A's side."""
    start = time.perf_counter()
    seed = study_seed(fmt, boards, tournament)
    spec = TournamentSpec(agents=tuple(agents), games=2 * boards, seed=seed, single_hand=fmt == "single")
    games = board_games(play_indices(spec, range(spec.total_games)))
    return {"format": fmt, "boards": boards, "tournament": tournament, "seed": seed, "agents": list(agents),
            "schedule": SCHEDULE_VERSION, "games": [[*games[b][0], *games[b][1]] for b in sorted(games)],
            "seconds": round(time.perf_counter() - start, 2)}


def results_path(results: Path, fmt: str, boards: int) -> Path:
    return results / f"{fmt}-{boards}.jsonl"


def read_lines(path: Path) -> list[dict]:
    """The finished tournaments in ``path`` (a last line cut short by a kill is dropped)."""
    if not path.exists():
        return []
    lines = []
    for text in path.read_text().splitlines():
        try:
            lines.append(json.loads(text))
        except json.JSONDecodeError:
            continue
    return lines


def _run_one(job: tuple[str, int, int, tuple[str, ...]]) -> dict:
    return play_tournament(*job)


def run(fmt: str, boards: int, tournaments: int, workers: int, results: Path,
        agents: Sequence[str] = AGENTS) -> Path:
    """Play tournaments ``0..tournaments-1`` not yet in the results file, appending each as it finishes."""
    path = results_path(results, fmt, boards)
    path.parent.mkdir(parents=True, exist_ok=True)
    done = read_lines(path)
    other = [line for line in done if (line["agents"], line["schedule"]) != (list(agents), SCHEDULE_VERSION)]
    if other:
        raise SystemExit(f"{path} holds tournaments of other agents or another schedule; use another --results")
    data = path.read_bytes() if path.exists() else b""
    path.write_bytes(data[:data.rfind(b"\n") + 1])  # drop a last line cut short by a kill
    seen = {line["tournament"] for line in done}
    jobs = [(fmt, boards, t, tuple(agents)) for t in range(tournaments) if t not in seen]
    print(f"{path}: {len(seen)} done, {len(jobs)} to play", flush=True)
    with path.open("a") as out:
        for line in _results(jobs, workers):
            out.write(json.dumps(line, separators=(",", ":")) + "\n")
            out.flush()
            print(f"tournament {line['tournament']}: {line['seconds']} s", flush=True)
    return path


def _results(jobs: list, workers: int) -> Iterator[dict]:
    if workers <= 1 or len(jobs) <= 1:
        yield from map(_run_one, jobs)
        return
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap_unordered(_run_one, jobs)


# ------------------------------------------------------------------ analysis


def values(line: dict, boards: int | None = None) -> list[float]:
    """Points per deal of A on each board of a tournament (its first ``boards`` only, if given)."""
    games = line["games"][:boards]
    return [board_value([(m1, h1), (m2, h2)]) for m1, h1, m2, h2 in games]


def wilson(successes: int, n: int) -> tuple[float, float]:
    """95% Wilson interval of a proportion."""
    p, z2 = successes / n, Z95**2
    centre, half = (p + z2 / (2 * n)) / (1 + z2 / n), Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return centre - half, centre + half


def coverage_row(fmt: str, kind: str, samples: list[list[float]]) -> dict:
    """Coverage of 0 by the tournament's interval over ``samples`` (one list of board values per tournament)."""
    cis = [mean_ci(s) for s in samples]
    covered = sum(ci["low"] <= 0 <= ci["high"] for ci in cis)
    low, high = wilson(covered, len(cis))
    means = [ci["mean"] for ci in cis]
    spread = mean_ci(means)["sd"] if len(means) > 1 else None
    half = sum(ci["high"] - ci["mean"] for ci in cis) / len(cis)
    pooled = mean_ci([v for s in samples for v in s])
    return {"format": fmt, "boards": len(samples[0]), "kind": kind, "tournaments": len(cis), "covered": covered,
            "coverage": covered / len(cis), "coverage_low": low, "coverage_high": high,
            "mean": pooled["mean"], "mean_low": pooled["low"], "mean_high": pooled["high"],
            "p": _p_value(pooled),
            "board_sd": pooled["sd"], "mean_half_width": half,
            "width_ratio": half / (Z95 * spread) if spread else None}


def _p_value(ci: dict) -> float:
    """Two-sided normal p-value of a mean against 0 (1 when every value is 0)."""
    se = ci["sd"] / math.sqrt(ci["n"])
    return math.erfc(abs(ci["mean"]) / se / math.sqrt(2)) if se else float(ci["mean"] == 0)


def coverage_rows(lines: list[dict]) -> list[dict]:
    """Rows at the file's size, at half its size (the first half of each tournament: that smaller
    tournament exactly, boards being planned outermost) and pooled by ``POOL`` tournaments."""
    fmt, boards = lines[0]["format"], lines[0]["boards"]
    lines = sorted(lines, key=lambda line: line["tournament"])
    rows = [coverage_row(fmt, "tournament", [values(line) for line in lines])]
    if boards >= 100:
        rows.append(coverage_row(fmt, "first half of each", [values(line, boards // 2) for line in lines]))
    groups = [lines[k:k + POOL] for k in range(0, len(lines) - POOL + 1, POOL)]
    if len(groups) >= 5:
        rows.append(coverage_row(fmt, f"{POOL} tournaments pooled",
                                 [[v for line in group for v in values(line)] for group in groups]))
    return rows


def diagnostics(lines: list[dict]) -> dict:
    """Where a bias could hide: the seat effect that duplicate cancels, and boards whose games differ in length."""
    games = [g for line in lines for g in line["games"]]
    seat = mean_ci([(m1 - m2) / (h1 + h2) for m1, h1, m2, h2 in games])  # side 0 minus side 1, per deal
    unequal = [(m1 + m2) / (h1 + h2) for m1, h1, m2, h2 in games if h1 != h2]
    equal = [(m1 + m2) / (h1 + h2) for m1, h1, m2, h2 in games if h1 == h2]
    return {"format": lines[0]["format"], "boards_played": len(games),
            "zero_boards": sum(m1 + m2 == 0 for m1, _, m2, _ in games) / len(games),
            "unequal_length_boards": len(unequal) / len(games),
            "unmirrored_hands": sum(abs(h1 - h2) for _, h1, _, h2 in games) / sum(h1 + h2 for _, h1, _, h2 in games),
            "mean_equal_length": mean_ci(equal), "mean_unequal_length": mean_ci(unequal),
            "side0_minus_side1": seat,
            "seconds_per_board": sum(line["seconds"] for line in lines) / len(games)}


def _fmt(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def _ci_text(ci: dict, digits: int = 2) -> str:
    if ci["n"] < 2:
        return "—"
    return f"{ci['mean']:+.{digits}f} [{ci['low']:+.{digits}f}, {ci['high']:+.{digits}f}]"


def report(results: Path) -> tuple[str, str]:
    """The study as Markdown and CSV, from every results file in ``results``."""
    files = sorted(results.glob("*-*.jsonl"))
    rows, diags, commands = [], [], []
    for path in files:
        lines = read_lines(path)
        if lines:
            rows += coverage_rows(lines)
            diags.append((path.stem, diagnostics(lines)))
            commands.append(f"python -m spades_env.experiments.aa_study --format {lines[0]['format']} "
                            f"--boards {lines[0]['boards']} --tournaments {len(lines)}")
    buf = io.StringIO()
    if rows:
        writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    md = ["# A/A study of the tournament's interval", "",
          "Heuristic against a copy with its own bid jitter (`experiments/aa_study.py`): the true difference",
          "is 0. Coverage: share of tournaments whose 95% CI contains 0 [95% Wilson interval]. Mean: over",
          "every board of the row, points per deal for A [95% CI], two-sided p. Width ratio: the mean CI",
          "half-width over 1.96 times the spread (sd) of the tournaments' means (1 = calibrated).", "",
          "```bash", *commands, "python -m spades_env.experiments.aa_study --report  # this page", "```", "",
          "| format | boards | tournaments | coverage | mean, points per deal | p | board sd | width ratio |",
          "|---|---:|---|---|---|---:|---:|---:|"]
    for r in rows:
        md.append(f"| {r['format']} | {r['boards']} | {r['tournaments']} ({r['kind']}) "
                  f"| {r['covered']}/{r['tournaments']} = {r['coverage']:.1%} "
                  f"[{r['coverage_low']:.1%}, {r['coverage_high']:.1%}] "
                  f"| {r['mean']:+.3f} [{r['mean_low']:+.3f}, {r['mean_high']:+.3f}] | {r['p']:.2f} "
                  f"| {r['board_sd']:.2f} | {_fmt(r['width_ratio'])} |")
    md += ["", "| file | boards played | boards exactly 0 | boards of unequal length | unmirrored hands "
           "| mean, equal length | mean, unequal length | side 0 − side 1 per deal | wall s per board |",
           "|---|---:|---:|---:|---:|---|---|---|---:|"]
    for stem, d in diags:
        md.append(f"| {stem} | {d['boards_played']} | {d['zero_boards']:.1%} | {d['unequal_length_boards']:.1%} "
                  f"| {d['unmirrored_hands']:.1%} | {_ci_text(d['mean_equal_length'])} "
                  f"| {_ci_text(d['mean_unequal_length'])} | {_ci_text(d['side0_minus_side1'])} "
                  f"| {d['seconds_per_board']:.3f} |")
    return "\n".join(md) + "\n", buf.getvalue()


def write_report(results: Path) -> None:
    md, table = report(results)
    (results.parent / "aa_study.md").write_text(md)
    (results.parent / "aa_study.csv").write_text(table)
    print(md)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--format", choices=sorted(FORMATS), default="single",
                        help="single: single-hand boards; game: games to 500")
    parser.add_argument("--boards", type=int, default=100, help="boards per tournament")
    parser.add_argument("--tournaments", type=int, default=200, help="tournaments 0..N-1 (done ones are skipped)")
    parser.add_argument("--workers", type=int, default=1, help="processes, one tournament each")
    parser.add_argument("--results", type=Path, default=RESULTS, help="folder of the results files")
    parser.add_argument("--agents", nargs=2, default=list(AGENTS), metavar=("A", "B"),
                        help="the two agents (the default pair has a true difference of 0)")
    parser.add_argument("--report", action="store_true", help="only rewrite the report from the results files")
    args = parser.parse_args(argv)
    if not args.report:
        if args.boards < 2 or not 1 <= args.tournaments <= 1000:
            parser.error("--boards must be >= 2 and --tournaments in 1..1000")
        run(args.format, args.boards, args.tournaments, args.workers, args.results, args.agents)
    write_report(args.results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
