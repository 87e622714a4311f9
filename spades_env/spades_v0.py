"""PettingZoo's versioned-module convention: ``from spades_env import spades_v0``."""

from .env import env, raw_env

__all__ = ["env", "raw_env"]
