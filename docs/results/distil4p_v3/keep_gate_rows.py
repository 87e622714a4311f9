"""The gate's expert's labels (eval_plan.txt's addendum 5): runs/distil4p_v3's card plays made while no Nil or Blind
Nil of my side stands (none stands, or only the other side's), the rows the expert plays in nil_gate.py.

    python docs/results/distil4p_v3/keep_gate_rows.py     # writes runs/distil4p_v3_gate/labels/
    python -m spades_env.experiments.distil_search --out runs/distil4p_v3_gate --fit --learning-rate 3e-4
"""

from pathlib import Path

import torch

from spades_env import actions as A
from spades_env.experiments.distil_search import nil_standing

SOURCE, TARGET = Path("runs/distil4p_v3/labels"), Path("runs/distil4p_v3_gate/labels")
TARGET.mkdir(parents=True, exist_ok=True)
kept = total = 0
for path in sorted(SOURCE.glob("chunk-*.pt")):
    chunk = torch.load(path)
    rows = chunk["masks"][:, :A.BID_BASE].any(1) & ~nil_standing(chunk["obs"].float(), seats=(0, 2))
    torch.save({name: column[rows] for name, column in chunk.items()}, TARGET / path.name)
    kept, total = kept + int(rows.sum()), total + len(rows)
print(f"{total} labels, {kept} card plays with no Nil of my side standing kept")
