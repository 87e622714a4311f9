"""Adapters to RL libraries.

:class:`SpadesGymEnv` is a single-agent gymnasium environment (registered as
``"spades_env/Spades-v0"`` when this package is imported); the per-library
modules (:mod:`.sb3`, :mod:`.torchrl`, :mod:`.tianshou`, :mod:`.rllib`) import
their library and are imported on demand only.
"""

from .gym_env import ENV_ID, SpadesGymEnv, register

register()

__all__ = ["ENV_ID", "SpadesGymEnv", "register"]
