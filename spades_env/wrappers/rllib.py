"""RLlib adapter: RLlib's ``PettingZooEnv`` over ``spades_v0`` with the observation keys its masking module reads.

RLlib's ``PettingZooEnv`` already reports each seat's reward by PettingZoo's
convention (what the seat accrued since its previous turn, and every seat's
remainder when the game ends), which is right for a turn-based game. What it
lacks is the layout RLlib's action-masking RLModule
(``ray.rllib.examples.rl_modules.classes.action_masking_rlm.ActionMaskingTorchRLModule``)
expects: a ``Dict`` with ``"observations"`` (plural; ``spades_v0`` says
``"observation"``) and ``"action_mask"``. :class:`RLlibSpadesEnv` renames the
key; the game and its values are untouched. :func:`masking_module_spec` is
that module's spec, imported once this module has silenced the deprecations
Ray's own module logs (:mod:`spades_env.wrappers.quiet`).
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

from spades_env import spades_v0
from spades_env.game import SpadesGame

from .quiet import quiet

quiet("rllib")

_SIDE_OF = SpadesGame(num_players=4).side_of  # seats 0 and 1 are on sides 0 and 1 in the two-player game too


def team_of(agent_id: str, *args: Any, **kwargs: Any) -> str:
    """The side of a ``"player_<seat>"``: ``"team_0"`` or ``"team_1"``; usable as RLlib's ``policy_mapping_fn``."""
    return f"team_{_SIDE_OF[int(agent_id.rsplit('_', 1)[1])]}"


class RLlibSpadesEnv(PettingZooEnv):
    """``spades_v0.env(**config)`` as an RLlib ``MultiAgentEnv``; ``config`` is RLlib's ``env_config``."""

    def __init__(self, config: dict | None = None) -> None:
        super().__init__(spades_v0.env(**dict(config or {})))
        self.observation_spaces = {agent: spaces.Dict({"observations": space["observation"],
                                                       "action_mask": space["action_mask"]})
                                   for agent, space in self.observation_spaces.items()}
        self.observation_space = spaces.Dict(self.observation_spaces)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        obs, infos = super().reset(seed=seed, options=options)
        return _rename(obs), infos

    def step(self, action: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        obs, rewards, terminateds, truncateds, infos = super().step(action)
        return _rename(obs), rewards, terminateds, truncateds, infos

    def render(self) -> str | None:
        return self.env.render()  # the base class passes a render mode our env does not take


def _rename(obs: dict[str, dict]) -> dict[str, dict]:
    return {agent: {"observations": o["observation"], "action_mask": o["action_mask"]} for agent, o in obs.items()}


def masking_module_spec(hidden: int = 128) -> RLModuleSpec:
    """RLlib's ``ActionMaskingTorchRLModule`` with one hidden layer of ``hidden`` units, as a spec."""
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    return RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config={"head_fcnet_hiddens": [hidden]})
