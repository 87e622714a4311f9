"""TorchRL: ``PettingZooWrapper`` over ``spades_v0`` with one group per side.

TorchRL's own wrapper handles the turn-based game correctly once it is given
``use_mask=True``: every step carries every seat's observation and
instantaneous reward, ``(group, "mask")`` marks the seat to act and
``(group, "action_mask")`` its legal actions (all True for the seats not to
act). What a training loop must add, and the example
``examples/torchrl_ppo.py`` does: sample with ``MaskedCategorical`` on
``(group, "action_mask")``, and count the policy loss only where
``(group, "mask")`` is True (the seats that did not act sent no action);
the critic can learn from every step, which is what GAE needs.
"""

from __future__ import annotations

from typing import Any

from torchrl.envs.libs.pettingzoo import PettingZooWrapper

from spades_env import spades_v0
from spades_env.game import SpadesGame


def team_group_map(num_players: int = 4) -> dict[str, list[str]]:
    """``{"team_0": [player_0, player_2], "team_1": [player_1, player_3]}`` (one seat per side with two players)."""
    members = SpadesGame(num_players=num_players).members
    return {f"team_{side}": [f"player_{p}" for p in seats] for side, seats in enumerate(members)}


def make_torchrl_env(seed: int | None = None, device: str = "cpu", **env_kwargs: Any) -> PettingZooWrapper:
    """``spades_v0.env(**env_kwargs)`` wrapped for TorchRL, grouped by side (:func:`team_group_map`)."""
    groups = team_group_map(env_kwargs.get("num_players", 4))
    return PettingZooWrapper(spades_v0.env(**env_kwargs), use_mask=True, group_map=groups, categorical_actions=True,
                             seed=seed, device=device)
