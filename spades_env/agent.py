"""The agent protocol and the one function that asks an agent for an action.

The protocol lives beside the engine, not in :mod:`spades_env.agents`, because
every driver needs it: the match driver of tournaments, the gymnasium
wrapper's opponents and the PPO collector all call :func:`ask` and nothing
else, so the forced-move shortcut and the ``needs_*`` flags mean the same
everywhere. Building agents from names (the registry) is a layer above.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Protocol, runtime_checkable

import numpy as np

from .actions import mask_array
from .game import SpadesConfig, SpadesGame
from .observations import encode
from .view import PlayerView, player_view


@runtime_checkable
class Agent(Protocol):
    """``act`` returns a legal action id for the seat the view belongs to.

    ``observation`` is the environment's vector, ``action_mask`` its int8
    mask, ``view`` the structured per-player information set. Everything else
    is optional, and a driver calls only what an agent has:

    - ``reset(seat, seed, config)``: at the start of each game, with the seat,
      a seed for the agent's own randomness, and the game's
      :class:`~spades_env.game.SpadesConfig` (the variant and every rule
      option). A ``reset(seat, seed)`` of two parameters is called with two
      (:func:`reset_agent`); declare ``config=None`` if you also want to be
      called by drivers that know no config.
    - ``supported_players = (4,)``: the variants the agent plays, and
      ``check_config(config)``: raise ``ValueError`` saying why the agent
      cannot play under ``config``. A tournament asks both
      (:func:`check_config`) before any game starts, so a mismatch fails at
      once with the agent's own reason instead of at its first ``act``.
    - ``close()``: called once when the agent's owner is done with it (a
      tournament calls it in every worker at the end of the run), to write
      out counters or release an engine.
    - ``needs_observation = False`` (then ``observation`` is None),
      ``needs_view = False`` (then ``view`` is None), and ``observation_kind``
      (``"default"``, ``"history"`` or ``"oracle"``) for the vector it reads:
      the driver skips work the agent does not use; ``needs_infostate = True``
      binds the seat's information state to the view (``view.infostate``).

    :class:`BaseAgent` has each of these at its default, to subclass.

    **Forced moves.** An agent is never asked about a forced move (a single
    legal action, such as the only card held in the led suit, or the last
    card) unless the driver is told to (``ask_forced``): the move is played
    for it and shows in the next view (``plays``, ``completed_tricks``). So
    ``act`` is not called once per decision, and an agent that counts or
    remembers must read the view, not its own calls.
    """

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView) -> int: ...


class BaseAgent:
    """A base class for agents, with every optional part of :class:`Agent` at its default (as
    ``pyspiel.Bot`` is for OpenSpiel's bots). Subclass it and define :meth:`act`; override what differs.

    The class attributes tell a driver what to build for :meth:`act`: the observation vector of
    ``observation_kind`` (``needs_observation``), the :class:`~spades_env.view.PlayerView`
    (``needs_view``) and, bound to it, the seat's information state (``needs_infostate``:
    ``view.infostate`` can then :meth:`~spades_env.view.InformationState.resample` the hidden cards,
    for search). Each costs time at every decision, so ask only for what you read.
    """

    needs_observation: bool = True
    observation_kind: str = "default"  # "default", "history" or "oracle" (docs/observations.md)
    needs_view: bool = True
    needs_infostate: bool = False
    supported_players: tuple[int, ...] = (4, 2)

    def reset(self, seat: int, seed: int | None = None, config: SpadesConfig | None = None) -> None:
        """A new game: the seat, a seed for the agent's own randomness, and the game's rules."""

    def check_config(self, config: SpadesConfig) -> None:
        """Raise ``ValueError`` saying why the agent cannot play under ``config`` (by default it can)."""

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view: PlayerView | None) -> int:
        """A legal action id for the view's seat."""
        raise NotImplementedError(f"{type(self).__name__} must define act(observation, action_mask, view)")

    def close(self) -> None:
        """The owner is done with the agent (write out counters, release an engine)."""


ActFunction = Callable[[np.ndarray | None, np.ndarray, PlayerView | None], int]
"""A bare function with ``act``'s signature; :func:`ask` takes it wherever it takes an agent."""


def needs_observation(agent: Agent | ActFunction) -> bool:
    return bool(getattr(agent, "needs_observation", True))


def needs_view(agent: Agent | ActFunction) -> bool:
    return bool(getattr(agent, "needs_view", True))


def needs_infostate(agent: Agent | ActFunction) -> bool:
    return bool(getattr(agent, "needs_infostate", False))


def observation_kind(agent: Agent | ActFunction, default: str = "default") -> str | None:
    """The observation kind ``agent`` reads, or None when it reads no vector."""
    return getattr(agent, "observation_kind", default) if needs_observation(agent) else None


def reset_agent(agent: Agent | ActFunction, seat: int, seed: int | None, config: SpadesConfig | None) -> None:
    """Call ``agent.reset`` (if it has one) with the config when it takes three arguments, else without."""
    reset = getattr(agent, "reset", None)
    if reset is None:
        return
    if _takes_config(reset):
        reset(seat, seed, config)
    else:
        reset(seat, seed)


def _takes_config(reset: Callable) -> bool:
    try:
        inspect.signature(reset).bind(0, None, None)
    except (TypeError, ValueError):  # two parameters, or no signature to read: the two-argument form
        return False
    return True


class UnsupportedConfigError(ValueError):
    """An agent cannot play under a config (the variant, or a rule option it does not know)."""


def check_config(agent: Agent | ActFunction, config: SpadesConfig, name: str | None = None) -> None:
    """Raise :class:`UnsupportedConfigError` when ``agent`` declares it cannot play under ``config``.

    Reads the agent's ``supported_players`` and calls its ``check_config``;
    an agent that declares neither is taken to play anything. ``name``
    (default the class name) starts the message.
    """
    name = name or type(agent).__name__
    check = getattr(agent, "check_config", None)
    if check is not None:  # first: the agent's own reason says more than the generic one below
        try:
            check(config)
        except ValueError as exc:
            raise UnsupportedConfigError(f"{name}: {exc}") from None
    players = getattr(agent, "supported_players", None)
    if players is not None and config.num_players not in tuple(players):
        variants = " or ".join(str(p) for p in players)
        raise UnsupportedConfigError(f"{name} plays the {variants}-player game only, not {config.num_players} players")


def close_agent(agent: Agent | ActFunction) -> None:
    """Call ``agent.close()`` if it has one."""
    close = getattr(agent, "close", None)
    if close is not None:
        close()


def forced_action(legal: int) -> int | None:
    """The only legal action of the bitmask ``legal``, or None when there is a choice."""
    return legal.bit_length() - 1 if legal & (legal - 1) == 0 else None


def ask(agent: Agent | ActFunction, game: SpadesGame, observe: Callable[[str], np.ndarray] | None = None,
        ask_forced: bool = False) -> int:
    """The action ``agent`` takes for the player to act in ``game``.

    A forced move is returned without asking unless ``ask_forced``.
    ``observe(kind)`` gives the player's observation vector of that kind (a
    caller's tracker, kept up to date action by action); None builds it from
    scratch (:func:`~spades_env.observations.encode`). Either is used only
    when the agent reads a vector, and the view only when it reads one.
    """
    legal = game.legal_mask()
    if not ask_forced and (forced := forced_action(legal)) is not None:
        return forced
    seat = game.current_player
    kind = observation_kind(agent)
    observation = None if kind is None else observe(kind) if observe is not None else encode(game, seat, kind)
    mask = mask_array(legal)
    view = player_view(game, seat, infostate=needs_infostate(agent)) if needs_view(agent) else None
    act = getattr(agent, "act", agent)
    return int(act(observation, mask, view))
