"""What nil_play adds against heuristic-v2 on identical deals (eval_plan.txt's addendum 2).

    python docs/results/nil_play/paired.py results/nil_play/heuristic-v2_house_single \
        results/nil_play/base_heuristic-v2_house_single [OPPONENT]

Each folder is a duplicate tournament of an agent against the same opponent (OPPONENT, by default heuristic-v2) at
the same seed, so board k deals the same cards in both (in games to 500, its first hand's; the later hands' too while
the games last as long). A board's figure is the agent's side's points minus the opponent's over its two games, per
hand played (the tournament's points per deal; single hands: the mean of the two games); the difference of the two
agents' board figures, board by board, is the option's effect, given with its 95% interval (normal, over the
boards).
"""

import json
import math
import sys
from collections import defaultdict
from pathlib import Path


def boards(folder: Path, opponent: str) -> dict[int, tuple[frozenset[int], float]]:
    """Board -> (its games' deal seeds, the agent's points minus the opponent's per hand over its two games)."""
    diffs, hands, seeds = defaultdict(int), defaultdict(int), {}
    for line in (folder / "games.jsonl").open():
        game = json.loads(line)
        side = 1 - game["sides"].index(opponent)
        diffs[game["board"]] += game["scores"][side] - game["scores"][1 - side]
        hands[game["board"]] += len(game["hands"])
        seeds.setdefault(game["board"], set()).add(game["seed"])
    return {b: (frozenset(seeds[b]), diffs[b] / hands[b]) for b in diffs}


def main() -> None:
    opponent = sys.argv[3] if len(sys.argv) > 3 else "heuristic-v2"
    option, base = (boards(Path(arg), opponent) for arg in sys.argv[1:3])
    common = sorted(set(option) & set(base))
    if any(option[b][0] != base[b][0] for b in common):
        raise SystemExit("error: the two tournaments deal different cards on the same board; play them at one seed")
    d = [option[b][1] - base[b][1] for b in common]
    mean = sum(d) / len(d)
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1))
    half = 1.96 * sd / math.sqrt(len(d))
    with_it, without = (sum(runs[b][1] for b in common) / len(d) for runs in (option, base))
    print(f"{len(d)} boards: option {with_it:+.1f}, base {without:+.1f}, difference {mean:+.1f} "
          f"[{mean - half:+.1f}, {mean + half:+.1f}] points per deal; boards changed {sum(x != 0 for x in d)}")


if __name__ == "__main__":
    main()
