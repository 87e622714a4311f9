"""TorchRL: ``PettingZooWrapper`` over ``spades_v0`` with one group per side, and a saved masked policy.

TorchRL's own wrapper handles the turn-based game correctly once it is given
``use_mask=True``: every step carries every seat's observation and
instantaneous reward, ``(group, "mask")`` marks the seat to act and
``(group, "action_mask")`` its legal actions (all True for the seats not to
act). What a training loop must add, and the example
``examples/torchrl_ppo.py`` does: sample with ``MaskedCategorical`` on
``(group, "action_mask")``, and count the policy loss only where
``(group, "mask")`` is True (the seats that did not act sent no action);
the critic can learn from every step, which is what GAE needs.

A policy is saved with TorchRL's own :class:`torchrl.checkpoint.Checkpoint`
(:func:`save_policy`), which stores state dicts only, never pickled code, so
the actors are rebuilt from the manifest's metadata by :func:`masked_actor`
when :func:`load_policy` reads it back (the ``torchrl:path`` agent of
``spades tournament`` does).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tensordict.nn import TensorDictModule, TensorDictSequential
from torch import nn
from torchrl.checkpoint import Checkpoint
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.modules import MaskedCategorical, ProbabilisticActor

from spades_env import spades_v0
from spades_env.game import SpadesGame

from .quiet import quiet

POLICY_FORMAT = "spades_env.torchrl_policy/1"
"""Written into a saved policy's metadata, so that :func:`load_policy` can tell what it reads."""


def team_group_map(num_players: int = 4) -> dict[str, list[str]]:
    """``{"team_0": [player_0, player_2], "team_1": [player_1, player_3]}`` (one seat per side with two players)."""
    members = SpadesGame(num_players=num_players).members
    return {f"team_{side}": [f"player_{p}" for p in seats] for side, seats in enumerate(members)}


def make_torchrl_env(seed: int | None = None, device: str = "cpu", **env_kwargs: Any) -> PettingZooWrapper:
    """``spades_v0.env(**env_kwargs)`` wrapped for TorchRL, grouped by side (:func:`team_group_map`)."""
    groups = team_group_map(env_kwargs.get("num_players", 4))
    quiet("torchrl")
    return PettingZooWrapper(spades_v0.env(**env_kwargs), use_mask=True, group_map=groups, categorical_actions=True,
                             seed=seed, device=device)


def masked_actor(group: str, obs_dim: int, num_actions: int, hidden: int = 128) -> ProbabilisticActor:
    """The actor of one group: an MLP's logits sampled by ``MaskedCategorical`` on ``(group, "action_mask")``.

    It reads ``(group, "observation", "observation")`` and writes
    ``(group, "action")`` and ``(group, "action_log_prob")``; under
    ``set_exploration_type(ExplorationType.DETERMINISTIC)`` the action is the
    most probable legal one.
    """
    logits = TensorDictModule(nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, num_actions)),
                              in_keys=[(group, "observation", "observation")], out_keys=[(group, "logits")])
    return ProbabilisticActor(logits, in_keys={"logits": (group, "logits"), "mask": (group, "action_mask")},
                              out_keys=[(group, "action")], distribution_class=MaskedCategorical,
                              return_log_prob=True, log_prob_key=(group, "action_log_prob"))


def save_policy(path: str | Path, actors: Mapping[str, ProbabilisticActor], group_map: Mapping[str, list[str]],
                obs_dim: int, num_actions: int, hidden: int = 128) -> Path:
    """Save the :func:`masked_actor` of each group as one TorchRL checkpoint archive (a single file) at ``path``."""
    metadata = {"format": POLICY_FORMAT, "groups": list(actors),
                "group_map": {group: list(names) for group, names in group_map.items()},
                "obs_dim": obs_dim, "num_actions": num_actions, "hidden": hidden}
    return Checkpoint(policy=TensorDictSequential(*actors.values())).save(path, format="archive", metadata=metadata)


def load_policy(path: str | Path) -> tuple[dict[str, ProbabilisticActor], dict[str, list[str]], dict]:
    """The actors by group, the group map (group -> agent names) and the metadata of a :func:`save_policy` file."""
    meta = Checkpoint.manifest(path).get("metadata", {})
    if meta.get("format") != POLICY_FORMAT:
        raise ValueError(f"{path}: a TorchRL checkpoint, but not a policy written by "
                         f"spades_env.wrappers.torchrl.save_policy (metadata format {meta.get('format')!r})")
    actors = {g: masked_actor(g, meta["obs_dim"], meta["num_actions"], meta["hidden"]) for g in meta["groups"]}
    Checkpoint(policy=TensorDictSequential(*actors.values())).load(path, components={"policy"}, map_location="cpu")
    return actors, meta["group_map"], meta
