"""The agent protocol and the one function that asks an agent for an action.

The protocol lives beside the engine, not in :mod:`spades_env.agents`, because
every driver needs it: the match driver of tournaments, the gymnasium
wrapper's opponents and the PPO collector all call :func:`ask` and nothing
else, so the forced-move shortcut and the ``needs_*`` flags mean the same
everywhere. Building agents from names (the registry) is a layer above.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

import numpy as np

from .actions import NUM_ACTIONS
from .cards import bits_to_array
from .game import SpadesGame
from .view import PlayerView, player_view


@runtime_checkable
class Agent(Protocol):
    """``act`` returns a legal action id for the seat the view belongs to.

    ``observation`` is the environment's vector, ``action_mask`` its int8
    mask, ``view`` the structured per-player information set. ``reset`` (if
    present) is called at the start of each game with the seat and a seed.
    An agent is never asked about a forced move (a single legal action) unless
    the driver is told to (``ask_forced``): the move is played for it.

    Optional class attributes let the driver skip work an agent does not use:
    ``needs_observation = False`` (then ``observation`` is None),
    ``needs_view = False`` (then ``view`` is None), and ``observation_kind``
    (``"default"``, ``"history"`` or ``"oracle"``) for the vector it reads.
    """

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView) -> int: ...


ActFunction = Callable[[np.ndarray | None, np.ndarray, PlayerView | None], int]
"""A bare function with ``act``'s signature; :func:`ask` takes it wherever it takes an agent."""


def needs_observation(agent: Agent | ActFunction) -> bool:
    return bool(getattr(agent, "needs_observation", True))


def needs_view(agent: Agent | ActFunction) -> bool:
    return bool(getattr(agent, "needs_view", True))


def observation_kind(agent: Agent | ActFunction, default: str = "default") -> str | None:
    """The observation kind ``agent`` reads, or None when it reads no vector."""
    return getattr(agent, "observation_kind", default) if needs_observation(agent) else None


def forced_action(legal: int) -> int | None:
    """The only legal action of the bitmask ``legal``, or None when there is a choice."""
    return legal.bit_length() - 1 if legal & (legal - 1) == 0 else None


def ask(agent: Agent | ActFunction, game: SpadesGame, observe: Callable[[str], np.ndarray] | None,
        ask_forced: bool = False) -> int:
    """The action ``agent`` takes for the player to act in ``game``.

    A forced move is returned without asking unless ``ask_forced``.
    ``observe(kind)`` gives the player's observation vector of that kind; it
    is only called when the agent reads one (``observe`` may be None when no
    agent of the caller does). The view is built only when the agent reads it.
    """
    legal = game.legal_mask()
    if not ask_forced and (forced := forced_action(legal)) is not None:
        return forced
    seat = game.current_player
    kind = observation_kind(agent)
    observation = None if kind is None or observe is None else observe(kind)
    mask = bits_to_array(legal, NUM_ACTIONS).view(np.int8)
    view = player_view(game, seat) if needs_view(agent) else None
    act = getattr(agent, "act", agent)
    return int(act(observation, mask, view))
