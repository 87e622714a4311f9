"""The old name of :mod:`spades_env.agents.registry` (agent specs and the registry of names), kept so
that code written against it, and older commits' trainers that ``bench_ppo`` imports, still run."""

import sys
import warnings

from . import registry

warnings.warn("spades_env.agents.base is now spades_env.agents.registry", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = registry
