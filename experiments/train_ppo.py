"""Train a PPO Spades agent by self-play: a thin wrapper over ``spades train`` (logic in :mod:`agents.ppo.train`).

Example (the shipped four-player agent; see the README for the exact command and its cost)::

    python experiments/train_ppo.py --num-players 4 --bc-hands 4000 --max-minutes 120 --run-dir runs/ppo-4p
    python experiments/train_ppo.py --resume runs/ppo-4p      # continue a stopped run exactly
"""

import sys

from agents.ppo.train import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
