"""Points per hand by what each side bid: Blind Nil, a Nil made or set, or none (eval_plan.txt's "from what").

    python docs/results/hybrid_nil/hand_types.py results/bags/K6_house_games [more folders]

For each pair (the candidate's side, heuristic-v2's side) of hand types: the hands, the candidate's mean margin in
them, and their share of its points per hand (the shares sum to its mean margin a hand).
"""

import json
import sys
from collections import Counter
from pathlib import Path


def side_type(hand: dict, side: int) -> str:
    seats = [seat for seat in range(4) if seat % 2 == side]
    if any(hand["blind_nil"][seat] for seat in seats):
        return "BN"
    nils = [seat for seat in seats if hand["bids"][seat] == 0]
    if not nils:
        return "-"
    return "Nil+" if all(hand["tricks"][seat] == 0 for seat in nils) else "Nil-"


def main() -> None:
    for folder in sys.argv[1:]:
        count, margin, total = Counter(), Counter(), 0
        for line in (Path(folder) / "games.jsonl").open():
            game = json.loads(line)
            mine = 1 - game["sides"].index("heuristic-v2")
            for hand in game["hands"]:
                key = side_type(hand, mine), side_type(hand, 1 - mine)
                count[key] += 1
                margin[key] += hand["sides"][mine]["total"] - hand["sides"][1 - mine]["total"]
                total += 1
        print(f"{folder}: {total} hands, {sum(margin.values()) / total:+.1f} a hand")
        for key in sorted(count, key=lambda k: -abs(margin[k])):
            print(f"  candidate {key[0]:5} heuristic-v2 {key[1]:5} {count[key]:5} hands, "
                  f"mean {margin[key] / count[key]:+7.1f}, share {margin[key] / total:+6.2f}")


if __name__ == "__main__":
    main()
