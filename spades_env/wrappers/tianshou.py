"""Tianshou adapter: ``tianshou.env.PettingZooEnv`` over ``spades_v0``, and turn-based credit for on-policy MARL.

Two things break or mislead with Tianshou 2.0's multi-agent stack on a
turn-based, four-seat game, and both are fixed here without touching the game:

1. **Infos.** ``PettingZooEnv`` hands the AEC ``infos`` to the collector,
   which stacks them into the replay buffer; ``spades_v0`` puts the scored
   hand's record (nested lists of varying length) there, which the buffer
   cannot store ("shape mismatch" in ``Collector.collect``).
   :class:`TianshouSpadesEnv` passes empty infos (the records stay on
   ``env.env.unwrapped.hand_records``).

2. **Credit.** Tianshou stores one transition per env step, with the reward
   vector of that step, and trains each seat's algorithm on the transitions
   where that seat acted, reading its own column. The hand's score arrives on
   the step of whoever plays the last card, so the other three seats never
   see it; each seat's returns are computed from ``obs_next`` of the *next
   seat*, and only the last seat to act has its episode end marked.
   :class:`TurnBasedMultiAgentOnPolicyAlgorithm` rewrites the sampled batch
   before the returns are computed so that each seat's transition carries
   everything it earned until its own next turn (PettingZoo's convention),
   ``obs_next`` is its own next observation, and its last turn of the game
   is marked terminated (truncated if the game was cut or the batch ends
   mid-game). Collect whole episodes (``collect(n_episode=...)``) so that no
   game straddles two updates.

:class:`MaskedActor` and :class:`Critic` are the networks the example
trains. They live here, importable, because Tianshou saves a policy whole
(``torch.save(policy, path)``, its ``PolicyPersistence`` "policy" mode): the
pickle names their classes, and the ``tianshou:path`` agent of
``spades tournament`` must find them in any process.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from tianshou.algorithm.multiagent.marl import MultiAgentOnPolicyAlgorithm
from tianshou.data import Batch, ReplayBuffer
from tianshou.env import PettingZooEnv
from torch import nn

from spades_env import spades_v0

from .quiet import quiet


class TianshouSpadesEnv(PettingZooEnv):
    """``spades_v0.env(**env_kwargs)`` as a Tianshou ``PettingZooEnv`` with empty infos (see the module docstring)."""

    def __init__(self, **env_kwargs: Any) -> None:
        quiet("tianshou")
        super().__init__(spades_v0.env(**env_kwargs))

    def reset(self, *args: Any, **kwargs: Any) -> tuple[dict, dict]:
        obs, _ = super().reset(*args, **kwargs)
        return obs, {}

    def step(self, action: Any) -> tuple[dict, list, bool, bool, dict]:
        obs, rewards, terminated, truncated, _ = super().step(action)
        return obs, list(rewards), terminated, truncated, {}


class MaskedActor(nn.Module):
    """Logits of the legal actions; the illegal ones get the lowest float, so they are never sampled.

    ``obs`` is the Batch Tianshou's ``PettingZooEnv`` gives a seat:
    ``obs.obs`` the observation vector, ``obs.mask`` the legal actions.
    """

    def __init__(self, obs_dim: int, num_actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, num_actions))

    def forward(self, obs: Batch, state: Any = None, info: Any = None) -> tuple[torch.Tensor, Any]:
        logits = self.net(torch.as_tensor(obs.obs, dtype=torch.float32))
        legal = torch.as_tensor(obs.mask, dtype=torch.bool)
        return logits.masked_fill(~legal, torch.finfo(logits.dtype).min), state


class Critic(nn.Module):
    """A state value from the seat's observation vector (``obs.obs``)."""

    def __init__(self, obs_dim: int, hidden: int = 128) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, obs: Batch, **kwargs: Any) -> torch.Tensor:
        return self.net(torch.as_tensor(obs.obs, dtype=torch.float32))


class TurnBasedMultiAgentOnPolicyAlgorithm(MultiAgentOnPolicyAlgorithm):
    """``MultiAgentOnPolicyAlgorithm`` whose batches give each seat the credit of its own turns.

    Use it exactly like ``MultiAgentOnPolicyAlgorithm(algorithms=..., env=...)``.
    """

    def _preprocess_batch(self, batch, buffer: ReplayBuffer, indices: np.ndarray):
        credit_own_turns(batch, buffer, indices, self._dispatcher.agent_idx)
        return super()._preprocess_batch(batch, buffer, indices)


def credit_own_turns(batch, buffer: ReplayBuffer, indices: np.ndarray, agent_idx: dict[str, int]) -> None:
    """Rewrite ``batch`` (``buffer[indices]``, in collection order) so that each transition is its seat's own.

    For the transition where seat ``a`` acted: the reward is the sum of ``a``'s
    column from that step up to (not including) ``a``'s next turn in the same
    game, ``obs_next`` is the observation of that next turn, and when there is
    none the transition ends ``a``'s episode (terminated when the game ended,
    truncated otherwise). ``buffer.terminated`` is updated too, because
    Tianshou reads it to decide whether to bootstrap from ``obs_next``.
    """
    n = len(indices)
    if n == 0:
        return
    actor = np.array([agent_idx[a] for a in batch.obs.agent_id])
    rew = np.asarray(batch.rew, dtype=np.float64).reshape(n, -1)
    terminated = np.asarray(batch.terminated, dtype=bool)
    successor = buffer.next(indices)
    game_ends = successor == indices  # the game ended here, or the buffer holds no more of it
    if not np.array_equal(successor[:-1][~game_ends[:-1]], indices[1:][~game_ends[:-1]]):
        raise ValueError("credit_own_turns needs the batch in collection order (an on-policy buffer.sample(0))")

    new_rew = np.zeros_like(rew)
    new_terminated = np.zeros(n, dtype=bool)
    new_truncated = np.zeros(n, dtype=bool)
    next_turn = np.full(n, -1)
    accrued = np.zeros(rew.shape[1])
    seat_next: dict[int, int] = {}
    game_terminated = game_truncated = False
    for p in range(n - 1, -1, -1):
        if game_ends[p]:  # walking backwards, this is the last step of a game (or of the collected part of it)
            accrued[:] = 0.0
            seat_next = {}
            game_terminated = bool(terminated[p])
            game_truncated = not game_terminated  # cut by max_hands, or still running when collection stopped
        a = actor[p]
        accrued += rew[p]
        new_rew[p, a] = accrued[a]
        accrued[a] = 0.0
        if a in seat_next:
            next_turn[p] = seat_next[a]
        else:
            new_terminated[p], new_truncated[p] = game_terminated, game_truncated
        seat_next[a] = p

    batch.rew = new_rew
    batch.terminated = new_terminated
    batch.truncated = new_truncated
    batch.done = new_terminated | new_truncated
    has_next = np.flatnonzero(next_turn >= 0)
    batch.obs_next[has_next] = batch.obs[next_turn[has_next]]
    buffer.terminated[indices] = new_terminated
