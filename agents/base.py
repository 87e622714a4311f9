"""The registry that names agents on the command line; the protocol itself is :class:`spades_env.agent.Agent`."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from spades_env.agent import Agent

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
