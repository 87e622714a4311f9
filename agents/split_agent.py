"""An agent that bids with one agent and plays its cards with another.

It answers the question "which half of a bot's game is better?" in the
duplicate tournament (``spades tournament --agents ppo-bids heuristic``), and
is the demonstrator for distilling two agents into one network
(``spades train --bc-agent ppo-bids``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from spades_env.game import Phase
from spades_env.view import PlayerView

from .base import Agent, make_agent
from .match import needs_observation


class SplitAgent:
    """Card plays (the play phase) go to ``player``; every other decision (Blind Nil, bids, the Blind Nil
    exchange, the two-player draw and replacements) goes to ``bidder``. Both get ``reset`` calls."""

    def __init__(self, bidder: str | Agent = "ppo", player: str | Agent = "heuristic") -> None:
        self.bidder = make_agent(bidder) if isinstance(bidder, str) else bidder
        self.player = make_agent(player) if isinstance(player, str) else player
        self.needs_observation = needs_observation(self.bidder) or needs_observation(self.player)
        self.needs_view = True  # the phase is read from the view

    def reset(self, seat: int, seed: int | None = None) -> None:
        for agent in (self.bidder, self.player):
            if hasattr(agent, "reset"):
                agent.reset(seat, seed)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view: PlayerView) -> int:
        agent = self.player if view.phase == Phase.PLAY else self.bidder
        return int(agent.act(observation, action_mask, view))


GEN1 = Path(__file__).resolve().parent / "ppo" / "checkpoints" / "ppo-4p-gen1.pt"


def ppo_bids_agent(arg: str | None = None) -> SplitAgent:
    """Registry factory for ``"ppo-bids"``: the first-generation four-player PPO network's bids (the
    network trained by PPO alone, ``ppo-4p-gen1.pt``) and the heuristic's card play.

    ``"ppo-bids:path.pt"`` takes the bids from another policy file.
    """
    return SplitAgent(f"ppo:{arg or GEN1}", "heuristic")
