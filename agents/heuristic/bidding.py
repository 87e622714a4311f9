"""Hand evaluation for the heuristic: expected tricks, Nil risk, and the bidding-phase decisions.

Trick counting follows the usual Spades rules of thumb, written as numbers
so they apply to both variants: a card whose higher cards are all out of the
others' hands is a near-sure trick; a card with ``h`` higher cards outside
needs ``h`` guards below it (Kx, Qxx) or luck; side-suit winners lose value
in later rounds, when someone may ruff; spare small spades ruff short side
suits; long spades take the last tricks. In the two-player game an outside
card is in the opponent's hand only one time in three (26 cards are out of
play), so honours are worth more and ruffing less.

The constants were set by hand and checked against self-play (mean bid vs
tricks taken, set rate, Nil success), not fitted to a data set.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from spades_env.bitscan import popcount
from spades_env.cards import (
    ACE,
    NUM_CARDS,
    RANK_OF,
    SPADES,
    SUIT_MASKS,
    SUIT_OF,
    cards_of,
    mask_of,
)
from spades_env.scoring import BLIND_NIL_BONUS
from spades_env.view import PlayerView

from .params import DEFAULT, Params

# Chance that a side-suit winner of round r (1, 2, 3, >=4) survives a ruff, by my length in the suit.
_ROUND_SAFE_4P = {1: (1.0, 1.0, 1.0, 1.0, 1.0, 0.95, 0.9),
                  2: (0.9, 0.9, 0.9, 0.9, 0.85, 0.7, 0.45),
                  3: (0.5, 0.5, 0.5, 0.45, 0.3, 0.15, 0.1),
                  4: (0.15, 0.15, 0.15, 0.15, 0.1, 0.05, 0.05)}
_ROUND_SAFE_2P = {1: 1.0, 2: 0.95, 3: 0.85, 4: 0.7, 5: 0.55}
# Nil danger of a card by rank (2..A), for side suits and for spades.
_NIL_SIDE = (0.0, 0.0, 0.0, 0.0, 0.01, 0.02, 0.04, 0.08, 0.15, 0.25, 0.4, 0.6, 0.85)
_NIL_SPADE = (0.04, 0.04, 0.05, 0.06, 0.08, 0.1, 0.14, 0.2, 0.3, 0.45, 0.65, 0.85, 1.0)


@njit(cache=True, inline="always")
def higher_mask(card: int) -> int:
    """Cards of the same suit ranked above ``card`` (compiled: the card play reads it too)."""
    return SUIT_MASKS[card // 13] & ~((1 << (card + 1)) - 1)


@njit(cache=True, inline="always")
def lower_mask(card: int) -> int:
    """Cards of the same suit ranked below ``card``."""
    return SUIT_MASKS[card // 13] & ((1 << card) - 1)


def _outside_higher(card: int, hand: int) -> int:
    return (higher_mask(card) & ~hand).bit_count()


def spade_values(hand: int, num_players: int) -> list[float]:
    """Trick value of each of my spades, highest first."""
    spades = sorted(cards_of(hand & SUIT_MASKS[SPADES]), reverse=True)
    p_opp = 2 / 3 if num_players == 4 else 1 / 3
    values = []
    for i, card in enumerate(spades):
        h = _outside_higher(card, hand)
        guards = len(spades) - 1 - i
        if h == 0:
            v = 1.0
        elif h <= guards:
            v = max(0.3, 0.9 - 0.15 * (h - 1)) if num_players == 4 else max(0.5, 0.95 - 0.1 * (h - 1))
        else:
            v = (1 - p_opp) ** (h - guards) * (0.7 if num_players == 4 else 0.9)
        values.append(v)
    return values


def side_suit_value(hand: int, suit: int, num_players: int) -> float:
    cards = sorted(cards_of(hand & SUIT_MASKS[suit]), reverse=True)
    n_s = len(cards)
    total = 0.0
    for i, card in enumerate(cards):
        h = _outside_higher(card, hand)
        guards = n_s - 1 - i
        rnd = i + 1 + min(h, guards)
        if num_players == 4:
            if h == 0:
                base = 0.95
            elif h <= guards:
                base = (0.0, 0.6, 0.35, 0.15)[h] if h <= 3 else 0.0
            else:
                base = 0.0
            total += base * _ROUND_SAFE_4P[min(rnd, 4)][min(n_s, 7) - 1]
        else:
            base = (2 / 3) ** max(0, h - guards) * (1.0 if h <= guards else 0.85)
            if h - guards >= 3:
                base = 0.0
            total += base * _ROUND_SAFE_2P[min(rnd, 5)]
    return total


def estimate_tricks(hand: int, num_players: int = 4) -> float:
    """Expected tricks this hand takes on its own (before any bid of the partner)."""
    values = spade_values(hand, num_players)
    tricks = sum(v for v in values if v >= 0.5)
    spare = [v for v in values if v < 0.5]
    side = 0.0
    ruff_chances = 0.0
    for s in range(3):
        n_s = (hand & SUIT_MASKS[s]).bit_count()
        side += side_suit_value(hand, s, num_players)
        if num_players == 4:
            ruff_chances += (1.1, 0.8, 0.35)[n_s] if n_s < 3 else 0.0
        else:
            ruff_chances += (1.0, 0.6, 0.25)[n_s] if n_s < 3 else 0.0
    ruffs = min(len(spare), ruff_chances)
    left = len(spare) - ruffs
    long_spades = len(values) - 4 if num_players == 4 else len(values) - 5
    length = max(0.0, min(left, long_spades)) * (0.75 if num_players == 4 else 0.6)
    unused = max(0.0, left - max(0, long_spades))
    small = sum(sorted(spare)[: int(unused)]) if unused else 0.0
    return tricks + side + ruffs + length + small


def nil_risk(hand: int) -> float:
    """Rough danger of taking a trick with this hand when bidding Nil (a sum of per-card dangers)."""
    risk = 0.0
    for s in range(4):
        cards = sorted(cards_of(hand & SUIT_MASKS[s]))
        for lows, card in enumerate(cards):
            rank = RANK_OF[card]
            if s == SPADES:
                risk += _NIL_SPADE[rank] * 0.7 ** lows
            else:
                danger = _NIL_SIDE[rank]
                floor = 0.35 * danger if rank == ACE else 0.0  # an ace escapes only by discarding it
                risk += max(floor, danger * 0.45 ** lows)
        if s == SPADES:
            risk += 0.25 * max(0, len(cards) - 3)
    return risk


@njit(cache=True)
def card_nil_danger(card: int, hand: int) -> float:
    """One card's share of :func:`nil_risk` (what a Nil bidder most wants to get rid of). Compiled: the card
    play (:mod:`.play`) calls it too."""
    suit, rank = card // 13, card % 13
    lows = popcount(hand & lower_mask(card))
    if suit == SPADES:
        return _NIL_SPADE[rank] * math.pow(0.7, float(lows)) + 0.01
    return _NIL_SIDE[rank] * math.pow(0.45, float(lows)) + rank * 1e-3


# ------------------------------------------------------------------ decisions


def _side_totals(view: PlayerView) -> tuple[int, int]:
    us = view.scores[view.side]
    them = view.scores[1 - view.side]
    return us, them


def blind_nil_gain(view: PlayerView, params: Params = DEFAULT) -> float:
    """Expected points a Blind Nil adds to my side's hand over looking at my cards and bidding them.

    Made, it scores ``BLIND_NIL_BONUS``; set, it costs as much: ``(2p - 1)`` times the bonus at a success rate
    ``p``; looking instead earns a hand's usual margin. Where a set would drop my side to the mercy
    threshold, the set loses the game: it costs the whole target instead.
    """
    four = view.num_players == 4
    if view.config.blind_nil_exchange:
        p = params.blind_nil_success_4p if four else params.blind_nil_success_2p
    else:
        p = params.blind_nil_unexchanged_4p if four else params.blind_nil_unexchanged_2p
    looked = params.looked_hand_points_4p if four else params.looked_hand_points_2p
    us, _ = _side_totals(view)
    mercy = view.config.mercy_threshold
    lost = view.config.target_score if mercy is not None and us - BLIND_NIL_BONUS <= mercy else BLIND_NIL_BONUS
    return p * BLIND_NIL_BONUS - (1 - p) * lost - looked


def want_blind_nil(view: PlayerView, params: Params = DEFAULT) -> bool:
    """Blind Nil when my partner has not bid Nil and either it is worth more than looking by
    ``params.blind_nil_margin`` (:func:`blind_nil_gain`; heuristic-v2) or my side is far behind, when a
    normal game will probably be lost anyway (heuristic-v1's only rule)."""
    us, them = _side_totals(view)
    target = view.config.target_score
    if view.partner is not None and view.bids[view.partner] is not None and view.bids[view.partner] == 0:
        return False  # partner already bid Nil or Blind Nil: nobody would cover
    if params.blind_nil_margin is not None and blind_nil_gain(view, params) >= params.blind_nil_margin:
        return True
    deficit = them - us
    if view.num_players == 2:
        far = params.blind_nil_deficit_2p
        return far is not None and deficit >= far and them >= target - params.blind_nil_near_target_2p
    far = params.blind_nil_deficit_4p
    return far is not None and (deficit >= far or (deficit >= far // 2 and
                                                    them >= target - params.blind_nil_near_target_4p))


def bids_nil(hand: int, num_players: int, partner_bid: int | None, behind: int, params: Params = DEFAULT) -> bool:
    """Whether the heuristic bids Nil with ``hand`` (Nil allowed, its partner not in Nil): a ducking hand (Nil danger
    at most the threshold) worth few tricks; the threshold higher beside a partner who bid enough to cover
    (``partner_bid``, None before it bids) and ``behind`` (my side's deficit) far enough. The search's worlds model
    an opposing Nil bidder with it too (``nil_fit``)."""
    threshold = params.nil_risk_4p if num_players == 4 else params.nil_risk_2p
    if partner_bid is not None and partner_bid >= params.nil_cover_bid:
        threshold += params.nil_cover_risk  # a strong partner can cover
    if behind >= params.nil_behind:
        threshold += params.nil_behind_risk  # behind: take more risk
    return estimate_tricks(hand, num_players) <= params.nil_max_tricks and nil_risk(hand) <= threshold


def choose_bid(view: PlayerView, hand: int, params: Params = DEFAULT, jitter: float = 0.0) -> int:
    """A bid 0..13 for ``hand`` given the table: Nil with ducking hands, else the expected tricks, rounded.

    ``jitter`` (small, random) moves hands that sit on a rounding boundary.
    """
    n = view.num_players
    est = estimate_tricks(hand, n)
    partner = view.partner
    partner_bid = None if partner is None else view.bids[partner]
    partner_blind = partner is not None and view.blind[partner]
    us, them = _side_totals(view)
    target = view.config.target_score
    bags = view.bags[view.side]
    limit = view.config.bag_limit

    if view.config.nil and partner_bid != 0 and bids_nil(hand, n, partner_bid, them - us, params):
        return 0

    if partner_blind and view.config.blind_nil_exchange:
        est += params.blind_partner_tricks  # I will swap three of my lowest cards for my partner's three best
    margin = -(params.bid_shift_4p if n == 4 else params.bid_shift_2p) - jitter
    if bags >= limit - params.near_bag_limit:
        margin -= params.near_bag_limit_margin  # close to the bag penalty: bid closer to what the hand takes
    if us + 10 * max(1, round(est)) >= target and us > them:
        margin += params.winning_margin  # making a modest bid wins the game: do not risk a set
    if them >= target - params.losing_distance and them > us:
        margin -= params.losing_margin  # they are about to win: we need the points
    others = sum(b for b in view.bids if b is not None)
    overflow = others + est - 13
    if overflow > 0:
        est -= params.overbid_discount * overflow  # the table has promised more tricks than there are
    bid = int(est + 0.5 - margin)
    return max(1, min(13, bid))


def choose_pass(view: PlayerView, hand: int) -> int:
    """Blind Nil exchange: the bidder passes back its most dangerous cards; the partner passes its lowest."""
    me = view.seat
    return bidder_pass(hand) if view.blind[me] and view.bids[me] == 0 else partner_pass(hand)


def bidder_pass(hand: int) -> int:
    """The card a Blind Nil bidder passes back: its most dangerous."""
    return max(cards_of(hand), key=lambda c: card_nil_danger(c, hand))


def partner_pass(hand: int) -> int:
    """The card a Blind Nil bidder's partner passes: its lowest, keeping spades (and so ruffing power) when it can."""
    return min(cards_of(hand), key=lambda c: RANK_OF[c] + (6 if SUIT_OF[c] == SPADES else 0))


def exchange(bidder: int, partner: int, cards: int) -> tuple[int, int]:
    """The two hands (masks) after a Blind Nil exchange of ``cards`` each way by :func:`choose_pass`'s rule,
    in the engine's order: the partner passes first, then the bidder."""
    for _ in range(cards):
        card = partner_pass(partner)
        partner, bidder = partner & ~(1 << card), bidder | 1 << card
    for _ in range(cards):
        card = bidder_pass(bidder)
        bidder, partner = bidder & ~(1 << card), partner | 1 << card
    return bidder, partner


def keep_value(card: int) -> float:
    """Two-player draw: how much a card is worth to a hand that plays for tricks."""
    rank = RANK_OF[card]
    if SUIT_OF[card] == SPADES:
        return 0.45 + 0.045 * rank
    return (0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.1, 0.2, 0.35, 0.6, 0.9)[rank]


KEEP_VALUES = np.array([keep_value(card) for card in range(NUM_CARDS)])


def keep_offered(card: int, seen: int) -> bool:
    """Keep the offered card when it beats the average of a card still unseen (which I must keep otherwise)."""
    return keep_offered_by(card, seen, KEEP_VALUES)


@njit(cache=True)
def keep_offered_by(card: int, seen: int, values: np.ndarray) -> bool:
    """:func:`keep_offered` on ``values`` (:data:`KEEP_VALUES`), compiled: a search's model of the other player's
    draw asks it thousands of times a hand. The unseen cards are summed in card order, so the average is the
    same float as a Python sum of them gives."""
    total, count = 0.0, 0
    for c in range(NUM_CARDS):
        if not seen >> c & 1 and c != card:
            total += values[c]
            count += 1
    return values[card] >= total / max(1, count)


@njit(cache=True)
def drawn_hand(order: np.ndarray, values: np.ndarray) -> int:
    """The hand (a mask) a player keeping by :func:`keep_offered_by` keeps from its turns' cards in ``order`` (each
    turn offers the first of its two cards: kept, the second seen and dropped; or dropped, the second kept)."""
    hand = seen = 0
    for turn in range(len(order) // 2):
        first, second = order[2 * turn], order[2 * turn + 1]
        if keep_offered_by(first, hand | seen, values):
            hand, seen = hand | 1 << first, seen | 1 << second
        else:
            hand, seen = hand | 1 << second, seen | 1 << first
    return hand


@njit(cache=True)
def kept_counts(orders: np.ndarray, values: np.ndarray) -> np.ndarray:
    """How many of the draws (the rows of ``orders``, as :func:`drawn_hand` reads them) keep each card."""
    kept = np.zeros(NUM_CARDS, np.int64)
    for row in range(orders.shape[0]):
        hand = drawn_hand(orders[row], values)
        for card in range(NUM_CARDS):
            kept[card] += hand >> card & 1
    return kept


def choose_replacement(view: PlayerView, hand: int, params: Params = DEFAULT) -> int | None:
    """Two-player Blind Nil: the card to put back (the most dangerous), or None to stop."""
    # The draw comes from the discard pile: every card I do not hold may be there, except the ones
    # I put back (a Blind Nil bidder drew without looking, so it knows nothing more).
    returned = mask_of(c for c, _ in view.replacements)
    pile_cards = [c for c in range(NUM_CARDS) if not (hand | returned) >> c & 1]
    if not pile_cards:
        return None
    expected = sum(card_nil_danger(c, hand) for c in pile_cards) / len(pile_cards)
    worst = max(cards_of(hand), key=lambda c: card_nil_danger(c, hand))
    return worst if card_nil_danger(worst, hand) > expected + params.replace_margin else None
