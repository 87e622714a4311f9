"""OpenSpiel's IS-MCTS as an agent: ``openspiel-ismcts``, ``openspiel-ismcts:simulations=400,rollout=heuristic``.

Information-set Monte Carlo tree search (Cowling et al.), as OpenSpiel writes it
(``open_spiel.python.algorithms.ismcts``), on this package's hand as an OpenSpiel game
(:mod:`spades_env.wrappers.openspiel`): one tree over the seat's information states, each simulation on a deal
resampled from the root's information state, leaves valued by play-outs to the end of the hand, the most visited
action played. The play-outs are random (OpenSpiel's ``RandomRolloutEvaluator``), or with ``rollout=NAME`` a
registered agent plays every seat (:class:`spades_env.wrappers.openspiel.AgentRollouts`). The values are the
hand's points (my side's minus the other's), so ``uct_c`` is in points. In a game to a target each hand is searched
as one hand dealt at the game's scores and bags. Needs ``open-spiel`` (``pip install -e ".[openspiel]"``).

What it shows is the interface: an OpenSpiel algorithm playing wherever this package takes an agent spec
(tournaments, ``spades benchmark``, ``spades play``). The bot is handed a state built on a deal drawn from the
seat's information state, never the true deal, so any OpenSpiel bot put here sees only what the seat may see.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from spades_env.agent import BaseAgent
from spades_env.game import SpadesConfig
from spades_env.view import PlayerView

from .registry import make_agent


def random_state(seed: int | None) -> np.random.RandomState:
    """The legacy generator OpenSpiel's Python bots draw from, seeded from any integer (RandomState alone takes
    only 32 bits; the tournament's seeds are 64)."""
    return np.random.RandomState(np.random.MT19937(seed))


class OpenSpielISMCTSAgent(BaseAgent):
    """OpenSpiel's IS-MCTS with ``simulations`` simulations a decision, ``rollouts`` play-outs a leaf (random, or
    by the registered agent ``rollout``) and exploration constant ``uct_c`` (points); reproducible from the seed
    ``reset`` hands it."""

    needs_observation = False
    needs_infostate = True

    def __init__(self, simulations: int = 100, uct_c: float = 100.0, rollouts: int = 1, rollout: str = "random",
                 seed: int | None = None) -> None:
        if isinstance(simulations, bool) or not isinstance(simulations, int) or simulations < 1 or \
                isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1 or not uct_c >= 0:
            raise ValueError(f"openspiel-ismcts needs simulations >= 1 and rollouts >= 1 (whole numbers) and "
                             f"uct_c >= 0, got simulations={simulations!r}, rollouts={rollouts!r}, uct_c={uct_c!r}")
        try:  # imported with the agent, not the registry: only this agent needs open-spiel
            from open_spiel.python.algorithms import ismcts, mcts

            from spades_env.wrappers import openspiel
        except ImportError as exc:
            raise ImportError(f"the openspiel-ismcts agent needs the [openspiel] extra ({exc}): "
                              "pip install -e '.[openspiel]'") from None
        self.ismcts, self.mcts, self.openspiel = ismcts, mcts, openspiel
        self.simulations, self.uct_c, self.rollouts = simulations, float(uct_c), rollouts
        self.rollout = None if rollout == "random" else openspiel.AgentRollouts(make_agent(rollout), rollouts)
        self.rng = random_state(seed)
        self.hand: tuple[tuple, object] | None = None  # the current hand's (rules, dealer, totals) and its game

    def reset(self, seat: int, seed: int | None = None, config: SpadesConfig | None = None) -> None:
        if seed is not None:
            self.rng = random_state(seed)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view: PlayerView) -> int:
        world = view.infostate.resample(self.rng.randint(2**31))
        state = self.openspiel.replay(self.game_of(world), world)
        evaluator = self.rollout or self.mcts.RandomRolloutEvaluator(self.rollouts, self.rng)
        bot = self.ismcts.ISMCTSBot(state.get_game(), evaluator, self.uct_c, self.simulations, random_state=self.rng)
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, self.rng.uniform))
        return int(bot.step(state))

    def game_of(self, world) -> object:
        """The OpenSpiel game of ``world``'s hand: its rules as one hand, dealt at its totals."""
        key = (world.config, world.dealer, world.scores_before, world.bags_before)
        if self.hand is None or self.hand[0] != key:
            (score_0, score_1), (bags_0, bags_1) = world.scores_before, world.bags_before
            params = {"dealer": world.dealer, "score_0": score_0, "score_1": score_1, "bags_0": bags_0,
                      "bags_1": bags_1}
            config = dataclasses.replace(world.config, single_hand=True)
            self.hand = key, self.openspiel.SpadesOpenSpielGame(params, config=config)
        return self.hand[1]
