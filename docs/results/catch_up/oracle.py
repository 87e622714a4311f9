"""A diagnostic that cheats: `search-v3`'s shape with the true deal as its only world (oracle_plan.txt).

    spades tournament --agents ./docs/results/catch_up/oracle.py:Oracle heuristic-v2 --single-hand ...

Every decision is `ppo-v3`'s except the card play with at most nine tricks left, which the solver plays on the
true deal, read from the information state's copy of the game (what no real agent may read): the network's card
kept among the equal best. It bounds what better inference of the hidden cards could add to `search-v3`'s card
play, and so what its lead can be worth in house-rule games to 500, where the side 100 behind bids Blind Nil.
"""

import numpy as np

from spades_env.agents.endgame import EndgameAgent
from spades_env.agents.search.play import best_card, tricks_left
from spades_env.game import Phase
from spades_env.solver import NodeLimitReached, solve
from spades_env.view import PlayerView


class Oracle(EndgameAgent):
    """``ppo-v3``'s decisions, but its last ``tricks`` tricks' cards solved on the true deal (the network's card
    when a solve needs more than ``max_nodes`` nodes)."""

    def __init__(self, agent: str = "ppo-v3", tricks: int = 9, max_nodes: int = 2_000_000) -> None:
        super().__init__(agent, tricks=tricks)
        self.max_nodes = int(max_nodes)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view: PlayerView) -> int:
        action = int(self.agent.act(observation, action_mask, view))
        if view.phase != Phase.PLAY or tricks_left(view) > self.budget.max_tricks or len(view.legal_actions) < 2:
            return action
        true_game = view.infostate._game  # the cheat: the hidden cards as dealt
        try:
            solution = solve(true_game, every_move=True, max_nodes=self.max_nodes)
        except NodeLimitReached:
            return action
        return best_card(solution.move_values, action)
