"""The one-line Blind Nil bot: heuristic-v1 in every decision, except that it bids Blind Nil
whenever it is offered and its partner has not bid Nil. Under the default rules it beats heuristic-v1 by
about +140 points per deal; heuristic-v2 must not lose to it (docs/agents.md#heuristic-v2)."""

from spades_env import actions as A
from spades_env.agents.heuristic import HeuristicAgent
from spades_env.game import Phase


class BlindNilBot(HeuristicAgent):
    def act(self, observation, action_mask, view):
        if view.phase == Phase.BLIND:
            partner = view.partner
            return A.LOOK if partner is not None and view.bids[partner] == 0 else A.BLIND_NIL
        return super().act(observation, action_mask, view)
