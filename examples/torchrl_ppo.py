"""TorchRL: PettingZooWrapper over spades_v0 with one group per side, a masked actor and a PPO loss per side.

    pip install -e ".[torchrl]"
    python examples/torchrl_ppo.py --iterations 20 --frames 1024
    python examples/torchrl_ppo.py --iterations 1 --frames 256 --eval-games 20    # a smoke run

It saves both sides' actors (a ``torchrl.checkpoint`` archive) and scores
that file, loaded as the agent ``torchrl:PATH``, in duplicate matches against
the heuristic and random; the same spec enters ``spades tournament``.
"""

from __future__ import annotations

import argparse

import torch
from tensordict.nn import TensorDictModule, TensorDictSequential
from torch import nn
from torchrl.collectors import Collector
from torchrl.modules import ProbabilisticActor
from torchrl.objectives import ClipPPOLoss, ValueEstimators

from spades_env.agents.library import score, score_lines
from spades_env.wrappers.torchrl import make_torchrl_env, masked_actor, save_policy

HIDDEN = 128


def side_modules(group: str, obs_dim: int, num_actions: int) -> tuple[ProbabilisticActor, TensorDictModule]:
    """A masked actor and a critic for one side; partners share them (they read their own seat's vector)."""
    critic = TensorDictModule(nn.Sequential(nn.Linear(obs_dim, HIDDEN), nn.Tanh(), nn.Linear(HIDDEN, 1)),
                              in_keys=[(group, "observation", "observation")], out_keys=[(group, "state_value")])
    return masked_actor(group, obs_dim, num_actions, HIDDEN), critic


def side_loss(group: str, actor: ProbabilisticActor, critic: TensorDictModule) -> ClipPPOLoss:
    loss = ClipPPOLoss(actor, critic, entropy_coeff=0.01)
    loss.set_keys(reward=(group, "reward"), action=(group, "action"), done=(group, "done"),
                  terminated=(group, "terminated"), value=(group, "state_value"), advantage=(group, "advantage"),
                  value_target=(group, "value_target"), sample_log_prob=(group, "action_log_prob"))
    loss.loss_mask_key = (group, "mask")  # the policy is graded only where this seat acted
    loss.make_value_estimator(ValueEstimators.GAE, gamma=0.99, lmbda=0.95)
    return loss


def train(iterations: int = 20, frames_per_batch: int = 1024, seed: int = 0, save: str | None = None,
          **env_kwargs) -> list[dict[str, float]]:
    """PPO for both sides from the same collection; returns the loss terms of each iteration and side.

    With ``save``, the trained actors are written there by
    :func:`spades_env.wrappers.torchrl.save_policy` (the ``torchrl:`` agent's format).
    """
    torch.manual_seed(seed)
    env = make_torchrl_env(seed=seed, **env_kwargs)
    losses, actors, params = {}, {}, []
    for group in env.group_map:
        obs_dim = env.observation_spec[group, "observation", "observation"].shape[-1]
        num_actions = env.full_action_spec[group, "action"].space.n
        actors[group], critic = side_modules(group, obs_dim, num_actions)
        losses[group] = side_loss(group, actors[group], critic)
        params += list(losses[group].parameters())
    optimizer = torch.optim.Adam(params, lr=3e-4)
    collector = Collector(env, TensorDictSequential(*actors.values()), frames_per_batch=frames_per_batch,
                          total_frames=iterations * frames_per_batch, auto_register_policy_transforms=False)
    rows = []
    for data in collector:
        optimizer.zero_grad()
        row = {}
        for group, loss in losses.items():
            with torch.no_grad():
                loss.value_estimator(data)
            out = loss(data)
            # The critic learns from every step (each seat's value is needed at every step by GAE), not
            # only where the seat acted, so its loss is taken here rather than from the masked `out`.
            values = loss.critic_network(data.select(*loss.critic_network.in_keys))[group, "state_value"]
            critic_loss = (values - data[group, "value_target"]).pow(2).mean()
            total = out["loss_objective"] + out["loss_entropy"] + 0.5 * critic_loss
            total.backward()
            row.update({f"{group}/policy": out["loss_objective"].item(), f"{group}/critic": critic_loss.item(),
                        f"{group}/entropy": out["loss_entropy"].item()})
        optimizer.step()
        collector.update_policy_weights_()
        rows.append(row)
    collector.shutdown()
    if save:
        save_policy(save, actors, env.group_map, obs_dim, num_actions, HIDDEN)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--frames", type=int, default=1024, help="frames (one seat's decision each) per iteration")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default="results/torchrl_policy.ckpt", help="where the actors are saved")
    parser.add_argument("--eval-games", type=int, default=400, help="games per duplicate match (two per deal)")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # small networks: more CPU threads only contend
    for i, row in enumerate(train(args.iterations, args.frames, args.seed, args.save, single_hand=True)):
        print(i, {k: round(v, 4) for k, v in row.items()})
    print(f"saved {args.save}; scoring it as the agent torchrl:{args.save} on seeded single-hand deals")
    for line in score_lines(score(f"torchrl:{args.save}", games=args.eval_games, single_hand=True)):
        print(line)


if __name__ == "__main__":
    main()
