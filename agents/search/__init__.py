"""The search agent: card play by perfect-information Monte Carlo over sampled worlds and a double-dummy solver.

:class:`SearchAgent` (registered as ``search``) reads only the seat's
:class:`~spades_env.view.PlayerView`: :mod:`.worlds` rebuilds a game from the
view and samples worlds with the engine's resampler, :mod:`.play` solves them.
"""

from .agent import SearchAgent

__all__ = ["SearchAgent"]
