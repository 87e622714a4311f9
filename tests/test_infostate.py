"""The information state bound to a view, and the agent base class (docs/agents.md)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from spades_env import SpadesConfig, SpadesGame
from spades_env.agent import BaseAgent, ask, check_config, reset_agent
from spades_env.agents.heuristic import HeuristicAgent
from spades_env.agents.match import play_game
from spades_env.agents.search.worlds import worlds
from spades_env.determinize import information_state_key, resample
from spades_env.game import Phase
from spades_env.rebuild import game_from_view
from spades_env.view import InformationState, player_view


def positions(num_players: int, count: int, seed: int):
    """Games at a bid or a card play after random play (Blind Nil about half the time when offered)."""
    r = random.Random(seed)
    found = 0
    while found < count:
        game = SpadesGame(num_players=num_players, single_hand=True)
        game.reset(seed=r.randrange(10**9))
        for _ in range(r.randrange(4, 70)):
            if game.game_over:
                break
            game.apply(r.choice(game.legal_actions()))
        if not game.game_over and game.phase in (Phase.BID, Phase.PLAY) and game.looked[game.current_player]:
            found += 1
            yield game


@pytest.mark.parametrize("n", [4, 2])
def test_an_information_state_is_the_seats_view_key_and_resampler(n):
    for i, game in enumerate(positions(n, 40, seed=n)):
        seat = game.current_player
        state = InformationState(game, seat)
        view = player_view(game, seat)
        assert state.view == view and state.key == information_state_key(game, seat)
        world = state.resample(np.random.default_rng(i))
        assert player_view(world, seat) == view and world is not game
        assert state.hidden_card_probabilities()


def test_an_information_state_keeps_the_position_it_was_taken_at():
    game = next(positions(4, 1, seed=9))
    state, view = InformationState(game, game.current_player), player_view(game, game.current_player)
    game.apply(game.legal_actions()[0])
    assert state.view == view


def test_four_player_worlds_from_the_information_state_are_those_of_the_rebuilt_game():
    """search-v1 draws the same four-player worlds through either path (its games stay as published)."""
    for i, game in enumerate(positions(4, 60, seed=11)):
        view = player_view(game, game.current_player, infostate=True)
        bound = next(worlds(view, 1, np.random.default_rng(i)))
        rebuilt = resample(game_from_view(view), view.seat, np.random.default_rng(i))
        assert bound.hands == rebuilt.hands


class Recorder(BaseAgent):
    needs_observation = False
    needs_infostate = True

    def __init__(self) -> None:
        self.bound = []

    def act(self, observation, action_mask, view):
        self.bound.append(view.infostate is not None and view.infostate.view == view)
        return int(np.flatnonzero(action_mask)[0])


def test_the_driver_binds_the_information_state_only_for_an_agent_that_asks():
    game = SpadesGame()
    game.reset(seed=1)
    recorder, heuristic = Recorder(), HeuristicAgent()
    seen = []
    heuristic_act = heuristic.act
    heuristic.act = lambda obs, mask, view: seen.append(view.infostate) or heuristic_act(obs, mask, view)
    for _ in range(12):
        ask(recorder, game, None)
        game.apply(ask(heuristic, game, None))
    assert recorder.bound and all(recorder.bound)
    assert seen and all(state is None for state in seen)


def test_a_base_agent_subclass_needs_only_act():
    class First(BaseAgent):
        needs_observation = False

        def act(self, observation, action_mask, view):
            return int(np.flatnonzero(action_mask)[0])

    first = First()
    reset_agent(first, 0, 1, SpadesConfig())
    check_config(first, SpadesConfig(num_players=2))
    game = play_game([first, HeuristicAgent(), First(), HeuristicAgent()], seed=3,
                     config=SpadesConfig(single_hand=True))
    assert game.game_over
    with pytest.raises(NotImplementedError, match="must define act"):
        BaseAgent().act(None, np.ones(3, np.int8), None)
