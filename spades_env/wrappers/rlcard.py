"""RLCard: Spades as an RLCard environment, for RLCard's agents (DQN, NFSP, ...) and its training loop.

::

    import rlcard
    import spades_env.wrappers.rlcard  # registers "spades"

    env = rlcard.make("spades", config={"seed": 0})                              # four players, one hand
    env = rlcard.make("spades", config={"game_rules": "house", "game_num_players": 2})

An episode is one hand, as in RLCard's other card games (``game_single_hand: False``: a whole game to the
target), played by this package's engine (:class:`~spades_env.game.SpadesGame`) behind RLCard's interface:

- **State**: RLCard's dict. ``obs`` is ``spades_v0``'s observation vector of the player (``game_observation``:
  ``default``, ``history`` or ``oracle``; docs/observations.md), ``legal_actions`` an ``OrderedDict`` of the legal
  action ids (the environment's 71: cards, bids, Blind Nil, look, keep, discard, done), ``raw_obs`` the decoded
  vector (a dict, decoded when first read), ``raw_legal_actions`` the legal actions' names, ``action_record`` the
  episode's actions.
- **Payoffs**: each player's side's points minus the other side's over the episode, divided by 100 (the
  ``spades_v0`` ``"score"`` reward's units, about +-1 a hand), zero-sum by sides.
- **Seeding**: the deals come from RLCard's ``seed`` (``config["seed"]``), so a seeded environment deals the
  same hands; ``allow_step_back`` keeps a copy of the game per step for ``step_back``.
- **Errors**: an illegal action raises the engine's one-line :class:`~spades_env.game.IllegalActionError`
  (the legal ones named) and changes nothing, not even the action record.

Agents across: :class:`AgentPlayer` seats any agent of this package (the heuristic, a network, a search) in
``env.set_agents`` as an RLCard agent; the ``rlcard:PATH`` agent
(:class:`~spades_env.agents.library.RLCardPolicy`) seats an RLCard DQN or NFSP checkpoint in ``spades tournament``.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
from rlcard.envs import Env
from rlcard.envs.registration import DEFAULT_CONFIG, register, registry

from spades_env import actions as A
from spades_env.agent import ActFunction, Agent, ask, observation_kind, reset_agent
from spades_env.cards import card_to_str, cards_of
from spades_env.game import IllegalActionError, SpadesConfig, SpadesGame
from spades_env.observations import KINDS, ObservationTracker, decode, observation_size
from spades_env.rules import PRESETS
from spades_env.scoring import POINTS_PER_REWARD

ENV_ID = "spades"
GAME_CONFIG = {"game_num_players": 4, "game_rules": "default", "game_single_hand": True, "game_observation": "default"}
"""RLCard's game-specific settings (its ``game_`` prefix) and their defaults."""
ACTION_IDS = {A.action_to_str(a): a for a in range(A.NUM_ACTIONS)}  # raw actions (names) to ids


class State(dict):
    """RLCard's state dict, its ``raw_obs`` decoded when first read: learning agents read only ``obs`` and
    ``legal_actions``, and decoding every state took two thirds of an episode's time."""

    def __init__(self, obs: np.ndarray, legal: list[int], num_players: int, kind: str, record: list) -> None:
        super().__init__(obs=obs, legal_actions=OrderedDict((a, None) for a in legal),
                         raw_legal_actions=[A.action_to_str(a) for a in legal], action_record=record)
        self.layout = (num_players, kind)

    def __missing__(self, key: str):
        if key != "raw_obs":
            raise KeyError(key)
        self["raw_obs"] = decode(self["obs"], *self.layout)
        return self["raw_obs"]

    def __contains__(self, key: object) -> bool:
        return key == "raw_obs" or super().__contains__(key)

    def get(self, key: str, default=None):
        return self[key] if key in self else default


def rlcard_state(obs: np.ndarray, legal: list[int], num_players: int, kind: str, record: list | None = None) -> State:
    """RLCard's state dict for an observation vector and the legal action ids (see the module docstring)."""
    return State(obs, legal, num_players, kind, record if record is not None else [])


def config_of(config: dict) -> tuple[SpadesConfig, str]:
    """The rules and observation kind RLCard's ``config`` names, or a one-line ValueError."""
    unknown = sorted(k for k in config if k.startswith("game_") and k not in GAME_CONFIG)
    if unknown:
        raise ValueError(f"unknown RLCard setting {unknown[0]!r} for {ENV_ID!r}; the game's are "
                         f"{', '.join(GAME_CONFIG)}")
    settings = {**GAME_CONFIG, **{k: v for k, v in config.items() if k in GAME_CONFIG}}
    if settings["game_rules"] not in PRESETS:
        raise ValueError(f"game_rules must be a preset, one of {', '.join(PRESETS)}; got {settings['game_rules']!r}")
    if settings["game_observation"] not in KINDS:
        raise ValueError(f"game_observation must be one of {', '.join(KINDS)}; got {settings['game_observation']!r}")
    if settings["game_num_players"] not in (2, 4):
        raise ValueError(f"game_num_players must be 4 or 2; got {settings['game_num_players']!r}")
    rules = SpadesConfig.from_preset(settings["game_rules"], num_players=settings["game_num_players"],
                                     single_hand=bool(settings["game_single_hand"]))
    return rules, settings["game_observation"]


class SpadesRLCardGame:
    """RLCard's game interface (``init_game``, ``step``, ``step_back``, ...) over one engine game at a time, with
    every player's observation vector kept up to date action by action (as the environment and tournaments do).

    RLCard's :class:`Env` sets ``np_random`` (its seeded generator) and ``allow_step_back``.
    """

    def __init__(self, config: SpadesConfig, kind: str = "default") -> None:
        self.config, self.kind = config, kind
        self.np_random = np.random.RandomState()
        self.allow_step_back = False
        self.history: list[SpadesGame] = []
        self.episode = 0  # episodes begun, for agents that reset at each
        self._start(SpadesGame(config))

    def _start(self, game: SpadesGame) -> None:
        """Play on ``game`` from where it stands (a new deal, or an earlier copy for ``step_back``)."""
        self.spades = game
        self.tracker = ObservationTracker(game, self.kind)
        self.tracker.rebuild()

    def init_game(self) -> tuple[dict, int]:
        self.episode += 1
        game = SpadesGame(self.config)
        game.reset(seed=int(self.np_random.randint(1 << 31)))
        self._start(game)
        self.history = []
        return self.get_state(self.get_player_id()), self.get_player_id()

    def step(self, action: int) -> tuple[dict, int]:
        before = self.spades.clone() if self.allow_step_back else None
        player, phase = self.spades.current_player, self.spades.phase
        self.spades.apply(action)  # an illegal action raises here, the game untouched
        self.tracker.update(player, int(action), phase)
        if before is not None:
            self.history.append(before)
        return self.get_state(self.get_player_id()), self.get_player_id()

    def step_back(self) -> bool:
        if not self.history:
            return False
        self._start(self.history.pop())
        return True

    def observation(self, player: int) -> np.ndarray:
        """``player``'s observation vector now (a copy: RLCard keeps the states of a whole episode)."""
        return self.tracker.vectors[player].copy()

    def get_num_players(self) -> int:
        return self.config.num_players

    @staticmethod
    def get_num_actions() -> int:
        return A.NUM_ACTIONS

    def get_player_id(self) -> int:
        return self.spades.current_player

    def is_over(self) -> bool:
        return self.spades.game_over

    def get_legal_actions(self) -> list[int]:
        return [] if self.spades.game_over else self.spades.legal_actions()

    def get_state(self, player: int) -> dict:
        """Whose state it is; :meth:`SpadesRLCardEnv._extract_state` builds the rest from the game."""
        return {"player": player}

    def get_payoffs(self) -> np.ndarray:
        """An array, as RLCard's games give (its ``tournament`` reads a list as several games' payoffs). An episode
        starts at 0-0, so its margin is the scores'."""
        scores, side_of = self.spades.scores, self.spades.side_of
        return np.array([(scores[side_of[p]] - scores[1 - side_of[p]]) / POINTS_PER_REWARD
                         for p in range(self.config.num_players)])


class SpadesRLCardEnv(Env):
    """``rlcard.make("spades", config)``; see the module docstring."""

    def __init__(self, config: dict | None = None) -> None:
        config = {**DEFAULT_CONFIG, **(config or {})}
        rules, self.kind = config_of(config)
        self.name = ENV_ID
        self.game = SpadesRLCardGame(rules, self.kind)
        super().__init__(config)
        self.state_shape = [[observation_size(rules.num_players, self.kind)] for _ in range(self.num_players)]
        self.action_shape = [None for _ in range(self.num_players)]

    def step(self, action: int | str, raw_action: bool = False) -> tuple[dict, int]:
        """As RLCard's, but the action is checked before anything is recorded (an illegal one changes nothing)."""
        if raw_action:
            if action not in ACTION_IDS:
                legal = [A.action_to_str(a) for a in self.game.get_legal_actions()]
                raise IllegalActionError(f"unknown raw action {action!r}: raw actions are the names of "
                                         f"raw_legal_actions ('AS', 'bid 3', 'blind nil', ...); legal now: {legal}")
            action = ACTION_IDS[action]
        player = self.get_player_id()
        next_state, next_player = self.game.step(action)
        self.timestep += 1
        self.action_recorder.append((player, int(action)))
        return self._extract_state(next_state), next_player

    def _extract_state(self, state: dict) -> dict:
        player, game = state["player"], self.game.spades
        legal = self.game.get_legal_actions() if player == game.current_player else []
        return rlcard_state(self.game.observation(player), legal, game.num_players, self.kind, self.action_recorder)

    def get_payoffs(self) -> np.ndarray:
        return self.game.get_payoffs()

    def get_perfect_information(self) -> dict:
        game = self.game.spades
        return {"hands": [[card_to_str(c) for c in cards_of(h)] for h in game.hands], "bids": list(game.bids),
                "tricks": list(game.tricks), "scores": list(game.scores), "current_player": game.current_player,
                "legal_actions": [A.action_to_str(a) for a in self.game.get_legal_actions()]}

    def _decode_action(self, action_id: int) -> int:
        return int(action_id)

    def _get_legal_actions(self) -> list[int]:
        return self.game.get_legal_actions()


class AgentPlayer:
    """Any agent of this package (``act(observation, action_mask, view)``) as an RLCard agent of ``env``, for
    ``env.set_agents``: it decides from the environment's game (its view, the observation of its own kind),
    not from RLCard's state dict, and is reset at each new episode (seat, ``seed``, the rules): one per seat."""

    use_raw = False

    def __init__(self, agent: Agent | ActFunction, env: SpadesRLCardEnv, seed: int | None = None) -> None:
        self.agent, self.env, self.seed = agent, env, seed
        self.episode, self.seat = 0, -1

    def step(self, state: dict) -> int:
        return self.eval_step(state)[0]

    def eval_step(self, state: dict) -> tuple[int, dict]:
        game = self.env.game.spades
        if self.episode != self.env.game.episode:
            self.episode, self.seat = self.env.game.episode, game.current_player
            reset_agent(self.agent, self.seat, self.seed, game.config)
        elif game.current_player != self.seat:
            raise ValueError(f"this AgentPlayer plays seat {self.seat} and was asked for seat {game.current_player}: "
                             "give each seat its own AgentPlayer (an agent of this package keeps one seat's state)")
        # the environment's own vector where the agent reads that kind; otherwise ask encodes the agent's kind
        observe = self.observe if observation_kind(self.agent) == self.env.game.kind else None
        return ask(self.agent, game, observe, ask_forced=True), {}

    def observe(self, kind: str) -> np.ndarray:
        return self.env.game.observation(self.env.game.spades.current_player)


if ENV_ID not in registry.env_specs:
    register(ENV_ID, f"{__name__}:SpadesRLCardEnv")
