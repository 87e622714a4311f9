"""Generalised advantage estimation and the rollout buffer.

In Spades the seats take turns, so a "trajectory" here is the sequence of
decisions of one learner seat in one hand. Its only non-zero reward arrives
when the hand is scored, after its last decision. GAE runs per trajectory
(bootstrap value 0 at the end of the hand), and finished trajectories are
written into preallocated tensors that the update reads in minibatches.

Observations are stored as float16: every entry is a one-hot, a count or a
ratio to at most three significant digits, and it halves the memory of
behaviour cloning's hundreds of thousands of rows; the update reads them
back as float32. Storage grows by doubling, and a large buffer costs only
the pages written (the allocation is lazy), so cloning can reserve for its
worst case.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from spades_env.actions import NUM_ACTIONS


def compute_gae(rewards: np.ndarray, values: np.ndarray, gamma: float, lam: float,
                last_value: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Advantages and returns of one trajectory that ends after its last step.

    ``delta_t = r_t + gamma * V_{t+1} - V_t`` with ``V_T = last_value`` (0 for
    a finished hand), ``A_t = delta_t + gamma * lam * A_{t+1}``, and the
    value target ``R_t = A_t + V_t``.
    """
    rewards = np.asarray(rewards, np.float64)
    values = np.asarray(values, np.float64)
    advantages = np.zeros_like(rewards)
    next_value, next_adv = float(last_value), 0.0
    for t in reversed(range(len(rewards))):
        delta = rewards[t] + gamma * next_value - values[t]
        next_adv = delta + gamma * lam * next_adv
        advantages[t] = next_adv
        next_value = values[t]
    return advantages.astype(np.float32), (advantages + values).astype(np.float32)


@dataclass
class Batch:
    """The flat training batch of one rollout (tensors of equal length; views into the buffer)."""

    obs: torch.Tensor  # (N, obs_size) float16: ``.float()`` before a forward pass
    masks: torch.Tensor  # (N, 71) bool
    actions: torch.Tensor  # (N,) int64
    log_probs: torch.Tensor  # (N,) float32, under the policy that acted
    values: torch.Tensor  # (N,) float32
    advantages: torch.Tensor  # (N,)
    returns: torch.Tensor  # (N,)
    teacher_actions: torch.Tensor  # (N,) int64: the teacher's choice in that position, -1 where none was asked

    def __len__(self) -> int:
        return len(self.actions)


_COLUMNS = {"obs": torch.float16, "masks": torch.bool, "actions": torch.int64, "log_probs": torch.float32,
            "values": torch.float32, "advantages": torch.float32, "returns": torch.float32,
            "teacher_actions": torch.int64}


class RolloutBuffer:
    """Finished trajectories, written row by row into tensors; :meth:`batch` returns views of the rows so far."""

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

    def add_trajectory(self, obs, masks, actions, log_probs, values, final_reward: float,
                       teacher_actions=None) -> None:
        """One seat's decisions in one hand (``obs``/``masks``: one row per step); the hand's reward comes
        after the last one. ``teacher_actions`` (optional) is what a teacher agent would have done at each
        step (-1 where it was not asked), for the trainer's teacher term."""
        self.add_trajectories(obs, masks, actions, log_probs, values, [len(actions)], [final_reward],
                              teacher_actions)

    def add_trajectories(self, obs, masks, actions, log_probs, values, lengths, final_rewards,
                         teacher_actions=None) -> None:
        """Many trajectories at once, their rows consecutive: ``lengths[i]`` rows ending with the reward
        ``final_rewards[i]``."""
        values = np.asarray(values, np.float32)
        n = len(values)
        advantages, returns = np.empty(n, np.float32), np.empty(n, np.float32)
        start = 0
        for length, reward in zip(lengths, final_rewards):
            rows = slice(start, start + int(length))
            rewards = np.zeros(int(length), np.float32)
            rewards[-1] = reward
            advantages[rows], returns[rows] = compute_gae(rewards, values[rows], self.gamma, self.lam)
            start += int(length)
        teacher = np.full(n, -1) if teacher_actions is None else np.asarray(teacher_actions)
        self._ensure(self.size + n, np.shape(obs)[1] if not isinstance(obs, list) else len(obs[0]))
        rows = slice(self.size, self.size + n)
        for name, column in zip(_COLUMNS, (obs, masks, actions, log_probs, values, advantages, returns, teacher)):
            self._data[name][rows] = torch.as_tensor(np.asarray(column))
        self.size += n

    def __len__(self) -> int:
        return self.size

    def batch(self) -> Batch:
        if not self._data:
            raise ValueError("the buffer is empty")
        return Batch(**{name: column[:self.size] for name, column in self._data.items()})
