"""An agent that bids with one agent and plays its cards with another.

It answers the question "which half of a bot's game is better?" in the
duplicate tournament (``spades tournament --agents split:ppo-gen1+heuristic
split:heuristic+ppo-gen1 heuristic``), and ``ppo-bids`` is the demonstrator
an earlier four-player network was distilled from (``spades train --teacher
ppo-bids``; docs/training_history.md).
"""

from __future__ import annotations

import numpy as np

from spades_env.agent import (
    BaseAgent,
    check_config,
    close_agent,
    needs_infostate,
    needs_observation,
    reset_agent,
)
from spades_env.game import Phase, SpadesConfig
from spades_env.view import PlayerView

from .registry import Agent, make_agent


class SplitAgent(BaseAgent):
    """Card plays (the play phase) go to ``player``; every other decision (Blind Nil, bids, the Blind Nil
    exchange, the two-player draw and replacements) goes to ``bidder``. Both get ``reset``, ``check_config``
    and ``close`` calls."""

    def __init__(self, bidder: str | Agent = "ppo", player: str | Agent = "heuristic") -> None:
        self.bidder = make_agent(bidder) if isinstance(bidder, str) else bidder
        self.player = make_agent(player) if isinstance(player, str) else player
        self.needs_observation = needs_observation(self.bidder) or needs_observation(self.player)
        self.needs_view = True  # the phase is read from the view
        self.needs_infostate = needs_infostate(self.bidder) or needs_infostate(self.player)

    def reset(self, seat: int, seed: int | None = None, config: SpadesConfig | None = None) -> None:
        for agent in (self.bidder, self.player):
            reset_agent(agent, seat, seed, config)

    def check_config(self, config: SpadesConfig) -> None:
        for role, agent in (("bidder", self.bidder), ("player", self.player)):
            check_config(agent, config, f"the {role}")

    def close(self) -> None:
        for agent in (self.bidder, self.player):
            close_agent(agent)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view: PlayerView) -> int:
        agent = self.player if view.phase == Phase.PLAY else self.bidder
        return int(agent.act(observation, action_mask, view))


def split_agent(arg: str | None = None) -> SplitAgent:
    """Registry factory for ``"split:BIDDER+PLAYER"``, e.g. ``split:ppo-gen1+heuristic``: the bids (and
    every other decision outside card play) of BIDDER, the card play of PLAYER (agent specs)."""
    bidder, sep, player = (arg or "").partition("+")
    if not (sep and bidder and player):
        given = "split" if arg is None else f"split:{arg}"
        raise ValueError(f"expected 'split:BIDDER+PLAYER' (e.g. split:ppo-gen1+heuristic), got {given!r}")
    return SplitAgent(bidder, player)


def ppo_bids_agent(arg: str | None = None) -> SplitAgent:
    """Registry factory for ``"ppo-bids"`` = ``split:ppo-gen1+heuristic``: the bids of the four-player
    network trained by PPO alone (``ppo-4p-gen1.pt``), the heuristic's card play.

    ``"ppo-bids:path.pt"`` takes the bids from another policy file.
    """
    return SplitAgent(f"ppo:{arg}" if arg else "ppo-gen1", "heuristic")
