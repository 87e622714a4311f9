"""How often a move agrees with the search's label, by decision: the collecting network's (sampled) move over every
label, then each policy's greedy move over the held-out last 10% of chunks.

    python docs/results/distil4p_v3/agreement.py runs/distil4p_v3/labels agents/ppo/checkpoints/ppo-4p-v3.pt ...
"""

import sys
from pathlib import Path

import torch

from spades_env.agents.ppo.model import load_policy, masked_log_probs
from spades_env.game import Phase
from spades_env.observations import layout

PHASE, HAND = layout(4)["phase"], layout(4)["hand"]


def groups(obs: torch.Tensor) -> dict[str, torch.Tensor]:
    phase = obs[:, PHASE.start:PHASE.stop].float().argmax(1)
    cards = obs[:, HAND.start:HAND.stop].float().sum(1).round().long()  # cards in hand: tricks left
    play = phase == Phase.PLAY
    return {"bid": phase == Phase.BID, "exchange": phase == Phase.PASS, "play, 13-10 left": play & (cards >= 10),
            "play, 9-6 left": play & (cards <= 9) & (cards >= 6), "play, 5-2 left": play & (cards <= 5) & (cards >= 2)}


def row(name: str, moves: torch.Tensor, labels: torch.Tensor, by: dict[str, torch.Tensor]) -> str:
    return " | ".join([name, *(f"{float((moves[m] == labels[m]).float().mean()):.1%}" for m in by.values())])


def main() -> None:
    paths = sorted(Path(sys.argv[1]).glob("chunk-*.pt"))
    chunks = [torch.load(p) for p in paths]
    obs = torch.cat([c["obs"] for c in chunks])
    labels, moves = torch.cat([c["teacher_actions"] for c in chunks]), torch.cat([c["actions"] for c in chunks])
    by = groups(obs)
    print(" | ".join(["moves", *(f"{k} ({int(m.sum()):,})" for k, m in by.items())]))
    print(row("the collecting network's (sampled), all labels", moves, labels, by))
    held = slice(sum(len(c["actions"]) for c in chunks[:int(len(chunks) * 0.9)]), len(labels))
    obs, masks, labels = obs[held], torch.cat([c["masks"] for c in chunks])[held], labels[held]
    by = groups(obs)
    for path in sys.argv[2:]:
        model, _ = load_policy(path)
        model.eval()
        with torch.no_grad():
            greedy = torch.cat([masked_log_probs(model.logits(obs[i:i + 4096].float()), masks[i:i + 4096]).argmax(-1)
                                for i in range(0, len(obs), 4096)])
        print(row(f"{path} (greedy), held out", greedy, labels, by))


if __name__ == "__main__":
    main()
