"""The second fit's labels: runs/distil4p_v2's, less the card plays made while a Nil stands.

    python docs/results/distil4p_v2/drop_nil_play.py     # writes runs/distil4p_v2_nonil/labels/
    python -m spades_env.experiments.distil_search --out runs/distil4p_v2_nonil --fit
"""

from pathlib import Path

import torch

from spades_env import actions as A
from spades_env.experiments.distil_search import nil_standing

SOURCE, TARGET = Path("runs/distil4p_v2/labels"), Path("runs/distil4p_v2_nonil/labels")
TARGET.mkdir(parents=True, exist_ok=True)
for path in sorted(SOURCE.glob("chunk-*.pt")):
    chunk = torch.load(path)
    obs = chunk["obs"].float()
    keep = ~(chunk["masks"][:, :A.BID_BASE].any(1) & nil_standing(obs))
    torch.save({name: rows[keep] for name, rows in chunk.items()}, TARGET / path.name)
