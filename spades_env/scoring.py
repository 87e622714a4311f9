"""Hand scoring and sandbagging as pure functions (RULES.md, "Scoring a hand").

A *side* is a partnership (four-player game) or a single player (two-player
game); the same function scores both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

NIL_BONUS = 100
BLIND_NIL_BONUS = 200
POINTS_PER_REWARD = 100  # the "score" reward: a hand's point margin / this (a typical hand gives about +-1)


@dataclass(frozen=True)
class SideScore:
    """One side's points for one hand, split the way records and logs show them."""

    contract: int  # +10 per contracted trick when made, -10 per contracted trick when set
    overtricks: int  # +1 per bag taken this hand (overtricks and failed-Nil tricks)
    nil: int  # Nil / Blind Nil bonuses and penalties
    bag_penalty: int  # -bag_penalty per bag_limit bags reached (<= 0)
    bid: int  # the contract (sum of numeric bids)
    counted_tricks: int  # tricks that count toward the contract
    made: bool  # contract made (a contract of 0 is always made)
    bags_taken: int  # bags added this hand
    bags_after: int  # bags carried after penalties

    @property
    def total(self) -> int:
        return self.contract + self.overtricks + self.nil + self.bag_penalty

    def to_dict(self) -> dict:
        return {**self.__dict__, "total": self.total}  # flat fields: no need for asdict's deep copy


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
    contract = sum(b for b in bids if b > 0)
    counted = sum(t for b, t in zip(bids, tricks) if b > 0)
    nil_tricks = sum(t for b, t in zip(bids, tricks) if b == 0)
    made = counted >= contract
    contract_points = 10 * contract if made else -10 * contract
    bags = (counted - contract if made else 0) + nil_tricks
    nil_points = 0
    for b, is_blind, t in zip(bids, blind, tricks):
        if b == 0:
            bonus = BLIND_NIL_BONUS if is_blind else NIL_BONUS
            nil_points += bonus if t == 0 else -bonus
    penalties, bags_after = divmod(bags_before + bags, bag_limit)
    return SideScore(
        contract=contract_points,
        overtricks=bags,
        nil=nil_points,
        bag_penalty=-bag_penalty * penalties,
        bid=contract,
        counted_tricks=counted,
        made=made,
        bags_taken=bags,
        bags_after=bags_after,
    )
