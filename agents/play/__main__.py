"""``python -m spades_env.agents.play``: the same as ``spades play``."""

import sys

from .cli import main

sys.exit(main())
