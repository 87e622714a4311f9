"""What one sampled world costs the solver where search-v5 searches, by tricks left (README's last table).

    taskset -c 1 python docs/results/worlds_depth/world_nodes.py --games 6 > docs/results/worlds_depth/world_nodes.txt

``search-v5``'s four-player play in time_agent's house-rule games to 500 against the heuristic; at each card it
searches with 5 to 9 tricks left, two more of its worlds (drawn as it draws them) solved with every card's value up
to ``--cap`` nodes: the nodes and CPU time each took, and whether a Nil stood. search-v5's own budget gives a world at
most 62,500 nodes (250,000 a decision over at least four worlds).
"""

import argparse
import time
from collections import defaultdict

import numpy as np

import spades_env.agents.endgame as endgame
from spades_env.agents.search.play import nil_standing, tricks_left
from spades_env.agents.search.worlds import fitted_worlds
from spades_env.experiments.time_agent import time_agent
from spades_env.solver import NodeLimitReached, WorldSolver, position_of

SPEC = "endgame:ppo-v3:tricks=9,worlds=24,ms=250,nil_play=1,nil_risk=1.05,bag_cost=10"
SHARE = 62_500


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--cap", type=int, default=2_000_000)
    parser.add_argument("--bag-cost", type=int, default=None, help="solve the worlds at this price (default: 10)")
    args = parser.parse_args()
    rows: dict[tuple[int, bool], list[tuple[int, float]]] = defaultdict(list)
    searched_card = endgame.EndgameAgent.searched_card

    def measured(self, view, action):
        left = tricks_left(view)
        if 5 <= left <= 9:
            b = self.budget
            rng = np.random.default_rng([7, view.hand_number, len(view.plays)])
            for world in fitted_worlds(view, 2, rng, b.nil_risk, b.bid_sigma, b.exchange_fit, b.nil_play,
                                       b.nil_discards, b.nil_fit):
                solver = WorldSolver(position_of(world, b.bag_cost if args.bag_cost is None else args.bag_cost))
                start = time.process_time()
                try:
                    nodes = solver.solve(world.hands, max_nodes=args.cap).nodes
                except NodeLimitReached:
                    nodes = args.cap + 1
                rows[left, nil_standing(view)].append((nodes, time.process_time() - start))
        return searched_card(self, view, action)

    endgame.EndgameAgent.searched_card = measured
    time_agent(SPEC, 4, args.games, 777, None, "house", False)
    price = "" if args.bag_cost is None else f", the worlds solved at bag_cost={args.bag_cost}"
    print(f"# {SPEC}: {args.games} house-rule games to 500, two extra worlds a searched card, cap {args.cap:,} nodes"
          f"{price}")
    print("| tricks left | Nil standing | worlds | median nodes | p90 nodes | over 62,500 | median ms | p90 ms |")
    print("|---|---|---|---|---|---|---|---|")
    for (left, nil), seen in sorted(rows.items(), reverse=True):
        nodes = np.array([n for n, _ in seen])
        ms = 1000 * np.array([t for _, t in seen])
        capped = "capped" if np.percentile(nodes, 90) > args.cap else f"{np.percentile(nodes, 90):,.0f}"
        print(f"| {left} | {'yes' if nil else 'no'} | {len(seen)} | {np.median(nodes):,.0f} | {capped} | "
              f"{(nodes > SHARE).mean():.0%} | {np.median(ms):.2f} | {np.percentile(ms, 90):.2f} |")


if __name__ == "__main__":
    main()
