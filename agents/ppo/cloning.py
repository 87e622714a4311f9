"""Learning from another agent: behaviour cloning before PPO, and the teacher term during it.

Both read the same kind of data, an agent's choice in a position the
collector reached: cloning plays ``cfg.bc_hands`` hands with the
demonstrator at every seat and fits the network to its actions (which
skips the phase where a random policy bids Blind Nil half the time); the
teacher term (``cfg.teacher_coef > 0``) labels the learner's own positions
with the teacher's choice (DAgger style) and adds the NLL of that choice to
the PPO loss.
"""

from __future__ import annotations

import numpy as np
import torch

from .buffer import Batch, RolloutBuffer
from .config import PPOConfig
from .model import ActorCritic, masked_log_probs
from .rollout import Collector, Key

FIT_FRACTION = 0.9  # of the cloning samples fitted; the last 10% (whole hands) are held out to score the fit


def teacher_name(cfg: PPOConfig) -> str | None:
    """The registry agent that labels the learner's decisions during PPO (None: no teacher term)."""
    return (cfg.teacher_agent or cfg.heuristic_agent) if cfg.teacher_coef > 0 else None


def imitation_loss(log_probs: torch.Tensor, teacher_actions: torch.Tensor, coef: float) -> torch.Tensor | float:
    """The teacher term of the PPO loss: ``coef`` times the mean NLL of the teacher's choice over the labelled
    rows (``teacher_actions >= 0``); 0 when ``coef`` is 0 or no row is labelled."""
    if coef <= 0:
        return 0.0
    labelled = teacher_actions >= 0
    if not labelled.any():
        return 0.0
    teacher_nll = -log_probs[labelled].gather(1, teacher_actions[labelled].unsqueeze(1)).mean()
    return coef * teacher_nll


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


def behaviour_clone(cfg: PPOConfig, model: ActorCritic, collector: Collector, rng: np.random.Generator,
                    generator: torch.Generator, progress: bool = True) -> dict[str, float]:
    """Supervised pre-training on ``cfg.bc_hands`` hands the demonstrator (``cfg.bc_agent``, by default
    the heuristic) plays at every seat.

    The policy head learns the demonstrator's action (cross-entropy on the
    masked logits); the value head learns the hand's reward (Monte-Carlo:
    GAE with gamma = lambda = 1 and zero values gives the return), both on
    the first ``FIT_FRACTION`` of the samples; the rest scores the fit.
    """
    data = demonstrations(cfg, model, collector, rng, generator, progress)
    split = int(len(data) * FIT_FRACTION)
    fit(cfg, model, data, split, generator, progress)
    return {"bc_samples": len(data), **heldout_scores(model, data, split)}


def demonstrations(cfg: PPOConfig, model: ActorCritic, collector: Collector, rng: np.random.Generator,
                   generator: torch.Generator, progress: bool) -> Batch:
    """Every decision of the demonstrator in ``cfg.bc_hands`` hands it plays against itself, in hand order."""
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
    return buffer.batch()


def fit(cfg: PPOConfig, model: ActorCritic, data: Batch, split: int, generator: torch.Generator,
        progress: bool) -> None:
    """``cfg.bc_epochs`` passes of Adam over the first ``split`` rows: action NLL plus ``vf_coef`` times the
    value loss."""
    from tqdm import tqdm

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


@torch.no_grad()
def heldout_scores(model: ActorCritic, data: Batch, split: int) -> dict[str, float]:
    """Action NLL, greedy accuracy and value loss on the rows from ``split`` on (not fitted)."""
    logits, values = model(data.obs[split:])
    log_probs = masked_log_probs(logits, data.masks[split:])
    return {"bc_heldout_nll": -log_probs.gather(1, data.actions[split:].unsqueeze(1)).mean().item(),
            "bc_heldout_accuracy": (log_probs.argmax(1) == data.actions[split:]).float().mean().item(),
            "bc_heldout_value_loss": (0.5 * (values - data.returns[split:]) ** 2).mean().item()}
