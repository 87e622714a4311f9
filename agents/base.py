"""The one protocol every agent follows, and the registry that names agents on the command line."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Protocol, runtime_checkable

import numpy as np

from spades_env.view import PlayerView


@runtime_checkable
class Agent(Protocol):
    """``act`` returns a legal action id for the seat the view belongs to.

    ``observation`` is the environment's vector, ``action_mask`` its int8
    mask, ``view`` the structured per-player information set. ``reset`` (if
    present) is called at the start of each game with the seat and a seed.

    Optional class attributes let the match driver skip work an agent does
    not use: ``needs_observation = False`` (then ``observation`` is None),
    ``needs_view = False`` (then ``view`` is None), and ``observation_kind``
    (``"default"``, ``"history"`` or ``"oracle"``) for the vector it reads.
    """

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView) -> int: ...


AgentFactory = Callable[..., Agent]
_REGISTRY: dict[str, str | AgentFactory] = {}


def register(name: str, factory: str | AgentFactory) -> None:
    """Register ``factory`` (a callable, or ``"module:attr"`` imported lazily) under ``name``."""
    _REGISTRY[name] = factory


def make_agent(spec: str, **kwargs) -> Agent:
    """Build an agent from a command-line name.

    ``"random"``, ``"heuristic"``: registered agents; ``"ppo:path/to.pt"``:
    a registered agent with an argument after the colon; ``"ppo"``: the
    shipped checkpoint; ``"mymodule:MyAgent"``: any importable class.
    """
    name, _, arg = spec.partition(":")
    if name in _REGISTRY:
        factory = _REGISTRY[name]
        if isinstance(factory, str):
            module, _, attr = factory.partition(":")
            factory = getattr(importlib.import_module(module), attr)
        return factory(arg, **kwargs) if arg else factory(**kwargs)
    if arg:
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            raise ValueError(f"unknown agent {spec!r}: not registered ({sorted(_REGISTRY)}) and {exc}") from None
        if not hasattr(module, arg):
            raise ValueError(f"unknown agent {spec!r}: module {name!r} has no attribute {arg!r}")
        return getattr(module, arg)(**kwargs)
    raise ValueError(f"unknown agent {spec!r}; registered: {sorted(_REGISTRY)}, or give 'module:Class'")


def registered() -> list[str]:
    return sorted(_REGISTRY)
