"""The four-trick hybrid whose bid, once the other side has bid Blind Nil, leans to Nil (eval_plan.txt).

    spades tournament --agents ./docs/results/nil_vs_blind/nil_rule.py:NilRule:margin=2 heuristic-v2 --rules house ...

Every decision is ``endgame:ppo-v3:tricks=4,bag_cost=10``'s except one: a bid made after an opponent's Blind Nil,
with Nil legal and the partner not (yet) in Nil. There the seat bids Nil when the network's log-probability of Nil is
within ``margin`` of its most probable bid's (0: the network's own bid; ``inf``: always Nil), or never bids Nil
(``margin=-1``: the network's most probable other bid).
"""

import math

import numpy as np
import torch

from spades_env.actions import BID_BASE
from spades_env.agents.endgame import EndgameAgent
from spades_env.agents.ppo.model import masked_log_probs
from spades_env.game import Phase
from spades_env.view import PlayerView


class NilRule(EndgameAgent):
    """The hybrid with its bids after an opposing Blind Nil ruled by ``margin`` (module docstring)."""

    def __init__(self, margin: float = 0.0, seed: int | None = None) -> None:
        super().__init__("ppo-v3", tricks=4, bag_cost=10, seed=seed)
        self.margin = float(margin)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view: PlayerView) -> int:
        if view.phase == Phase.BID and self.ruled(view, action_mask):
            return self.ruled_bid(observation, action_mask)
        return super().act(observation, action_mask, view)

    @staticmethod
    def ruled(view: PlayerView, action_mask: np.ndarray) -> bool:
        """A bid after an opponent's Blind Nil, Nil legal, the partner not in Nil."""
        opponents = [seat for seat in range(view.num_players) if seat % 2 != view.side]
        return (bool(action_mask[BID_BASE]) and any(view.blind[seat] for seat in opponents)
                and view.bids[view.partner] != 0)

    @torch.no_grad()
    def ruled_bid(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        model = self.agent.model
        legal = np.asarray(action_mask, bool)
        logits = model.logits(torch.as_tensor(np.asarray(observation, np.float32).reshape(1, -1)))
        log_probs = masked_log_probs(logits, torch.as_tensor(legal).unsqueeze(0))[0].numpy()
        others = log_probs.copy()
        others[BID_BASE] = -math.inf
        best_other = int(others.argmax())
        if self.margin < 0:
            return best_other
        return BID_BASE if log_probs[BID_BASE] >= log_probs.max() - self.margin else best_other
