"""Play one game with one agent per seat: the driver shared by tournaments, PPO evaluation and ``spades play``.

The driver steps the rules engine directly and keeps the observation
vectors with the environment's own :class:`~spades_env.observations.ObservationTracker`,
so a neural agent sees exactly the vector ``spades_v0`` gives it in training,
and the mask is built the way ``raw_env.observe`` builds it. It skips the
work an agent does not need: an agent whose ``needs_observation`` attribute
is False gets ``observation=None`` (no tracker is kept unless some seat needs
one), and one whose ``needs_view`` is False gets ``view=None``. Both default
to True, so a plain :class:`~spades_env.agent.Agent` gets everything.
An agent may set ``observation_kind`` (``"default"``, ``"history"`` or
``"oracle"``) to get another of the environment's encodings. Asking is
:func:`spades_env.agent.ask`, the same call the gym wrapper and the PPO
collector make.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence

from spades_env.agent import ActFunction, Agent, ask, check_config, observation_kind, reset_agent
from spades_env.game import IllegalActionError, SpadesConfig, SpadesGame
from spades_env.observations import ObservationTracker

from .registry import make_agent

StepHook = Callable[[SpadesGame, int, int], None]
AgentSource = str | Agent | ActFunction | Callable[[], Agent]
"""What a caller may hand where an agent is wanted: a registry spec, an agent object, a bare function with
``act``'s signature, or a zero-argument factory."""


def is_act_function(source: object) -> bool:
    """True for a bare function with ``act``'s signature (three arguments), False for an agent or a factory."""
    if hasattr(source, "act") or not callable(source) or isinstance(source, type):
        return False
    try:
        signature = inspect.signature(source)
    except (TypeError, ValueError):  # no signature to read (a builtin): not one of ours
        return False
    try:
        signature.bind()
    except TypeError:  # needs arguments: not a factory
        pass
    else:
        return False
    try:
        signature.bind(None, None, None)
    except TypeError:
        return False
    return True


def seat_agents(source: AgentSource, num_players: int) -> list[Agent | ActFunction]:
    """One agent per seat from any :data:`AgentSource`.

    A spec builds one agent per seat; an agent object or an act function
    plays every seat it is given (so it must not keep per-seat state); a
    factory is called once per seat. Anything else is a ``TypeError`` naming
    what would do.
    """
    if isinstance(source, str):
        return [make_agent(source) for _ in range(num_players)]
    if (hasattr(source, "act") and not isinstance(source, type)) or is_act_function(source):
        return [source] * num_players  # a class has an act too, but it is a factory
    if callable(source):
        return [source() for _ in range(num_players)]
    raise TypeError(f"not an agent: {source!r}; give a registry spec ('heuristic'), an object with "
                    f"act(observation, action_mask, view), such a function, or a zero-argument factory")


def play_game(
    agents: Sequence[Agent],
    *,
    seed: int | None = None,
    config: SpadesConfig | None = None,
    agent_seeds: Sequence[int | None] | None = None,
    deal=None,
    dealer: int | None = None,
    scores=None,
    bags=None,
    ask_forced: bool = False,
    on_step: StepHook | None = None,
) -> SpadesGame:
    """Play a whole game (or one hand with ``config.single_hand``) and return the finished engine.

    ``agents[seat]`` acts for each seat; ``seed``, ``deal``, ``dealer``,
    ``scores`` and ``bags`` go to :meth:`SpadesGame.reset`, so the same seed
    gives the same deals by seat. Each agent is checked against the config
    (:func:`spades_env.agent.check_config`: its ``supported_players`` and
    ``check_config``), then its ``reset(seat, seed, config)`` (or
    ``reset(seat, seed)``, if it has one) is called with
    ``agent_seeds[seat]``. When only one action is legal it is taken without
    asking the agent unless ``ask_forced``; this changes no outcome and saves
    the agents' time (the protocol, :class:`spades_env.agent.Agent`, says so).
    ``on_step(game, player, action)`` is called after every action.
    The result lies in the returned game: ``scores``, ``winner`` (side, or
    None), ``truncated`` and the per-hand ``hand_records``.
    """
    game = SpadesGame(config)
    n = game.num_players
    if len(agents) != n:
        raise ValueError(f"need one agent per seat: {n} for this variant, got {len(agents)}")
    if agent_seeds is not None and len(agent_seeds) != n:
        raise ValueError(f"agent_seeds must give {n} seeds, got {len(agent_seeds)}")
    for agent in agents:
        check_config(agent, game.config)
    game.reset(seed, deal=deal, dealer=dealer, scores=scores, bags=bags)
    for seat, agent in enumerate(agents):
        reset_agent(agent, seat, None if agent_seeds is None else agent_seeds[seat], game.config)

    kinds = {observation_kind(a) for a in agents} - {None}
    trackers = {kind: ObservationTracker(game, kind) for kind in kinds}
    for tracker in trackers.values():
        tracker.rebuild()

    def observe(kind: str):
        return trackers[kind].vectors[game.current_player].copy()

    while not game.game_over:
        player, phase = game.current_player, game.phase
        action = ask(agents[player], game, observe, ask_forced)
        try:
            game.apply(action)
        except IllegalActionError as exc:
            raise IllegalActionError(f"agent {type(agents[player]).__name__} at seat {player} chose {action!r}: "
                                     f"{exc}") from None
        action = int(action)
        for tracker in trackers.values():
            tracker.update(player, action, phase)
        if on_step is not None:
            on_step(game, player, action)
    return game
