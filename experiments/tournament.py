"""Run a duplicate tournament: ``python experiments/tournament.py --agents heuristic random --games 1000``.

The same as ``spades tournament``; the logic lives in :mod:`agents.tournament`.
"""

import sys

from agents.tournament import main

if __name__ == "__main__":
    sys.exit(main())
