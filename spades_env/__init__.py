"""Spades for reinforcement learning: a pure rules engine and a PettingZoo AEC environment."""

from . import spades_v0
from .actions import NUM_ACTIONS, action_to_str, str_to_action
from .cards import card_to_str, str_to_card
from .game import IllegalActionError, Phase, SpadesConfig, SpadesGame
from .vector import VectorSpades

__all__ = ["spades_v0", "SpadesGame", "SpadesConfig", "Phase", "IllegalActionError", "VectorSpades", "NUM_ACTIONS",
           "action_to_str", "str_to_action", "card_to_str", "str_to_card"]
__version__ = "0.1.0"
