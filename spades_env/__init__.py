"""Spades for reinforcement learning: a pure rules engine and a PettingZoo AEC environment.

The names below load on first use (PEP 562), so that ``import spades_env.game`` or
``import spades_env.solver`` runs the engine alone, without gymnasium, pettingzoo or torch;
``from spades_env import spades_v0, SpadesConfig`` works as with eager imports.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from . import spades_v0 as spades_v0
    from .actions import NUM_ACTIONS as NUM_ACTIONS
    from .actions import action_to_str as action_to_str
    from .actions import str_to_action as str_to_action
    from .cards import card_to_str as card_to_str
    from .cards import str_to_card as str_to_card
    from .game import IllegalActionError as IllegalActionError
    from .game import Phase as Phase
    from .game import SpadesConfig as SpadesConfig
    from .game import SpadesGame as SpadesGame
    from .vector import VectorSpades as VectorSpades

# Each exported name and the submodule that defines it (None: the name is the submodule itself).
_EXPORTS: dict[str, str | None] = {
    "spades_v0": None,
    "SpadesGame": "game", "SpadesConfig": "game", "Phase": "game", "IllegalActionError": "game",
    "VectorSpades": "vector",
    "NUM_ACTIONS": "actions", "action_to_str": "actions", "str_to_action": "actions",
    "card_to_str": "cards", "str_to_card": "cards",
}

__all__ = list(_EXPORTS)
__version__ = "0.1.0"


def __getattr__(name: str):
    """Import an exported name's module on first access; any other submodule (``spades_env.render``) too."""
    if name in _EXPORTS:
        module = _EXPORTS[name]
        value = importlib.import_module(f"{__name__}.{name if module is None else module}")
        if module is not None:
            value = getattr(value, name)
    elif not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
