"""PPO training throughput, end to end: the trainer now against the trainer of an earlier commit, in one run.

(a) **Iterations**, as ``spades train`` runs them: plan ``num_envs`` hands
from the config's opponent mix, collect them, GAE, the PPO update. Each way
trains its own copy of a fresh network (the same seed) with its own config:

* ``before``: the trainer of ``--baseline`` (a git commit; its package is
  read from git into a temporary folder and imported) with its defaults;
* ``now``: this trainer with its defaults (the recipe ``spades train`` runs);
* ``now-fp32``, ``now-no-worker``, ``now-1thread``: the same without
  bfloat16 matmuls, without the worker process, and with the update on one
  torch thread (``now-2threads``: two, the default), to show what each
  contributes; ``now-256-hands``: rollouts of 256 hands (the default is
  512);
  ``now-old-recipe``: this trainer with ``before``'s recipe (no card
  features, no teacher, no score context, 128 hands, its opponent mix), to
  tell the code from the recipe.

Reported: environment decisions per second of the whole iteration (every
action of every seat, forced ones included: the trainer's ``steps_per_s``)
and the seconds in collection and in the update. The ways alternate within
each of ``--rounds`` rounds (after one warm-up round each), so a change of
machine load hits them alike. On a shared machine the wall time measures the
load more than the code, so the CPU seconds are reported too, and from them
an estimate for two idle cores: collection takes the longer of this
process's CPU time and the worker's, the update this process's (a model,
not a measurement; it ignores the two-thread variant's second thread).

(b) **Collection alone** on all-network plans (self-play and the pool):
``GameCollector`` (per-game engine) against ``VectorCollector`` (batched).

Usage: ``python -m spades_env.experiments.bench_ppo --json bench_ppo.json``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

import numpy as np
import torch

from spades_env.agents.ppo.buffer import RolloutBuffer
from spades_env.agents.ppo.config import PPOConfig
from spades_env.agents.ppo.plans import plan_hands
from spades_env.agents.ppo.rollout import GameCollector
from spades_env.agents.ppo.run_folder import TrainingState
from spades_env.agents.ppo.vector_rollout import VectorCollector

BASELINE = "9c5f70c"  # the trainer before its restructure (3 collectors, fp32 update, 128 hands)
POOL = 3  # snapshots in the pool, so that pool hands are played
OLD_RECIPE = {"card_features": False, "teacher_coef": 0.0, "score_context": 0.0, "num_envs": 128,
              "p_self": 0.25, "p_pool": 0.25, "p_heuristic": 0.45, "p_random": 0.05}  # before's defaults
VARIANTS = {"now": {}, "now-fp32": {"bf16": False}, "now-no-worker": {"workers": 0},
            "now-1thread": {"torch_threads": 1}, "now-2threads": {"torch_threads": 2},
            "now-256-hands": {"num_envs": 256}, "now-old-recipe": OLD_RECIPE}


def now_iteration(overrides: dict, seed: int):
    """One training iteration of this trainer (its defaults plus ``overrides``), as a closure, with its config
    and the collector's ``close``."""
    from spades_env.agents.ppo import buffer, config, run_folder, train

    return iteration_of(types.SimpleNamespace(config=config, buffer=buffer, run_folder=run_folder, train=train),
                        overrides, seed)


def iteration_of(trainer, overrides: dict, seed: int):
    """One iteration of a trainer of the current shape (``trainer.train.ppo_iteration``: plan, collect, GAE, update)."""
    cfg = trainer.config.PPOConfig(**{"seed": seed, **overrides})
    state = trainer.run_folder.TrainingState.fresh(cfg)
    for _ in range(POOL):
        state.add_snapshot(cfg.pool_size)
    collector, buffer = trainer.train.make_collector(cfg), trainer.buffer.RolloutBuffer(cfg.gamma, cfg.gae_lambda)

    def iterate() -> dict:  # exactly the trainer's iteration
        start, cpu = time.perf_counter(), time.process_time()
        stats, _, collect_s = trainer.train.ppo_iteration(cfg, state, collector, buffer)
        return {"decisions": stats.decisions, "collect_s": collect_s,
                "update_s": time.perf_counter() - start - collect_s, "cpu_s": time.process_time() - cpu,
                "worker_cpu_s": stats.worker_cpu_s}

    return iterate, cfg, collector.close


def before_iteration(commit: str, overrides: dict, seed: int):
    """One training iteration of the trainer at ``commit`` (its defaults plus ``overrides``), as a closure, with
    its config and what closes its collector: a trainer of the current shape runs as :func:`iteration_of`, an
    older one (before the restructure, such as :data:`BASELINE`) through its own calls."""
    old = import_trainer_at(commit)
    if hasattr(old.train, "ppo_iteration"):
        return iteration_of(old, overrides, seed)
    cfg = old.config.PPOConfig(**{"seed": seed, **overrides})
    state = old.run_folder.TrainingState.fresh(cfg)
    for _ in range(POOL):
        state.add_snapshot(cfg.pool_size)
    collector = old.train.make_collector(cfg)
    side_of = collector.games[0].side_of

    def iterate() -> dict:
        start, cpu = time.perf_counter(), time.process_time()
        buffer = old.buffer.RolloutBuffer(cfg.gamma, cfg.gae_lambda)
        plans, _ = old.train.make_plans(cfg, state.rng, len(state.pool_nets), side_of)
        state.model.eval()
        stats = collector.run(plans, state.rng, state.model, state.pool_nets, state.generator, buffer)
        collected = time.perf_counter()
        state.model.train()
        old.train.ppo_update(state.model, state.optimizer, buffer.batch(), cfg, state.generator)
        return {"decisions": stats.decisions, "collect_s": collected - start,
                "update_s": time.perf_counter() - collected, "cpu_s": time.process_time() - cpu, "worker_cpu_s": 0.0}

    return iterate, cfg, lambda: None


def import_trainer_at(commit: str):
    """The ``agents/ppo`` package of ``commit``, read from git into a temporary folder and imported as
    ``ppo_<commit>`` (its modules as attributes); it runs on this checkout's engine and agents. The folder goes on
    ``sys.path`` and ``PYTHONPATH`` so that the collector's worker process imports the package too."""
    repo = Path(__file__).resolve().parents[1]
    git = ["git", "-C", str(repo)]
    names = subprocess.run([*git, "ls-tree", "--name-only", commit, "agents/ppo/"], capture_output=True, text=True,
                           check=True).stdout.split()
    name = f"ppo_{commit}"
    root = Path(tempfile.mkdtemp())
    (root / name).mkdir()
    for path in names:
        if path.endswith(".py"):
            text = subprocess.run([*git, "show", f"{commit}:{path}"], capture_output=True, text=True, check=True)
            (root / name / Path(path).name).write_text(text.stdout)
    sys.path.insert(0, str(root))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))
    modules = {m: importlib.import_module(f"{name}.{m}") for m in ("config", "buffer", "run_folder", "train")}
    return types.SimpleNamespace(**modules)


def iteration_rows(ways: dict, rounds: int) -> dict:
    """(a): each way's summed decisions, seconds and CPU seconds over ``rounds`` alternating rounds (after a
    warm-up), and the idle-machine estimate."""
    totals = {name: {} for name in ways}
    for round_ in range(rounds + 1):
        for name, iterate in ways.items():
            measured = iterate()
            if round_ == 0:
                continue  # warm-up: first-call costs (kernels, agents, engines, the worker's start)
            for key, value in measured.items():
                totals[name][key] = totals[name].get(key, 0) + value
    for total in totals.values():
        total["seconds"] = total["collect_s"] + total["update_s"]
        total["decisions_per_second"] = total["decisions"] / total["seconds"]
        # this process's CPU split like its wall time; the worker's share runs beside its collection
        main_collect = total["cpu_s"] * total["collect_s"] / total["seconds"]
        critical = max(main_collect, total["worker_cpu_s"]) + total["cpu_s"] - main_collect
        total["idle_estimate_decisions_per_second"] = total["decisions"] / critical
    return totals


def collection_rows(num_players: int, env_counts: list[int], rounds: int, seed: int) -> list[dict]:
    """(b): decisions per second of both engines on the same all-network plans."""
    rows = []
    for num_envs in env_counts:
        cfg = PPOConfig(num_players=num_players, num_envs=num_envs, p_heuristic=0.0, p_random=0.0, seed=seed)
        state = TrainingState.fresh(cfg)
        for _ in range(POOL):
            state.add_snapshot(cfg.pool_size)
        engines = {"GameCollector": GameCollector(num_players, num_envs, "oracle"),
                   "VectorCollector": VectorCollector(num_players, num_envs, "oracle")}
        totals = {name: [0, 0.0] for name in engines}
        for _ in range(rounds):
            plans = plan_hands(cfg, state.rng, POOL)
            for name, engine in engines.items():
                buffer = RolloutBuffer(cfg.gamma, cfg.gae_lambda)
                start = time.perf_counter()
                stats = engine.run(plans, np.random.default_rng(seed), state.model, state.pool_nets,
                                   torch.Generator().manual_seed(seed), buffer)
                totals[name][1] += time.perf_counter() - start
                totals[name][0] += stats.decisions
        row = {"num_envs": num_envs, **{name: {"decisions": d, "seconds": s, "decisions_per_second": d / s}
                                        for name, (d, s) in totals.items()}}
        rows.append(row)
    return rows


def print_tables(iterations: dict, configs: dict, collection: list[dict]) -> None:
    print("\n(a) full PPO iterations, each way's defaults: decisions per second (seconds: summed over the rounds)")
    print(f"{'way':>13}  {'hands':>5}  {'decisions/s':>11}  {'collect s':>9}  {'update s':>8}  {'vs before':>9}  "
          f"{'CPU s':>6}  {'worker CPU s':>12}  {'idle estimate':>13}")
    base = iterations.get("before", {}).get("decisions_per_second")
    for name, row in iterations.items():
        ratio = f"{row['decisions_per_second'] / base:.2f}x" if base else "-"
        print(f"{name:>13}  {configs[name]['num_envs']:>5}  {row['decisions_per_second']:>11.0f}  "
              f"{row['collect_s']:>9.1f}  {row['update_s']:>8.1f}  {ratio:>9}  {row['cpu_s']:>6.1f}  "
              f"{row['worker_cpu_s']:>12.1f}  {row['idle_estimate_decisions_per_second']:>13.0f}")
    if collection:
        print("\n(b) collection alone, all-network plans (self-play + pool): decisions per second")
        for row in collection:
            print(f"  {row['num_envs']:>5} hands: GameCollector {row['GameCollector']['decisions_per_second']:.0f}, "
                  f"VectorCollector {row['VectorCollector']['decisions_per_second']:.0f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--num-players", type=int, default=4, choices=(4, 2))
    parser.add_argument("--baseline", default=BASELINE, help="git commit of the 'before' trainer ('': leave it out)")
    parser.add_argument("--ways", nargs="+", default=["before", *VARIANTS], choices=["before", *VARIANTS])
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (after one warm-up round)")
    parser.add_argument("--num-envs", type=int, default=0, help="hands per rollout of every way (0: each its default)")
    parser.add_argument("--hidden-sizes", type=int, nargs="+", default=None, help="of every way (default: theirs)")
    parser.add_argument("--collection-envs", type=int, nargs="*", default=[], help="sizes for (b) (none: skip it)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="PATH", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)

    torch.set_num_threads(1)  # as the trainer: collection on one thread (the updates set their own)
    shared = {"num_players": args.num_players, **({"num_envs": args.num_envs} if args.num_envs else {}),
              **({"hidden_sizes": args.hidden_sizes} if args.hidden_sizes else {})}
    ways, configs, closers = {}, {}, []
    for name in args.ways:
        if name == "before":
            if not args.baseline:
                continue
            ways[name], cfg, close = before_iteration(args.baseline, shared, args.seed)
        else:
            ways[name], cfg, close = now_iteration({**VARIANTS[name], **shared}, args.seed)
        closers.append(close)
        configs[name] = cfg.to_dict()
    print(f"{args.num_players} players, ways {list(ways)}, {args.rounds} rounds", flush=True)
    iterations = iteration_rows(ways, args.rounds)
    for close in closers:
        close()
    collection = collection_rows(args.num_players, args.collection_envs, args.rounds, args.seed)
    print_tables(iterations, configs, collection)
    if args.json:
        load = os.getloadavg() if hasattr(os, "getloadavg") else None
        report = {"num_players": args.num_players, "baseline": args.baseline, "rounds": args.rounds,
                  "torch": torch.__version__, "python": platform.python_version(), "cpus": os.cpu_count(),
                  "load_average": load, "configs": configs, "iteration": iterations, "collection": collection}
        Path(args.json).write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
