"""PPO by self-play for Spades, in the CleanRL style: one loop you can read top to bottom.

``spades train [--config FILE] [--FIELD VALUE ...] [--run-dir DIR]`` or
``spades train --resume DIR``. One update is:

1. **Plan** ``num_envs`` single hands. In each, the learner plays one side
   (both partners: they share the side's reward); the other side is the
   learner too (self-play), a past snapshot from the pool, the heuristic or
   the random agent, drawn with the ``p_*`` weights.
2. **Collect** them on the bare rules engine (:mod:`spades_env.agents.ppo.rollout`); each
   learner seat's decisions form one trajectory whose reward, when the hand
   is scored, is (own side's points - other side's) / 100 -- the env's
   ``"score"`` reward.
3. **GAE** per trajectory (:mod:`spades_env.agents.ppo.buffer`), then the **PPO update**:
   clipped surrogate, value loss, entropy bonus, ``update_epochs`` passes of
   ``num_minibatches`` shuffled minibatches, gradient clipping.
4. **Log** (CSV + TensorBoard), **snapshot** into the pool, **evaluate** in the
   duplicate tournament against the heuristic (fixed seed), **checkpoint**
   (atomic; includes optimizer and RNG states, so ``--resume`` continues
   exactly as if the run had not stopped).

Optionally the network is first pre-trained by behaviour cloning on the
heuristic's own games (``--bc-hands``), which skips the phase where a random
policy bids Blind Nil half the time.
"""

from __future__ import annotations

import argparse
import copy
import csv
import json
import math
import os
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import torch
from torch import nn

from .buffer import Batch, RolloutBuffer
from .config import PPOConfig, add_config_arguments, config_from_args, load_config_file
from .model import (
    ActorCritic,
    atomic_save,
    load_policy,
    masked_entropy,
    masked_log_probs,
    policy_state,
    save_policy,
)
from .rollout import LEARNER, Collector, HandResult, Key
from .vector_rollout import SplitCollector

OPPONENT_KINDS = ("self", "pool", "heuristic", "random")
METRICS = (["update", "decisions", "samples", "hands", "wall_s", "steps_per_s", "lr", "policy_loss", "value_loss",
           "entropy", "approx_kl", "clipfrac", "explained_variance", "teacher_nll", "teacher_agreement"]
           + [f"reward_vs_{k}" for k in OPPONENT_KINDS[1:]])
EVAL_FIELDS = ["update", "decisions", "wall_s", "deals", "points_per_deal", "ci95", "win_rate", "set_rate",
               "nil_success", "bags_per_hand", "opp_set_rate", "opp_nil_success", "opp_bags_per_hand"]


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
            if cfg.teacher_coef > 0:
                teacher = batch.teacher_actions[idx]
                labelled = teacher >= 0
                if labelled.any():
                    teacher_nll = -log_probs[labelled].gather(1, teacher[labelled].unsqueeze(1)).mean()
                    loss = loss + cfg.teacher_coef * teacher_nll
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


@torch.no_grad()
def teacher_fit(model: ActorCritic, batch: Batch) -> dict[str, float]:
    """How close the updated policy is to the teacher on the labelled rows: mean NLL and greedy agreement."""
    labelled = batch.teacher_actions >= 0
    if not labelled.any():
        return {}
    log_probs = masked_log_probs(model.logits(batch.obs[labelled]), batch.masks[labelled])
    teacher = batch.teacher_actions[labelled]
    return {"teacher_nll": -log_probs.gather(1, teacher.unsqueeze(1)).mean().item(),
            "teacher_agreement": (log_probs.argmax(1) == teacher).float().mean().item()}


# ---------------------------------------------------------------- behaviour cloning


def behaviour_clone(cfg: PPOConfig, model: ActorCritic, collector: Collector, rng: np.random.Generator,
                    generator: torch.Generator, progress: bool = True) -> dict[str, float]:
    """Supervised pre-training on ``cfg.bc_hands`` hands the demonstrator (``cfg.bc_agent``, by default
    the heuristic) plays at every seat.

    The policy head learns the heuristic's action (cross-entropy on the
    masked logits); the value head learns the hand's reward (Monte-Carlo:
    GAE with gamma = lambda = 1 and zero values gives the return). The last
    10% of the samples (whole hands) are held out to measure accuracy.
    """
    from tqdm import tqdm

    demonstrator: Key = ("agent", cfg.bc_agent or cfg.heuristic_agent)
    buffer = RolloutBuffer(gamma=1.0, lam=1.0)
    n = collector.num_players
    done = 0
    with tqdm(total=cfg.bc_hands, desc="demonstrator games", unit="hand", disable=not progress) as bar:
        while done < cfg.bc_hands:
            k = min(len(collector.games), cfg.bc_hands - done)
            collector.run([[demonstrator] * n] * k, rng, model, [], generator, buffer, record={demonstrator})
            done += k
            bar.update(k)
    data = buffer.batch()
    split = int(len(data) * 0.9)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.bc_learning_rate)
    with tqdm(range(cfg.bc_epochs), desc="behaviour cloning", unit="epoch", disable=not progress) as bar:
        for _ in bar:
            order = torch.randperm(split, generator=generator)
            for idx in torch.split(order, cfg.bc_batch_size):
                logits, values = model(data.obs[idx])
                log_probs = masked_log_probs(logits, data.masks[idx])
                nll = -log_probs.gather(1, data.actions[idx].unsqueeze(1)).mean()
                v_loss = 0.5 * ((values - data.returns[idx]) ** 2).mean()
                loss = nll + cfg.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            bar.set_postfix(nll=f"{nll.item():.3f}")
    with torch.no_grad():
        logits, values = model(data.obs[split:])
        log_probs = masked_log_probs(logits, data.masks[split:])
        held_nll = -log_probs.gather(1, data.actions[split:].unsqueeze(1)).mean().item()
        accuracy = (log_probs.argmax(1) == data.actions[split:]).float().mean().item()
        held_v = (0.5 * (values - data.returns[split:]) ** 2).mean().item()
    return {"bc_samples": len(data), "bc_heldout_nll": held_nll, "bc_heldout_accuracy": accuracy,
            "bc_heldout_value_loss": held_v}


# ---------------------------------------------------------------- evaluation


def evaluate(policy_path: Path, cfg: PPOConfig, deals: int | None = None) -> dict[str, float]:
    """The policy (greedy) against the heuristic in the duplicate tournament: single-hand boards, fixed seed.

    Each deal is played twice with the sides swapped (``spades_env.agents.tournament.evaluate``); the
    points per deal are the PPO side's points minus the heuristic side's, 95% CI over deals.
    """
    from spades_env.agents.tournament import evaluate as duplicate_match

    from .model import PPOAgent

    deals = deals or cfg.eval_deals
    stats = duplicate_match(PPOAgent(policy_path, greedy=True), cfg.heuristic_agent, games=2 * deals,
                            seed=cfg.eval_seed, num_players=cfg.num_players, single_hand=True)
    ci = stats["points_per_deal_diff"]
    ppo, heuristic = stats["agent_a"], stats["agent_b"]
    return {"deals": stats["boards"], "points_per_deal": ci["mean"],
            "ci95": math.nan if ci["low"] is None else (ci["high"] - ci["low"]) / 2,
            "win_rate": stats["win_rate_a"], "set_rate": ppo["set_rate"], "nil_success": ppo["nil_success"],
            "bags_per_hand": ppo["bags_per_hand"], "opp_set_rate": heuristic["set_rate"],
            "opp_nil_success": heuristic["nil_success"], "opp_bags_per_hand": heuristic["bags_per_hand"]}


# ---------------------------------------------------------------- run folder and logging


class RunLog:
    """The metrics CSVs and TensorBoard events of a run (resumable: rows past the checkpoint are dropped)."""

    def __init__(self, run_dir: Path, resume_update: int | None) -> None:
        from torch.utils.tensorboard import SummaryWriter

        self.run_dir = run_dir
        self.metrics = run_dir / "metrics.csv"
        self.evals = run_dir / "eval.csv"
        for path, fields in ((self.metrics, METRICS), (self.evals, EVAL_FIELDS)):
            rows = _read_csv(path) if resume_update is not None else []
            kept = [r for r in rows if int(r["update"]) <= (resume_update or 0)]
            with open(path, "w", newline="") as fh:
                writer = csv.DictWriter(fh, fields)
                writer.writeheader()
                writer.writerows(kept)
        self.tb = SummaryWriter(str(run_dir), purge_step=None if resume_update is None else resume_update + 1)

    def log(self, path: Path, fields: list[str], row: dict, prefix: str) -> None:
        with open(path, "a", newline="") as fh:
            csv.DictWriter(fh, fields).writerow({k: row.get(k, "") for k in fields})
        for key, value in row.items():
            if key != "update" and isinstance(value, (int, float)) and math.isfinite(value):
                self.tb.add_scalar(f"{prefix}/{key}", value, row["update"])
        self.tb.flush()


def _read_csv(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def plot_learning_curve(run_dir: Path) -> Path | None:
    """``learning_curve.png``: evaluation points per deal (95% CI) and win rate vs the heuristic over training."""
    rows = [r for r in _read_csv(run_dir / "eval.csv") if r["points_per_deal"] not in ("", None)]
    train = _read_csv(run_dir / "metrics.csv")
    if not rows and not train:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    if train:
        x = np.array([float(r["decisions"]) for r in train]) / 1e6
        y = np.array([float(r["reward_vs_heuristic"]) * 100 if r["reward_vs_heuristic"] else np.nan for r in train])
        ok = ~np.isnan(y)
        if ok.sum() >= 2:
            window = max(1, min(20, ok.sum() // 5))
            smooth = np.convolve(y[ok], np.ones(window) / window, mode="valid")
            ax1.plot(x[ok][window - 1:], smooth, color="0.7",
                     label=f"training hands vs heuristic ({window}-update mean)")
    if rows:
        x = np.array([float(r["decisions"]) for r in rows]) / 1e6
        ppd = np.array([float(r["points_per_deal"]) for r in rows])
        ci = np.array([float(r["ci95"]) for r in rows])
        ax1.errorbar(x, ppd, yerr=ci, marker="o", capsize=3, label="duplicate evaluation (95% CI)")
        ax2.plot(x, np.array([float(r["win_rate"]) for r in rows]), marker="o")
    ax1.axhline(0, color="k", lw=0.8)
    ax1.set(xlabel="environment decisions (millions)", ylabel="points per deal vs heuristic",
            title="PPO points lead over the heuristic")
    if ax1.get_legend_handles_labels()[0]:
        ax1.legend(fontsize=8)
    ax2.axhline(0.5, color="k", lw=0.8)
    ax2.set(xlabel="environment decisions (millions)", ylabel="win rate", title="deals won vs the heuristic")
    fig.tight_layout()
    out = run_dir / "learning_curve.png"
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


def git_commit() -> str:
    here = Path(__file__).resolve().parent
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True,
                                check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True).stdout.strip()
        return commit + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


# ---------------------------------------------------------------- checkpoints


def save_checkpoint(path: Path, model: ActorCritic, optimizer: torch.optim.Optimizer, pool: list[dict],
                    state: dict, rng: np.random.Generator, generator: torch.Generator, cfg: PPOConfig) -> None:
    """Everything needed to continue bit for bit: weights, optimizer, pool, counters and every RNG state."""
    atomic_save({"policy": policy_state(model, cfg.num_players, {"update": state["update"]}),
                 "optimizer": optimizer.state_dict(), "pool": pool, "state": dict(state),
                 "rng": rng.bit_generator.state, "torch_generator": generator.get_state(),
                 "torch_global": torch.get_rng_state(), "config": cfg.to_dict()}, path)


def _pool_net(state_dict: dict, like: ActorCritic) -> ActorCritic:
    net = ActorCritic(like.obs_size, like.hidden_sizes, like.critic_obs_size, like.card_features)
    net.load_state_dict(state_dict)
    net.eval()
    return net


# ---------------------------------------------------------------- the training run


def train(cfg: PPOConfig, run_dir: str | Path, resume: bool = False, progress: bool = True,
          evaluate_fn=evaluate) -> dict:
    """Train (or continue) the run in ``run_dir``; returns the final counters and last metrics."""
    from tqdm import tqdm

    from spades_env.observations import observation_size

    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    ckpt_path, policy_path = run_dir / "checkpoint.pt", run_dir / "policy.pt"
    torch.set_num_threads(cfg.torch_threads)
    obs_size = observation_size(cfg.num_players)
    critic_size = observation_size(cfg.num_players, "oracle") if cfg.privileged_critic else None

    torch.manual_seed(cfg.seed)
    model = ActorCritic(obs_size, cfg.hidden_sizes, critic_size, cfg.card_features)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.learning_rate, eps=1e-5)
    rng = np.random.default_rng(cfg.seed)
    generator = torch.Generator().manual_seed(cfg.seed)
    # All-network hands run on the batched engine, the rest (heuristic, random seats) on SpadesGame.
    collector = SplitCollector(cfg.num_players, cfg.num_envs, cfg.random_start_bags,
                               "oracle" if cfg.privileged_critic else "default",
                               teacher=(cfg.teacher_agent or cfg.heuristic_agent) if cfg.teacher_coef > 0 else None,
                               teacher_phases=cfg.teacher_phases)
    pool: list[dict] = []  # state dicts of past policies
    state = {"update": 0, "decisions": 0, "samples": 0, "hands": 0, "wall_s": 0.0}

    info_path = run_dir / "run.json"
    if resume:
        ckpt = torch.load(ckpt_path, map_location="cpu", weights_only=False)
        model.load_state_dict(ckpt["policy"]["state_dict"])
        optimizer.load_state_dict(ckpt["optimizer"])
        pool = ckpt["pool"]
        state = ckpt["state"]
        rng.bit_generator.state = ckpt["rng"]
        generator.set_state(ckpt["torch_generator"])
        torch.set_rng_state(ckpt["torch_global"])
        info = json.loads(info_path.read_text())
        info.setdefault("resumed", []).append({"at_update": state["update"], "time": _now(),
                                               "git_commit": git_commit()})
    else:
        info = {"seed": cfg.seed, "git_commit": git_commit(), "started": _now(), "command": sys.argv,
                "python": platform.python_version(), "torch": torch.__version__, "host_cpus": os.cpu_count()}
    (run_dir / "config.json").write_text(json.dumps(cfg.to_dict(), indent=2) + "\n")
    info_path.write_text(json.dumps(info, indent=2) + "\n")
    log = RunLog(run_dir, state["update"] if resume else None)

    if not resume and cfg.init_policy:
        start, data = load_policy(cfg.init_policy)
        model.load_state_dict(start.state_dict(), strict=not data.get("actor_only"))  # actor-only: fresh critic
        info["init_policy"] = cfg.init_policy
    if not resume and cfg.bc_hands > 0:
        start = time.perf_counter()
        bc = behaviour_clone(cfg, model, collector, rng, generator, progress)
        bc["bc_wall_s"] = time.perf_counter() - start
        state["wall_s"] += bc["bc_wall_s"]
        info["behaviour_cloning"] = bc
    info_path.write_text(json.dumps(info, indent=2) + "\n")
    if not resume:
        save_policy(model, policy_path, cfg.num_players, {"update": 0, "decisions": 0})
        save_checkpoint(ckpt_path, model, optimizer, pool, state, rng, generator, cfg)
        if cfg.keep_policy_every:
            save_policy(model, run_dir / "policies" / "update_000000.pt", cfg.num_players,
                        {"update": 0, "decisions": 0})
        if evaluate_fn is not None and cfg.eval_deals > 0:  # the starting point (after behaviour cloning, if any)
            result = evaluate_fn(policy_path, cfg)
            log.log(log.evals, EVAL_FIELDS, {**{k: state[k] for k in ("update", "decisions", "wall_s")}, **result},
                    "eval")

    pool_nets = [_pool_net(sd, model) for sd in pool]
    buffer = RolloutBuffer(cfg.gamma, cfg.gae_lambda)
    side_of = collector.games[0].side_of
    segment_start, wall_before = time.perf_counter(), state["wall_s"]
    row: dict = {}
    bar = tqdm(total=cfg.total_updates, initial=state["update"], unit="update", disable=not progress,
               dynamic_ncols=True, mininterval=2.0)
    while state["update"] < cfg.total_updates:
        tick = time.perf_counter()
        if cfg.anneal_lr:
            optimizer.param_groups[0]["lr"] = cfg.learning_rate * (1 - state["update"] / cfg.total_updates)

        # 1-2. plan and play num_envs hands, 3. GAE (inside the buffer) and the PPO update
        plans, kinds = make_plans(cfg, rng, len(pool_nets), side_of)
        model.eval()
        stats = collector.run(plans, rng, model, pool_nets, generator, buffer)
        model.train()
        losses = ppo_update(model, optimizer, buffer.batch(), cfg, generator)
        buffer.clear()

        # 4. bookkeeping
        state["update"] += 1
        state["decisions"] += stats.decisions
        state["samples"] += stats.recorded
        state["hands"] += len(stats.hands)
        state["wall_s"] = wall_before + time.perf_counter() - segment_start
        if state["update"] % cfg.snapshot_every == 0:
            pool.append(copy.deepcopy(model.state_dict()))
            pool_nets.append(_pool_net(pool[-1], model))
            del pool[:-cfg.pool_size], pool_nets[:-cfg.pool_size]
        row = {**{k: state[k] for k in ("update", "decisions", "samples", "hands", "wall_s")},
               "steps_per_s": stats.decisions / (time.perf_counter() - tick),
               "lr": optimizer.param_groups[0]["lr"], **losses, **learner_rewards(stats.hands, kinds)}
        log.log(log.metrics, METRICS, row, "train")
        bar.update(1)
        bar.set_postfix(steps_s=f"{row['steps_per_s']:.0f}", vs_heur=_fmt(row.get("reward_vs_heuristic")),
                        ent=f"{losses['entropy']:.2f}")

        last = state["update"] >= cfg.total_updates
        out_of_time = cfg.max_minutes > 0 and time.perf_counter() - segment_start > cfg.max_minutes * 60
        eval_due = (cfg.eval_every and state["update"] % cfg.eval_every == 0) or last or out_of_time
        if eval_due or state["update"] % cfg.save_every == 0 or last:
            meta = {"update": state["update"], "decisions": state["decisions"]}
            save_policy(model, policy_path, cfg.num_players, meta)
            save_checkpoint(ckpt_path, model, optimizer, pool, state, rng, generator, cfg)
        if cfg.keep_policy_every and state["update"] % cfg.keep_policy_every == 0:
            save_policy(model, run_dir / "policies" / f"update_{state['update']:06d}.pt", cfg.num_players,
                        {"update": state["update"], "decisions": state["decisions"]})
        if eval_due and evaluate_fn is not None and cfg.eval_deals > 0:
            result = evaluate_fn(policy_path, cfg)
            log.log(log.evals, EVAL_FIELDS, {**{k: state[k] for k in ("update", "decisions", "wall_s")}, **result},
                    "eval")
            plot_learning_curve(run_dir)
            bar.write(f"update {state['update']}: {result.get('points_per_deal', math.nan):+.1f} +- "
                      f"{result.get('ci95', math.nan):.1f} points/deal vs heuristic over {result.get('deals')} deals")
        if out_of_time:
            bar.write(f"stopping after {cfg.max_minutes} minutes (resume with --resume {run_dir})")
            break
    bar.close()
    log.tb.close()
    plot_learning_curve(run_dir)
    return {**state, **row}


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


def _fmt(value) -> str:
    return "-" if value is None else f"{value * 100:+.0f}"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# ---------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="spades train", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--config", help="JSON or YAML file of config overrides")
    parser.add_argument("--run-dir", help="run folder (default runs/ppo-<N>p-<time>-s<seed>)")
    parser.add_argument("--resume", metavar="RUN_DIR", help="continue the run in RUN_DIR from its last checkpoint")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_config_arguments(parser)
    args = parser.parse_args(argv)

    if args.resume:
        run_dir = Path(args.resume)
        saved = json.loads((run_dir / "config.json").read_text())
        # Only the length of the run may change on resume; anything else would break "as if uninterrupted".
        overrides = {k: getattr(args, k) for k in ("total_updates", "max_minutes") if getattr(args, k) is not None}
        cfg = PPOConfig.from_dict({**saved, **overrides})
    else:
        base = load_config_file(args.config) if args.config else {}
        cfg = config_from_args(args, base)
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
        run_dir = Path(args.run_dir or f"runs/ppo-{cfg.num_players}p-{stamp}-s{cfg.seed}")
        if (run_dir / "checkpoint.pt").exists():
            parser.error(f"{run_dir} already holds a run; use --resume {run_dir} or another --run-dir")
    print(f"run folder: {run_dir}", file=sys.stderr)
    result = train(cfg, run_dir, resume=bool(args.resume), progress=not args.no_progress)
    print(json.dumps({k: result[k] for k in ("update", "decisions", "samples", "hands", "wall_s")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
