"""Generalised advantage estimation and the rollout buffer.

In Spades the seats take turns, so a "trajectory" here is the sequence of
decisions of one learner seat in one hand. Its only non-zero reward arrives
when the hand is scored, after its last decision. The collectors write
finished trajectories into preallocated tensors (actions, log-probabilities,
the reward on each trajectory's last row); :meth:`RolloutBuffer.batch` then
evaluates the critic on every row in one batched pass and runs GAE per
trajectory (bootstrap value 0 at the end of the hand), as CleanRL does
after its rollout: collect, then advantages.

Observations are stored as float16: every entry is a one-hot, a count or a
ratio to at most three significant digits, and it halves the memory of
behaviour cloning's hundreds of thousands of rows; the networks read them
back as float32. Storage grows by doubling, and a large buffer costs only
the pages written (the allocation is lazy), so cloning can reserve for its
worst case.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from spades_env.actions import NUM_ACTIONS

from .model import Rows, bf16_autocast, bucketed

VALUE_CHUNK = 8192  # rows per critic pass in RolloutBuffer.batch


def compute_gae(rewards: np.ndarray, values: np.ndarray, gamma: float, lam: float,
                ends: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Advantages and returns of consecutive trajectories, each ending where ``ends`` is true (default: one
    trajectory, ending at the last step).

    ``delta_t = r_t + gamma * V_{t+1} - V_t`` with ``V = 0`` after a
    trajectory's last step, ``A_t = delta_t + gamma * lam * A_{t+1}``, and
    the value target ``R_t = A_t + V_t``.
    """
    rewards = np.asarray(rewards, np.float64)
    values = np.asarray(values, np.float64)
    ends = np.zeros(len(rewards), bool) if ends is None else np.asarray(ends, bool)
    advantages = np.zeros_like(rewards)
    next_value, next_adv = 0.0, 0.0
    for t in reversed(range(len(rewards))):
        if ends[t]:
            next_value, next_adv = 0.0, 0.0
        delta = rewards[t] + gamma * next_value - values[t]
        next_adv = delta + gamma * lam * next_adv
        advantages[t] = next_adv
        next_value = values[t]
    return advantages.astype(np.float32), (advantages + values).astype(np.float32)


@dataclass
class Batch:
    """The flat training batch of one rollout (tensors of equal length; views into the buffer)."""

    obs: torch.Tensor  # (N, obs_size) float16, as stored
    masks: torch.Tensor  # (N, 71) bool
    actions: torch.Tensor  # (N,) int64
    log_probs: torch.Tensor  # (N,) float32, under the policy that acted
    values: torch.Tensor  # (N,) float32
    advantages: torch.Tensor  # (N,)
    returns: torch.Tensor  # (N,)
    teacher_actions: torch.Tensor  # (N,) int64: the teacher's choice in that position, -1 where none was asked
    rows: Rows | None = None  # the network's inputs of obs as the update reads them (with a critic pass)

    def __len__(self) -> int:
        return len(self.actions)


_COLUMNS = {"obs": torch.float16, "masks": torch.bool, "actions": torch.int64, "log_probs": torch.float32,
            "rewards": torch.float32, "ends": torch.bool, "teacher_actions": torch.int64}


class RolloutBuffer:
    """Finished trajectories, written row by row into tensors; :meth:`batch` adds values and advantages."""

    def __init__(self, gamma: float, lam: float, capacity: int = 4096) -> None:
        self.gamma, self.lam = gamma, lam
        self.size = 0
        self._capacity = capacity  # rows allocated at the first write (or more, see reserve)
        self._data: dict[str, torch.Tensor] = {}

    def clear(self) -> None:
        self.size = 0  # the storage stays for the next rollout

    def reserve(self, rows: int) -> None:
        """Room for ``rows`` more rows (before a large collection, e.g. cloning's: no regrowth copies)."""
        self._capacity = max(self._capacity, self.size + rows)
        if self._data:
            self._ensure(self.size + rows, self._data["obs"].shape[1])

    def _ensure(self, needed: int, width: int) -> None:
        allocated = len(self._data["actions"]) if self._data else 0
        if needed <= allocated:
            return
        rows = max(needed, 2 * allocated, self._capacity)
        grown = {name: torch.empty((rows, width) if name == "obs" else (rows, NUM_ACTIONS) if name == "masks"
                                   else (rows,), dtype=dtype) for name, dtype in _COLUMNS.items()}
        for name, old in self._data.items():
            grown[name][:self.size] = old[:self.size]
        self._data = grown

    def add_trajectory(self, obs, masks, actions, log_probs, final_reward: float, teacher_actions=None) -> None:
        """One seat's decisions in one hand (``obs``/``masks``: one row per step); the hand's reward comes
        after the last one. ``teacher_actions`` (optional) is what a teacher agent would have done at each
        step (-1 where it was not asked), for the trainer's teacher term."""
        self.add_trajectories(obs, masks, actions, log_probs, [len(actions)], [final_reward], teacher_actions)

    def add_trajectories(self, obs, masks, actions, log_probs, lengths, final_rewards, teacher_actions=None) -> None:
        """Many trajectories at once, their rows consecutive: ``lengths[i]`` rows ending with the reward
        ``final_rewards[i]``."""
        n = len(actions)
        last = np.cumsum(lengths) - 1
        rewards, ends = np.zeros(n, np.float32), np.zeros(n, bool)
        rewards[last], ends[last] = final_rewards, True
        teacher = np.full(n, -1) if teacher_actions is None else teacher_actions
        self.add_rows({"obs": obs, "masks": masks, "actions": actions, "log_probs": log_probs, "rewards": rewards,
                       "ends": ends, "teacher_actions": teacher})

    def add_rows(self, columns: dict) -> None:
        """Rows given column by column (as :meth:`rows` returns them), whole trajectories only."""
        obs = columns["obs"]
        n = len(columns["actions"])
        self._ensure(self.size + n, len(obs[0]) if isinstance(obs, list) else obs.shape[1])
        rows = slice(self.size, self.size + n)
        for name in _COLUMNS:
            self._data[name][rows] = torch.as_tensor(np.asarray(columns[name]))
        self.size += n

    def rows(self) -> dict[str, np.ndarray]:
        """The rows so far, column by column (to send to another process's buffer)."""
        return {name: column[:self.size].numpy() for name, column in self._data.items()}

    def __len__(self) -> int:
        return self.size

    @torch.no_grad()
    def batch(self, model=None, bf16: bool = False) -> Batch:
        """The rows so far as a :class:`Batch`: values from ``model``'s critic (None: zeros, which makes the
        returns Monte-Carlo with gamma = lambda = 1), advantages and returns by GAE. With a ``model``, the
        batch also holds its inputs as the update's passes read them (``model.rows``: the card features and
        the non-zero entries, computed once), and the critic's pass reads them too."""
        if not self._data:
            raise ValueError("the buffer is empty")
        data = {name: column[:self.size] for name, column in self._data.items()}
        values, rows = torch.zeros(self.size), None
        if model is not None:
            rows = model.rows(data["obs"])
            with bf16_autocast(bf16):
                for start in range(0, self.size, VALUE_CHUNK):
                    chunk = rows[start:start + VALUE_CHUNK]
                    count = len(chunk)  # the last chunk is padded with zero rows to a bucketed size (model.py)
                    values[start:start + count] = model.values_rows(chunk.padded(bucketed(count)))[:count].float()
        advantages, returns = compute_gae(data["rewards"].numpy(), values.numpy(), self.gamma, self.lam,
                                          data["ends"].numpy())
        return Batch(obs=data["obs"], masks=data["masks"], actions=data["actions"], log_probs=data["log_probs"],
                     values=values, advantages=torch.from_numpy(advantages), returns=torch.from_numpy(returns),
                     teacher_actions=data["teacher_actions"], rows=rows)
