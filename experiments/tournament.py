"""Run a duplicate tournament: ``python experiments/tournament.py --agents heuristic random --games 1000``.

The same as ``spades tournament``; the logic lives in :mod:`spades_env.agents.tournament`.
"""

import sys

from spades_env.agents.tournament import main

if __name__ == "__main__":
    sys.exit(main())
