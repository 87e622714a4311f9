"""Adapters to RL libraries (see docs/rl_libraries.md).

:class:`SpadesGymEnv` is a single-agent gymnasium environment, registered as
``"spades_env/Spades-v0"`` when this package is imported (it is what
sb3-contrib's ``MaskablePPO`` trains on). The class takes agent objects or
act functions for the other seats; ``gymnasium.make`` also takes agent names
(``opponents="heuristic"``), which its entry point,
:func:`spades_env.agents.gym.spades_gym_env`, resolves. The modules :mod:`.torchrl`,
:mod:`.tianshou` and :mod:`.rllib` import their library, so they are imported
on demand only, each needing its extra (``pip install -e ".[torchrl]"``, ...).
"""

from .gym_env import ENV_ID, SpadesGymEnv, register

register()

__all__ = ["ENV_ID", "SpadesGymEnv", "register"]
