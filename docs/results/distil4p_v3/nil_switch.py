"""ppo-v3, but where no Nil stands its card play is the first fit's (a diagnostic of eval_plan.txt's addendum 2).

    spades tournament --agents ./docs/results/distil4p_v3/nil_switch.py:NilSwitch ppo-v3 --single-hand ...
"""

import numpy as np

from spades_env.agents.split_agent import SplitAgent
from spades_env.game import Phase
from spades_env.view import PlayerView


class NilSwitch(SplitAgent):
    """Every decision ppo-v3's, but card plays while no Nil or Blind Nil stands: the fit's."""

    def __init__(self, fitted: str = "ppo:runs/distil4p_v3/policy.pt") -> None:
        super().__init__("ppo-v3", fitted)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view: PlayerView) -> int:
        standing = any(bid == 0 and won == 0 for bid, won in zip(view.bids, view.tricks_won))
        agent = self.player if view.phase == Phase.PLAY and not standing else self.bidder
        return int(agent.act(observation, action_mask, view))
