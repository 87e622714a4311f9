"""ppo-v3, but where no Nil stands its card play is the first fit's (a diagnostic of eval_plan.txt's addendum 2).

    spades tournament --agents ./docs/results/distil4p_v3/nil_switch.py:NilSwitch ppo-v3 --single-hand ...
"""

import numpy as np

from spades_env.agents.search.play import nil_standing
from spades_env.agents.split_agent import SplitAgent
from spades_env.game import Phase
from spades_env.view import PlayerView


class NilSwitch(SplitAgent):
    """Every decision ppo-v3's, but card plays while no Nil or Blind Nil stands: the fit's."""

    def __init__(self, fitted: str = "ppo:runs/distil4p_v3/policy.pt") -> None:
        super().__init__("ppo-v3", fitted)

    def fitted_plays(self, view: PlayerView) -> bool:
        """Whether this card play is the fit's: no Nil stands."""
        return not nil_standing(view)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view: PlayerView) -> int:
        agent = self.player if view.phase == Phase.PLAY and self.fitted_plays(view) else self.bidder
        return int(agent.act(observation, action_mask, view))
