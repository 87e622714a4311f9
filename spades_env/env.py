"""Spades as a PettingZoo AEC environment: a thin view of :class:`SpadesGame`."""

from __future__ import annotations

import dataclasses

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .actions import NUM_ACTIONS, mask_array
from .game import Phase, SpadesConfig, SpadesGame
from .observations import KINDS, ObservationTracker, bounds, encode_state
from .render import render_hand_result, render_text
from .scoring import POINTS_PER_REWARD

REWARD_MODES = ("score", "win")
RESET_OPTIONS = ("deal", "dealer", "scores", "bags")
_GAME_OVER = Phase.GAME_OVER


def env(illegal_action: str = "raise", **kwargs) -> AECEnv:
    """The environment under PettingZoo's order-enforcing wrapper.

    ``illegal_action="raise"`` (default) raises ``ValueError`` on an illegal
    action and leaves the game untouched; ``"terminate"`` uses PettingZoo's
    ``TerminateIllegalWrapper`` (the offender gets -1 and the game ends),
    which some training loops prefer.
    """
    if illegal_action not in ("raise", "terminate"):
        raise ValueError(f"illegal_action must be 'raise' or 'terminate', got {illegal_action!r}")
    e = raw_env(**kwargs)
    if illegal_action == "terminate":
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    return OrderEnforcingWrapper(e)


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing wrapper with direct paths for the per-decision calls.

    The base class resolves every attribute of the wrapped env through
    ``__getattr__`` (two Python frames per access, about eight accesses per
    decision); once ``reset()`` has been called the checks it guards are
    settled, so ``last``, ``step`` and ``agent_iter`` read the env directly.
    The checks and warnings are the base class's, unchanged. The fast paths
    read and write the base class's private flags ``_has_reset`` and
    ``_has_updated``: ``tests/test_env_api.py`` fails, naming them, if an
    installed PettingZoo renames or stops checking them.
    """

    def last(self, observe: bool = True):
        if not self._has_reset:
            return super().last(observe)
        return self.env.last(observe)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        super().reset(seed=seed, options=options)
        self.last = self.env.last  # reset, so last() has nothing left to check: the env's own, with no frame between

    def step(self, action) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63):
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return _AgentIterator(self, max_iter)


class _AgentIterator:
    """PettingZoo's order-enforcing agent iterator, reading the unwrapped env directly."""

    def __init__(self, wrapper: OrderEnforcingWrapper, max_iter: int) -> None:
        self.wrapper, self.env, self.max_iter = wrapper, wrapper.env, max_iter

    def __iter__(self):
        return self

    def __next__(self) -> str:
        if not self.env.agents or self.max_iter <= 0:
            raise StopIteration
        if not self.wrapper._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        self.max_iter -= 1
        self.wrapper._has_updated = False
        return self.env.agent_selection


class raw_env(AECEnv, EzPickle):
    """Partnership (``num_players=4``) or two-player Spades.

    Arguments: ``num_players``; ``observation`` (``"default"``,
    ``"history"`` or ``"oracle"``, see :mod:`spades_env.observations`);
    ``reward`` (``"score"``: at each scored hand, your side's points minus
    the other side's / ``POINTS_PER_REWARD`` (100), partners equal; ``"win"``: +1 / -1 at the end of
    the game, 0 when truncated); ``render_mode`` (``"ansi"``: the table as text, ``"human"``: printed,
    ``"rgb_array"``: a picture, see :mod:`spades_env.render_rgb`); ``render_seat`` (``None``: every
    hand face up in the picture; a seat: only that seat's); ``rules``, a rule preset of
    :data:`spades_env.rules.PRESETS` (``"default"``: the rules as written; ``"house"``: Blind Nil only to
    a side 100 or more behind); and every rule option of :class:`SpadesConfig` (``target_score``,
    ``bag_limit``, ``max_hands``, ``single_hand``, ...), overriding the preset's.
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": "spades_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, num_players: int = 4, observation: str = "default", reward: str = "score",
                 render_mode: str | None = None, render_seat: int | None = None, rules: str = "default",
                 **options) -> None:
        EzPickle.__init__(self, num_players=num_players, observation=observation, reward=reward,
                          render_mode=render_mode, render_seat=render_seat, rules=rules, **options)
        super().__init__()
        if observation not in KINDS:
            raise ValueError(f"observation must be one of {KINDS}, got {observation!r}")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, got {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        if render_seat is not None and render_seat not in range(num_players):
            raise ValueError(f"render_seat must be None or a seat in 0..{num_players - 1}, got {render_seat!r}")
        known = {f.name for f in dataclasses.fields(SpadesConfig)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"unknown option(s) {unknown}; rules options: {sorted(known - {'num_players'})}; "
                             "env options: observation, reward, render_mode, render_seat, rules "
                             "(and illegal_action for env())")
        self.config = SpadesConfig.from_preset(rules, num_players=num_players, **options)
        self.game = SpadesGame(self.config)
        self.observation_kind = observation
        self.reward_mode = reward
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.possible_agents = [f"player_{p}" for p in range(num_players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        low, high = bounds(num_players, observation)
        obs_space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        state_low, state_high = bounds(num_players, "oracle")
        self.state_space = spaces.Box(state_low, state_high, dtype=np.float32)
        self._tracker = ObservationTracker(self.game, observation)
        self._rows = list(self._tracker.vectors)  # row views, one per player
        self.hand_records: list[dict] = []

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ---------------------------------------------------------------- reset

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a game. ``options``: ``deal``, ``dealer``, ``scores``, ``bags`` (see ``SpadesGame.reset``)."""
        options = dict(options or {})
        unknown = set(options) - set(RESET_OPTIONS)
        if unknown:  # PettingZoo's api_test passes foreign options: warn, as gymnasium does, not fail
            gymnasium.logger.warn(f"ignoring unknown reset option(s) {sorted(unknown)}; known: {list(RESET_OPTIONS)}")
        self.game.reset(seed, **{k: v for k, v in options.items() if k in RESET_OPTIONS})
        self.hand_records = self.game.hand_records
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._tracker.rebuild()
        self._rewards_paid = False
        self.agent_selection = self.possible_agents[self.game.current_player]
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------- observe

    def observe(self, agent: str) -> dict:
        """A copy of the agent's observation vector (kept up to date by the tracker) and its action mask."""
        player, game = self.agent_name_mapping[agent], self.game
        legal = 0 if player != game.current_player or game.phase is _GAME_OVER else game.legal_mask()
        return {"observation": self._rows[player].copy(), "action_mask": mask_array(legal)}

    def last(self, observe: bool = True) -> tuple:
        """PettingZoo's ``last()``: the observation, cumulative reward, termination, truncation and info of
        the agent to act (the base class's, with :meth:`observe` inlined for the agent to act: this runs at
        every decision)."""
        agent, game = self.agent_selection, self.game
        if observe:
            legal = 0 if game.phase is _GAME_OVER else game.legal_mask()
            observation = {"observation": self._rows[self.agent_name_mapping[agent]].copy(),
                           "action_mask": mask_array(legal)}
        else:
            observation = None
        return (observation, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        return self.observe(agent or self.agent_selection)["action_mask"]

    def state(self) -> np.ndarray:
        """Global state for centralised critics: player_0's view plus every other hand
        (the ``"oracle"`` layout, player_0's own hand shown even before they look)."""
        return encode_state(self.game)

    # ---------------------------------------------------------------- step

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        player, phase, hands_before = game.current_player, game.phase, game.hand_number
        game.apply(action)  # raises ValueError on an illegal action, before anything changes
        self._tracker.update(player, int(action), phase)
        self._cumulative_rewards[agent] = 0.0
        if self._rewards_paid:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.infos = {a: {} for a in self.agents}
            self._rewards_paid = False
        if game.hand_number != hands_before:
            self._pay_hand()
            self._accumulate_rewards()  # rewards are zero on every other step
        if game.phase is _GAME_OVER:
            flags = dict.fromkeys(self.agents, True)
            if game.truncated:
                self.truncations = flags
            else:
                self.terminations = flags
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        if self.render_mode == "human":
            self.render()

    def _pay_hand(self) -> None:
        game = self.game
        record = game.hand_records[-1]
        points = record["points"]
        for agent in self.agents:
            side = game.side_of[self.agent_name_mapping[agent]]
            if self.reward_mode == "score":
                self.rewards[agent] = (points[side] - points[1 - side]) / POINTS_PER_REWARD
            elif game.game_over and game.winner is not None:
                self.rewards[agent] = 1.0 if side == game.winner else -1.0
            self.infos[agent] = {"hand_record": record}
        self._rewards_paid = True

    # -------------------------------------------------------------- render

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.render_mode == "rgb_array":
            from .render_rgb import render_rgb  # Pillow is imported only by those who draw

            return render_rgb(self.game, self.render_seat)
        text = render_text(self.game)
        just_scored = self.game.game_over or not self.game.actions  # the game ended, or a new hand has begun
        if self.game.hand_records and just_scored:
            text += "\n" + render_hand_result(self.game.hand_records[-1])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
