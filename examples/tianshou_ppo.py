"""Tianshou: PettingZooEnv over spades_v0 with a masked PPO policy for every seat.

    pip install -e ".[tianshou]"
    python examples/tianshou_ppo.py --iterations 20 --episodes 16
"""

from __future__ import annotations

import argparse

import torch
from tianshou.algorithm import PPO
from tianshou.algorithm.modelfree.reinforce import DiscreteActorPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Batch, Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.utils.torch_utils import policy_within_training_step
from torch import nn

from spades_env.wrappers.tianshou import TianshouSpadesEnv, TurnBasedMultiAgentOnPolicyAlgorithm


class MaskedActor(nn.Module):
    """Logits of the legal actions; the illegal ones get the lowest float, so they are never sampled."""

    def __init__(self, obs_dim: int, num_actions: int) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 128), nn.Tanh(), nn.Linear(128, num_actions))

    def forward(self, obs: Batch, state=None, info=None) -> tuple[torch.Tensor, None]:
        logits = self.net(torch.as_tensor(obs.obs, dtype=torch.float32))
        legal = torch.as_tensor(obs.mask, dtype=torch.bool)
        return logits.masked_fill(~legal, torch.finfo(logits.dtype).min), state


class Critic(nn.Module):
    def __init__(self, obs_dim: int) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 128), nn.Tanh(), nn.Linear(128, 1))

    def forward(self, obs: Batch, **kwargs) -> torch.Tensor:
        return self.net(torch.as_tensor(obs.obs, dtype=torch.float32))


def make_algorithm(env: TianshouSpadesEnv) -> TurnBasedMultiAgentOnPolicyAlgorithm:
    """One PPO per seat (Tianshou's multi-agent stack trains one algorithm per agent)."""
    obs_dim = env.observation_space["observation"].shape[0]
    algorithms = []
    for _ in env.agents:
        policy = DiscreteActorPolicy(actor=MaskedActor(obs_dim, env.action_space.n), action_space=env.action_space,
                                     observation_space=env.observation_space)
        algorithms.append(PPO(policy=policy, critic=Critic(obs_dim), optim=AdamOptimizerFactory(lr=3e-4)))
    return TurnBasedMultiAgentOnPolicyAlgorithm(algorithms=algorithms, env=env)


def train(iterations: int = 20, episodes_per_iteration: int = 16, num_envs: int = 2, seed: int = 0,
          **env_kwargs) -> list[dict[str, float]]:
    """Collect whole games, update every seat's PPO; returns Tianshou's loss figures per iteration."""
    torch.manual_seed(seed)
    algorithm = make_algorithm(TianshouSpadesEnv(**env_kwargs))
    envs = DummyVectorEnv([lambda: TianshouSpadesEnv(**env_kwargs) for _ in range(num_envs)])
    envs.seed(seed)
    collector = Collector(algorithm, envs, VectorReplayBuffer(20_000, num_envs))
    collector.reset()
    rows = []
    for _ in range(iterations):
        collector.collect(n_episode=episodes_per_iteration)  # whole games: none straddles two updates
        with policy_within_training_step(algorithm.policy):
            stats = algorithm.update(buffer=collector.buffer, batch_size=256, repeat=2)
        collector.buffer.reset(keep_statistics=True)
        rows.append(stats.get_loss_stats_dict())
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--episodes", type=int, default=16, help="whole games collected per iteration")
    parser.add_argument("--envs", type=int, default=2, help="environments collecting side by side")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # small networks: more CPU threads only contend
    for i, row in enumerate(train(args.iterations, args.episodes, args.envs, args.seed, single_hand=True)):
        print(i, {k: round(v, 4) for k, v in row.items() if k.endswith("/loss")})


if __name__ == "__main__":
    main()
