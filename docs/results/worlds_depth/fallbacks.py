"""How often the hybrid's search keeps the network's card, by tricks left (README's second table).

    taskset -c 1 python docs/results/worlds_depth/fallbacks.py SPEC... [--games N]

Each SPEC (an ``endgame:`` agent) plays time_agent's house-rule games to 500 against the heuristic; for every card
it searches: whether it fell back (fewer worlds solved within the node budget than it needs: the network's card
stands) and whether the card played differs from the network's.
"""

import argparse
from collections import Counter

import spades_env.agents.endgame as endgame
from spades_env.agents.search.play import tricks_left
from spades_env.experiments.time_agent import time_agent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("specs", nargs="+")
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    seen: Counter = Counter()
    search_card = endgame.search_card

    def counted(view, action, budget, rng):
        choice = search_card(view, action, budget, rng)
        left = tricks_left(view)
        seen[left, "searched"] += 1
        seen[left, "fell back"] += choice.solved == 0
        seen[left, "changed"] += choice.card != action
        return choice

    endgame.search_card = counted
    for spec in args.specs:
        seen.clear()
        _, ms = time_agent(spec, 4, args.games, 777, None, "house", False)
        print(f"{spec}: {ms:.2f} CPU ms a decision")
        for left in sorted({left for left, _ in seen}, reverse=True):
            n = seen[left, "searched"]
            print(f"  {left:2d} tricks left: {n:4d} searched, fell back {seen[left, 'fell back'] / n:6.1%}, "
                  f"changed {seen[left, 'changed'] / n:6.1%}")


if __name__ == "__main__":
    main()
