"""RLlib adapter: RLlib's ``PettingZooEnv`` over ``spades_v0`` with the observation keys its masking module reads.

RLlib's ``PettingZooEnv`` already reports each seat's reward by PettingZoo's
convention (what the seat accrued since its previous turn, and every seat's
remainder when the game ends), which is right for a turn-based game. What it
lacks is the layout RLlib's action-masking RLModule
(``ray.rllib.examples.rl_modules.classes.action_masking_rlm.ActionMaskingTorchRLModule``)
expects: a ``Dict`` with ``"observations"`` (plural) and a float
``"action_mask"`` (the module takes ``log`` of it). :class:`RLlibSpadesEnv`
renames and casts; the game is untouched.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

from spades_env import spades_v0
from spades_env.game import SpadesGame

_SIDE_OF = SpadesGame(num_players=4).side_of  # seats 0 and 1 are on sides 0 and 1 in the two-player game too


def team_of(agent_id: str, *args: Any, **kwargs: Any) -> str:
    """The side of a ``"player_<seat>"``: ``"team_0"`` or ``"team_1"``; usable as RLlib's ``policy_mapping_fn``."""
    return f"team_{_SIDE_OF[int(agent_id.rsplit('_', 1)[1])]}"


class RLlibSpadesEnv(PettingZooEnv):
    """``spades_v0.env(**config)`` as an RLlib ``MultiAgentEnv``; ``config`` is RLlib's ``env_config``."""

    def __init__(self, config: dict | None = None) -> None:
        super().__init__(spades_v0.env(**dict(config or {})))
        space = {}
        for agent, agent_space in self.observation_spaces.items():
            mask = agent_space["action_mask"]
            space[agent] = spaces.Dict({
                "observations": agent_space["observation"],
                "action_mask": spaces.Box(0.0, 1.0, shape=mask.shape, dtype=np.float32),
            })
        self.observation_spaces = space
        self.observation_space = spaces.Dict(space)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        obs, infos = super().reset(seed=seed, options=options)
        return _rename(obs), infos

    def step(self, action: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        obs, rewards, terminateds, truncateds, infos = super().step(action)
        return _rename(obs), rewards, terminateds, truncateds, infos

    def render(self) -> str | None:
        return self.env.render()  # the base class passes a render mode our env does not take


def _rename(obs: dict[str, dict]) -> dict[str, dict]:
    return {agent: {"observations": o["observation"], "action_mask": o["action_mask"].astype(np.float32)}
            for agent, o in obs.items()}
