"""PPO training throughput: per-game experience collection against the batched engine, in one run.

Three measurements, each way, with the same networks and plans:

(a) ``Collector`` and (b) ``VectorCollector`` playing the same all-network
plans (the trainer's self-play / pool mix, drawn by ``train.make_plans``
with no heuristic or random opponents) at several ``num_envs``: environment
decisions per second (every action of every seat, forced ones included;
network forward passes and trajectory storage included, as in training).

(c) one full PPO iteration as ``spades_env.agents.ppo.train`` runs it (plans from the
training config's opponent mix, collection, GAE, ``ppo_update``) with
``Collector`` and with ``SplitCollector`` (all-network hands on the batched
engine, the heuristic / random hands on the per-game engine): decisions per
second of the whole iteration (the trainer's ``steps_per_s``) and the split
into collection and update time.

Each configuration alternates the two ways over ``--rounds`` rounds (so a
change of machine load hits both alike) and reports decisions over the summed
time. Torch runs on one thread, as the trainer does by default.

Usage: ``python -m spades_env.experiments.bench_ppo --json bench_ppo.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numpy as np
import torch

from spades_env.agents.ppo.buffer import RolloutBuffer
from spades_env.agents.ppo.config import PPOConfig
from spades_env.agents.ppo.model import ActorCritic
from spades_env.agents.ppo.rollout import Collector
from spades_env.agents.ppo.train import make_plans, ppo_update
from spades_env.agents.ppo.vector_rollout import SplitCollector, VectorCollector
from spades_env.game import SpadesConfig, SpadesGame
from spades_env.observations import observation_size


def networks(cfg: PPOConfig, pool_size: int) -> tuple[ActorCritic, list[ActorCritic]]:
    """The trainer's network shape (privileged critic as configured) and a pool of other random snapshots."""
    critic = observation_size(cfg.num_players, "oracle") if cfg.privileged_critic else None
    make = lambda: ActorCritic(observation_size(cfg.num_players), cfg.hidden_sizes, critic).eval()  # noqa: E731
    return make(), [make() for _ in range(pool_size)]


def collection_rows(cfg: PPOConfig, env_counts: list[int], rounds: int, seed: int) -> list[dict]:
    """(a) and (b): decisions per second of both collectors on the same all-network plans."""
    kind = "oracle" if cfg.privileged_critic else "default"
    model, pool = networks(cfg, 3)
    side_of = SpadesGame(SpadesConfig(num_players=cfg.num_players)).side_of
    network_only = PPOConfig(**{**cfg.to_dict(), "p_heuristic": 0.0, "p_random": 0.0})
    rows = []
    for num_envs in env_counts:
        network_only.num_envs = num_envs
        ways = {"Collector": Collector(cfg.num_players, num_envs, cfg.random_start_bags, kind),
                "VectorCollector": VectorCollector(cfg.num_players, num_envs, cfg.random_start_bags, kind)}
        totals = {name: [0, 0.0] for name in ways}
        rng = np.random.default_rng(seed)
        for _ in range(rounds):
            plans, _ = make_plans(network_only, rng, len(pool), side_of)
            for name, collector in ways.items():
                generator = torch.Generator().manual_seed(seed)
                buffer = RolloutBuffer(cfg.gamma, cfg.gae_lambda)
                start = time.perf_counter()
                stats = collector.run(plans, np.random.default_rng(seed), model, pool, generator, buffer)
                totals[name][1] += time.perf_counter() - start
                totals[name][0] += stats.decisions
        row = {"num_envs": num_envs}
        for name, (decisions, seconds) in totals.items():
            row[name] = {"decisions": decisions, "seconds": seconds, "decisions_per_second": decisions / seconds}
        row["ratio"] = row["VectorCollector"]["decisions_per_second"] / row["Collector"]["decisions_per_second"]
        rows.append(row)
        print(f"  collection num_envs={num_envs}: {row['Collector']['decisions_per_second']:.0f} -> "
              f"{row['VectorCollector']['decisions_per_second']:.0f} decisions/s", flush=True)
    return rows


def iteration_rows(cfg: PPOConfig, env_counts: list[int], rounds: int, seed: int) -> list[dict]:
    """(c): full PPO iterations (plan, collect, update) with Collector and with SplitCollector."""
    kind = "oracle" if cfg.privileged_critic else "default"
    side_of = SpadesGame(SpadesConfig(num_players=cfg.num_players)).side_of
    rows = []
    for num_envs in env_counts:
        run_cfg = PPOConfig(**{**cfg.to_dict(), "num_envs": num_envs})
        ways = {"Collector": Collector, "SplitCollector": SplitCollector}
        states = {}
        for name in ways:  # each way trains its own copy of the same starting network
            torch.manual_seed(seed)
            model, pool = networks(run_cfg, 3)
            optimizer = torch.optim.Adam(model.parameters(), lr=run_cfg.learning_rate, eps=1e-5)
            collector = ways[name](run_cfg.num_players, num_envs, run_cfg.random_start_bags, kind)
            states[name] = (model, pool, optimizer, collector, np.random.default_rng(seed),
                            torch.Generator().manual_seed(seed))
        totals = {name: {"decisions": 0, "samples": 0, "collect_s": 0.0, "update_s": 0.0} for name in ways}
        for _ in range(rounds):
            for name, (model, pool, optimizer, collector, rng, generator) in states.items():
                buffer = RolloutBuffer(run_cfg.gamma, run_cfg.gae_lambda)
                start = time.perf_counter()
                plans, _ = make_plans(run_cfg, rng, len(pool), side_of)
                model.eval()
                stats = collector.run(plans, rng, model, pool, generator, buffer)
                collected = time.perf_counter()
                model.train()
                ppo_update(model, optimizer, buffer.batch(), run_cfg, generator)
                done = time.perf_counter()
                total = totals[name]
                total["decisions"] += stats.decisions
                total["samples"] += stats.recorded
                total["collect_s"] += collected - start
                total["update_s"] += done - collected
        row = {"num_envs": num_envs}
        for name, total in totals.items():
            seconds = total["collect_s"] + total["update_s"]
            row[name] = {**total, "seconds": seconds, "decisions_per_second": total["decisions"] / seconds,
                         "collect_decisions_per_second": total["decisions"] / total["collect_s"]}
        row["ratio"] = row["SplitCollector"]["decisions_per_second"] / row["Collector"]["decisions_per_second"]
        rows.append(row)
        print(f"  iteration num_envs={num_envs}: {row['Collector']['decisions_per_second']:.0f} -> "
              f"{row['SplitCollector']['decisions_per_second']:.0f} decisions/s", flush=True)
    return rows


def print_tables(collection: list[dict], iterations: list[dict]) -> None:
    print("\n(a)/(b) collection, all-network plans (self-play + pool): decisions per second")
    print(f"{'num_envs':>8}  {'Collector':>10}  {'VectorCollector':>15}  {'ratio':>6}")
    for row in collection:
        print(f"{row['num_envs']:>8}  {row['Collector']['decisions_per_second']:>10.0f}  "
              f"{row['VectorCollector']['decisions_per_second']:>15.0f}  {row['ratio']:>5.2f}x")
    if not iterations:
        return
    print("\n(c) full PPO iteration, training opponent mix: decisions per second (collect s + update s)")
    print(f"{'num_envs':>8}  {'Collector':>22}  {'SplitCollector':>22}  {'ratio':>6}")
    for row in iterations:
        cells = [f"{r['decisions_per_second']:.0f} ({r['collect_s']:.1f}+{r['update_s']:.1f})"
                 for r in (row["Collector"], row["SplitCollector"])]
        print(f"{row['num_envs']:>8}  {cells[0]:>22}  {cells[1]:>22}  {row['ratio']:>5.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--num-players", type=int, default=4, choices=(4, 2))
    parser.add_argument("--num-envs", type=int, nargs="+", default=[64, 256, 1024], help="for (a)/(b)")
    parser.add_argument("--iteration-envs", type=int, nargs="*", default=[128, 1024],
                        help="for (c); 128 is the trainer's default num_envs (none: skip (c))")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per configuration")
    parser.add_argument("--hidden-sizes", type=int, nargs="+", default=None, help="default: the trainer's")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torch-threads", type=int, default=1)
    parser.add_argument("--json", metavar="PATH", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)

    torch.set_num_threads(args.torch_threads)
    cfg = PPOConfig(num_players=args.num_players)
    if args.hidden_sizes:
        cfg.hidden_sizes = args.hidden_sizes
    print(f"{args.num_players} players, hidden {list(cfg.hidden_sizes)}, privileged critic {cfg.privileged_critic}, "
          f"{args.rounds} rounds, torch threads {args.torch_threads}", flush=True)
    collection = collection_rows(cfg, args.num_envs, args.rounds, args.seed)
    iterations = iteration_rows(cfg, args.iteration_envs, args.rounds, args.seed) if args.iteration_envs else []
    print_tables(collection, iterations)
    if args.json:
        load = os.getloadavg() if hasattr(os, "getloadavg") else None
        report = {"num_players": args.num_players, "hidden_sizes": list(cfg.hidden_sizes),
                  "privileged_critic": cfg.privileged_critic, "rounds": args.rounds,
                  "torch_threads": args.torch_threads, "torch": torch.__version__,
                  "python": platform.python_version(), "cpus": os.cpu_count(), "load_average": load,
                  "collection": collection, "iteration": iterations}
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
