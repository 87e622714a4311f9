"""A diagnostic that cheats: `search-v3`'s shape with the true deal as its only world (oracle_plan.txt).

    spades tournament --agents ./docs/results/catch_up/oracle.py:Oracle heuristic-v2 --single-hand ...

Every decision is `ppo-v3`'s except the card play with at most nine tricks left, which the solver plays on the
true deal, read from the information state's copy of the game (what no real agent may read): the network's card
kept among the equal best. It bounds what better inference of the hidden cards could add to `search-v3`'s card
play, and so what its lead can be worth in house-rule games to 500, where the side 100 behind bids Blind Nil.
``where="nil"`` cheats only while a Nil or Blind Nil stands, ``where="contract"`` only while none does; elsewhere
it searches as `search-v3` does (24 sampled worlds, 250 ms of solver nodes): oracle_plan.txt's addendum.
``where="bidder"`` (addendum 3) cheats less: while an opposing Nil or Blind Nil stands it searches `search-v3`'s 24
worlds, but each deals the Nil bidder its true hand (the other hidden hands drawn given it): what perfect inference
of the bidder's hand alone could add.
"""

from spades_env.agents.endgame import EndgameAgent
from spades_env.agents.heuristic.reading import opposing_nils
from spades_env.agents.search.play import best_card, nil_standing, solve_worlds
from spades_env.rebuild import information_state
from spades_env.solver import NodeLimitReached, solve
from spades_env.view import PlayerView

WHERE = ("all", "nil", "contract", "bidder")


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
        if self.where == "bidder":
            return self.bidder_known(view, action)
        if self.where != "all" and (self.where == "nil") != nil_standing(view):
            return super().searched_card(view, action)
        true_game = view.infostate._game  # the cheat: the hidden cards as dealt
        try:
            solution = solve(true_game, every_move=True, max_nodes=self.max_nodes)
        except NodeLimitReached:
            return action
        return best_card(solution.move_values, action)

    def bidder_known(self, view: PlayerView, action: int) -> int:
        """``search-v3``'s search, but while an opposing Nil stands each world deals its bidder the true hand."""
        bidders = opposing_nils(view)
        if not bidders:
            return super().searched_card(view, action)
        true_game = view.infostate._game  # the cheat: the bidders' hands as they hold them now
        given = {s: true_game.hands[s] for s in bidders}
        rng, state = self.decision_rng(view), information_state(view)
        worlds = (state.resample(rng, hands=given) for _ in range(self.budget.worlds))
        means, _, _ = solve_worlds(view, worlds, self.budget)
        return action if means is None else best_card(means, action)
