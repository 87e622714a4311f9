"""Where search-v5's search changes the network's card, by the network's confidence (eval_plan.txt's measurement).

    taskset -c 1 python docs/results/screened/confidence.py --games 10 > docs/results/screened/confidence.txt

``search-v5``'s four-player play (``endgame:ppo-v3:tricks=9,worlds=24,ms=250,nil_play=1,nil_risk=1.05,bag_cost=10``)
in time_agent's house-rule games to 500 against the heuristic; at each card it searches with 5 to 9 tricks left,
the network's probability of its own card among the legal ones, whether the search changed the card, and the
search's CPU time. Printed: for thresholds p, the share of those decisions where the network's probability is
below p, the share of all changes among them, and the share of the search's time they took.
"""

import argparse
import time

import numpy as np

import spades_env.agents.endgame as endgame
from spades_env.agents.search.play import tricks_left
from spades_env.experiments.time_agent import time_agent

SPEC = "endgame:ppo-v3:tricks=9,worlds=24,ms=250,nil_play=1,nil_risk=1.05,bag_cost=10"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    rows: list[tuple[float, bool, float]] = []  # (network's probability, changed, seconds)
    searched_card = endgame.EndgameAgent.searched_card

    def recorded(self, view, action):
        left = tricks_left(view)
        start = time.process_time()
        card = searched_card(self, view, action)
        spent = time.process_time() - start
        if 5 <= left <= 9:
            observation = self.last_observation
            logits = self.agent.fast.logits(observation)
            legal = np.zeros(logits.shape, bool)
            legal[list(view.legal_actions)] = True
            z = np.where(legal, logits, -np.inf)
            p = np.exp(z - z.max())
            rows.append((float(p[action] / p.sum()), card != action, spent))
        return card

    act = endgame.EndgameAgent.act

    def act_keeping(self, observation, action_mask, view):
        self.last_observation = observation
        return act(self, observation, action_mask, view)

    endgame.EndgameAgent.searched_card = recorded
    endgame.EndgameAgent.act = act_keeping
    time_agent(SPEC, 4, args.games, 777, None, "house", False)
    prob = np.array([r[0] for r in rows])
    changed = np.array([r[1] for r in rows])
    spent = np.array([r[2] for r in rows])
    print(f"# {SPEC}, {args.games} house-rule games to 500: {len(rows)} searched cards with 5-9 tricks left, "
          f"{changed.mean():.1%} changed, {spent.sum():.1f} s")
    print("| network's p below | decisions | changes among them | search time |")
    print("|---|---|---|---|")
    for threshold in (0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 0.999, 1.01):
        below = prob < threshold
        print(f"| {threshold} | {below.mean():.1%} | {changed[below].sum() / max(changed.sum(), 1):.1%} | "
              f"{spent[below].sum() / spent.sum():.1%} |")


if __name__ == "__main__":
    main()
