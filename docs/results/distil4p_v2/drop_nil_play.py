"""The second fit's labels: runs/distil4p_v2's, less the card plays made while a Nil stands.

    python docs/results/distil4p_v2/drop_nil_play.py     # writes runs/distil4p_v2_nonil/labels/
    python -m spades_env.experiments.distil_search --out runs/distil4p_v2_nonil --fit
"""

from pathlib import Path

import torch

from spades_env.observations import layout

SOURCE, TARGET = Path("runs/distil4p_v2/labels"), Path("runs/distil4p_v2_nonil/labels")
TARGET.mkdir(parents=True, exist_ok=True)
bids, tricks = layout(4)["bids"], layout(4)["tricks"]
for path in sorted(SOURCE.glob("chunk-*.pt")):
    chunk = torch.load(path)
    obs = chunk["obs"].float()
    bid = obs[:, bids.start:bids.stop].reshape(-1, *bids.shape)  # per seat one-hot: not yet, 0..13, Blind Nil
    nil = (bid[:, :, 1] > 0) | (bid[:, :, 15] > 0)
    standing = (nil & (obs[:, tricks.start:tricks.stop] == 0)).any(1)
    keep = ~(chunk["masks"][:, :52].any(1) & standing)
    torch.save({name: rows[keep] for name, rows in chunk.items()}, TARGET / path.name)
