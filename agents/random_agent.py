"""The random baseline: uniform over the legal actions, reproducible from a seed."""

from __future__ import annotations

import random

import numpy as np

from spades_env.agent import BaseAgent
from spades_env.view import PlayerView


class RandomAgent(BaseAgent):
    """Picks uniformly among the legal actions of the mask.

    It reads only the action mask, so the match driver skips building the
    observation vector and the view for it (``needs_observation`` /
    ``needs_view`` are False). ``reset(seat, seed)`` reseeds it, so a game
    replays exactly from the seeds the driver hands out.
    """

    needs_observation = False
    needs_view = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def reset(self, seat: int, seed: int | None = None, config=None) -> None:
        if seed is not None:
            self.rng.seed(seed)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view: PlayerView | None) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 0:
            raise ValueError("RandomAgent.act called with no legal action in the mask")
        return int(legal[self.rng.randrange(len(legal))])
