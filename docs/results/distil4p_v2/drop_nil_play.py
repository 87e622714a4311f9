"""The second fit's labels: runs/distil4p_v2's, less the card plays made while a Nil stands.

    python docs/results/distil4p_v2/drop_nil_play.py     # writes runs/distil4p_v2_nonil/labels/
    python -m spades_env.experiments.distil_search --out runs/distil4p_v2_nonil --fit
"""

from pathlib import Path

import torch

from spades_env.observations import layout

SOURCE, TARGET = Path("runs/distil4p_v2/labels"), Path("runs/distil4p_v2_nonil/labels")
TARGET.mkdir(parents=True, exist_ok=True)
blocks = layout(4)
bids_at, tricks_at = blocks["bids"].start, blocks["tricks"].start
for path in sorted(SOURCE.glob("chunk-*.pt")):
    chunk = torch.load(path)
    obs = chunk["obs"].float()
    bids = obs[:, bids_at:bids_at + 64].reshape(-1, 4, 16)  # one-hot: not yet, 0..13, Blind Nil
    nil = (bids[:, :, 1] > 0) | (bids[:, :, 15] > 0)
    standing = (nil & (obs[:, tricks_at:tricks_at + 4] == 0)).any(1)
    keep = ~(chunk["masks"][:, :52].any(1) & standing)
    torch.save({name: rows[keep] for name, rows in chunk.items()}, TARGET / path.name)
