"""Paired play-outs of the Nil decision and a model of what a Nil is worth (``python -m ...experiments.bid_worth``).

A network trained by PPO learns its bids from one noisy hand result at a time, its Nil with the rest. Luo et
al.'s Spades agent decides the bid with a separate network; this script gives that decision labels of its own.
Each label is one deal played out twice by the policy (every seat, greedy) on the batched engine, the same
cards, dealer and game score: once with the probed seat bidding Nil, once with its most probable other bid.
Everything before the bid is the same in both games and the policy is deterministic, so the difference of the
two results is the Nil's worth on that deal, with nothing else varying. The probed seat is drawn among the four
bidders; a pair counts where Nil and another bid are both legal there.

``--collect`` adds chunks of labels to ``--out`` (resumable: each chunk is a file, seeded by its index).
``--fit`` fits a small network that reads the seat's observation at the bid and predicts the Nil's worth
(the result's reward units: a hand's points / 100 from 0-0, the scaled change in win chance at a game score,
as the trainer rewards it) and reports, on held-out labels, what each decision rule would have scored: the
policy's own choice, always Nil, never Nil, and Nil where the model's prediction exceeds a threshold.
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from spades_env import actions as A
from spades_env.agents.ppo.model import SHIPPED, load_policy, masked_log_probs
from spades_env.agents.ppo.score_context import draw_start, hand_rewards
from spades_env.game import SpadesConfig
from spades_env.vector import VectorSpades

NIL = A.bid_action(0)
BIDS = slice(A.bid_action(0), A.bid_action(13) + 1)
ARMS = ("nil", "other", "lower", "higher")  # the probed bid: Nil, the policy's best other, one under it, one over


def arm_actions(other: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each arm's bid for rows whose best non-Nil bid is ``other`` (arms x rows), and whether it is a bid of its
    own (one under a bid of 1 would be Nil, one over 13 none, and the rules may close some bids)."""
    bids = np.stack([np.full_like(other, NIL), other, other - 1, other + 1])
    legal = (bids >= NIL) & (bids <= A.bid_action(13))
    legal &= np.take_along_axis(mask.T, np.clip(bids, 0, A.NUM_ACTIONS - 1), 0)
    legal[2] &= other - 1 > NIL
    return np.where(legal, bids, other), legal


def collect_chunk(policy_path: Path, pairs: int, seed: int, rules: str, share: float) -> dict[str, np.ndarray]:
    """``pairs`` deals, each played out once for each of the probed seat's :data:`ARMS` (see the module)."""
    model, _ = load_policy(policy_path)
    model.eval()
    rng = np.random.default_rng(seed)
    config = SpadesConfig.from_preset(rules)
    arms = len(ARMS)
    env = VectorSpades(arms * pairs, rules=rules, seed=seed)
    deals = np.stack([rng.permutation(52).reshape(4, 13) for _ in range(pairs)])
    dealers = rng.integers(4, size=pairs)
    starts = [draw_start(rng, config, share) for _ in range(pairs)]
    probe = (dealers + 1 + rng.integers(4, size=pairs)) % 4  # the probed seat: any of the four bidders
    step = env.reset(deals=np.tile(deals, (arms, 1, 1)), dealers=np.tile(dealers, arms),
                     scores=[s.scores for s in starts] * arms, bags=[s.bags for s in starts] * arms)
    obs = np.zeros((pairs, env.observation_size), np.float32)
    chose_nil = np.zeros(pairs, bool)
    probed = np.zeros(pairs, bool)
    other_bid = np.zeros(pairs, np.int64)
    result = np.full((pairs, arms), np.nan, np.float32)  # reward of the probed side, arm by arm
    points = np.full((pairs, arms), np.nan, np.float32)  # its hand points minus the other side's
    done = np.zeros(arms * pairs, bool)
    played = np.zeros((pairs, arms), bool)  # the arm's own bid was legal
    first = np.arange(pairs)
    while not done.all():
        o = torch.as_tensor(np.asarray(step.obs, np.float32))
        mask = np.asarray(step.mask, bool)
        with torch.no_grad():
            log_probs = masked_log_probs(model.logits(o), torch.as_tensor(mask)).numpy()
        actions = log_probs.argmax(1)
        player = np.asarray(step.player)
        here = (~probed & (player[:pairs] == probe) & mask[:pairs, NIL]
                & (mask[:pairs, BIDS].sum(1) >= 2) & ~done[:pairs])
        if here.any():
            rows = first[here]
            obs[rows] = step.obs[rows]
            chose_nil[rows] = actions[rows] == NIL
            other = log_probs[rows].copy()
            other[:, NIL] = -np.inf
            other_bid[rows] = other.argmax(1)
            bids, legal = arm_actions(other_bid[rows], mask[rows])
            for arm in range(arms):
                actions[rows + arm * pairs] = bids[arm]
            played[rows] = legal.T
            probed[rows] = True
        step = env.step(actions)
        ended = np.flatnonzero(np.asarray(step.hand_done) & ~done)
        for b in ended:
            i, arm = b % pairs, b // pairs
            record = env.hand_record(int(b))
            side = probe[i] % 2
            result[i, arm] = hand_rewards(record, starts[i], [side], config)[0]
            points[i, arm] = record["points"][side] - record["points"][1 - side]
        done[ended] = True
    result[~played] = points[~played] = np.nan
    keep = probed
    return {"obs": obs[keep], "chose_nil": chose_nil[keep], "result": result[keep], "points": points[keep],
            "other_bid": other_bid[keep], "deal": deals[keep], "dealer": dealers[keep], "probe": probe[keep],
            "scores": np.array([s.scores for s in starts])[keep], "bags": np.array([s.bags for s in starts])[keep]}


def collect(out: Path, chunks: int, pairs: int, seed: int, rules: str, share: float, policy: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for k in range(chunks):
        path = out / f"chunk_{k:04d}.npz"
        if path.exists():
            continue
        data = collect_chunk(policy, pairs, seed * 100_003 + k, rules, share)
        np.savez_compressed(path.with_suffix(".tmp.npz"), **data)
        path.with_suffix(".tmp.npz").rename(path)
        worth = np.nanmean(data["result"] - data["result"][:, 1:2], axis=0)
        print(f"{path.name}: {len(data['result'])} labels, worth over the policy's other bid "
              + ", ".join(f"{a} {w:+.3f}" for a, w in zip(ARMS, worth)), flush=True)


def load(out: Path) -> dict[str, np.ndarray]:
    parts = [dict(np.load(p)) for p in sorted(out.rglob("chunk_*.npz")) if ".tmp" not in p.name]
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


class BidWorth(nn.Module):
    """What each arm but ``other`` is worth over it (reward units), from the seat's observation at its bid."""

    def __init__(self, obs_size: int, hidden: int = 128) -> None:
        super().__init__()
        self.obs_size = obs_size
        self.net = nn.Sequential(nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, len(ARMS) - 1))

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.net(obs)


def targets(data: dict[str, np.ndarray]) -> np.ndarray:
    """Each arm's result minus the ``other`` arm's (NaN where the arm's bid was not its own)."""
    return np.delete(data["result"] - data["result"][:, 1:2], 1, axis=1)


def fit(data: dict[str, np.ndarray], seed: int, epochs: int, held_out: float) -> tuple[BidWorth, dict]:
    """Fit on all but the last ``held_out`` share of the labels, the epoch of the lowest held-out loss kept."""
    torch.manual_seed(seed)
    x = torch.as_tensor(data["obs"])
    y = torch.as_tensor(targets(data))
    known = ~torch.isnan(y)
    y = torch.nan_to_num(y)
    n_fit = int(len(y) * (1 - held_out))
    model = BidWorth(x.shape[1])
    optimiser = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)

    def loss_of(rows) -> torch.Tensor:
        losses = nn.functional.huber_loss(model(x[rows]), y[rows], delta=2.0, reduction="none")
        return (losses * known[rows]).sum() / known[rows].sum()

    best, best_state, history = math.inf, None, []
    for _ in range(epochs):
        order = torch.randperm(n_fit)
        model.train()
        for start in range(0, n_fit, 512):
            loss = loss_of(order[start:start + 512])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        model.eval()
        with torch.no_grad():
            val = loss_of(torch.arange(n_fit, len(y))).item()
        history.append(val)
        if val < best:
            best, best_state = val, {k: v.clone() for k, v in model.state_dict().items()}
    model.load_state_dict(best_state)
    return model, {"held_out_loss": history, "n_fit": n_fit, "n_held_out": len(y) - n_fit}


@dataclass(frozen=True)
class HeldOut:
    """The held-out deals where every arm was played: their results, the model's predictions (``other``'s worth over
    itself 0), and the arm the policy chose (Nil, or its other bid)."""

    rows: np.ndarray
    result: np.ndarray
    points: np.ndarray
    predicted: np.ndarray
    own: np.ndarray

    @classmethod
    def of(cls, model: BidWorth, data: dict[str, np.ndarray], n_fit: int) -> HeldOut:
        rows = np.flatnonzero(~np.isnan(data["result"]).any(1))
        rows = rows[rows >= n_fit]
        with torch.no_grad():
            worth = model(torch.as_tensor(data["obs"][rows])).numpy()
        return cls(rows, data["result"][rows], data["points"][rows], np.insert(worth, 1, 0.0, axis=1),
                   np.where(data["chose_nil"][rows], 0, 1))

    def over_own(self, values: np.ndarray, choice: np.ndarray, digits: int, where: np.ndarray | None = None) -> str:
        """The mean of ``values`` under ``choice`` minus under the policy's own, [95% CI], on the deals ``where``."""
        pick = np.arange(len(self.rows)) if where is None else np.flatnonzero(where)
        diff = values[pick, choice[pick]] - values[pick, self.own[pick]]
        half = 1.96 * diff.std() / math.sqrt(max(len(diff), 1))
        return f"{diff.mean():+.{digits}f} [{diff.mean() - half:+.{digits}f}, {diff.mean() + half:+.{digits}f}]"


def rules_scored(held: HeldOut) -> list[tuple[str, str, str, str]]:
    """Each decision rule's mean result over the policy's own choice [95% CI] (reward units; points), and how
    often it picks each arm."""
    predicted, own = held.predicted, held.own
    choices = {"the policy's own choice": own, "never Nil": np.ones_like(own), "always Nil": np.zeros_like(own),
               "perfect (hindsight)": held.result.argmax(1)}
    for t in (0.0, 0.2):
        choices[f"model: Nil or other, margin {t:.1f}"] = np.where(predicted[:, 0] > t, 0, 1)
        choices[f"model: any arm, margin {t:.1f}"] = np.where(predicted.max(1) > t, predicted.argmax(1), 1)
    choices["model veto of the policy's Nil below -0.3"] = np.where((own == 0) & (predicted[:, 0] > -0.3), 0, 1)
    return [(name, held.over_own(held.result, c, 4), held.over_own(held.points, c, 2),
             " ".join(f"{a} {np.mean(c == k):.1%}" for k, a in enumerate(ARMS))) for name, c in choices.items()]


def by_score(held: HeldOut, data: dict[str, np.ndarray]) -> list[tuple[str, int, dict[str, str]]]:
    """:func:`rules_scored`'s comparison split by the score the deal was dealt at (the probed side's lead), reward
    units over the network's own choice [95% CI]: never Nil, one less or one more than its other bid (its Nil kept),
    the model's best arm, hindsight."""
    side = data["probe"][held.rows] % 2
    lead = data["scores"][held.rows, side] - data["scores"][held.rows, 1 - side]
    own, predicted = held.own, held.predicted
    rules = {"never Nil": np.ones_like(own), "one less": np.where(own == 0, 0, 2), "one more": np.where(own == 0, 0, 3),
             "the model": np.where(predicted.max(1) > 0, predicted.argmax(1), 1), "hindsight": held.result.argmax(1)}
    return [(name, int(where.sum()), {rule: held.over_own(held.result, choice, 3, where)
                                      for rule, choice in rules.items()})
            for name, where in (("the other side 100 or more behind", lead >= 100),
                                ("mine 100 or more behind", lead <= -100), ("neither", np.abs(lead) < 100))]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=Path("runs/bid_worth"))
    p.add_argument("--collect", type=int, default=0, metavar="CHUNKS", help="collect this many chunks in all")
    p.add_argument("--pairs", type=int, default=1024, help="deals a chunk")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rules", default="house")
    p.add_argument("--share", type=float, default=0.5, help="share of deals at a random game score")
    p.add_argument("--policy", type=Path, default=SHIPPED[4])
    p.add_argument("--fit", action="store_true")
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--held-out", type=float, default=0.2)
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    if args.collect:
        collect(args.out, args.collect, args.pairs, args.seed, args.rules, args.share, args.policy)
    if args.fit:
        data = load(args.out)
        model, info = fit(data, args.seed, args.epochs, args.held_out)
        print(f"{len(data['result'])} labels; held-out loss by epoch: "
              + " ".join(f"{v:.3f}" for v in info["held_out_loss"]))
        print("held-out deals with every arm played; each rule over the policy's own choice [95% CI]:")
        held = HeldOut.of(model, data, info["n_fit"])
        for name, reward, pts, rates in rules_scored(held):
            print(f"  {name:42} reward {reward:28} points {pts:24} {rates}")
        print("the same deals by the score they were dealt at (reward units over the policy's own choice):")
        for name, count, cells in by_score(held, data):
            print(f"  {name} ({count} deals): " + "; ".join(f"{rule} {cell}" for rule, cell in cells.items()))
        torch.save({"state_dict": model.state_dict(), "obs_size": model.obs_size, "info": info},
                   args.out / "bid_worth.pt")
        (args.out / "fit.json").write_text(json.dumps(info))


if __name__ == "__main__":
    main()
