"""What callers may hand where an agent is wanted (agents/match.py ``seat_agents``): a registry spec, an agent
object, a bare function with ``act``'s signature (docs/agents.md), or a zero-argument factory."""

from __future__ import annotations

import numpy as np
import pytest

from spades_env import SpadesConfig
from spades_env.agents.heuristic import HeuristicAgent
from spades_env.agents.match import is_act_function, play_game, seat_agents
from spades_env.agents.random_agent import RandomAgent


def first_legal(observation, action_mask, view):
    return int(np.flatnonzero(action_mask)[0])


def with_default_view(observation, action_mask, view=None):
    return int(np.flatnonzero(action_mask)[-1])


def test_a_bare_function_is_an_agent_not_a_factory():
    assert is_act_function(first_legal) and is_act_function(with_default_view)
    assert seat_agents(first_legal, 4) == [first_legal] * 4  # called with three arguments, never with none
    game = play_game(seat_agents(first_legal, 4), seed=2, config=SpadesConfig(single_hand=True))
    assert game.game_over


def test_factories_objects_and_specs():
    built = seat_agents(lambda: RandomAgent(seed=1), 4)
    assert len({id(a) for a in built}) == 4 and all(isinstance(a, RandomAgent) for a in built)
    assert not is_act_function(HeuristicAgent) and len(set(map(id, seat_agents(HeuristicAgent, 2)))) == 2
    shared = RandomAgent()
    assert seat_agents(shared, 4) == [shared] * 4
    specs = seat_agents("heuristic", 4)
    assert len({id(a) for a in specs}) == 4 and all(isinstance(a, HeuristicAgent) for a in specs)
    with pytest.raises(TypeError, match="not an agent: 42; give a registry spec"):
        seat_agents(42, 4)


def test_evaluate_takes_a_bare_function():
    from spades_env.agents.tournament import evaluate

    stats = evaluate(first_legal, "random", games=2, seed=0, single_hand=True)
    assert stats["boards"] == 1
