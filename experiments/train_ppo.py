"""Train a PPO Spades agent: a thin wrapper over ``spades train`` (:mod:`spades_env.agents.ppo.train`).

Example (the default recipe, from scratch, in its 30-minute budget; docs/training.md)::

    python experiments/train_ppo.py --num-players 4 --run-dir runs/ppo-4p
    python experiments/train_ppo.py --resume runs/ppo-4p                     # continue a killed run exactly
    python experiments/train_ppo.py --resume runs/ppo-4p --max-minutes 60    # or give it more time
"""

import sys

from spades_env.agents.ppo.train import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
