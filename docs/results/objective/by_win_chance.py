"""A side's hand margin by its modelled chance of winning the game before the hand, and by who bid Blind Nil.

The networks are trained on the change in win chance (agents/ppo/score_context.py), the tournament counts points
per deal: where the chance is near 0 or 1 a point barely moves the reward, so a network could give points away
there that the tournament counts. This splits recorded games to 500 by that chance (the trainer's own model,
``score_context.win_chance``) to see how many hands that concerns and what the side made in them.

Usage: ``python docs/results/objective/by_win_chance.py AGENT_LABEL results/.../games.jsonl ...``
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict

import numpy as np

from spades_env.agents.ppo.score_context import win_chance
from spades_env.game import SpadesConfig

BUCKETS = ((0.0, 0.1), (0.1, 0.3), (0.3, 0.7), (0.7, 0.9), (0.9, 1.01))


def main(label: str, paths: list[str]) -> None:
    margins: dict[tuple[str, int], list[int]] = defaultdict(list)
    for path in paths:
        for line in open(path):
            record = json.loads(line)
            config = SpadesConfig(**{k: v for k, v in record["config"].items()})
            me = record["sides"].index(label)
            for hand in record["hands"]:
                chance = win_chance(hand["scores_before"], hand["bags_before"], me, config)
                bucket = next(i for i, (low, high) in enumerate(BUCKETS) if low <= chance < high)
                ours = any(hand["blind_nil"][p] for p in range(4) if p % 2 == me)
                theirs = any(hand["blind_nil"][p] for p in range(4) if p % 2 != me)
                kind = "both Blind Nil" if ours and theirs else "ours Blind Nil" if ours else \
                    "theirs Blind Nil" if theirs else "no Blind Nil"
                margin = hand["points"][me] - hand["points"][1 - me]
                margins[(kind, bucket)].append(margin)
                margins[("every hand", bucket)].append(margin)
    total = sum(len(v) for (kind, _), v in margins.items() if kind == "every hand")
    print(f"{label}: {total} hands; margin a hand [95% CI] by win chance before the hand")
    print("| hands | win chance | hands | share | margin a hand |")
    print("|---|---|---|---|---|")
    for kind in ("every hand", "no Blind Nil", "theirs Blind Nil", "ours Blind Nil", "both Blind Nil"):
        for i, (low, high) in enumerate(BUCKETS):
            values = margins.get((kind, i), [])
            if values:
                half = 1.96 * np.std(values) / np.sqrt(len(values)) if len(values) > 1 else float("nan")
                print(f"| {kind} | {low:.1f}-{min(high, 1.0):.1f} | {len(values)} | {len(values) / total:.1%} | "
                      f"{np.mean(values):+.1f} ± {half:.1f} |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
