"""The heuristic agent: routes each decision of either variant to the bidding or the card-play rules."""

from __future__ import annotations

import random
from dataclasses import fields, replace

import numpy as np

from spades_env import actions as A
from spades_env.agent import BaseAgent
from spades_env.cards import mask_of
from spades_env.game import Phase
from spades_env.view import PlayerView

from .bidding import choose_bid, choose_pass, choose_replacement, keep_offered, want_blind_nil
from .params import DEFAULT, V1, V2, Params
from .play import choose_card


class HeuristicAgent(BaseAgent):
    """Rule-based Spades player for both variants.

    Deterministic for a given seed: the seed only nudges bids that sit on a
    rounding boundary (by at most 0.1 trick), so that two copies with
    different seeds differ only where the rules hardly prefer one bid. (A
    tournament gives a seat the same seed in both games of a board, so two
    copies there replay each other exactly.)
    """

    needs_observation = False

    def __init__(self, seed: int | None = None, params: Params = DEFAULT) -> None:
        self.rng = random.Random(seed)
        self.params = params

    def reset(self, seat: int, seed: int | None = None, config=None) -> None:
        if seed is not None:
            self.rng.seed(seed)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view: PlayerView) -> int:
        phase = view.phase
        if phase == Phase.PLAY:
            return choose_card(view, mask_of(view.hand), self.params)
        if phase == Phase.BID:
            jitter = self.rng.uniform(-0.1, 0.1)
            return A.bid_action(choose_bid(view, mask_of(view.hand), self.params, jitter))
        if phase == Phase.BLIND:
            return A.BLIND_NIL if want_blind_nil(view, self.params) else A.LOOK
        if phase == Phase.PASS:
            return choose_pass(view, mask_of(view.hand))
        if phase == Phase.DRAW:
            return self._draw(view)
        if phase == Phase.REPLACE:
            card = choose_replacement(view, mask_of(view.hand), self.params)
            return A.DONE if card is None else card
        raise ValueError(f"HeuristicAgent has no rule for phase {phase!r}")

    def _draw(self, view: PlayerView) -> int:
        """Two-player draw: keep the offered card if it beats, on average, a card I have not seen."""
        seen = mask_of(view.hand) | mask_of(view.discarded)
        return A.KEEP if keep_offered(view.offered, seen) else A.DISCARD


def heuristic_v1(seed: int | None = None, **params) -> HeuristicAgent:
    """``heuristic-v1``: the first heuristic, frozen (Blind Nil only 100 points behind, whatever the rules).
    Keyword arguments change its :class:`.Params` (``heuristic-v1:safe=0.9``): a variant, no longer v1."""
    return HeuristicAgent(seed, _variant(V1, params, "heuristic_v1"))


def heuristic_v2(seed: int | None = None, **params) -> HeuristicAgent:
    """``heuristic-v2``: Blind Nil by its value under the rules and score (:func:`.bidding.blind_nil_gain`).
    Keyword arguments change its :class:`.Params` (``heuristic-v2:attack_slack=1``)."""
    return HeuristicAgent(seed, _variant(V2, params, "heuristic_v2"))


def _variant(base: Params, changes: dict, factory: str) -> Params:
    names = [f.name for f in fields(Params)]
    unknown = sorted(set(changes) - set(names))
    if unknown:  # worded as the registry words a factory's own wrong argument
        raise TypeError(f"got an unexpected keyword argument {unknown[0]!r}; {factory} takes (seed, "
                        f"{', '.join(names)}): agents/heuristic/params.py")
    return replace(base, **changes)
