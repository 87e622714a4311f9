"""Bags and bag penalties per side in recorded games (eval_plan.txt's "from what").

    python docs/results/bags/penalties.py results/bags/tune_10 [more folders]

Per agent, over every hand its side played: bags taken a hand, bag penalties paid per 100 hands, the share of its
contracts set, points a hand.
"""

import json
import sys
from collections import Counter
from pathlib import Path


def main() -> None:
    for folder in sys.argv[1:]:
        hands, bags, penalties, sets, contracts, points = (Counter() for _ in range(6))
        for line in (Path(folder) / "games.jsonl").open():
            game = json.loads(line)
            for hand in game["hands"]:
                for side, agent in enumerate(game["sides"]):
                    score = hand["sides"][side]
                    hands[agent] += 1
                    bags[agent] += score["bags_taken"]
                    penalties[agent] += score["bag_penalty"] != 0
                    contracts[agent] += score["bid"] > 0
                    sets[agent] += score["bid"] > 0 and not score["made"]
                    points[agent] += score["total"]
        print(folder)
        for agent, n in hands.items():
            rates = (bags[agent] / n, 100 * penalties[agent] / n, 100 * sets[agent] / max(1, contracts[agent]),
                     points[agent] / n)
            print("  {}: {} hands, bags {:.2f} a hand, penalties {:.1f} per 100 hands, set {:.1f}%, "
                  "points {:.1f} a hand".format(agent, n, *rates))


if __name__ == "__main__":
    main()
