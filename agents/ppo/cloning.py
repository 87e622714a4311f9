"""Learning from another agent: behaviour cloning before PPO, and the teacher term during it.

Both read the same kind of data, the teacher's choice in a position the
collector reached: cloning plays ``cfg.bc_hands`` hands with the teacher at
every seat (dealt at game scores as PPO's are, so that its score-dependent
bids are in the data) and fits the network to its actions, which skips the
phase where a random policy bids Blind Nil half the time; the teacher term
(``cfg.teacher_coef > 0``) labels the learner's own positions with the
teacher's choice (DAgger style) and adds the NLL of that choice to the PPO
loss, as an optional extra loss.

Cloning resumes after a kill: the checkpoint holds the generator state from
before the teacher's games, which are played again identically, and the
network, optimizer and shuffling state after the last finished epoch.
"""

from __future__ import annotations

import time

import numpy as np
import torch

from .buffer import VALUE_CHUNK, Batch, RolloutBuffer
from .collect import Collector, MixedCollector
from .config import PPOConfig
from .model import ActorCritic, Rows, bf16_autocast, compute_dtype, masked_log_probs, torch_threads
from .plans import Plan, draw_rules
from .run_folder import Clock, RunFolder, TrainingState, say
from .score_context import draw_start

FIT_FRACTION = 0.9  # of the cloning samples fitted; the last 10% (the last hands played) score the fit
BATCH_SIZE = 512
ROWS_PER_HAND = 80  # at most, either variant: storage reserved for the teacher's games (only rows written cost)


def teacher_name(cfg: PPOConfig) -> str | None:
    """The registry agent that labels the learner's decisions during PPO (None: no teacher term)."""
    return cfg.teacher if cfg.teacher_coef > 0 else None


def imitation_loss(log_probs: torch.Tensor, teacher_actions: torch.Tensor, coef: float) -> torch.Tensor | float:
    """The teacher term of the PPO loss: ``coef`` times the mean NLL of the teacher's choice over the labelled
    rows (``teacher_actions >= 0``); 0 when ``coef`` is 0 or no row is labelled."""
    if coef <= 0:
        return 0.0
    labelled = teacher_actions >= 0
    if not labelled.any():
        return 0.0
    return -coef * log_probs[labelled].gather(1, teacher_actions[labelled].unsqueeze(1)).mean()


@torch.no_grad()
def teacher_fit(model: ActorCritic, batch: Batch, rows: Rows | None = None) -> dict[str, float]:
    """How close the updated policy is to the teacher on the labelled rows: mean NLL and greedy agreement
    (``rows``: the batch's inputs as ``model.rows`` gave them, which the pass reads in a third of the time)."""
    labelled = batch.teacher_actions >= 0
    if not labelled.any():
        return {}
    logits = model.logits(batch.obs[labelled].float()) if rows is None else model.logits_rows(rows[labelled])
    log_probs = masked_log_probs(logits, batch.masks[labelled])
    teacher = batch.teacher_actions[labelled]
    return {"teacher_nll": -log_probs.gather(1, teacher.unsqueeze(1)).mean().item(),
            "teacher_agreement": (log_probs.argmax(1) == teacher).float().mean().item()}


def behaviour_clone(cfg: PPOConfig, state: TrainingState, collector: Collector | MixedCollector, run: RunFolder,
                    clock: Clock, progress: bool) -> dict | None:
    """Supervised pre-training on ``cfg.bc_hands`` hands the teacher plays at every seat.

    The policy head learns the teacher's action (cross-entropy on the
    masked logits); the value head learns the hand's reward (Monte-Carlo:
    GAE with gamma = lambda = 1 and zero values gives the return), both on
    the first ``FIT_FRACTION`` of the samples; the rest scores the fit.
    Returns the held-out scores, or None when the budget ran out first (the
    checkpoint then resumes here).
    """
    if not state.clone:
        state.clone = {"rng": state.rng.bit_generator.state, "epochs_done": 0, "optimizer": None}
        run.save(state, cfg)
    state.rng.bit_generator.state = state.clone["rng"]  # the same games as before a kill
    data = demonstrations(cfg, collector, state.rng, clock, progress)
    if data is None:
        return None
    split = int(len(data) * FIT_FRACTION)
    optimizer = torch.optim.Adam(state.model.parameters(), lr=cfg.bc_learning_rate)
    if state.clone["optimizer"] is not None:
        optimizer.load_state_dict(state.clone["optimizer"])
    bar = _bar(progress, cfg.bc_epochs, state.clone["epochs_done"], "cloning epochs")
    while state.clone["epochs_done"] < cfg.bc_epochs:
        if clock.out_of_time():
            bar.close()
            return None
        began = time.perf_counter()
        with torch_threads(cfg.torch_threads):  # as PPO's update: its matrix products are most of an epoch
            nll = fit_epoch(cfg, state.model, optimizer, data, split, state.generator)
        state.clone.update(epochs_done=state.clone["epochs_done"] + 1, optimizer=optimizer.state_dict())
        run.save(state, cfg)
        bar.update(1)
        if not progress:
            say(f"clone: epoch {state.clone['epochs_done']}/{cfg.bc_epochs}, action NLL {nll:.3f} "
                f"({time.perf_counter() - began:.0f} s)")
    bar.close()
    return {"bc_samples": len(data), "bc_wall_s": clock.tick(), **heldout_scores(state.model, data, split)}


def demonstrations(cfg: PPOConfig, collector: Collector | MixedCollector, rng: np.random.Generator, clock: Clock,
                   progress: bool) -> Batch | None:
    """Every decision of the teacher in ``cfg.bc_hands`` hands it plays against itself, in hand order (None
    if the budget ran out first)."""
    teacher = ("agent", cfg.teacher)
    buffer = RolloutBuffer(gamma=1.0, lam=1.0)
    buffer.reserve(cfg.bc_hands * ROWS_PER_HAND)
    game = cfg.game_config()
    bar = _bar(progress, cfg.bc_hands, 0, "teacher's games")
    began, done = time.perf_counter(), 0
    while done < cfg.bc_hands:
        if clock.out_of_time():
            bar.close()
            return None
        k = min(collector.num_envs, cfg.bc_hands - done)
        plans = [Plan((teacher,) * cfg.num_players, draw_start(rng, game, cfg.score_context), "teacher",
                      draw_rules(cfg, rng)) for _ in range(k)]
        collector.collect(plans, rng, None, [], torch.Generator(), buffer, record=frozenset({teacher}))
        done += k
        bar.update(k)
    bar.close()
    say(f"clone: {done} teacher hands played, {len(buffer)} decisions to fit ({time.perf_counter() - began:.0f} s)")
    return buffer.batch()


def fit_epoch(cfg: PPOConfig, model: ActorCritic, optimizer: torch.optim.Optimizer, data: Batch, split: int,
              generator: torch.Generator) -> float:
    """One pass of Adam over the first ``split`` rows: action NLL plus ``vf_coef`` times the value loss.
    Returns the last minibatch's NLL."""
    model.train()
    order, dtype = torch.randperm(split, generator=generator), compute_dtype(cfg.bf16)
    for idx in torch.split(order, BATCH_SIZE):
        with bf16_autocast(cfg.bf16):
            logits, values = model(data.obs[idx].to(dtype))
        log_probs = masked_log_probs(logits.float(), data.masks[idx])
        nll = -log_probs.gather(1, data.actions[idx].unsqueeze(1)).mean()
        loss = nll + cfg.vf_coef * 0.5 * ((values.float() - data.returns[idx]) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return nll.item()


@torch.no_grad()
def heldout_scores(model: ActorCritic, data: Batch, split: int) -> dict[str, float]:
    """Action NLL, greedy accuracy and value loss on the rows from ``split`` on (not fitted), in chunks."""
    nll = correct = v_loss = 0.0
    for start in range(split, len(data), VALUE_CHUNK):
        rows = slice(start, min(start + VALUE_CHUNK, len(data)))
        logits, values = model(data.obs[rows].float())
        log_probs = masked_log_probs(logits, data.masks[rows])
        nll -= log_probs.gather(1, data.actions[rows].unsqueeze(1)).sum().item()
        correct += (log_probs.argmax(1) == data.actions[rows]).sum().item()
        v_loss += (0.5 * (values - data.returns[rows]) ** 2).sum().item()
    n = max(len(data) - split, 1)
    return {"bc_heldout_nll": nll / n, "bc_heldout_accuracy": correct / n, "bc_heldout_value_loss": v_loss / n}


def _bar(progress: bool, total: int, initial: int, desc: str):
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, desc=desc, disable=not progress, dynamic_ncols=True, mininterval=2.0)
