"""The third fit (eval_plan.txt's addendum 3): the search's labels where no Nil stands, ppo-v3's distribution elsewhere.

    python docs/results/distil4p_v3/fit_soft_nil.py     # runs/distil4p_v3/labels -> runs/distil4p_v3_soft/policy.pt
    python docs/results/distil4p_v3/fit_soft_nil.py --kl-weight 10 --out runs/distil4p_v3_soft10

Rows: a card play made while no Nil or Blind Nil stands is fitted to the search's label (cross-entropy); every
other row (card plays while a Nil stands, bids, the Blind Nil choice and exchange) to ppo-v3's own probabilities
(the KL divergence from them, times ``--kl-weight``), so that the fit moves the contract play and holds the rest
where it was.
"""

import argparse
import copy
import json
from pathlib import Path

import torch

from spades_env import actions as A
from spades_env.agents.ppo.model import SHIPPED, load_policy, masked_log_probs, save_policy
from spades_env.experiments.distil_search import BATCH_SIZE, HELD_OUT, load_labels, nil_standing, with_stage

SOURCE = Path("runs/distil4p_v3")
EPOCHS, LEARNING_RATE, SEED = 8, 3e-4, 4242
torch.set_num_threads(2)


def searched_rows(obs: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """Card plays made while no seat's Nil or Blind Nil stands (its bidder has taken no trick)."""
    return masks[:, :A.BID_BASE].any(1) & ~nil_standing(obs)


def loss(model, obs, masks, labels, searched, teacher, kl_weight: float) -> torch.Tensor:
    log_p = masked_log_probs(model.logits(obs.float()), masks)
    hard = -log_p[searched].gather(1, labels[searched].unsqueeze(1)).sum()
    t = teacher[~searched]
    kl = torch.where(masks[~searched], t.exp() * (t - log_p[~searched]), torch.zeros_like(t)).sum()
    return (hard + kl_weight * kl) / len(obs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kl-weight", type=float, default=1.0, help="weight of the KL term beside the labels'")
    parser.add_argument("--out", type=Path, default=Path("runs/distil4p_v3_soft"), help="where the policy goes")
    args = parser.parse_args()
    kl_weight, out = args.kl_weight, args.out
    data = load_labels(SOURCE)
    obs, masks, labels = data["obs"], data["masks"], data["teacher_actions"]
    n = len(labels)
    split = int(n * (1 - HELD_OUT))
    searched = searched_rows(obs.float(), masks)
    shipped, _ = load_policy(SHIPPED[4])
    shipped.eval()
    with torch.no_grad():
        teacher = torch.cat([masked_log_probs(shipped.logits(obs[i:i + 8192].float()), masks[i:i + 8192])
                             for i in range(0, n, 8192)])
    model, policy = load_policy(SHIPPED[4])
    optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)
    generator = torch.Generator().manual_seed(SEED)

    def held_out() -> float:
        model.eval()
        with torch.no_grad():
            rows = [slice(i, min(i + 8192, n)) for i in range(split, n, 8192)]
            total = sum(float(loss(model, obs[r], masks[r], labels[r], searched[r], teacher[r], kl_weight))
                        * (r.stop - r.start) for r in rows)
        return total / (n - split)

    history = [{"epoch": 0, "heldout_loss": held_out()}]
    print(f"{n} rows, {int(searched.sum())} with the search's label; before: held-out loss "
          f"{history[0]['heldout_loss']:.4f}", flush=True)
    chosen, best = history[0], copy.deepcopy(model.state_dict())
    for epoch in range(1, EPOCHS + 1):
        model.train()
        for idx in torch.split(torch.randperm(split, generator=generator), BATCH_SIZE):
            optimizer.zero_grad()
            loss(model, obs[idx], masks[idx], labels[idx], searched[idx], teacher[idx], kl_weight).backward()
            optimizer.step()
        history.append({"epoch": epoch, "heldout_loss": held_out()})
        print(f"epoch {epoch}: held-out loss {history[-1]['heldout_loss']:.4f}", flush=True)
        if history[-1]["heldout_loss"] < chosen["heldout_loss"]:
            chosen, best = history[-1], copy.deepcopy(model.state_dict())
    model.load_state_dict(best)
    out.mkdir(parents=True, exist_ok=True)
    stage = (f"python docs/results/distil4p_v3/fit_soft_nil.py (from {SHIPPED[4].name}, on the {n:,} labels of "
             f"{SOURCE}, --kl-weight {kl_weight}; epoch {chosen['epoch']} chosen by the held-out loss); "
             "exported actor-only")
    save_policy(model, out / "policy.pt", 4, {"provenance": with_stage(policy["meta"], stage)}, actor_only=True)
    summary = {"kl_weight": kl_weight, "rows": n, "searched": int(searched.sum()), "history": history, "chosen": chosen}
    (out / "fit.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"wrote {out / 'policy.pt'} (epoch {chosen['epoch']})")


if __name__ == "__main__":
    main()
