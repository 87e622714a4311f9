"""Any agent with its last tricks solved: ``endgame:AGENT,tricks=K``.

The hybrid of the strongest published Spades agent (Luo et al.): a learned policy for the early
tricks, exact solving of sampled deals for the last ones, where the double-dummy solver is fast (a
fraction of a millisecond a world at four tricks left) and a network's mistakes cost whole tricks.
``endgame:ppo-v1:tricks=4`` plays every decision as ``ppo-v1`` does except the card play with at
most four tricks left: there, perfect-information Monte Carlo over ``worlds`` deals drawn from the
seat's information state (:func:`spades_env.agents.search.play.search_card`), the wrapped agent's
own card kept among the equal best. So the wrapper changes a card only where the sampled worlds
say another scores more. ``nil_tricks``, ``nil_risk`` and ``nil_play`` are the search agent's
(docs/search.md): earlier than ``tricks``, while a Nil stands with at most ``nil_tricks`` left, the
worlds are solved for the Nils' stakes alone; worlds fit the Nil bidders' dealt hands (``nil_risk``)
and how they ducked (``nil_play``) and, with ``nil_discards``, threw cards when void, with ``nil_fit`` bid Nil;
``infer=K`` draws K times the worlds and keeps those the other seats' card plays make likely
(:mod:`spades_env.agents.search.inference`); ``bag_cost=N``, in a game to a target, counts each bag a side carries
out of the hand N points against it (10 by the default rules: every bag at its share of the penalty); ``catch_up=N``,
under a rule that offers Blind Nil only to a side far behind, counts the Blind Nil a hand leaves to such a side N
points to it (:class:`~.search.play.PlayBudget`).
"""

from __future__ import annotations

import numpy as np

from spades_env.agent import BaseAgent, check_config, close_agent, observation_kind, reset_agent
from spades_env.game import Phase, SpadesConfig
from spades_env.view import PlayerView

from .registry import Agent, make_agent
from .search.agent import NODES_PER_MS
from .search.play import PlayBudget, check_bag_cost, check_catch_up, check_nil_play, search_card, tricks_left


class EndgameAgent(BaseAgent):
    """``agent``'s decisions, but its card play with at most ``tricks`` tricks left searched over ``worlds``
    sampled deals, each solved double dummy within ``ms`` milliseconds' worth of solver nodes in all."""

    needs_view = True  # the phase and tricks left are read from the view
    needs_infostate = True  # the worlds are resampled from it

    def __init__(self, agent: str | Agent, tricks: int = 4, worlds: int = 16, ms: float = 20.0,
                 nil_tricks: int = 0, nil_risk: float | None = None, nil_play: float = 0.0,
                 nil_discards: bool = False, nil_fit: bool = False, infer: int = 0, infer_tau: float = 1.0,
                 bag_cost: int = 0, catch_up: int = 0, seed: int | None = None) -> None:
        if not 1 <= tricks <= 13 or worlds < 1 or ms <= 0 or not 0 <= nil_tricks <= 13:
            raise ValueError(f"endgame needs 1 <= tricks <= 13, worlds >= 1, ms > 0 and 0 <= nil_tricks <= 13, got "
                             f"tricks={tricks!r}, worlds={worlds!r}, ms={ms!r}, nil_tricks={nil_tricks!r}")
        check_nil_play(nil_play, nil_discards, nil_fit)
        infer, infer_tau = int(infer), float(infer_tau)
        if infer < 0 or not infer_tau >= 0:
            raise ValueError(f"infer is how many times the worlds are drawn (0 or 1: no inference) and infer_tau a "
                             f"temperature >= 0 (inf: the most likely worlds), got infer={infer!r}, "
                             f"infer_tau={infer_tau!r}")
        self.agent = make_agent(agent) if isinstance(agent, str) else agent
        kind = observation_kind(self.agent)  # the wrapped agent's observation, passed on
        self.needs_observation = kind is not None
        if kind is not None:
            self.observation_kind = kind
        self.budget = PlayBudget(worlds=int(worlds), nodes=int(ms * NODES_PER_MS), max_tricks=int(tricks),
                                 nil_tricks=int(nil_tricks), nil_risk=None if nil_risk is None else float(nil_risk),
                                 nil_play=float(nil_play), nil_discards=bool(nil_discards), nil_fit=bool(nil_fit),
                                 infer=infer, infer_tau=infer_tau, bag_cost=check_bag_cost(bag_cost),
                                 catch_up=check_catch_up(catch_up))
        self.seed = 0 if seed is None else int(seed)

    def reset(self, seat: int, seed: int | None = None, config: SpadesConfig | None = None) -> None:
        if seed is not None:
            self.seed = int(seed)
        reset_agent(self.agent, seat, seed, config)

    def check_config(self, config: SpadesConfig) -> None:
        check_config(self.agent, config, "the wrapped agent")

    def close(self) -> None:
        close_agent(self.agent)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view: PlayerView) -> int:
        action = int(self.agent.act(observation, action_mask, view))
        reach = max(self.budget.max_tricks, self.budget.nil_tricks)  # search_card keeps the Nil-only rule beyond
        if view.phase != Phase.PLAY or tricks_left(view) > reach or len(view.legal_actions) < 2:
            return action
        return self.searched_card(view, action)

    def searched_card(self, view: PlayerView, action: int) -> int:
        """The card the search plays where it searches, ``action`` the wrapped agent's."""
        return search_card(view, action, self.budget, self.decision_rng(view)).card

    def decision_rng(self, view: PlayerView) -> np.random.Generator:
        """The decision's own generator, from the seed and the position: a decision never depends on earlier calls."""
        return np.random.default_rng([self.seed & (2**63 - 1), view.hand_number, len(view.plays)])


def endgame_agent(arg: str | None = None, **kwargs) -> EndgameAgent:
    """Registry factory for ``"endgame:AGENT"`` with the keyword arguments of :class:`EndgameAgent`, e.g.
    ``endgame:ppo-v1:tricks=4,worlds=16``."""
    if not arg:
        raise ValueError("expected 'endgame:AGENT' with the agent whose last tricks are searched "
                         "(e.g. endgame:ppo-v1:tricks=4)")
    return EndgameAgent(arg, **kwargs)
