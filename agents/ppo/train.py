"""PPO by self-play for Spades, in the CleanRL style: one loop you can read top to bottom.

``spades train [--config FILE] [--FIELD VALUE ...] [--run-dir DIR]`` or
``spades train --resume DIR``. One update is:

1. **Plan** ``num_envs`` single hands. In each, the learner plays one side
   (both partners: they share the side's reward); the other side is the
   learner too (self-play), a past snapshot from the pool, the heuristic or
   the random agent, drawn with the ``p_*`` weights.
2. **Collect** them on the rules engines (:mod:`spades_env.agents.ppo.rollout`,
   :mod:`spades_env.agents.ppo.vector_rollout`); each learner seat's decisions
   form one trajectory whose reward, when the hand is scored, is the env's
   ``"score"`` reward (own side's points - other side's, / ``POINTS_PER_REWARD``).
3. **Advantages**: GAE per trajectory (:mod:`spades_env.agents.ppo.buffer`), then
   the **PPO update**: clipped surrogate, value loss, entropy bonus (and, with
   ``teacher_coef``, the teacher term of :mod:`spades_env.agents.ppo.cloning`),
   ``update_epochs`` passes of ``num_minibatches`` shuffled minibatches,
   gradient clipping.
4. **Log** (CSV + TensorBoard), **snapshot** into the pool, **evaluate** in the
   duplicate tournament against the heuristic (fixed seed), **checkpoint**
   (atomic; includes optimizer and RNG states, so ``--resume`` continues
   exactly as if the run had not stopped: :mod:`spades_env.agents.ppo.run_folder`).

Optionally the network is first pre-trained by behaviour cloning on the
heuristic's own games (``--bc-hands``), which skips the phase where a random
policy bids Blind Nil half the time.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import torch
from torch import nn

from spades_env.scoring import POINTS_PER_REWARD

from .buffer import Batch, RolloutBuffer
from .cloning import behaviour_clone, imitation_loss, teacher_fit, teacher_name
from .config import PPOConfig, add_config_arguments, config_from_args, load_config_file
from .evaluate import EVAL_FIELDS, evaluate
from .model import ActorCritic, load_policy, masked_entropy, masked_log_probs
from .rollout import LEARNER, Collector, HandResult, Key, RolloutStats
from .run_folder import RunFolder, RunLog, TrainingState, plot_learning_curve, resumed_config
from .vector_rollout import SplitCollector

OPPONENT_KINDS = ("self", "pool", "heuristic", "random")
METRICS = (["update", "decisions", "samples", "hands", "wall_s", "steps_per_s", "lr", "policy_loss", "value_loss",
           "entropy", "approx_kl", "clipfrac", "explained_variance", "teacher_nll", "teacher_agreement"]
           + [f"reward_vs_{k}" for k in OPPONENT_KINDS[1:]])
COUNTERS = ("update", "decisions", "samples", "hands", "wall_s")


# ---------------------------------------------------------------- the training run


def train(cfg: PPOConfig, run_dir: str | Path, resume: bool = False, progress: bool = True,
          evaluate_fn=evaluate) -> dict:
    """Train (or continue) the run in ``run_dir``; returns the final counters and last metrics."""
    from tqdm import tqdm

    # Setup: the network, optimizer and RNGs (a fresh start or the checkpoint's), the collector, the run folder.
    torch.set_num_threads(cfg.torch_threads)
    run = RunFolder(run_dir)
    learner = TrainingState.fresh(cfg)
    collector = make_collector(cfg)
    if resume:
        learner.load(run.checkpoint)
    info = run.begin(cfg, learner.counters["update"] if resume else None)
    log = RunLog(run.path, METRICS, EVAL_FIELDS, learner.counters["update"] if resume else None)
    if not resume:
        start_new_run(cfg, learner, collector, run, info, log, progress, evaluate_fn)
    model, optimizer, counters = learner.model, learner.optimizer, learner.counters
    buffer = RolloutBuffer(cfg.gamma, cfg.gae_lambda)
    side_of = collector.games[0].side_of
    segment_start, wall_before = time.perf_counter(), counters["wall_s"]
    row: dict = {}
    bar = tqdm(total=cfg.total_updates, initial=counters["update"], unit="update", disable=not progress,
               dynamic_ncols=True, mininterval=2.0)
    while counters["update"] < cfg.total_updates:
        tick = time.perf_counter()
        if cfg.anneal_lr:
            optimizer.param_groups[0]["lr"] = cfg.learning_rate * (1 - counters["update"] / cfg.total_updates)

        # 1-2. plan and collect num_envs hands
        plans, kinds = make_plans(cfg, learner.rng, len(learner.pool_nets), side_of)
        model.eval()
        stats = collector.run(plans, learner.rng, model, learner.pool_nets, learner.generator, buffer)
        model.train()

        # 3. advantages (GAE, computed as each trajectory enters the buffer) and the PPO update
        losses = ppo_update(model, optimizer, buffer.batch(), cfg, learner.generator)
        buffer.clear()

        # 4. count, snapshot, log
        count(counters, stats, wall_before + time.perf_counter() - segment_start)
        if counters["update"] % cfg.snapshot_every == 0:
            learner.add_snapshot(cfg.pool_size)
        row = {**{k: counters[k] for k in COUNTERS}, "steps_per_s": stats.decisions / (time.perf_counter() - tick),
               "lr": optimizer.param_groups[0]["lr"], **losses, **learner_rewards(stats.hands, kinds)}
        log.log("train", row)
        bar.update(1)
        bar.set_postfix(steps_s=f"{row['steps_per_s']:.0f}", vs_heur=_fmt(row.get("reward_vs_heuristic")),
                        ent=f"{losses['entropy']:.2f}")

        # 5. checkpoint and evaluate when due; stop when out of time
        out_of_time = cfg.max_minutes > 0 and time.perf_counter() - segment_start > cfg.max_minutes * 60
        save_and_evaluate(cfg, learner, run, log, evaluate_fn, bar,
                          final=out_of_time or counters["update"] >= cfg.total_updates)
        if out_of_time:
            bar.write(f"stopping after {cfg.max_minutes} minutes (resume with --resume {run.path})")
            break
    bar.close()
    log.close()
    plot_learning_curve(run.path)
    return {**counters, **row}


def make_collector(cfg: PPOConfig) -> SplitCollector:
    """All-network hands run on the batched engine, the rest (heuristic, random seats) on ``SpadesGame``."""
    return SplitCollector(cfg.num_players, cfg.num_envs, cfg.random_start_bags,
                          "oracle" if cfg.privileged_critic else "default",
                          teacher=teacher_name(cfg), teacher_phases=cfg.teacher_phases)


def start_new_run(cfg: PPOConfig, learner: TrainingState, collector: Collector, run: RunFolder, info: dict,
                  log: RunLog, progress: bool, evaluate_fn) -> None:
    """A new run's update 0: the starting weights (``init_policy``, then behaviour cloning, if asked for),
    saved and evaluated."""
    if cfg.init_policy:
        start_policy, data = load_policy(cfg.init_policy)
        # actor-only files give the actor; the critic stays fresh
        learner.model.load_state_dict(start_policy.state_dict(), strict=not data.get("actor_only"))
        info["init_policy"] = cfg.init_policy
    if cfg.bc_hands > 0:
        began = time.perf_counter()
        bc = behaviour_clone(cfg, learner.model, collector, learner.rng, learner.generator, progress)
        bc["bc_wall_s"] = time.perf_counter() - began
        learner.counters["wall_s"] += bc["bc_wall_s"]
        info["behaviour_cloning"] = bc
    run.write_info(info)
    run.save(learner, cfg)
    if cfg.keep_policy_every:
        run.keep_policy(learner, cfg)
    if evaluate_fn is not None and cfg.eval_deals > 0:  # the starting point (after behaviour cloning, if any)
        evaluate_and_log(cfg, learner, run, log, evaluate_fn)


def count(counters: dict, stats: RolloutStats, wall_s: float) -> None:
    """One more update over the rollout ``stats``; ``wall_s`` is the run's time so far."""
    counters["update"] += 1
    counters["decisions"] += stats.decisions
    counters["samples"] += stats.recorded
    counters["hands"] += len(stats.hands)
    counters["wall_s"] = wall_s


def save_and_evaluate(cfg: PPOConfig, learner: TrainingState, run: RunFolder, log: RunLog, evaluate_fn, bar,
                      final: bool) -> None:
    """The checkpoint every ``save_every`` updates, a kept policy every ``keep_policy_every``, and the
    evaluation every ``eval_every`` (each evaluated policy is saved first); all of them at the ``final`` update."""
    update = learner.counters["update"]
    eval_due = bool(cfg.eval_every and update % cfg.eval_every == 0) or final
    if eval_due or update % cfg.save_every == 0:
        run.save(learner, cfg)
    if cfg.keep_policy_every and update % cfg.keep_policy_every == 0:
        run.keep_policy(learner, cfg)
    if eval_due and evaluate_fn is not None and cfg.eval_deals > 0:
        result = evaluate_and_log(cfg, learner, run, log, evaluate_fn)
        plot_learning_curve(run.path)
        bar.write(f"update {update}: {result.get('points_per_deal', math.nan):+.1f} +- "
                  f"{result.get('ci95', math.nan):.1f} points/deal vs heuristic over {result.get('deals')} deals")


def evaluate_and_log(cfg: PPOConfig, learner: TrainingState, run: RunFolder, log: RunLog, evaluate_fn) -> dict:
    """Evaluate the saved ``policy.pt`` and append the result, at the current counters, to ``eval.csv``."""
    result = evaluate_fn(run.policy, cfg)
    log.log("eval", {**{k: learner.counters[k] for k in ("update", "decisions", "wall_s")}, **result})
    return result


# ---------------------------------------------------------------- planning


def make_plans(cfg: PPOConfig, rng: np.random.Generator, pool_size: int,
               side_of: tuple[int, ...]) -> tuple[list[list[Key]], list[str]]:
    """Who plays each seat of each hand of the next rollout, and the opponent kind of each hand."""
    weights = np.array([cfg.p_self, cfg.p_pool if pool_size else 0.0, cfg.p_heuristic, cfg.p_random])
    plans, kinds = [], []
    for _ in range(cfg.num_envs):
        kind = OPPONENT_KINDS[int(rng.choice(len(weights), p=weights / weights.sum()))]
        learner_side = int(rng.integers(2))
        opponent = {"self": LEARNER, "heuristic": ("agent", cfg.heuristic_agent),
                    "random": ("agent", cfg.random_agent)}.get(kind)
        if kind == "pool":
            opponent = ("pool", int(rng.integers(pool_size)))
        plans.append([LEARNER if side == learner_side else opponent for side in side_of])
        kinds.append(kind)
    return plans, kinds


# ---------------------------------------------------------------- PPO update


def ppo_update(model: ActorCritic, optimizer: torch.optim.Optimizer, batch: Batch, cfg: PPOConfig,
               generator: torch.Generator) -> dict[str, float]:
    """The clipped-objective update of CleanRL's ``ppo.py``, on masked logits."""
    n = len(batch)
    clipfracs: list[float] = []
    for _epoch in range(cfg.update_epochs):
        order = torch.randperm(n, generator=generator)
        for idx in torch.tensor_split(order, min(cfg.num_minibatches, n)):
            logits, new_values = model(batch.obs[idx])
            log_probs = masked_log_probs(logits, batch.masks[idx])
            new_log_prob = log_probs.gather(1, batch.actions[idx].unsqueeze(1)).squeeze(1)
            entropy = masked_entropy(log_probs, batch.masks[idx]).mean()
            log_ratio = new_log_prob - batch.log_probs[idx]
            ratio = log_ratio.exp()
            with torch.no_grad():
                approx_kl = ((ratio - 1) - log_ratio).mean()  # the low-variance estimator (Schulman)
                clipfracs.append(((ratio - 1).abs() > cfg.clip_coef).float().mean().item())

            adv = batch.advantages[idx]
            if cfg.norm_adv and len(idx) > 1:
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)).mean()

            returns = batch.returns[idx]
            if cfg.clip_vloss:
                old = batch.values[idx]
                clipped = old + (new_values - old).clamp(-cfg.clip_coef, cfg.clip_coef)
                v_loss = 0.5 * torch.max((new_values - returns) ** 2, (clipped - returns) ** 2).mean()
            else:
                v_loss = 0.5 * ((new_values - returns) ** 2).mean()

            loss = pg_loss - cfg.ent_coef * entropy + cfg.vf_coef * v_loss
            loss = loss + imitation_loss(log_probs, batch.teacher_actions[idx], cfg.teacher_coef)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), cfg.max_grad_norm)
            optimizer.step()
        if cfg.target_kl is not None and approx_kl > cfg.target_kl:
            break
    var_y = batch.returns.var().item()
    explained = math.nan if var_y == 0 else 1 - (batch.returns - batch.values).var().item() / var_y
    return {"policy_loss": pg_loss.item(), "value_loss": v_loss.item(), "entropy": entropy.item(),
            "approx_kl": approx_kl.item(), "clipfrac": float(np.mean(clipfracs)), "explained_variance": explained,
            **teacher_fit(model, batch)}


# ---------------------------------------------------------------- logging


def learner_rewards(hands: list[HandResult], kinds: list[str]) -> dict[str, float]:
    """Mean reward per hand of the learner's side, by opponent kind (self-play, 0 by symmetry, is left out)."""
    by_kind: dict[str, list[float]] = {}
    for hand in hands:
        kind = kinds[hand.slot]
        if kind == "self":
            continue
        seat = hand.plan.index(LEARNER)
        by_kind.setdefault(kind, []).append(hand.rewards[seat])
    return {f"reward_vs_{k}": float(np.mean(v)) for k, v in by_kind.items()}


def _fmt(reward) -> str:
    """A mean reward as points per hand for the progress bar."""
    return "-" if reward is None else f"{reward * POINTS_PER_REWARD:+.0f}"


# ---------------------------------------------------------------- command line


def build_parser() -> argparse.ArgumentParser:
    from ..cli import ArgumentParser

    parser = ArgumentParser(prog="spades train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", help="JSON or YAML file of config overrides")
    parser.add_argument("--run-dir", help="run folder (default runs/ppo-<N>p-<time>-s<seed>)")
    parser.add_argument("--resume", metavar="RUN_DIR", help="continue the run in RUN_DIR from its last checkpoint")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_config_arguments(parser)
    return parser


def _run_setup(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[PPOConfig, Path]:
    """The config and run folder the options name; an input error exits at once (one line, status 2)."""
    if args.resume:
        run_dir = Path(args.resume)
        if not (run_dir / "checkpoint.pt").is_file() or not (run_dir / "config.json").is_file():
            parser.error(f"--resume {run_dir}: no checkpoint.pt and config.json there (a run folder of "
                         "spades train); start a run with --run-dir instead")
        return resumed_config(run_dir, args.total_updates, args.max_minutes), run_dir
    try:
        base = load_config_file(args.config) if args.config else {}
    except (ValueError, OSError) as exc:  # unreadable, or not JSON/YAML
        parser.error(f"--config {args.config}: {' '.join(str(exc).split())}")
    try:
        cfg = config_from_args(args, base)
    except ValueError as exc:  # an unknown config key, a bad value
        parser.error(" ".join(str(exc).split()))
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    run_dir = Path(args.run_dir or f"runs/ppo-{cfg.num_players}p-{stamp}-s{cfg.seed}")
    if (run_dir / "checkpoint.pt").exists():
        parser.error(f"{run_dir} already holds a run; use --resume {run_dir} or another --run-dir")
    return cfg, run_dir


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    cfg, run_dir = _run_setup(parser, args)
    print(f"run folder: {run_dir}", file=sys.stderr)
    result = train(cfg, run_dir, resume=bool(args.resume), progress=not args.no_progress)
    print(json.dumps({k: result[k] for k in COUNTERS}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
