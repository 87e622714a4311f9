"""The second fit's labels: runs/distil4p_v3's, each card play made while a Nil stands labelled with ppo-v3's choice.

    python docs/results/distil4p_v3/keep_own_nil_play.py     # writes runs/distil4p_v3_ownnil/labels/
    python -m spades_env.experiments.distil_search --out runs/distil4p_v3_ownnil --fit --learning-rate 3e-4
"""

from pathlib import Path

import torch

from spades_env import actions as A
from spades_env.agents.ppo.model import SHIPPED, load_policy, masked_log_probs
from spades_env.experiments.distil_search import nil_standing

SOURCE, TARGET = Path("runs/distil4p_v3/labels"), Path("runs/distil4p_v3_ownnil/labels")
TARGET.mkdir(parents=True, exist_ok=True)
model, _ = load_policy(SHIPPED[4])
model.eval()
relabelled = changed = total = 0
for path in sorted(SOURCE.glob("chunk-*.pt")):
    chunk = torch.load(path)
    obs = chunk["obs"].float()
    own = chunk["masks"][:, :A.BID_BASE].any(1) & nil_standing(obs)
    with torch.no_grad():
        greedy = masked_log_probs(model.logits(obs[own]), chunk["masks"][own]).argmax(-1)
    changed += int((chunk["teacher_actions"][own] != greedy).sum())
    chunk["teacher_actions"][own] = greedy
    relabelled, total = relabelled + int(own.sum()), total + len(own)
    torch.save(chunk, TARGET / path.name)
print(f"{total} labels, {relabelled} card plays with a Nil standing relabelled ({changed} changed)")
