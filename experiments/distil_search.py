"""Distil the ``search`` agent into the PPO network: search labels on the network's own positions, then a fit.

Expert iteration in its simplest form (DAgger): the network plays hands as
the trainer deals them (one side against the heuristic, half the hands at
random game scores, under the training's house rule), and the ``search``
agent labels every one of the network's decisions with the move it would
make there; the network is then fitted to those labels (cross-entropy on
the masked logits), starting from its own weights. A search label costs
about 50 ms against a network's fraction of a millisecond, so the labels
are collected once, in chunks, and kept::

    nohup python -m spades_env.experiments.distil_search --out runs/distil --minutes 45 > distil.log 2>&1 &
    python -m spades_env.experiments.distil_search --out runs/distil --fit      # then fit what was collected

Collection: chunks of ``--chunk-hands`` hands, each from its own seed
(``--seed`` and the chunk's number), played by the collector's two
processes; each finished chunk is a file in ``OUT/labels/``, so a killed
run resumes at the first missing chunk and loses at most one chunk.
``--minutes`` bounds the collection (the chunk under way finishes).

Fit: ``--epochs`` passes of Adam over 90% of the labels (the first chunks),
the held-out last 10% scoring each epoch (label NLL and agreement); the
epoch of the lowest held-out NLL is written to ``OUT/policy.pt`` (an
actor-only policy file: ``spades tournament --agents ppo:OUT/policy.pt``).
No game is played to choose it: strength is measured afterwards at seeds
that played no part in it (docs/training.md). The evaluation seeds, fixed
before the first labelled hand (``spades tournament --agents ppo:OUT/policy.pt
B``): against the heuristic under the house rule (``--blind-nil-min-deficit
100``) 2,000 single-hand deals at seed 90250 and 400 games to 500 at 90251;
under the game's rules 90252 and 90253; against the shipped ``ppo``, house
rule, 2,000 single-hand deals at 90254, and 400 games to 500 under the game's
rules at 90255. Choosing among candidates (rounds of labels, the shipped
network) uses other deals: 1,000 single-hand deals against the heuristic,
house rule, at seed 90260.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
import types
from pathlib import Path

import numpy as np
import torch

from spades_env import actions as A
from spades_env.agents.ppo.buffer import RolloutBuffer
from spades_env.agents.ppo.cloning import imitation_loss, teacher_fit
from spades_env.agents.ppo.collect import Collector
from spades_env.agents.ppo.model import SHIPPED, load_policy, masked_log_probs, save_policy
from spades_env.agents.ppo.plans import LEARNER, Plan
from spades_env.agents.ppo.score_context import draw_start
from spades_env.agents.registry import agent_spec_argument
from spades_env.observations import BID_CODES, layout

HEURISTIC = ("agent", "heuristic")
HELD_OUT = 0.1
BATCH_SIZE = 512


def collect(out: Path, init: str, teacher: str, seed: int, chunk_hands: int, minutes: float, chunks: int,
            score_context: float, rules: dict, num_players: int = 4, bids_and_cards: bool = False) -> None:
    """Label chunks until ``chunks`` are on disk or ``minutes`` have passed (0: no time limit).

    ``bids_and_cards``: keep only the labels of bids and card plays (the decisions the two-player search
    agent searches; its draw and Blind Nil choices are the heuristic's rules, which the network should not
    be pulled towards)."""
    model, _ = load_policy(init)
    labels = out / "labels"
    labels.mkdir(parents=True, exist_ok=True)
    collector = Collector(num_players, chunk_hands, "default", teacher=teacher, teacher_phases="all", teacher_share=1.0,
                          workers=1, rules=rules)
    config, began = collector.games.config, time.perf_counter()
    try:
        for index in range(chunks):
            path = labels / f"chunk-{index:05d}.pt"
            if path.exists():
                continue
            if minutes and time.perf_counter() - began > 60 * minutes:
                print(f"collect: {minutes} minutes spent; run again to go on", flush=True)
                return
            rng = np.random.default_rng([seed, index])
            plans = [Plan((LEARNER, HEURISTIC) * (num_players // 2) if (index + h) % 2 == 0
                          else (HEURISTIC, LEARNER) * (num_players // 2),
                          draw_start(rng, config, score_context), "heuristic") for h in range(chunk_hands)]
            buffer = RolloutBuffer(1.0, 1.0)
            start = time.perf_counter()
            collector.collect(plans, rng, model, [], torch.Generator().manual_seed(seed + index), buffer)
            rows = buffer.rows()
            keep = rows["teacher_actions"] >= 0
            if bids_and_cards:  # legal actions only among the cards and bids
                keep &= ~rows["masks"][:, A.BLIND_NIL:].any(axis=1)
            chunk = {name: torch.from_numpy(rows[name][keep]) for name in ("obs", "masks", "actions",
                                                                               "teacher_actions")}
            torch.save(chunk, path.with_suffix(".tmp"))
            path.with_suffix(".tmp").replace(path)
            agree = float((chunk["actions"] == chunk["teacher_actions"]).float().mean())
            print(f"collect: chunk {index}: {chunk_hands} hands, {int(keep.sum())} labels, the network agreed "
                  f"with {agree:.1%}, {time.perf_counter() - start:.0f} s", flush=True)
    finally:
        collector.close()


def nil_standing(obs: torch.Tensor, seats: tuple[int, ...] = (0, 1, 2, 3)) -> torch.Tensor:
    """Which rows (four-player observations) have a Nil or Blind Nil standing: a seat bid it and has taken no trick.
    ``seats`` are relative to the observer (0 itself, 2 its partner). Fits tell these rows apart because the
    network's Nil play is what the search's labels have not taught it."""
    bids, tricks = layout(4)["bids"], layout(4)["tricks"]
    bid = obs[:, bids.start:bids.stop].reshape(-1, *bids.shape)  # per seat one-hot: not yet, 0..13, Blind Nil
    nil = (bid[:, :, 1] > 0) | (bid[:, :, BID_CODES - 1] > 0)  # a bid b is code b + 1: Nil 1, Blind Nil the last
    return (nil & (obs[:, tricks.start:tricks.stop] == 0))[:, list(seats)].any(1)


def load_labels(out: Path) -> dict[str, torch.Tensor]:
    paths = sorted((out / "labels").glob("chunk-*.pt"))
    if not paths:
        raise SystemExit(f"error: no label chunks in {out / 'labels'}; collect them first (without --fit)")
    chunks = [torch.load(p) for p in paths]
    return {name: torch.cat([c[name] for c in chunks]) for name in chunks[0]}


def heldout_fit(model, data: dict[str, torch.Tensor], rows: slice) -> tuple[float, float]:
    """Mean NLL of the label and greedy agreement with it over ``rows`` (the trainer's teacher metrics)."""
    held = types.SimpleNamespace(**{name: data[name][rows] for name in ("obs", "masks", "teacher_actions")})
    scores = teacher_fit(model, held)
    return scores["teacher_nll"], scores["teacher_agreement"]


def with_stage(meta: dict, stage: str) -> dict:
    """The network's provenance (``{"stages": [...]}``, each stage how it was made) with one more stage."""
    earlier = meta.get("provenance", {})
    stages = earlier.get("stages", []) if isinstance(earlier, dict) else list(earlier)
    return {"stages": [*stages, stage]}


def fit(out: Path, init: str, epochs: int, learning_rate: float, seed: int, num_players: int = 4) -> dict:
    """Fit the network to the labels; write the best held-out epoch to ``OUT/policy.pt``."""
    data = load_labels(out)
    n = len(data["actions"])
    split = int(n * (1 - HELD_OUT))
    model, policy = load_policy(init)
    generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
    held = slice(split, n)
    nll, agree = heldout_fit(model, data, held)
    history = [{"epoch": 0, "heldout_nll": nll, "heldout_agreement": agree}]
    print(f"fit: {n} labels ({split} fitted); before: held-out NLL {nll:.4f}, agreement {agree:.1%}", flush=True)
    chosen, best = history[0], copy.deepcopy(model.state_dict())
    for epoch in range(1, epochs + 1):
        model.train()
        for idx in torch.split(torch.randperm(split, generator=generator), BATCH_SIZE):
            log_probs = masked_log_probs(model.logits(data["obs"][idx].float()), data["masks"][idx])
            loss = imitation_loss(log_probs, data["teacher_actions"][idx], 1.0)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        nll, agree = heldout_fit(model, data, held)
        history.append({"epoch": epoch, "heldout_nll": nll, "heldout_agreement": agree})
        print(f"fit: epoch {epoch}: held-out NLL {nll:.4f}, agreement {agree:.1%}", flush=True)
        if nll < chosen["heldout_nll"]:
            chosen, best = history[-1], copy.deepcopy(model.state_dict())
    model.load_state_dict(best)
    collected = json.loads((out / "collect.json").read_text())["command"] if (out / "collect.json").exists() else "?"
    stage = (f"python -m spades_env.experiments.distil_search --num-players {num_players} --out {out} --fit "
             f"--epochs {epochs} --learning-rate {learning_rate} --seed {seed} (from {init}, on the {n:,} labels of "
             f"`{collected}`; epoch {chosen['epoch']} chosen by the held-out NLL); exported actor-only")
    save_policy(model, out / "policy.pt", num_players, {"provenance": with_stage(policy["meta"], stage)},
                actor_only=True)
    summary = {"labels": n, "fitted": split, "history": history, "chosen": chosen}
    (out / "fit.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"fit: wrote {out / 'policy.pt'} (epoch {chosen['epoch']})", flush=True)
    return summary


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="folder of the labels, the fit and the policy")
    parser.add_argument("--num-players", type=int, choices=(4, 2), default=4, help="the variant")
    parser.add_argument("--init", default=None, help="the network that plays and is fitted (default: the shipped one)")
    parser.add_argument("--teacher", default="search-v1", type=agent_spec_argument,
                        help="registry agent that labels the network's decisions")
    parser.add_argument("--seed", type=int, default=4242, help="seeds the deals (with each chunk's number)")
    parser.add_argument("--chunk-hands", type=int, default=64, help="hands per saved chunk")
    parser.add_argument("--chunks", type=int, default=1000, help="chunks to collect at most")
    parser.add_argument("--minutes", type=float, default=0.0, help="stop collecting after this long (0: never)")
    parser.add_argument("--score-context", type=float, default=0.5, help="share of hands dealt at random scores")
    parser.add_argument("--blind-nil-min-deficit", type=int, default=100,
                        help="the house rule the hands are played under (0: Blind Nil at any score)")
    parser.add_argument("--bids-and-cards", action="store_true",
                        help="keep only the labels of bids and card plays (what two-player search searches)")
    parser.add_argument("--fit", action="store_true", help="fit the collected labels instead of collecting")
    parser.add_argument("--epochs", type=int, default=8, help="passes of the fit")
    parser.add_argument("--learning-rate", type=float, default=3e-4, help="Adam step size of the fit")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    args.init = args.init or str(SHIPPED[args.num_players])
    if args.fit:
        fit(args.out, args.init, args.epochs, args.learning_rate, args.seed, args.num_players)
        return
    rules = {"blind_nil_min_deficit": args.blind_nil_min_deficit or None}
    args.out.mkdir(parents=True, exist_ok=True)
    command = " ".join(["python -m spades_env.experiments.distil_search", *(sys.argv[1:] if argv is None else argv)])
    (args.out / "collect.json").write_text(json.dumps({"command": command, **{
        k: str(v) for k, v in vars(args).items()}}, indent=2) + "\n")
    collect(args.out, args.init, args.teacher, args.seed, args.chunk_hands, args.minutes, args.chunks,
            args.score_context, rules, args.num_players, args.bids_and_cards)


if __name__ == "__main__":
    main()
