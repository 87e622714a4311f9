"""Where a lead in games to 500 goes: each side's points per hand by the score it stood at.

A single hand starts at 0 to 0; a game does not. Under the house rule a side 100 or more behind may bid
Blind Nil, which is made about nine times in ten after the exchange, so the side that falls behind gets
hands worth far more than the others: a stronger side is behind less often, and its opponent more. This
reads a tournament's ``games.jsonl`` (games to 500) and splits every hand of each agent's side by what it
stood at before the hand: the Blind Nil deficit or more behind (a hand in which it may bid Blind Nil), or
not; and 7 bags or more carried (the bag penalty near), or fewer. Per row: hands, points per hand, and the
points difference per hand (its side's less the other's: for the rows 100 or more behind, the catch-up that
``agents/ppo/score_context.py`` counts in a lead).

Usage::

    python -m spades_env.experiments.game_context \\
        results/benchmark/search-v1-4p-full/house/games/heuristic-v2/games.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

NEAR_PENALTY = 7  # bags carried from which the next hand's overtricks may cost the bag penalty


def contexts(path: str) -> dict[tuple[str, str], list[float]]:
    """``(agent, context) -> [hands, points, difference]`` over every hand of ``path``'s games, each side seen
    alone."""
    rows: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for line in open(path):
        game = json.loads(line)
        deficit = game["config"].get("blind_nil_min_deficit") or 0
        for hand in game["hands"]:
            for side, agent in enumerate(game["sides"]):
                behind = hand["scores_before"][1 - side] - hand["scores_before"][side]
                seats = range(side, len(hand["bids"]), 2)
                blind = any(hand["blind_nil"][s] for s in seats)
                labels = ["all",
                          f"{deficit} or more behind" if deficit and behind >= deficit else "not that far behind",
                          "bid Blind Nil" if blind else "no Blind Nil",
                          f"{NEAR_PENALTY}+ bags carried" if hand["bags_before"][side] >= NEAR_PENALTY
                          else f"under {NEAR_PENALTY} bags carried"]
                for label in labels:
                    row = rows[(agent, label)]
                    row[0] += 1
                    row[1] += hand["points"][side]
                    row[2] += hand["points"][side] - hand["points"][1 - side]
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", help="a tournament's games.jsonl (games to 500)")
    args = parser.parse_args(argv)
    rows = contexts(args.games)
    print("| agent | hands before which its side stood | hands | points per hand | difference per hand |")
    print("|---|---|---:|---:|---:|")
    for (agent, label), (hands, points, difference) in sorted(rows.items()):
        print(f"| {agent} | {label} | {hands:.0f} | {points / hands:.1f} | {difference / hands:+.1f} |")


if __name__ == "__main__":
    main()
