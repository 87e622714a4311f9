"""A double-dummy solver for Spades: the exact value of the rest of a hand with every card visible.

The value is in hand points, as :mod:`spades_env.scoring` scores them
(contracts, bags and the bag penalty given the bags carried in, Nil and Blind
Nil), for the side to move minus the other side: each side plays to maximise
its own hand points minus the other's. Both variants (four-player
partnerships, two-player) and any position of the card play, mid-trick
included, with the engine's rules of play (follow suit, spades led only once
broken unless nothing else is held).

API::

    from spades_env.solver import solve
    sol = solve(game)          # a SpadesGame in its card-play phase
    sol.value                  # hand points of the side to move minus the other side's
    sol.move_values            # {card: value after playing it} for every legal card
    sol.best_moves             # every optimal card

- :func:`solve` / :func:`solve_position`: from a game or a :class:`Position`
  (:func:`position_of` reads one from a game's public attributes).
  ``every_move=False`` makes only the optimal cards' values exact (faster),
  and ``one_best=True`` beside it gives the value and one optimal card only
  (faster still: DDS's ``solutions=1``);
  ``max_nodes`` bounds the work (:class:`NodeLimitReached` beyond it: long
  endings with a Nil still standing can take millions of nodes).
- :class:`WorldSolver`: many positions alike but for the hidden hands (a
  search's sampled worlds of one decision), the arrays built once.
- :func:`solve_arrays`: the compiled solver on arrays, without checks, for
  callers that solve many positions (:func:`position_arrays` builds them).
- :func:`warm_up`: compile now. The search is compiled by numba on first use
  (about a minute) and cached on disk (``__pycache__`` beside the module, or
  numba's user cache dir when that is read-only), so later processes load it
  in about a second: call it once at a worker's start, not per decision.
- :class:`SearchTable`: the transposition table (76 MiB by default) shared by
  a process's solves; pass your own for another size.
- :func:`reference_solve`: plain minimax, for tests on small endings only.

The fast solver is in :mod:`spades_env.solver.kernel` (its docstring says how
it searches); ``experiments/bench_solver.py`` times it.
"""

from .api import (
    NodeLimitReached,
    SearchTable,
    Solution,
    WorldSolver,
    position_arrays,
    solve,
    solve_arrays,
    solve_position,
    warm_up,
)
from .position import Position, legal_plays, position_of, side_tables
from .reference import reference_solve

__all__ = ["solve", "solve_position", "WorldSolver", "solve_arrays", "position_arrays", "warm_up", "Solution",
           "SearchTable", "NodeLimitReached",
           "Position", "position_of", "legal_plays", "side_tables", "reference_solve"]
