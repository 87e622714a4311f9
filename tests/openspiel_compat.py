"""How OpenSpiel's ``spades`` lines up with this engine, for cross-checks and benchmarks.

OpenSpiel (``pyspiel.load_game("spades")``, open-spiel 2.0.x) is the closest
peer. This module needs no ``pyspiel`` import: it translates plain data.

- **Action ids** are the same (cards 0..51 as ``suit * 13 + rank``, bids
  0..13 as 52..65), so actions pass through unchanged.
- **Seats.** OpenSpiel deals the card of chance step ``i`` to player
  ``i % 4``; player 0 bids first and leads the first trick. That is our seat
  ``p`` = OpenSpiel player ``p`` with the dealer at seat 3
  (:data:`OPENSPIEL_DEALER`), whose left-hand neighbour (seat 0) bids and
  leads first. Partnerships are 0 & 2 and 1 & 3 in both.
- **Its deviations from docs/rules.md** (docs/rules.md lists them) are written out
  here as models of the peer, never as our rules: :func:`openspiel_legal_mask`
  (partners' bids capped at 13, spades never broken) and
  :func:`openspiel_side_points` (its hand scoring: a failed Nil bidder's
  tricks count toward the partner's bid, bags read from the last digit of the
  running score).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from spades_env.actions import BID_BASE, MAX_BID
from spades_env.cards import SPADE_MASK
from spades_env.game import Phase, SpadesGame

OPENSPIEL_DEALER = 3  # our dealer seat when OpenSpiel player p sits at our seat p
NUM_DEAL_STEPS = 52  # OpenSpiel deals one card per chance node


def deal_from_history(history: Sequence[int]) -> list[list[int]]:
    """Our ``reset(deal=...)`` hands (by seat) from the first 52 actions of an OpenSpiel history."""
    if len(history) < NUM_DEAL_STEPS:
        raise ValueError(f"the deal takes {NUM_DEAL_STEPS} chance actions, got a history of {len(history)}")
    return [[int(c) for c in history[p:NUM_DEAL_STEPS:4]] for p in range(4)]


def openspiel_legal_mask(game: SpadesGame) -> int:
    """The legal set OpenSpiel would give in this game state, as a bitmask over our action ids.

    It is our legal set narrowed by OpenSpiel's two legality deviations:
    a bid may not bring the partners' sum above 13, and a spade may be led
    only by a player who holds nothing else (OpenSpiel never marks spades
    broken). Valid for four-player games with ``blind_nil=False``.
    """
    legal = game.legal_mask()
    if game.phase == Phase.BID:
        partner_bid = game.bids[game.partner(game.current_player)]
        if partner_bid is not None:  # bids 0 .. 13 - partner_bid
            legal &= (1 << (BID_BASE + MAX_BID - partner_bid + 1)) - 1
    elif game.phase == Phase.PLAY and not game.trick:
        legal = (legal & ~SPADE_MASK) or legal
    return legal


@dataclass(frozen=True)
class OpenSpielSidePoints:
    """One partnership's hand score under OpenSpiel's rule, split like our ``SideScore``."""

    contract: int  # +-10 per contracted trick
    overtricks: int  # +1 per trick over the contract, only when made
    nil: int  # +-100 per Nil bidder
    bag_penalty: int  # -100 per 10 bags, only when made
    counted_tricks: int  # every trick of the partnership, failed Nil bidder's included

    @property
    def total(self) -> int:
        return self.contract + self.overtricks + self.nil + self.bag_penalty


def openspiel_side_points(bids: Sequence[int], tricks: Sequence[int], score_before: int) -> OpenSpielSidePoints:
    """OpenSpiel's hand score for one partnership, as its ``spades_scoring.cc`` computes it.

    ``bids`` and ``tricks`` are the two partners'; ``score_before`` the
    partnership's running score, whose last digit OpenSpiel reads as its
    bags with C++ ``%`` (negative for a negative score: -37 gives -7 bags)
    and ``/`` (truncating toward zero). This models the peer; it is not
    this project's rule.
    """
    contract = sum(bids)
    counted = sum(tricks)
    nil = sum(-100 if t > 0 else 100 for b, t in zip(bids, tricks) if b == 0)
    over = counted - contract
    if over < 0:
        return OpenSpielSidePoints(-10 * contract, 0, nil, 0, counted)
    bags = int(math.fmod(score_before, 10)) + over
    return OpenSpielSidePoints(10 * contract, over, nil, -100 * int(bags / 10), counted)
