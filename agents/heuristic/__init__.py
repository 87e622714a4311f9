"""The rule-based baseline: bidding by counting tricks, card play by the classic rules and card counting.

It reads only the seat's :class:`~spades_env.view.PlayerView` (never the
observation vector, never hidden cards). See :mod:`.bidding` and :mod:`.play`.
"""

from .agent import HeuristicAgent, heuristic_v1, heuristic_v2

__all__ = ["HeuristicAgent", "heuristic_v1", "heuristic_v2"]
