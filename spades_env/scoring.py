"""Hand scoring, sandbagging and the end of a game, as pure functions (docs/rules.md, "Scoring a hand").

A *side* is a partnership (four-player game) or a single player (two-player
game); the same functions score both.

Each rule has two spellings: :func:`score_side` / :func:`decide_winner`
score one side / decide one game on Python ints (what ``SpadesGame`` calls
after every hand), and :func:`score_sides` / :func:`decide_winners` do the
same for arrays of any shape (what the batched engine calls). The array forms
use only calls that numpy and torch spell alike, on the namespace ``xp``
passed in (``numpy`` or ``torch``), so they run on any device.
``tests/test_scoring.py`` checks the two spellings against each other on
every kind of input.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

NIL_BONUS = 100
BLIND_NIL_BONUS = 200
POINTS_PER_REWARD = 100  # the "score" reward: a hand's point margin / this (a typical hand gives about +-1)


class SideScore(NamedTuple):
    """One side's points for one hand, split the way records and logs show them.

    A named tuple (immutable, and built in a sixth of a frozen dataclass's time: one per side and hand).
    """

    contract: int  # +10 per contracted trick when made, -10 per contracted trick when set
    bags_taken: int  # bags added this hand (overtricks and failed-Nil tricks), +1 point each
    nil: int  # Nil / Blind Nil bonuses and penalties
    bag_penalty: int  # -bag_penalty per bag_limit bags reached (<= 0)
    bid: int  # the contract (sum of numeric bids)
    counted_tricks: int  # tricks that count toward the contract
    made: bool  # contract made (a contract of 0 is always made)
    bags_after: int  # bags carried after penalties

    @property
    def total(self) -> int:
        return self.contract + self.bags_taken + self.nil + self.bag_penalty

    def priced(self, bag_cost: int) -> int:
        """:attr:`total` less ``bag_cost`` points per bag carried out of the hand: what the hand is worth to a game
        that goes on, where those bags come nearer the penalty (:func:`eventual_bag_cost` prices each at its share
        of it)."""
        return self.total - bag_cost * self.bags_after

    def to_dict(self) -> dict:
        return {**self._asdict(), "total": self.total}


class SideScores(NamedTuple):
    """:class:`SideScore`'s fields, in its order, as arrays of one shape (what :func:`score_sides` returns)."""

    contract: Any
    bags_taken: Any
    nil: Any
    bag_penalty: Any
    bid: Any
    counted_tricks: Any
    made: Any  # bool
    bags_after: Any

    @property
    def total(self) -> Any:
        return self.contract + self.bags_taken + self.nil + self.bag_penalty

    def priced(self, bag_cost: int) -> Any:
        """:meth:`SideScore.priced` for every side."""
        return self.total - bag_cost * self.bags_after


def eventual_bag_cost(bag_limit: int = 10, bag_penalty: int = 100) -> float:
    """The points a carried bag will cost a side that plays on long enough: its share of the penalty that every
    ``bag_limit`` bags bring."""
    return bag_penalty / bag_limit


def score_side(
    bids: Sequence[int],
    blind: Sequence[bool],
    tricks: Sequence[int],
    bags_before: int,
    bag_limit: int = 10,
    bag_penalty: int = 100,
) -> SideScore:
    """Score one side's hand.

    ``bids[i]``, ``blind[i]`` and ``tricks[i]`` describe member ``i``; a bid of
    0 is Nil (Blind Nil when ``blind[i]``). A failed Nil bidder's tricks never
    count toward the partner's contract but each is a point and a bag.
    """
    contract = counted = nil_tricks = nil_points = 0
    for b, is_blind, t in zip(bids, blind, tricks):
        if b > 0:
            contract += b
            counted += t
        else:
            nil_tricks += t
            bonus = BLIND_NIL_BONUS if is_blind else NIL_BONUS
            nil_points += bonus if t == 0 else -bonus
    made = counted >= contract
    bags = (counted - contract if made else 0) + nil_tricks
    penalties, bags_after = divmod(bags_before + bags, bag_limit)
    return SideScore(10 * contract if made else -10 * contract, bags, nil_points, -bag_penalty * penalties,
                     contract, counted, made, bags_after)


def score_sides(bids, blind, tricks, bags_before, bag_limit: int = 10, bag_penalty: int = 100,
                xp: Any = np) -> SideScores:
    """:func:`score_side` for many sides at once.

    ``bids``, ``blind`` and ``tricks`` have shape ``S + (members,)`` (integer,
    bool, integer arrays of the namespace ``xp``); ``bags_before`` has shape
    ``S``. Every field of the result has shape ``S``.
    """
    numeric = bids > 0
    contract = xp.where(numeric, bids, 0).sum(axis=-1)
    counted = xp.where(numeric, tricks, 0).sum(axis=-1)
    nil_tricks = xp.where(numeric, 0, tricks).sum(axis=-1)
    made = counted >= contract
    bags = xp.where(made, counted - contract, 0) + nil_tricks
    bonus = xp.where(blind, BLIND_NIL_BONUS, NIL_BONUS)
    nil_points = xp.where(numeric, 0, xp.where(tricks == 0, bonus, -bonus)).sum(axis=-1)
    carried = bags_before + bags
    return SideScores(
        contract=xp.where(made, 10, -10) * contract,
        bags_taken=bags,
        nil=nil_points,
        bag_penalty=-bag_penalty * (carried // bag_limit),
        bid=contract,
        counted_tricks=counted,
        made=made,
        bags_after=carried % bag_limit,
    )


def decide_winner(scores: Sequence[int], points: Sequence[int], target_score: int,
                  mercy_threshold: int | None = None, single_hand: bool = False) -> int | None:
    """The side that has won the game after a hand, or None while it goes on (or ends without a winner).

    ``scores`` are the two sides' totals after the hand, ``points`` what they made in it. A side wins when
    a total reaches ``target_score`` (or one falls to ``mercy_threshold``) and the totals differ: a tie
    plays another hand. With ``single_hand`` the game is this hand: failing that, the side with more
    points in it wins, and equal points leave no winner.
    """
    s0, s1 = scores
    reached = s0 >= target_score or s1 >= target_score
    mercy = mercy_threshold is not None and (s0 <= mercy_threshold or s1 <= mercy_threshold)
    if (reached or mercy) and s0 != s1:
        return int(s1 > s0)
    if single_hand and points[0] != points[1]:
        return int(points[1] > points[0])
    return None


def decide_winners(scores, points, target_score: int, mercy_threshold: int | None = None,
                   single_hand: bool = False, xp: Any = np):
    """:func:`decide_winner` for many games at once: ``scores`` and ``points`` of shape ``S + (2,)`` give
    an integer array of shape ``S``, the winning side or -1."""
    s0, s1 = scores[..., 0], scores[..., 1]
    decided = (s0 >= target_score) | (s1 >= target_score)
    if mercy_threshold is not None:
        decided = decided | (s0 <= mercy_threshold) | (s1 <= mercy_threshold)
    decided = decided & (s0 != s1)
    winner = xp.where(decided, xp.where(s1 > s0, 1, 0), -1)
    if single_hand:
        p0, p1 = points[..., 0], points[..., 1]
        winner = xp.where(decided | (p0 == p1), winner, xp.where(p1 > p0, 1, 0))
    return winner
