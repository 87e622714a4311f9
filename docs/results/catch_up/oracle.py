"""A diagnostic that cheats: `search-v3`'s shape with the true deal as its only world (oracle_plan.txt).

    spades tournament --agents ./docs/results/catch_up/oracle.py:Oracle heuristic-v2 --single-hand ...

Every decision is `ppo-v3`'s except the card play with at most nine tricks left, which the solver plays on the
true deal, read from the information state's copy of the game (what no real agent may read): the network's card
kept among the equal best. It bounds what better inference of the hidden cards could add to `search-v3`'s card
play, and so what its lead can be worth in house-rule games to 500, where the side 100 behind bids Blind Nil.
``where="nil"`` cheats only while a Nil or Blind Nil stands, ``where="contract"`` only while none does; elsewhere
it searches as `search-v3` does (24 sampled worlds, 250 ms of solver nodes): oracle_plan.txt's addendum.
"""

from spades_env.agents.endgame import EndgameAgent
from spades_env.agents.search.play import best_card, nil_standing
from spades_env.solver import NodeLimitReached, solve
from spades_env.view import PlayerView

WHERE = ("all", "nil", "contract")


class Oracle(EndgameAgent):
    """``ppo-v3``'s decisions, but its last ``tricks`` tricks' cards solved on the true deal (the network's card
    when a solve needs more than ``max_nodes`` nodes), where ``where`` says; elsewhere searched as ``search-v3``."""

    def __init__(self, agent: str = "ppo-v3", tricks: int = 9, max_nodes: int = 2_000_000, where: str = "all",
                 worlds: int = 24, ms: float = 250.0, seed: int | None = None) -> None:
        if where not in WHERE:
            raise ValueError(f"where must be one of {WHERE}, got {where!r}")
        super().__init__(agent, tricks=tricks, worlds=worlds, ms=ms, seed=seed)
        self.max_nodes, self.where = int(max_nodes), where

    def searched_card(self, view: PlayerView, action: int) -> int:
        if self.where != "all" and (self.where == "nil") != nil_standing(view):
            return super().searched_card(view, action)
        true_game = view.infostate._game  # the cheat: the hidden cards as dealt
        try:
            solution = solve(true_game, every_move=True, max_nodes=self.max_nodes)
        except NodeLimitReached:
            return action
        return best_card(solution.move_values, action)
