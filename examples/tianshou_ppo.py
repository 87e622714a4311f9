"""Tianshou: PettingZooEnv over spades_v0 with a masked PPO policy for every seat.

    pip install -e ".[tianshou]"
    python examples/tianshou_ppo.py --iterations 20 --episodes 16
    python examples/tianshou_ppo.py --iterations 1 --episodes 2 --eval-games 20    # a smoke run

It saves the multi-agent policy whole (``torch.save(policy, path)``, as
Tianshou's ``PolicyPersistence`` does) and scores that file, loaded as the
agent ``tianshou:PATH``, in duplicate matches against the heuristic and
random; the same spec enters ``spades tournament``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch
from tianshou.algorithm import PPO
from tianshou.algorithm.modelfree.reinforce import DiscreteActorPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.utils.torch_utils import policy_within_training_step

from spades_env.agents.library import score, score_lines
from spades_env.wrappers.tianshou import Critic, MaskedActor, TianshouSpadesEnv, TurnBasedMultiAgentOnPolicyAlgorithm


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
          save: str | None = None, **env_kwargs) -> list[dict[str, float]]:
    """Collect whole games, update every seat's PPO; returns Tianshou's loss figures per iteration.

    With ``save``, the trained multi-agent policy is written there whole
    (``torch.save(algorithm.policy, save)``: the ``tianshou:`` agent's format).
    """
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
    if save:
        Path(save).parent.mkdir(parents=True, exist_ok=True)
        torch.save(algorithm.policy, save)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--episodes", type=int, default=16, help="whole games collected per iteration")
    parser.add_argument("--envs", type=int, default=2, help="environments collecting side by side")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default="results/tianshou_policy.pt", help="where the policy is saved")
    parser.add_argument("--eval-games", type=int, default=400, help="games per duplicate match (two per deal)")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # small networks: more CPU threads only contend
    rows = train(args.iterations, args.episodes, args.envs, args.seed, args.save, single_hand=True)
    for i, row in enumerate(rows):
        print(i, {k: round(v, 4) for k, v in row.items() if k.endswith("/loss")})
    print(f"saved {args.save}; scoring it as the agent tianshou:{args.save} on seeded single-hand deals")
    for line in score_lines(score(f"tianshou:{args.save}", games=args.eval_games, single_hand=True)):
        print(line)


if __name__ == "__main__":
    main()
