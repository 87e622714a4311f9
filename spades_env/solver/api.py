"""Solving positions: from a game or a :class:`Position` to the compiled search and back."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import NUM_CARDS, cards_of
from ..game import SpadesGame
from . import kernel
from .position import (
    Position,
    check_position,
    interchangeable_members,
    nil_stake_tables,
    position_of,
    side_tables,
    standing_nils,
)

DEFAULT_TABLE_BITS = 20
_COMPACT_INDEX = kernel.compact_index()


class SearchTable:
    """The transposition table and history counts one process's solves share (not thread-safe).

    ``bits`` sets the size: ``2**bits`` entries of 64 bytes (the default,
    20, is 64 MiB), each entry one cache line. An entry is only read by the
    solve that wrote it (a stamp tells solves apart), so nothing needs
    clearing between solves.
    """

    def __init__(self, bits: int = DEFAULT_TABLE_BITS) -> None:
        self.entries = aligned_rows(1 << bits, kernel.ENTRY_WORDS)
        self.entries[:, kernel.W_INFO] = -1  # no stamp
        self.history = np.zeros((4, NUM_CARDS), np.int64)
        self.trick_bounds = np.zeros((2, 5 * kernel.COMPACT, kernel.K_RANGE), np.int64)  # workspace of one solve
        self.stats = np.zeros(len(kernel.STATS), np.int64)  # the last solve's counters (kernel.STATS)
        self.stamp = 0

    def next_stamp(self) -> int:
        self.stamp += 1
        if self.stamp > kernel.MAX_STAMP:
            self.entries[:, kernel.W_INFO] = -1
            self.stamp = 1
        self.history[:] = 0
        return self.stamp


def aligned_rows(rows: int, words: int) -> np.ndarray:
    """``int64[rows, words]`` of zeros whose rows start on 64-byte boundaries (with 8 words: a row a cache line)."""
    raw = np.zeros(rows * words + 8, np.int64)
    start = (-raw.ctypes.data % 64) // 8
    return raw[start:start + rows * words].reshape(rows, words)


_default_table: SearchTable | None = None


def default_table() -> SearchTable:
    global _default_table
    if _default_table is None:
        _default_table = SearchTable()
    return _default_table


@dataclass(frozen=True)
class Solution:
    """A solved position. Values are the hand points of the side to move minus the other side's.

    ``value`` is the whole hand's result under perfect play by every seat
    (the points the engine will score for this hand, tricks already taken
    included). ``move_values[card]`` is the value after playing ``card`` for
    every legal card; when solved with ``every_move=False`` it is exact only
    for the optimal cards and a bound showing the others are worse
    (``exact_moves`` says which); solved with ``one_best=True`` it holds only
    one optimal card (and the cards equivalent to it).
    """

    value: int
    move_values: dict[int, int]
    nodes: int
    exact_moves: bool = True

    @property
    def best_moves(self) -> list[int]:
        """Every optimal card, ascending (with ``one_best``: the one found)."""
        return sorted(c for c, v in self.move_values.items() if v == self.value)


class NodeLimitReached(RuntimeError):
    """The search ran out of its node budget (``max_nodes``) before proving the values."""


def solve_arrays(hands: np.ndarray, trick: np.ndarray, nt: int, leader: int, spades_broken: bool, num_players: int,
                 tables: np.ndarray, merge: np.ndarray, nil_bid: np.ndarray, every_move: bool = True,
                 table: SearchTable | None = None, max_nodes: int = 0,
                 one_best: bool = False, class_tricks: int = kernel.CLASS_TRICKS) -> tuple[int, np.ndarray, int]:
    """The compiled solver on arrays, for callers that solve many positions (no checks).

    ``hands``: ``int64[4]`` card masks per seat (seats 2, 3 empty with two
    players); ``trick``: ``int64[4]``, the first ``nt`` entries the cards of
    the current trick; ``tables``: :func:`~spades_env.solver.position.side_tables`;
    ``merge``: :func:`~spades_env.solver.position.interchangeable_members`;
    ``nil_bid``: ``int64[4]``, 1 for a Nil bidder with no trick yet. Returns
    (value, ``values[52]`` per legal card, nodes), values as side 0's points
    minus side 1's. ``max_nodes`` > 0 raises :class:`NodeLimitReached` after
    that many nodes. ``one_best`` (with ``every_move=False``): only an optimal
    card gets its value, the others ``kernel.INF`` (DDS's ``solutions=1``: the
    cheapest solve, for callers that play one optimal card). ``class_tricks``: see
    :func:`~spades_env.solver.kernel.solve_root` (for tests).
    """
    t = table or default_table()
    values = np.full(NUM_CARDS, kernel.INF, np.int64)
    value, nodes, complete = kernel.solve_root(hands, trick, nt, leader, int(spades_broken), num_players, tables,
                                               merge, nil_bid, _COMPACT_INDEX, t.trick_bounds, t.entries,
                                               t.next_stamp(), t.history, values, every_move, one_best,
                                               max_nodes, t.stats, class_tricks)
    if not complete:
        raise NodeLimitReached(f"no result within {max_nodes} nodes")
    return int(value), values, int(nodes)


def position_arrays(pos: Position, nil_seats: list[int] | None = None) -> dict:
    """The keyword arguments of :func:`solve_arrays` for ``pos``; with ``nil_seats``, for the game whose only stakes
    are those seats' standing Nils (:func:`~spades_env.solver.position.nil_stake_tables`)."""
    hands = np.zeros(4, np.int64)
    hands[:pos.num_players] = pos.hands
    trick = np.zeros(4, np.int64)
    trick[:len(pos.trick)] = [c for _, c in pos.trick]
    nil_bid = np.zeros(4, np.int64)
    nil_bid[:pos.num_players] = [int(b == 0 and t == 0) for b, t in zip(pos.bids, pos.tricks)]
    tables, merge = side_tables(pos), interchangeable_members(pos)
    if nil_seats is not None:
        tables = nil_stake_tables(pos, nil_seats)
        merge = np.array([int(not any(s % 2 == side for s in nil_seats)) for side in (0, 1)], np.int64)
    return dict(hands=hands, trick=trick, nt=len(pos.trick), leader=pos.leader, spades_broken=pos.spades_broken,
                num_players=pos.num_players, tables=tables, merge=merge, nil_bid=nil_bid)


class WorldSolver:
    """Solves positions alike in everything but the hands the mover cannot see: the worlds of one decision.

    Why: a search solves a few dozen sampled deals per decision, small ones near the end of a hand, where
    building the solver's arrays and scoring tables for each cost more than the search itself. They are
    built once from ``pos`` here; :meth:`solve` takes each world's hands (the mover's own unchanged).
    """

    def __init__(self, pos: Position, nil_only: bool = False, table: SearchTable | None = None) -> None:
        check_position(pos)
        self.pos, self.table = pos, table
        self.arrays = position_arrays(pos, standing_nils(pos) if nil_only else None)
        self.legal = cards_of(pos.legal_moves())
        self.sign = 1 if pos.to_move % 2 == 0 else -1
        self.sizes = [hand.bit_count() for hand in pos.hands]

    def solve(self, hands: tuple[int, ...] | list[int], every_move: bool = True, max_nodes: int = 0,
              one_best: bool = False) -> Solution:
        """The solution with these hands (see :func:`solve_position`)."""
        mover = self.pos.to_move
        sizes = [hand.bit_count() for hand in hands]
        if sizes != self.sizes or hands[mover] != self.pos.hands[mover] or sum(hands).bit_count() != sum(sizes):
            raise ValueError("a world of this position deals disjoint hands of the same sizes, the mover's own "
                             f"unchanged; got {hands!r}")  # a sum of masks loses bits to carries where two overlap
        self.arrays["hands"][:len(hands)] = hands
        one_best = one_best and not every_move
        value, values, nodes = solve_arrays(**self.arrays, every_move=every_move, table=self.table,
                                            max_nodes=max_nodes, one_best=one_best)
        values = values.tolist()
        legal = [c for c in self.legal if not one_best or values[c] != kernel.INF]
        return Solution(self.sign * value, {c: self.sign * values[c] for c in legal}, nodes, every_move)


def solve_position(pos: Position, every_move: bool = True, table: SearchTable | None = None,
                   max_nodes: int = 0, one_best: bool = False, nil_only: bool = False) -> Solution:
    """Solve ``pos`` (see :class:`Solution`); ``max_nodes`` > 0 raises :class:`NodeLimitReached` beyond it."""
    return WorldSolver(pos, nil_only, table).solve(pos.hands, every_move, max_nodes, one_best)


def solve(game: SpadesGame, every_move: bool = True, table: SearchTable | None = None,
          max_nodes: int = 0, one_best: bool = False, nil_only: bool = False) -> Solution:
    """Solve the card-play position of ``game`` with every hand visible (see :class:`Solution`).

    ``max_nodes`` > 0 bounds the work: beyond it :class:`NodeLimitReached` is raised (4 to 8 million
    nodes a second on one core). ``one_best=True`` with ``every_move=False``: the value and one
    optimal card only, the cheapest solve (the other cards' tests are a third to half of one).
    ``nil_only=True``: the values of the game whose only stakes are the standing Nils (each worth 1, a Blind Nil
    2, to the side that makes or sets it; :func:`~spades_env.solver.position.nil_stake_tables`), far cheaper to
    solve than the hand's points while a Nil stands.
    """
    return solve_position(position_of(game), every_move, table, max_nodes, one_best, nil_only)


def warm_up() -> None:
    """Compile the search (or load it from numba's cache) now rather than on the first solve."""
    for n in (4, 2):
        hands = tuple(1 << (13 * s) for s in range(n))
        pos = Position(n, hands, (), 0, False, (12 // n,) * n, (1,) * n, (False,) * n, (0, 0))
        solve_position(pos)
