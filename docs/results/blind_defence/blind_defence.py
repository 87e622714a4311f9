"""The four-trick hybrid, with a deeper search in the hands where the other side has bid Blind Nil (eval_plan.txt).

    spades tournament --agents "./docs/results/blind_defence/blind_defence.py:BlindDefence:tricks=9,worlds=24,ms=250" \
        heuristic-v2 --rules house ...

Every decision is ``endgame:ppo-v3:tricks=4,bag_cost=10``'s except the card plays of a hand in which an opponent
bid Blind Nil and neither seat of its own side did (``nil=true``: any Nil of the other side): there
``endgame:ppo-v3`` with this file's ``tricks``, ``worlds``, ``ms``, ``nil_play``, ``nil_risk`` and ``bag_cost=10``
plays them. Under the house rule the side 100 behind bids Blind Nil and makes it about nine times in ten against the
hybrid, eight and a half against ``search-v5``, whose search from nine tricks left sets more of them.
"""

import numpy as np

from spades_env.agents.endgame import EndgameAgent
from spades_env.game import Phase
from spades_env.view import PlayerView


class BlindDefence(EndgameAgent):
    """The hybrid, and ``deep`` for the card plays against a standing Blind Nil (module docstring)."""

    def __init__(self, tricks: int = 9, worlds: int = 24, ms: float = 250.0, nil_play: float = 0.0,
                 nil_risk: float | None = None, nil: bool = False, seed: int | None = None) -> None:
        super().__init__("ppo-v3", tricks=4, bag_cost=10, seed=seed)
        self.deep = EndgameAgent(self.agent, tricks=tricks, worlds=worlds, ms=ms, nil_play=nil_play,
                                 nil_risk=nil_risk, bag_cost=10, seed=seed)
        self.any_nil = bool(nil)

    def reset(self, seat: int, seed: int | None = None, config=None) -> None:
        super().reset(seat, seed, config)
        if seed is not None:
            self.deep.seed = int(seed)

    def against(self, view: PlayerView) -> bool:
        """Whether an opponent stands in Blind Nil (with ``nil``: in any Nil) this hand and my side does not: where
        both sides bid it (the game's rules, most hands) the hybrid's own play, within its time."""
        mine = [seat for seat in range(view.num_players) if seat % 2 == view.side]
        theirs = [seat for seat in range(view.num_players) if seat % 2 != view.side]
        return (not any(view.blind[seat] for seat in mine)
                and any(view.blind[seat] or (self.any_nil and view.bids[seat] == 0) for seat in theirs))

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view: PlayerView) -> int:
        if view.phase == Phase.PLAY and self.against(view):
            return self.deep.act(observation, action_mask, view)
        return super().act(observation, action_mask, view)
