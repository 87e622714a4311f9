"""Train a PPO agent for Spades, CleanRL style: setup, then one loop you can read top to bottom.

``spades train --num-players 4`` runs the default recipe from scratch within
its time budget (``--max-minutes``, cloning included): (1) behaviour cloning
of the teacher (the heuristic) on its own games; (2) PPO, each update being

* **plan** ``num_envs`` hands: opponents (self-play, the pool, the heuristic,
  the random agent) and starting game states (:mod:`.plans`);
* **collect** them (:mod:`.collect`; rewards by :mod:`.score_context`);
* **advantages**: the critic on every stored row, GAE per trajectory (:mod:`.buffer`);
* **update**: CleanRL's clipped surrogate, value loss and entropy bonus, plus
  the teacher's NLL on the moves it labelled (:mod:`.cloning`);
* **log** (CSV, TensorBoard), **snapshot** into the pool, **evaluate** against
  the heuristic (duplicate deals, fixed seed), **checkpoint**.

The learning rate anneals to 0 over the budget. Any phase resumes after a
kill (``spades train --resume DIR``) as if it had not stopped
(:mod:`.run_folder`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from spades_env.scoring import POINTS_PER_REWARD

from .buffer import Batch, RolloutBuffer
from .cloning import behaviour_clone, imitation_loss, teacher_fit, teacher_name
from .collect import Collector, MixedCollector
from .config import PPOConfig, add_config_arguments
from .evaluate import EVAL_FIELDS, evaluate
from .model import (
    MINIBATCH_BUCKET,
    ActorCritic,
    bf16_autocast,
    bucketed,
    masked_entropy,
    masked_log_probs,
    torch_threads,
)
from .plans import OPPONENT_KINDS, RolloutStats, learner_rewards, plan_hands
from .run_folder import Clock, RunFolder, RunLog, TrainingState, config_and_folder, save_and_evaluate, say

COUNTERS = ("update", "decisions", "samples", "hands", "wall_s")
METRICS = [*COUNTERS, "steps_per_s", "lr", "policy_loss", "value_loss", "entropy", "approx_kl", "clipfrac",
           "explained_variance", "teacher_nll", "teacher_agreement", *(f"reward_vs_{k}" for k in OPPONENT_KINDS[1:])]


def train(cfg: PPOConfig, run_dir: str | Path, resume: bool = False, progress: bool = True,
          evaluate_fn=evaluate, started: float | None = None) -> dict:
    """Train (or continue) the run in ``run_dir``; returns the final counters and last metrics. ``started``
    (a ``time.perf_counter()``, default now) is when the budget began to run."""
    from tqdm import tqdm

    # ---- setup: the state (fresh, or the checkpoint's), the run folder and its logs, the budget, the engines
    started = time.perf_counter() if started is None else started
    torch.set_num_threads(1)  # collection's forward passes; the updates run on cfg.torch_threads
    run, state = RunFolder(run_dir), TrainingState.fresh(cfg)
    if resume:
        state.load(run.checkpoint)
    clock = Clock(state.counters, cfg.max_minutes, started)
    collector = make_collector(cfg)  # its worker process starts while the rest is set up
    resumed_at = state.counters["update"] if resume else None
    info = run.begin(cfg, resumed_at)
    log = RunLog(run.path, METRICS, EVAL_FIELDS, resumed_at)
    buffer = RolloutBuffer(cfg.gamma, cfg.gae_lambda)
    timing = {"iteration_s": 0.0, "eval_s": 0.0}  # what the last ones took: the end must leave room for them

    # ---- phase 1: behaviour cloning (resumable by epoch), then the starting point saved and evaluated
    if state.phase == "clone" or not resume:
        if state.phase == "clone":
            say(f"clone: {cfg.bc_hands} hands of {cfg.teacher}, {cfg.bc_epochs} epochs")
            scores = behaviour_clone(cfg, state, collector, run, clock, progress)
            if scores is None:
                return stop(cfg, state, run, log, collector, clock, "out of time while cloning")
            info["behaviour_cloning"] = scores
            run.write_info(info)
            state.phase, state.clone = "ppo", {}
        state.counters["ppo_start_s"] = clock.tick()
        save_and_evaluate(cfg, state, run, log, evaluate_fn, clock, timing, final=True)

    # ---- phase 2: PPO
    say(f"ppo: updates {state.counters['update']}..{cfg.total_updates} of {cfg.num_envs} hands"
        + (f", budget {cfg.max_minutes:g} min" if cfg.max_minutes else ""))
    bar = tqdm(total=cfg.total_updates, initial=state.counters["update"], unit="update", disable=not progress,
               dynamic_ncols=True, mininterval=2.0)
    row: dict = {}
    while state.counters["update"] < cfg.total_updates and not clock.out_of_time(timing["eval_s"]):
        tick = time.perf_counter()
        done = clock.schedule(state.counters["update"], cfg.total_updates)
        state.optimizer.param_groups[0]["lr"] = cfg.learning_rate * ((1 - done) if cfg.anneal_lr else 1)

        stats, losses, _ = ppo_iteration(cfg, state, collector, buffer)

        # count, snapshot, log
        for key, value in (("update", 1), ("decisions", stats.decisions), ("samples", stats.recorded),
                           ("hands", len(stats.hands))):
            state.counters[key] += value
        clock.tick()
        if state.counters["update"] % cfg.snapshot_every == 0:
            state.add_snapshot(cfg.pool_size)
        timing["iteration_s"] = time.perf_counter() - tick
        row = {**{k: state.counters[k] for k in COUNTERS}, "steps_per_s": stats.decisions / timing["iteration_s"],
               "lr": state.optimizer.param_groups[0]["lr"], **losses, **learner_rewards(stats.hands)}
        log.log("train", row)
        bar.update(1)
        bar.set_postfix(steps_s=f"{row['steps_per_s']:.0f}", vs_heur=_points(row.get("reward_vs_heuristic")),
                        ent=f"{losses['entropy']:.2f}")

        # checkpoint and evaluate when due, and at the end (which leaves room for one more iteration and eval)
        final = (state.counters["update"] >= cfg.total_updates
                 or clock.out_of_time(timing["iteration_s"] + timing["eval_s"]))
        save_and_evaluate(cfg, state, run, log, evaluate_fn, clock, timing, final)
        if final:
            break
    bar.close()
    why = "done" if state.counters["update"] >= cfg.total_updates else "out of time"
    return stop(cfg, state, run, log, collector, clock, why, row)


def make_collector(cfg: PPOConfig) -> Collector | MixedCollector:
    """The engines for ``num_envs`` hands, observations for the critic, the teacher's labels if any: one
    collector, or one per rule set with ``mixed_rules``."""
    collectors = [Collector(cfg.num_players, cfg.num_envs, "oracle" if cfg.privileged_critic else "default",
                            teacher_name(cfg), cfg.teacher_phases, cfg.teacher_share, cfg.workers, rules=rules)
                  for rules in cfg.rule_sets()]
    return collectors[0] if len(collectors) == 1 else MixedCollector(collectors)


def ppo_iteration(cfg: PPOConfig, state: TrainingState, collector: Collector | MixedCollector,
                  buffer: RolloutBuffer) -> tuple[RolloutStats, dict[str, float], float]:
    """One iteration: plan and collect ``num_envs`` hands, advantages (the critic on every stored row in one
    pass, then GAE per trajectory), the PPO update. Returns the rollout's stats, the losses and the seconds
    collection took (the rest was the update)."""
    began = time.perf_counter()
    plans = plan_hands(cfg, state.rng, len(state.pool_nets))
    state.model.eval()
    stats = collector.collect(plans, state.rng, state.model, state.pool_nets, state.generator, buffer)
    collect_s = time.perf_counter() - began
    with torch_threads(cfg.torch_threads):
        batch = buffer.batch(state.model, cfg.bf16)
        actor = state.counters["update"] >= cfg.critic_warmup
        losses = ppo_update(state.model, state.optimizer, batch, cfg, state.generator, actor)
    buffer.clear()
    return stats, losses, collect_s


def ppo_update(model: ActorCritic, optimizer: torch.optim.Optimizer, batch: Batch, cfg: PPOConfig,
               generator: torch.Generator, actor: bool = True) -> dict[str, float]:
    """The clipped-objective update of CleanRL's ``ppo.py``, on masked logits (plus the teacher term).
    ``actor=False`` trains the critic alone, the actor held: a fresh critic's advantages are noise, and an
    actor trained on them forgets what it started from."""
    model.train()
    rows = model.rows(batch.obs) if batch.rows is None else batch.rows  # (a batch built without the critic's pass)
    n, clipfracs = len(batch), []
    count = min(cfg.num_minibatches, n)
    size = bucketed(-(-n // count), MINIBATCH_BUCKET)  # a few shapes only (model.py): the permutation wraps around
    for _epoch in range(cfg.update_epochs):
        order = torch.randperm(n, generator=generator)
        order = order.repeat(-(-count * size // n))[:count * size]
        for idx in order.view(count, size):
            with bf16_autocast(cfg.bf16):
                logits, new_values = model.forward_rows(rows[idx])
            log_probs = masked_log_probs(logits.float(), batch.masks[idx])
            new_values = new_values.float()
            entropy = masked_entropy(log_probs, batch.masks[idx]).mean()
            log_ratio = log_probs.gather(1, batch.actions[idx].unsqueeze(1)).squeeze(1) - batch.log_probs[idx]
            ratio = log_ratio.exp()
            with torch.no_grad():
                approx_kl = ((ratio - 1) - log_ratio).mean()  # the low-variance estimator (Schulman)
                clipfracs.append(((ratio - 1).abs() > cfg.clip_coef).float().mean().item())

            adv = batch.advantages[idx]
            if cfg.norm_adv and len(idx) > 1:
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)).mean()

            returns, old = batch.returns[idx], batch.values[idx]
            v_loss = (new_values - returns) ** 2
            if cfg.clip_vloss:
                v_loss = torch.max(v_loss, (old + (new_values - old).clamp(-cfg.clip_coef, cfg.clip_coef)
                                            - returns) ** 2)
            v_loss = 0.5 * v_loss.mean()

            loss = pg_loss - cfg.ent_coef * entropy + cfg.vf_coef * v_loss
            loss = loss + imitation_loss(log_probs, batch.teacher_actions[idx], cfg.teacher_coef)
            optimizer.zero_grad()
            loss.backward()
            if not actor:  # what reaches the critic and value head is the value loss alone (Adam skips no-grad params)
                for p in model.actor_parameters():
                    p.grad = None
            nn.utils.clip_grad_norm_(model.parameters(), cfg.max_grad_norm)
            optimizer.step()
        if cfg.target_kl and approx_kl > cfg.target_kl:
            break
    var_y = batch.returns.var().item()
    explained = math.nan if var_y == 0 else 1 - (batch.returns - batch.values).var().item() / var_y
    return {"policy_loss": pg_loss.item(), "value_loss": v_loss.item(), "entropy": entropy.item(),
            "approx_kl": approx_kl.item(), "clipfrac": float(np.mean(clipfracs)), "explained_variance": explained,
            **teacher_fit(model, batch, rows)}


def stop(cfg: PPOConfig, state: TrainingState, run: RunFolder, log: RunLog, collector: Collector | MixedCollector,
         clock: Clock, why: str, row: dict | None = None) -> dict:
    """Save the state with its wall time so far, close the worker and the logs, draw the curve and say how to
    go on; returns the counters and the last metrics."""
    clock.tick()
    run.save(state, cfg)  # (cloning's own progress is saved by epoch)
    collector.close()
    log.close()
    more = "" if why == "done" else f" (continue with --resume {run.path} and a larger --max-minutes)"
    say(f"stopped, {why}: update {state.counters['update']}, {state.counters['wall_s'] / 60:.1f} min{more}")
    return {**state.counters, **(row or {})}


def _points(reward) -> str:
    """A mean reward as points per hand for the progress bar."""
    return "-" if reward is None else f"{reward * POINTS_PER_REWARD:+.0f}"


def build_parser() -> argparse.ArgumentParser:
    from ..cli import ArgumentParser

    parser = ArgumentParser(prog="spades train", description=__doc__.split("\n\n")[0],
                            usage="%(prog)s [--num-players N] [--run-dir DIR] [--FIELD VALUE ...] | "
                                  "--resume DIR")
    parser.add_argument("--config", help="JSON or YAML file of config overrides")
    parser.add_argument("--run-dir", help="run folder (default: runs/ppo-<N>p-<time>-s<seed>)")
    parser.add_argument("--resume", metavar="RUN_DIR", help="continue the run in RUN_DIR from its last checkpoint")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars: one log line per phase/eval")
    add_config_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    started = time.perf_counter()  # the budget covers setting up too
    parser = build_parser()
    args = parser.parse_args(argv)
    cfg, run_dir = config_and_folder(parser, args)
    say(f"run folder: {run_dir}")
    result = train(cfg, run_dir, resume=bool(args.resume), progress=not args.no_progress, started=started)
    print(json.dumps({k: result[k] for k in COUNTERS}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
