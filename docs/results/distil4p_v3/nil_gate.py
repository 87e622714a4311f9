"""ppo-v3, but where no Nil of my side stands its card play is the gate's expert's (eval_plan.txt's addendum 5).

    spades tournament --agents ./docs/results/distil4p_v3/nil_gate.py:NilGate ppo-v3 --single-hand ...
"""

import numpy as np

from spades_env.agents.split_agent import SplitAgent
from spades_env.game import Phase
from spades_env.view import PlayerView


class NilGate(SplitAgent):
    """Every decision ppo-v3's, but card plays while neither I nor my partner has a Nil or Blind Nil standing: the
    expert's (fitted on exactly those card plays)."""

    def __init__(self, expert: str = "ppo:runs/distil4p_v3_gate/policy.pt") -> None:
        super().__init__("ppo-v3", expert)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view: PlayerView) -> int:
        mine = any(view.bids[s] == 0 and view.tricks_won[s] == 0 for s in (view.seat, view.partner))
        agent = self.player if view.phase == Phase.PLAY and not mine else self.bidder
        return int(agent.act(observation, action_mask, view))
