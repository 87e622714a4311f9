"""The plain-Python reference solver: minimax over every legal card, no pruning, no card equivalences.

It exists to check the fast solver (tests/test_solver.py) and is only
practical on endings of a few tricks. It shares with the engine the trick
rule (:meth:`SpadesGame.trick_winner`) and the scoring
(:func:`spades_env.scoring.score_side`), and memoises exact states (which
changes no value, only repeated work).
"""

from __future__ import annotations

from ..cards import SPADES, cards_of, suit_of
from ..game import SpadesGame
from ..scoring import score_side
from .position import Position, legal_plays


class _Minimax:
    def __init__(self, pos: Position, nil_only: bool = False) -> None:
        self.pos = pos
        self.nil_only = nil_only
        self.memo: dict[tuple, int] = {}

    def leaf(self, tricks: tuple[int, ...]) -> int:
        """Side 0's hand points minus side 1's, carried bags priced at ``bag_cost`` (with ``nil_only``: its Nil stakes
        minus side 1's)."""
        pos = self.pos
        if self.nil_only:
            stakes = 0
            for seat in range(pos.num_players):
                if pos.bids[seat] == 0 and pos.tricks[seat] == 0:  # standing at the root
                    stake = (2 if pos.blind[seat] else 1) * (1 if tricks[seat] == 0 else -1)
                    stakes += stake if seat % 2 == 0 else -stake
            return stakes
        totals = []
        for side in (0, 1):
            seats = pos.members(side)
            totals.append(score_side([pos.bids[s] for s in seats], [pos.blind[s] for s in seats],
                                     [tricks[s] for s in seats], pos.bags[side], pos.bag_limit,
                                     pos.bag_penalty).priced(pos.bag_cost))
        return totals[0] - totals[1]

    def child(self, state: tuple, card: int) -> tuple:
        """The state after the player to move plays ``card``."""
        hands, trick, leader, broken, tricks = state
        n = self.pos.num_players
        seat = (leader + len(trick)) % n
        if suit_of(card) == SPADES and (not trick or suit_of(trick[0][1]) != SPADES):
            broken = True  # a spade led (only when allowed) or played on another suit breaks spades
        hands = hands[:seat] + (hands[seat] & ~(1 << card),) + hands[seat + 1:]
        trick = trick + ((seat, card),)
        if len(trick) == n:
            winner = SpadesGame.trick_winner(list(trick))
            tricks = tricks[:winner] + (tricks[winner] + 1,) + tricks[winner + 1:]
            trick, leader = (), winner
        return hands, trick, leader, broken, tricks

    def value(self, state: tuple) -> int:
        hands, trick, leader, broken, tricks = state
        if not any(hands):
            return self.leaf(tricks)
        if state in self.memo:
            return self.memo[state]
        seat = (leader + len(trick)) % self.pos.num_players
        values = [self.value(self.child(state, c)) for c in cards_of(legal_plays(hands[seat], trick, broken))]
        result = max(values) if seat % 2 == 0 else min(values)
        self.memo[state] = result
        return result


def reference_solve(pos: Position, nil_only: bool = False) -> tuple[int, dict[int, int]]:
    """The value of ``pos`` and of each legal move, as the hand points of the side to move minus the other's
    (with ``nil_only``: the stakes of the standing Nils, 1 a Nil and 2 a Blind Nil to the side that makes or sets
    it, as :func:`~spades_env.solver.solve` with ``nil_only``)."""
    search = _Minimax(pos, nil_only)
    root = (pos.hands, pos.trick, pos.leader, pos.spades_broken, pos.tricks)
    sign = 1 if pos.to_move % 2 == 0 else -1
    moves = {c: sign * search.value(search.child(root, c)) for c in cards_of(pos.legal_moves())}
    return max(moves.values()), moves
