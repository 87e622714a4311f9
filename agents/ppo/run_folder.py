"""A training run's folder: its checkpoint (and resume from it, in any phase), provenance, logs, the
budget and the learning curve.

``config.json`` (the run's configuration), ``run.json`` (provenance: seed,
commit, command, versions, one entry per resume, cloning scores),
``checkpoint.pt`` (everything needed to continue bit for bit, written
atomically), ``policy.pt`` (the latest policy alone), ``policies/`` (kept
copies), ``metrics.csv`` / ``eval.csv`` and the TensorBoard events (rows past
the checkpoint are dropped on resume), ``learning_curve.png``.
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
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import torch

from spades_env.scoring import POINTS_PER_REWARD

from .config import PPOConfig, config_from_args, load_config_file
from .model import ActorCritic, atomic_save, load_policy, policy_state, save_policy


def fresh_counters() -> dict:
    """The run's counters (``ppo_start_s``: the run's wall time when PPO began, for the time-based schedule)."""
    return {"update": 0, "decisions": 0, "samples": 0, "hands": 0, "wall_s": 0.0, "ppo_start_s": 0.0}


@dataclass
class TrainingState:
    """What a checkpoint holds: the phase ("clone" or "ppo") and the cloning's progress, the network and its
    optimizer, the pool of past policies, the counters and every RNG (the network's sampling and the
    update's shuffles draw from ``generator``, the plans and deals from ``rng``)."""

    model: ActorCritic
    optimizer: torch.optim.Optimizer
    rng: np.random.Generator
    generator: torch.Generator
    phase: str = "ppo"
    clone: dict = field(default_factory=dict)  # cloning.behaviour_clone's progress while phase == "clone"
    pool: list[dict] = field(default_factory=list)  # state dicts of past policies, oldest first
    counters: dict = field(default_factory=fresh_counters)  # update, decisions, samples, hands, wall_s
    pool_nets: list[ActorCritic] = field(default_factory=list)  # the pool as networks (not saved: rebuilt)

    @classmethod
    def fresh(cls, cfg: PPOConfig) -> TrainingState:
        """A new network (initialised from ``cfg.seed``, or ``cfg.init_policy``'s weights), its optimizer and
        RNGs seeded by ``cfg.seed``; it starts by cloning when ``cfg.bc_hands`` > 0."""
        from spades_env.observations import observation_size

        critic_size = observation_size(cfg.num_players, "oracle") if cfg.privileged_critic else None
        torch.manual_seed(cfg.seed)
        model = ActorCritic(observation_size(cfg.num_players), cfg.hidden_sizes, critic_size, cfg.card_features)
        if cfg.init_policy:
            start, data = load_policy(cfg.init_policy)  # actor-only files give the actor; the critic stays fresh
            model.load_state_dict(start.state_dict(), strict=not data.get("actor_only"))
        optimizer = torch.optim.Adam(model.parameters(), lr=cfg.learning_rate, eps=1e-5)
        return cls(model, optimizer, np.random.default_rng(cfg.seed), torch.Generator().manual_seed(cfg.seed),
                   phase="clone" if cfg.bc_hands > 0 else "ppo")

    def add_snapshot(self, pool_size: int) -> None:
        """The current policy joins the pool; only the ``pool_size`` most recent stay."""
        self.pool.append(copy.deepcopy(self.model.state_dict()))
        self.pool_nets.append(self._net(self.pool[-1]))
        del self.pool[:-pool_size], self.pool_nets[:-pool_size]

    def save(self, path: Path, cfg: PPOConfig) -> None:
        """Everything needed to continue bit for bit: weights, optimizer, pool, counters and every RNG state."""
        atomic_save({"policy": policy_state(self.model, cfg.num_players, {"update": self.counters["update"]}),
                     "optimizer": self.optimizer.state_dict(), "pool": self.pool, "state": dict(self.counters),
                     "phase": self.phase, "clone": self.clone,
                     "rng": self.rng.bit_generator.state, "torch_generator": self.generator.get_state(),
                     "torch_global": torch.get_rng_state(), "config": cfg.to_dict()}, path)

    def load(self, path: Path) -> None:
        """Continue from the checkpoint at ``path`` (written by :meth:`save`)."""
        ckpt = torch.load(path, map_location="cpu", weights_only=False)
        self.model.load_state_dict(ckpt["policy"]["state_dict"])
        self.optimizer.load_state_dict(ckpt["optimizer"])
        self.pool = ckpt["pool"]
        self.counters = {**fresh_counters(), **ckpt["state"]}
        self.phase, self.clone = ckpt.get("phase", "ppo"), ckpt.get("clone", {})
        self.rng.bit_generator.state = ckpt["rng"]
        self.generator.set_state(ckpt["torch_generator"])
        torch.set_rng_state(ckpt["torch_global"])
        self.pool_nets = [self._net(sd) for sd in self.pool]

    def _net(self, state_dict: dict) -> ActorCritic:
        net = ActorCritic(*self.model.shape)
        net.load_state_dict(state_dict)
        net.eval()
        return net


class RunFolder:
    """The files of one run (see the module docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self.checkpoint = self.path / "checkpoint.pt"
        self.policy = self.path / "policy.pt"
        self.info_path = self.path / "run.json"

    def begin(self, cfg: PPOConfig, resumed_at: int | None) -> dict:
        """Write ``config.json`` and ``run.json`` (a new run's provenance, or one more resume entry, at update
        ``resumed_at``); returns the provenance, for the caller to add to and :meth:`write_info`."""
        if resumed_at is None:
            info = {"seed": cfg.seed, "git_commit": git_commit(), "started": _now(), "command": sys.argv,
                    "python": platform.python_version(), "torch": torch.__version__, "host_cpus": os.cpu_count()}
        else:
            info = json.loads(self.info_path.read_text())
            info.setdefault("resumed", []).append({"at_update": resumed_at, "time": _now(),
                                                   "git_commit": git_commit()})
        (self.path / "config.json").write_text(json.dumps(cfg.to_dict(), indent=2) + "\n")
        self.write_info(info)
        return info

    def write_info(self, info: dict) -> None:
        self.info_path.write_text(json.dumps(info, indent=2) + "\n")

    def save(self, state: TrainingState, cfg: PPOConfig) -> None:
        """``policy.pt`` and ``checkpoint.pt`` at the current update."""
        save_policy(state.model, self.policy, cfg.num_players, _policy_meta(state))
        state.save(self.checkpoint, cfg)

    def keep_policy(self, state: TrainingState, cfg: PPOConfig) -> None:
        """A copy of the current policy in ``policies/``, named by its update."""
        save_policy(state.model, self.path / "policies" / f"update_{state.counters['update']:06d}.pt",
                    cfg.num_players, _policy_meta(state))


def _policy_meta(state: TrainingState) -> dict:
    return {"update": state.counters["update"], "decisions": state.counters["decisions"]}


class Clock:
    """The run's wall time across resumes (``counters["wall_s"]``, kept current) against ``max_minutes``."""

    CLOSING_S = 10.0  # kept back at the end (at most 5% of the budget): the curve, the worker, the logs close

    def __init__(self, counters: dict, max_minutes: float, started: float | None = None) -> None:
        """``started``: the ``time.perf_counter()`` this segment began at (default now), e.g. the command's
        start, so that setting up counts too."""
        self.counters = counters
        self.budget_s = max_minutes * 60
        self._segment_start = time.perf_counter() if started is None else started
        self._wall_before = counters["wall_s"]

    def tick(self) -> float:
        """Bring ``counters["wall_s"]`` up to now; returns it."""
        self.counters["wall_s"] = self._wall_before + time.perf_counter() - self._segment_start
        return self.counters["wall_s"]

    def out_of_time(self, reserve_s: float = 0.0) -> bool:
        """Whether the budget (if any) has less than ``reserve_s`` (and the closing time) left."""
        closing = min(self.CLOSING_S, 0.05 * self.budget_s)
        return self.budget_s > 0 and self.tick() + reserve_s + closing >= self.budget_s

    def schedule(self, update: int, total_updates: int) -> float:
        """The share of the PPO phase done, 0..1: of its updates or, with a budget, of the time it had when it
        began, whichever is further along (the learning rate anneals by it)."""
        done = update / max(total_updates, 1)
        if self.budget_s > 0:
            start = self.counters["ppo_start_s"]
            done = max(done, (self.tick() - start) / max(self.budget_s - start, 1e-9))
        return min(done, 1.0)


EVAL_S_PER_DEAL = 0.05  # a first guess of an evaluation's time, until one has been timed


def save_and_evaluate(cfg: PPOConfig, state: TrainingState, run: RunFolder, log: RunLog, evaluate_fn,
                      clock: Clock, timing: dict, final: bool) -> None:
    """The checkpoint every ``save_every`` updates, a kept policy every ``keep_policy_every``, and the
    evaluation every ``eval_every`` (each evaluated policy is saved first); all of them when ``final``. An
    evaluation that would not fit in the budget is left out."""
    update = state.counters["update"]
    eval_due = bool(cfg.eval_every and update % cfg.eval_every == 0) or final
    if eval_due or update % cfg.save_every == 0:
        run.save(state, cfg)
    if cfg.keep_policy_every and (update % cfg.keep_policy_every == 0 or final):
        run.keep_policy(state, cfg)
    if eval_due and evaluate_fn is not None and cfg.eval_deals > 0:
        if clock.out_of_time(timing["eval_s"] or EVAL_S_PER_DEAL * cfg.eval_deals):
            say(f"no evaluation at update {update}: it would not fit in the budget")
            return
        began = time.perf_counter()
        result = evaluate_fn(run.policy, cfg)
        timing["eval_s"] = time.perf_counter() - began
        log.log("eval", {**{k: state.counters[k] for k in ("update", "decisions", "wall_s")}, **result})
        say(f"eval at update {update} ({state.counters['wall_s'] / 60:.1f} min): "
            f"{result.get('points_per_deal', math.nan):+.1f} +- {result.get('ci95', math.nan):.1f} points/deal "
            f"vs {cfg.heuristic_agent} over {result.get('deals')} deals")


def say(message: str) -> None:
    """One log line on stderr (between progress bars when there are any)."""
    from tqdm import tqdm

    tqdm.write(message, file=sys.stderr)


def resumed_config(run_dir: Path, total_updates: int | None, max_minutes: float | None) -> PPOConfig:
    """The saved configuration of the run in ``run_dir``. Only the length of the run may change on resume:
    anything else would break "as if uninterrupted"."""
    saved = json.loads((run_dir / "config.json").read_text())
    overrides = {k: v for k, v in (("total_updates", total_updates), ("max_minutes", max_minutes)) if v is not None}
    return PPOConfig.from_dict({**saved, **overrides})


def config_and_folder(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[PPOConfig, Path]:
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


class RunLog:
    """The metrics CSVs and TensorBoard events of a run (resumable: rows past the checkpoint are dropped)."""

    def __init__(self, run_dir: Path, train_fields: list[str], eval_fields: list[str],
                 resume_update: int | None) -> None:
        from torch.utils.tensorboard import SummaryWriter

        self.run_dir = run_dir
        self.files = {"train": (run_dir / "metrics.csv", train_fields), "eval": (run_dir / "eval.csv", eval_fields)}
        for path, fields in self.files.values():
            rows = read_csv(path) if resume_update is not None else []
            kept = [r for r in rows if int(r["update"]) <= (resume_update or 0)]
            with open(path, "w", newline="") as fh:
                writer = csv.DictWriter(fh, fields)
                writer.writeheader()
                writer.writerows(kept)
        self.tb = SummaryWriter(str(run_dir), purge_step=None if resume_update is None else resume_update + 1)

    def log(self, kind: str, row: dict) -> None:
        """Append ``row`` to the ``kind`` ("train" or "eval") CSV; its finite numbers go to TensorBoard."""
        path, fields = self.files[kind]
        with open(path, "a", newline="") as fh:
            csv.DictWriter(fh, fields).writerow({k: row.get(k, "") for k in fields})
        for key, value in row.items():
            if key != "update" and isinstance(value, (int, float)) and math.isfinite(value):
                self.tb.add_scalar(f"{kind}/{key}", value, row["update"])
        self.tb.flush()

    def close(self) -> None:
        """Close the TensorBoard events and draw ``learning_curve.png``."""
        self.tb.close()
        plot_learning_curve(self.run_dir)


def read_csv(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def plot_learning_curve(run_dir: Path) -> Path | None:
    """``learning_curve.png``: evaluation points per deal (95% CI) and win rate vs ``heuristic_agent`` over training."""
    rows = [r for r in read_csv(run_dir / "eval.csv") if r["points_per_deal"] not in ("", None)]
    train = read_csv(run_dir / "metrics.csv")
    if not rows and not train:
        return None
    config = run_dir / "config.json"  # the opponent's name (spades exploit trains against any agent)
    opponent = json.loads(config.read_text()).get("heuristic_agent", "heuristic") if config.is_file() else "heuristic"
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    if train:
        x = np.array([float(r["decisions"]) for r in train]) / 1e6
        y = np.array([float(r["reward_vs_heuristic"]) * POINTS_PER_REWARD if r["reward_vs_heuristic"] else np.nan
                      for r in train])
        ok = ~np.isnan(y)
        if ok.sum() >= 2:
            window = max(1, min(20, ok.sum() // 5))
            smooth = np.convolve(y[ok], np.ones(window) / window, mode="valid")
            ax1.plot(x[ok][window - 1:], smooth, color="0.7",
                     label=f"training hands vs {opponent} ({window}-update mean)")
    if rows:
        x = np.array([float(r["decisions"]) for r in rows]) / 1e6
        ppd = np.array([float(r["points_per_deal"]) for r in rows])
        ci = np.array([float(r["ci95"]) for r in rows])
        ax1.errorbar(x, ppd, yerr=ci, marker="o", capsize=3, label="duplicate evaluation (95% CI)")
        ax2.plot(x, np.array([float(r["win_rate"]) for r in rows]), marker="o")
    ax1.axhline(0, color="k", lw=0.8)
    ax1.set(xlabel="environment decisions (millions)", ylabel=f"points per deal vs {opponent}",
            title=f"PPO points lead over {opponent}")
    if ax1.get_legend_handles_labels()[0]:
        ax1.legend(fontsize=8)
    ax2.axhline(0.5, color="k", lw=0.8)
    ax2.set(xlabel="environment decisions (millions)", ylabel="win rate", title=f"deals won vs {opponent}")
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


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
