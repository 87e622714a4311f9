"""``python -m spades_env.agents.tournament``: the same as ``spades tournament``."""

import sys

from .cli import main

sys.exit(main())
