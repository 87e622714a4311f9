"""A single-agent :class:`gymnasium.Env` for one seat (or one partnership) of ``spades_v0``.

The learner plays ``seat`` (and, with ``partnership=True``, its partner's seat
too); every other seat is played inside the environment by an
:class:`spades_env.agent.Agent` (or a bare function with ``act``'s signature).
One ``step`` is one decision of the learner: the wrapper then plays the other
seats until the learner is to act again or the game ends.

* Observation: the ``spades_v0`` vector of the seat to act (a ``Box``).
* Action: ``Discrete(71)``, the environment's action ids.
* Mask: ``action_masks()`` (bool, what sb3-contrib's ``MaskablePPO`` reads)
  and ``info["action_mask"]`` (int8, as in ``spades_v0``).
* Reward: the learner's ``spades_v0`` reward accrued since its previous
  decision (partners get the same reward, so a partnership's is one number).
* Info: ``"action_mask"``, ``"seat"`` (the learner seat to act) and, when a
  hand was scored during the step, ``"hand_record"``.

Gymnasium's API lets an agent send any action of ``action_space``, and
:func:`gymnasium.utils.env_checker.check_env` does so. ``illegal_action``
says what happens to an illegal one: ``"terminate"`` (default: the action is
not played, the episode ends with ``illegal_reward`` and
``info["illegal_action"] = True``, as PettingZoo's ``TerminateIllegalWrapper``
does) or ``"raise"`` (the engine's :class:`ValueError`, game untouched). The
count of illegal actions received is kept in ``illegal_actions``.

Opponents are objects here; names (``opponents="heuristic"``) are resolved a
layer above, by the registered ``gymnasium.make("spades_env/Spades-v0")``
entry point :func:`spades_env.agents.gym.spades_gym_env`. Without opponents
the class plays the heuristic at the other seats, as ``gymnasium.make`` does:
the agent is built through the registry, named by a string
(:data:`AGENT_FACTORY`) like the entry point, so that this layer imports no
agent code.

``gymnasium.make`` puts its wrappers (the order enforcer, the passive
checker) around the environment, and gymnasium 1.x wrappers no longer pass
unknown attributes through; :class:`ActionMasks`, registered as the outermost
wrapper, gives ``action_masks()`` on what ``gymnasium.make`` returns.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium.envs.registration import WrapperSpec
from gymnasium.utils import RecordConstructorArgs

from spades_env.agent import ActFunction, Agent, ask, reset_agent
from spades_env.env import raw_env
from spades_env.observations import encode

ENV_ID = "spades_env/Spades-v0"
ILLEGAL_MODES = ("terminate", "raise")
DEFAULT_OPPONENT = "heuristic"
AGENT_FACTORY = "spades_env.agents.registry:make_agent"
"""The agent registry's factory, loaded by name when the class is given no opponents."""

Opponent = Agent | ActFunction
"""An agent object, or a bare function with ``Agent.act``'s signature."""


class SpadesGymEnv(gymnasium.Env):
    """One seat (or partnership) of Spades against given agents; see the module docstring.

    ``opponents``: one :data:`Opponent` for every other seat (it then plays
    them all, so it must not keep per-seat state), or a mapping
    ``{seat: Opponent}`` covering each of them; None (the default): one
    :data:`DEFAULT_OPPONENT` agent per seat, as ``gymnasium.make`` gives. The remaining keyword
    arguments (``num_players``, ``observation``, ``reward``, the rule preset
    ``rules="house"`` and the rule options such as ``single_hand`` or
    ``target_score``) go to :class:`spades_env.env.raw_env`.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, seat: int = 0, partnership: bool = False,
                 opponents: Opponent | Mapping[int, Opponent] | None = None,
                 illegal_action: str = "terminate", illegal_reward: float = -1.0,
                 render_mode: str | None = None, **env_kwargs: Any) -> None:
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_MODES}, got {illegal_action!r}")
        self.aec = raw_env(render_mode=render_mode, **env_kwargs)
        game = self.aec.game
        if not 0 <= seat < game.num_players:
            raise ValueError(f"seat must be in 0..{game.num_players - 1}, got {seat!r}")
        if partnership and not game.variant.partnership:
            raise ValueError("partnership=True needs the four-player game")
        self.seat = seat
        self.learner_seats = game.members[game.side_of[seat]] if partnership else (seat,)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.opponents = self._build_opponents(opponents)

        agent_space = self.aec.observation_space(self.aec.possible_agents[seat])
        self.observation_space = agent_space["observation"]
        self.action_space = self.aec.action_space(self.aec.possible_agents[seat])
        self.illegal_actions = 0
        self._mask = np.zeros(self.action_space.n, np.int8)
        self._done = True

    def _build_opponents(self, opponents: Opponent | Mapping[int, Opponent] | None) -> dict[int, Opponent]:
        others = [s for s in range(self.aec.game.num_players) if s not in self.learner_seats]
        if opponents is None:
            module, name = AGENT_FACTORY.split(":")
            make_agent = getattr(importlib.import_module(module), name)
            return {seat: make_agent(DEFAULT_OPPONENT) for seat in others}
        if isinstance(opponents, Mapping):
            if sorted(opponents) != others:
                raise ValueError(f"opponents must give an agent for each of seats {others}, got {sorted(opponents)}")
            chosen = dict(opponents)
        else:
            chosen = dict.fromkeys(others, opponents)
        for seat, agent in chosen.items():
            if isinstance(agent, str) or not callable(getattr(agent, "act", agent)):
                raise TypeError(f"opponent for seat {seat} must be an agent object or an act function, got "
                                f"{agent!r}; for agent names use gymnasium.make({ENV_ID!r}, opponents=...)")
        return chosen

    # --------------------------------------------------------------- gymnasium API

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """Start a game; ``options`` are those of ``spades_v0`` (``deal``, ``dealer``, ``scores``, ``bags``).

        The game and the opponents are seeded from ``self.np_random``, so a seed
        fixes the whole episode given the learner's actions.
        """
        super().reset(seed=seed)
        seeds = self.np_random.integers(2**31, size=1 + len(self.opponents))
        self.aec.reset(seed=int(seeds[0]), options=options)
        for agent_seed, (seat, agent) in zip(seeds[1:], self.opponents.items()):
            reset_agent(agent, seat, int(agent_seed), self.aec.game.config)
        self._done = False
        self._play_others()  # no hand ends before the learner's first decision: no reward, no record
        return self._observe(None)

    def step(self, action) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._done:
            raise RuntimeError("step() called on a finished episode: call reset()")
        action = int(action)
        if not 0 <= action < len(self._mask) or not self._mask[action]:
            self.illegal_actions += 1
            if self.illegal_action == "raise":
                self.aec.game.apply(action)  # raises the engine's ValueError naming the legal set
            self._done = True
            self._mask = np.zeros_like(self._mask)
            obs, info = self._observe(None)
            return obs, self.illegal_reward, True, False, {**info, "illegal_action": True}
        game, hands_before = self.aec.game, self.aec.game.hand_number
        self.aec.step(action)
        reward = self._reward() + self._play_others()
        obs, info = self._observe(game.hand_records[-1] if game.hand_number != hands_before else None)
        return obs, reward, game.game_over and not game.truncated, game.truncated, info

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner's current decision, as bool (sb3-contrib's ``MaskablePPO`` protocol)."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    # -------------------------------------------------------------------- helpers

    def _reward(self) -> float:
        """Reward of the learner's side on the last AEC step (partners' rewards are equal)."""
        return float(self.aec.rewards[self.aec.possible_agents[self.learner_seats[0]]])

    def _play_others(self) -> float:
        """Let the opponents act until a learner seat is to act or the game ends; the learner's reward meanwhile."""
        aec, game = self.aec, self.aec.game
        reward = 0.0
        while not game.game_over and game.current_player not in self.learner_seats:
            aec.step(self._opponent_action(game.current_player))
            reward += self._reward()
        return reward

    def _opponent_action(self, seat: int) -> int:
        """Ask the opponent at ``seat`` through :func:`spades_env.agent.ask`, as every driver does."""
        game = self.aec.game

        def observe(kind: str) -> np.ndarray:
            if kind == self.aec.observation_kind:
                return self.aec.observe(self.aec.possible_agents[seat])["observation"]
            return encode(game, seat, kind)

        return ask(self.opponents[seat], game, observe)

    def _observe(self, record: dict | None) -> tuple[np.ndarray, dict]:
        """Observation and info of the learner seat to act (or of ``seat`` when the game is over)."""
        game = self.aec.game
        self._done = self._done or game.game_over
        seat = self.seat if game.game_over else game.current_player
        obs = self.aec.observe(self.aec.possible_agents[seat])
        if not self._done:
            self._mask = obs["action_mask"]
        else:
            self._mask = np.zeros_like(self._mask)
        info: dict[str, Any] = {"action_mask": self._mask.copy(), "seat": seat}
        if record is not None:
            info["hand_record"] = record
        return obs["observation"], info


class ActionMasks(gymnasium.Wrapper, RecordConstructorArgs):
    """Gives ``action_masks()`` (sb3-contrib's protocol) on the outside of ``gymnasium.make``'s wrappers."""

    def __init__(self, env: gymnasium.Env) -> None:
        RecordConstructorArgs.__init__(self)
        gymnasium.Wrapper.__init__(self, env)

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def register() -> None:
    """Register :data:`ENV_ID` with gymnasium (done when :mod:`spades_env.wrappers` is imported)."""
    if ENV_ID not in gymnasium.registry:
        masks = WrapperSpec("ActionMasks", f"{__name__}:ActionMasks", {})
        gymnasium.register(id=ENV_ID, entry_point="spades_env.agents.gym:spades_gym_env",
                           additional_wrappers=(masks,))
