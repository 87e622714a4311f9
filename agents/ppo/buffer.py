"""Generalised advantage estimation and the rollout buffer.

In Spades the seats take turns, so a "trajectory" here is the sequence of
decisions of one learner seat in one hand. Its only non-zero reward arrives
when the hand is scored, after its last decision. GAE runs per trajectory
(bootstrap value 0 at the end of the hand), and finished trajectories are
appended to a flat buffer that the PPO update reads in minibatches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch


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
    """The flat training batch of one rollout (tensors of equal length)."""

    obs: torch.Tensor  # (N, obs_size) float32
    masks: torch.Tensor  # (N, 71) bool
    actions: torch.Tensor  # (N,) int64
    log_probs: torch.Tensor  # (N,) float32, under the policy that acted
    values: torch.Tensor  # (N,) float32
    advantages: torch.Tensor  # (N,)
    returns: torch.Tensor  # (N,)
    teacher_actions: torch.Tensor  # (N,) int64: the teacher's choice in that position, -1 where none was asked

    def __len__(self) -> int:
        return len(self.actions)


class RolloutBuffer:
    """Collects finished trajectories; :meth:`batch` stacks them into tensors."""

    def __init__(self, gamma: float, lam: float) -> None:
        self.gamma, self.lam = gamma, lam
        self.clear()

    def clear(self) -> None:
        self.obs: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.actions: list[int] = []
        self.log_probs: list[float] = []
        self.values: list[float] = []
        self.advantages: list[np.ndarray] = []
        self.returns: list[np.ndarray] = []
        self.teacher_actions: list[int] = []

    def add_trajectory(self, obs: list[np.ndarray], masks: list[np.ndarray], actions: list[int],
                       log_probs: list[float], values: list[float], final_reward: float,
                       teacher_actions: list[int] | None = None) -> None:
        """One seat's decisions in one hand; the hand's reward comes after the last one.

        ``teacher_actions`` (optional) is what a teacher agent would have done
        at each step (-1 where it was not asked), for the trainer's
        imitation term (``PPOConfig.teacher_coef``).
        """
        rewards = np.zeros(len(actions), np.float32)
        rewards[-1] = final_reward
        adv, ret = compute_gae(rewards, np.asarray(values, np.float32), self.gamma, self.lam)
        self.obs += obs
        self.masks += masks
        self.actions += actions
        self.log_probs += log_probs
        self.values += values
        self.advantages.append(adv)
        self.returns.append(ret)
        self.teacher_actions += teacher_actions if teacher_actions is not None else [-1] * len(actions)

    def __len__(self) -> int:
        return len(self.actions)

    def batch(self) -> Batch:
        return Batch(
            obs=torch.from_numpy(np.stack(self.obs)),
            masks=torch.from_numpy(np.stack(self.masks)),
            actions=torch.tensor(self.actions, dtype=torch.int64),
            log_probs=torch.tensor(self.log_probs, dtype=torch.float32),
            values=torch.tensor(self.values, dtype=torch.float32),
            advantages=torch.from_numpy(np.concatenate(self.advantages)),
            returns=torch.from_numpy(np.concatenate(self.returns)),
            teacher_actions=torch.tensor(self.teacher_actions, dtype=torch.int64),
        )
