"""RLlib: PPO on spades_v0 through RLlib's PettingZooEnv, one action-masking RLModule per side.

    pip install -e ".[rllib]"
    python examples/rllib_ppo.py --iterations 10
    python examples/rllib_ppo.py --iterations 1 --batch-size 200 --eval-games 20    # a smoke run

It saves the algorithm (``Algorithm.save_to_path``) and scores that
checkpoint, loaded as the agent ``rllib:PATH`` (its RLModules, read with
``RLModule.from_checkpoint``; no Ray needed), in duplicate matches against the
heuristic and random; the same spec enters ``spades tournament``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.tune.registry import register_env

from spades_env.agents.library import score, score_lines
from spades_env.wrappers.rllib import RLlibSpadesEnv, masking_module_spec, team_of

TEAMS = ("team_0", "team_1")


def make_config(env_config: dict, batch_size: int = 2000, num_env_runners: int = 0) -> PPOConfig:
    register_env("spades", RLlibSpadesEnv)
    module = masking_module_spec(hidden=128)
    return (
        PPOConfig()
        # RLlib's env check sends a random, unmasked action, which this environment rejects (ValueError).
        .environment("spades", env_config=env_config, disable_env_checking=True)
        .env_runners(num_env_runners=num_env_runners)
        .multi_agent(policies=set(TEAMS), policy_mapping_fn=team_of)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=dict.fromkeys(TEAMS, module)))
        # lr: with PPO's default (5e-5) the policy was no better than random after 10,000 steps.
        .training(lr=3e-4, train_batch_size_per_learner=batch_size, minibatch_size=min(batch_size, 256), num_epochs=2)
    )


def train(iterations: int = 10, batch_size: int = 2000, save: str | None = None, **env_config) -> list[dict]:
    """Returns RLlib's learner results (per side: ``policy_loss``, ``vf_loss``, ...) of each iteration.

    With ``save``, the trained algorithm is checkpointed there (``Algorithm.save_to_path``: the ``rllib:``
    agent reads its modules).
    """
    algo = make_config(env_config, batch_size).build_algo()
    try:
        results = [algo.train()["learners"] for _ in range(iterations)]
        if save:
            algo.save_to_path(Path(save).resolve())
        return results
    finally:
        algo.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=2000, help="environment steps per iteration")
    parser.add_argument("--save", default="results/rllib_checkpoint", help="folder the checkpoint is written to")
    parser.add_argument("--eval-games", type=int, default=400, help="games per duplicate match (two per deal)")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # small networks: more CPU threads only contend
    ray.init(include_dashboard=False)
    for i, learners in enumerate(train(args.iterations, args.batch_size, args.save, single_hand=True)):
        print(i, {team: round(float(learners[team]["total_loss"]), 4) for team in TEAMS})
    ray.shutdown()
    print(f"saved {args.save}; scoring it as the agent rllib:{args.save} on seeded single-hand deals")
    for line in score_lines(score(f"rllib:{args.save}", games=args.eval_games, single_hand=True)):
        print(line)


if __name__ == "__main__":
    main()
