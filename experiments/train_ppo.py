"""Train a PPO Spades agent by self-play: a thin wrapper over ``spades train`` (:mod:`spades_env.agents.ppo.train`).

Example (the first stage of the shipped four-player agent uses the defaults; the full chain of
commands is stored in the checkpoint's ``meta["provenance"]``)::

    python experiments/train_ppo.py --num-players 4 --seed 5 --max-minutes 60 --run-dir runs/ppo-4p
    python experiments/train_ppo.py --resume runs/ppo-4p      # continue a stopped run exactly
    python experiments/train_ppo.py --init-policy runs/ppo-4p/policy.pt --bc-hands 0 --learning-rate 1e-4 \
        --anneal-lr true --total-updates 600 --run-dir runs/ppo-4p-anneal   # a new stage from saved weights
"""

import sys

from spades_env.agents.ppo.train import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
