"""Card play for the heuristic: the classic rules of Spades, driven by card counting.

Each decision first settles what this trick is for (the *plan*): a Nil
bidder ducks; the partner of a live Nil covers it; otherwise a side that
still needs tricks tries to win, a side that has made its contract ducks to
avoid bags unless the opponents can still be set, and a live Nil on the other
side is attacked. Then the card follows the usual rules: second hand low,
third hand high, win as cheaply as possible (the lowest of equivalent cards),
do not overtake a partner who is winning safely, trump when the trick is
wanted, cash sure winners, lead to the partner's voids and strength, shed
high cards when ducking. "Safely" and "sure" come from card counting (the
``_p_*`` functions): the chance that the opponents still to play can beat a
card, given the cards out and the known voids.

Card counting: which cards are still out, who may hold them (a seat that
showed out of a suit holds none of it; cards I passed to my partner are known
to be there), and, from that, rough probabilities that a seat holds a card,
can beat a card, or is void. Unknown cards are spread over the seats that may
hold them in proportion to how many unknown cards each holds (the usual
"vacant places" estimate, with cards treated as independent). In the
two-player game the undisclosed part of the discard pile takes a place like a
seat that never plays. Only the view is read, never the engine: this is
exactly what a player at the table knows.

Why compiled (numba): the heuristic is the training's opponent and teacher,
the tournaments' reference and the search agent's fallback, and a card
decision took 33-76 µs in Python (the host's speed varies), the largest part of a training worker's time. The
rules read as they did in Python; what changed is the representation: card
lists are 52-bit masks walked from the lowest card up (the order of the
view's legal actions, so that ties go where ``min``/``max`` sent them), seats
and the pile are holders 0-4, and the tuple keys of the sorts are packed into
integers or compared field by field. Powers go through ``math.pow`` (the C
library's ``pow``, which Python's ``**`` on floats calls) and ``round(p, 2)`` is done on
the float's exact binary value (:func:`_round2`), so the decisions are
Python's to the bit (``tests/test_agents.py`` pins them).
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numba import njit

from spades_env.bitscan import highest_card, lowest_card, popcount
from spades_env.cards import KING, NUM_CARDS, QUEEN, SPADES, SUIT_MASKS, SUIT_OF, TRICK_POWER, mask_of
from spades_env.view import PlayerView

from .bidding import card_nil_danger, higher_mask, lower_mask
from .params import DEFAULT, Params
from .reading import nil_ducks

_SUIT_MASKS = np.array(SUIT_MASKS, np.int64)
_SPADE_MASK = SUIT_MASKS[SPADES]
_FULL_DECK = (1 << NUM_CARDS) - 1
_POWER = TRICK_POWER
PILE = 4  # the undisclosed discard pile (two players): a holder that never plays

# The decision's inputs, one int64 array (one argument: numba checks each argument's type on every call).
ME, N, PARTNER, HAND, LEGAL, PASSED, DISCARDED, PILE_SIZE, LOOKED, PARTNER_LED, TRICK_LEN = range(11)
TRICK_SEATS, TRICK_CARDS, PLAYED_BY, VOIDS, BIDS, TRICKS, BLIND, RULED_OUT = 11, 15, 19, 23, 27, 31, 35, 36
STATE_SIZE = 40  # RULED_OUT: per seat, cards counted out of its hand by what it played (reading.nil_ducks)
# The parameters, one float64 array (the order of _params_array).
(SAFE, PARTNER_SAFE, HOPELESS, COVER_HONOUR_RANK, COVER_RUFF_MAX_RANK, NIL_ATTACK_SUIT, PARTNER_RUFF,
 OPPONENT_RUFF, SET_SLACK, ATTACK_SLACK, ATTACK_BLIND_NIL, ATTACK_FOLLOW) = range(12)


# ------------------------------------------------------------------ cards


@njit(cache=True, inline="always")
def _suit(card: int) -> int:
    return card // 13


@njit(cache=True, inline="always")
def _rank(card: int) -> int:
    return card % 13


@njit(cache=True, inline="always")
def _has(mask: int, card: int) -> bool:
    return (mask >> card) & 1 == 1


@njit(cache=True)
def _round2(x: float) -> int:
    """``round(x, 2) * 100`` as an integer, exactly as Python rounds (half to even on the exact binary value)."""
    if x == 0.0:
        return 0
    negative = x < 0.0
    fraction, exponent = math.frexp(abs(x))  # |x| = fraction * 2**exponent, 0.5 <= fraction < 1
    scaled = np.int64(fraction * 9007199254740992.0) * 100  # the mantissa (53 bits) times 100: below 2**60
    shift = 53 - exponent
    if shift >= 62:
        return 0  # |x| * 100 < 0.5
    if shift <= 0:
        k = scaled << -shift
    else:
        k = scaled >> shift
        rest = scaled - (k << shift)
        half = np.int64(1) << (shift - 1)
        if rest > half or (rest == half and k & 1):
            k += 1
    return -k if negative else k


@njit(cache=True)
def _trick_winner(st, card: int, with_me: bool) -> int:
    """The seat winning the current trick, with my ``card`` added when ``with_me``."""
    size = st[TRICK_LEN]
    led = _suit(st[TRICK_CARDS])
    best_seat, best = st[TRICK_SEATS], 0
    for i in range(size):
        power = _POWER[led, st[TRICK_CARDS + i]]
        if power > best:
            best_seat, best = st[TRICK_SEATS + i], power
    if with_me and _POWER[led, card] > best:
        best_seat = st[ME]
    return best_seat


# ------------------------------------------------------------------ card counting

# A decision's context ``cx`` (int64), worked out once per decision in :func:`choose`: card counting (the cards unseen,
# per holder the cards it may hold and those known to be there), the plan, and the seats around me.
UNSEEN, LOW_UNSEEN, POSSIBLE, KNOWN = 0, 1, 2, 7  # LOW_UNSEEN: unseen or in the trick (equivalent cards)
MODE, WANT, ATTACK, NEED, REMAINING = 12, 13, 14, 15, 16  # ATTACK: the other side's seats with a live Nil
AFTER, N_AFTER, OPP_AFTER, OTHERS, OPPONENTS, N_OPP = 17, 20, 21, 22, 25, 27  # seats in turn order from me
CONTEXT_SIZE = 28
NORMAL, MY_NIL, COVER = 0, 1, 2  # the plan's modes: try to win (or duck) as needed, duck my Nil, cover partner's


@njit(cache=True)
def _count(st, cx, share) -> None:
    """Card counting: writes UNSEEN, POSSIBLE, KNOWN of ``cx`` and each holder's ``share[holder, suit]`` of
    the suit's unknown cards (its free places, among the holders who may hold one)."""
    n, me, partner = st[N], st[ME], st[PARTNER]
    played = 0
    for p in range(n):
        played |= st[PLAYED_BY + p]
    out = played | st[HAND]
    if partner >= 0:
        cx[KNOWN + partner] = st[PASSED] & ~st[PLAYED_BY + partner]
    if n == 2:
        # Cards I saw go to the discard pile are out of play (an opponent's Blind Nil replacement could draw
        # one back: too rare to track).
        out |= st[DISCARDED]
    unseen = _FULL_DECK & ~out
    cx[UNSEEN] = unseen
    known_all = cx[KNOWN] | cx[KNOWN + 1] | cx[KNOWN + 2] | cx[KNOWN + 3]
    slots = np.full(5, -1, np.int64)  # -1: not a holder (me, the seats of the other variant, the pile)
    for k in range(1, n):
        p = (me + k) % n
        void_mask = 0
        for s in range(4):
            if (st[VOIDS + p] >> s) & 1:
                void_mask |= _SUIT_MASKS[s]
        cx[POSSIBLE + p] = (unseen & ~void_mask & ~known_all & ~st[RULED_OUT + p]) | cx[KNOWN + p]
        slots[p] = max(0, 13 - popcount(st[PLAYED_BY + p]) - popcount(cx[KNOWN + p]))
    if n == 2 and st[LOOKED]:
        slots[PILE] = max(0, st[PILE_SIZE] - popcount(st[DISCARDED]))
        cx[POSSIBLE + PILE] = unseen & ~known_all
    for s in range(4):
        total = 0
        for h in range(5):
            if slots[h] > 0 and cx[POSSIBLE + h] & _SUIT_MASKS[s] & ~cx[KNOWN + h]:
                total += slots[h]
        for h in range(5):
            if total and slots[h] > 0 and cx[POSSIBLE + h] & _SUIT_MASKS[s] & ~cx[KNOWN + h]:
                share[h, s] = slots[h] / total


@njit(cache=True)
def _p_has_any(cx, share, p: int, cards: int) -> float:
    """Probability that holder ``p`` holds at least one of ``cards``."""
    cards &= cx[POSSIBLE + p]
    if not cards:
        return 0.0
    if cards & cx[KNOWN + p]:
        return 1.0
    none = 1.0
    for s in range(4):
        k = popcount(cards & _SUIT_MASKS[s])
        if k:
            none *= math.pow(1.0 - share[p, s], float(k))
    return 1.0 - none


@njit(cache=True)
def _p_void(cx, share, p: int, suit: int) -> float:
    return 1.0 - _p_has_any(cx, share, p, _SUIT_MASKS[suit])


@njit(cache=True)
def _p_beats(cx, share, p: int, best: int, led: int) -> float:
    """Probability that ``p``, playing after ``best`` currently wins a trick led in suit ``led``, can beat it."""
    if _suit(best) == led:
        higher = _p_has_any(cx, share, p, higher_mask(best))
        if led == SPADES:
            return higher
        ruff = _p_void(cx, share, p, led) * _p_has_any(cx, share, p, _SPADE_MASK)
        return min(1.0, higher + ruff)
    # best is a trump on a side-suit lead: p must be void in the led suit and hold a higher spade
    return _p_void(cx, share, p, led) * _p_has_any(cx, share, p, higher_mask(best))


@njit(cache=True)
def _survives(st, cx, share, card: int, in_trick: bool, first: int, count: int) -> float:
    """Probability that ``card`` (played into the current trick when ``in_trick``, else led) is not beaten by
    the opponents among the ``count`` seats of ``cx`` from index ``first``."""
    me = st[ME]
    if in_trick:
        led = _suit(st[TRICK_CARDS])
        if _trick_winner(st, card, True) != me:
            return 0.0
    else:
        led = _suit(card)
    prob = 1.0
    for i in range(count):
        p = cx[first + i]
        if p % 2 != me % 2:
            prob *= 1.0 - _p_beats(cx, share, p, card, led)
    return prob


@njit(cache=True)
def _taken(cx, share, card: int, first: int, count: int) -> float:
    """Probability that one of the ``count`` seats of ``cx`` from ``first`` beats my lead ``card``."""
    keep = 1.0
    for i in range(count):
        keep *= 1.0 - _p_beats(cx, share, cx[first + i], card, _suit(card))
    return 1.0 - keep


@njit(cache=True)
def _is_boss(card: int, unseen: int) -> bool:
    """No card above ``card`` in its suit is held by another seat."""
    return not (higher_mask(card) & unseen)


# ------------------------------------------------------------------ the decision


@njit(cache=True)
def choose(st, params) -> int:
    """The heuristic's card for the decision ``st`` (the layout of :func:`_state`) under ``params``."""
    cx = np.zeros(CONTEXT_SIZE, np.int64)
    share = np.zeros((5, 4))
    _count(st, cx, share)
    _plan(st, params, cx)
    _seats(st, cx)
    if st[TRICK_LEN] == 0:
        return _lead(st, params, cx, share)
    return _follow(st, params, cx, share)


@njit(cache=True)
def _plan(st, params, cx) -> None:
    """What this trick is for: MODE, WANT (try to win it), ATTACK, NEED (tricks my side still needs for its
    contract), REMAINING (tricks left, this one included)."""
    n, me, partner = st[N], st[ME], st[PARTNER]
    contract = counted = opp_contract = opp_counted = tricks_all = attack = 0
    for p in range(n):
        bid, won = st[BIDS + p], st[TRICKS + p]
        tricks_all += won
        if p % 2 == me % 2:
            if bid:
                contract += bid
                counted += won
        elif bid:
            opp_contract += bid
            opp_counted += won
        elif won == 0 and (params[ATTACK_BLIND_NIL] or not (st[BLIND] >> p) & 1):
            attack |= 1 << p
    remaining = 13 - tricks_all
    need = contract - counted
    opp_need = opp_contract - opp_counted
    mode = NORMAL
    if st[BIDS + me] == 0 and st[TRICKS + me] == 0:
        mode, want = MY_NIL, False
    elif partner >= 0 and st[BIDS + partner] == 0 and st[TRICKS + partner] == 0:
        mode, want = COVER, need > 0
    else:
        # Contract made: duck (every extra trick is a bag) unless the opponents can still be set.
        want = need > 0 or (0 < opp_need <= remaining and remaining - opp_need <= params[SET_SLACK])
        if st[BIDS + me] == 0:  # my own Nil failed: my tricks are only bags now
            want = want and need <= 0
    cx[MODE], cx[WANT], cx[ATTACK], cx[NEED], cx[REMAINING] = mode, want, attack, need, remaining


@njit(cache=True)
def _seats(st, cx) -> None:
    """The seats after me in this trick (AFTER, how many of them are opponents), the other seats (OTHERS) and
    the opponents, in turn order from me; LOW_UNSEEN."""
    n, me, size = st[N], st[ME], st[TRICK_LEN]
    cx[N_AFTER] = n - size - 1
    for i in range(n - size - 1):
        cx[AFTER + i] = p = (me + 1 + i) % n
        cx[OPP_AFTER] += p % 2 != me % 2
    for k in range(1, n):
        cx[OTHERS + k - 1] = p = (me + k) % n
        if p % 2 != me % 2:
            cx[OPPONENTS + cx[N_OPP]] = p
            cx[N_OPP] += 1
    low_unseen = cx[UNSEEN]
    for i in range(size):
        low_unseen |= np.int64(1) << st[TRICK_CARDS + i]
    cx[LOW_UNSEEN] = low_unseen


@njit(cache=True)
def _can_attack(st, params, cx) -> bool:
    """Attacking a Nil gives up tricks: only while our own contract looks safe (give or take ATTACK_SLACK)."""
    if cx[NEED] <= params[ATTACK_SLACK]:
        return True
    bosses = 0
    m = st[LEGAL]
    while m:
        c = lowest_card(m)
        m &= m - 1
        bosses += _is_boss(c, cx[UNSEEN])
    return cx[NEED] < bosses + popcount(st[HAND] & _SPADE_MASK) // 2 + params[ATTACK_SLACK]


# ------------------------------------------------------------------ choosing among cards


@njit(cache=True)
def _low_of(st, cx, card: int) -> int:
    """The lowest card of my hand equivalent to ``card``: same power, cheaper (no card still out, nor one in
    the current trick, lies between them)."""
    hand, unseen = st[HAND], cx[LOW_UNSEEN]
    best = card
    c = card - 1
    floor = _suit(card) * 13
    while c >= floor:
        if _has(hand, c):
            best = c
        elif _has(unseen, c):
            break
        c -= 1
    return best


@njit(cache=True)
def _by_power(cards: int, highest: bool) -> int:
    """The card of ``cards`` lowest (or highest) by (spade, rank), the first in card order among equals."""
    best, best_key = -1, 0
    m = cards
    while m:
        c = lowest_card(m)
        m &= m - 1
        key = (_suit(c) == SPADES) * 16 + _rank(c)
        if best < 0 or (key > best_key if highest else key < best_key):
            best, best_key = c, key
    return best


@njit(cache=True)
def _cheapest(st, cx, cards: int) -> int:
    """The lowest card, preferring a side-suit card to a spade of the same use."""
    return _low_of(st, cx, _by_power(cards, False))


@njit(cache=True)
def _highest(cards: int) -> int:
    """The highest card, a spade above any side-suit card."""
    return _by_power(cards, True)


@njit(cache=True)
def _discard_junk(st, cx, cards: int) -> int:
    """A card worth nothing: low, from a short side suit (to make a void), never a boss if avoidable."""
    best, best_key = -1, 1 << 30
    m = cards
    while m:
        c = lowest_card(m)
        m &= m - 1
        key = (((_suit(c) == SPADES) * 2 + _is_boss(c, cx[UNSEEN])) * 16 + _rank(c)) * 16 \
            + popcount(st[HAND] & _SUIT_MASKS[_suit(c)])
        if key < best_key:
            best, best_key = c, key
    return _low_of(st, cx, best)


@njit(cache=True)
def _discard_winner(cx, cards: int) -> int:
    """Ducking: throw the card most likely to win a later trick (side-suit honours before spades)."""
    best, best_key = -1, -1
    m = cards
    while m:
        c = lowest_card(m)
        m &= m - 1
        key = ((_suit(c) != SPADES) * 2 + _is_boss(c, cx[UNSEEN])) * 16 + _rank(c)
        if key > best_key:
            best, best_key = c, key
    return best


# ------------------------------------------------------------------ follow


@njit(cache=True)
def _follow(st, params, cx, share) -> int:
    me, partner, legal = st[ME], st[PARTNER], st[LEGAL]
    led = _suit(st[TRICK_CARDS])
    winners = 0  # my legal cards that would win the trick now
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - 1
        if _trick_winner(st, c, True) == me:
            winners |= np.int64(1) << c
    losers = legal & ~winners
    following = bool(legal & _SUIT_MASKS[led])
    winner_seat = _trick_winner(st, 0, False)  # the seat winning the trick so far, and its card
    best = -1
    for i in range(st[TRICK_LEN]):
        if st[TRICK_SEATS + i] == winner_seat:
            best = st[TRICK_CARDS + i]
    if cx[MODE] == MY_NIL:
        return _follow_nil(st, cx, winners, losers, following)
    if cx[MODE] == COVER:
        card = _follow_cover(st, params, cx, winners, following, winner_seat, best)
        if card >= 0:
            return card
    card = _follow_attack(st, params, cx, winners, losers, following, winner_seat)
    if card >= 0:
        return card
    if winner_seat == partner:
        return _follow_partner_winning(st, params, cx, share, winners, losers, following, best)
    # An opponent is winning (or nobody has played a winner yet).
    if not cx[WANT]:
        return _duck(cx, winners, losers, following)
    if winners:
        return _win_safely(st, params, cx, share, winners, losers, following)
    return _shed_low(st, cx, losers, following)


@njit(cache=True)
def _follow_nil(st, cx, winners: int, losers: int, following: bool) -> int:
    """My Nil: the highest card that stays under; void, the most dangerous one."""
    if not losers:
        return _win_anyway(cx, winners)
    if following:
        return highest_card(losers)
    top, top_danger = -1, -1.0
    m = losers
    while m:
        c = lowest_card(m)
        m &= m - 1
        danger = card_nil_danger(c, st[HAND])
        if danger > top_danger:
            top, top_danger = c, danger
    return top


@njit(cache=True)
def _follow_cover(st, params, cx, winners: int, following: bool, winner_seat: int, best: int) -> int:
    """My partner's Nil: overtake its winning card, or win before it plays; -1 when neither applies."""
    partner, led = st[PARTNER], _suit(st[TRICK_CARDS])
    partner_played = False
    for i in range(st[TRICK_LEN]):
        partner_played |= st[TRICK_SEATS + i] == partner
    if partner_played:
        if winner_seat == partner and winners:
            return _cheapest(st, cx, winners)  # take my partner's Nil off the hook
    elif following:
        if winners:
            return _highest(st[LEGAL] & _SUIT_MASKS[led])
    elif led != SPADES and _suit(best) != SPADES and _rank(best) <= params[COVER_RUFF_MAX_RANK]:
        if winners & _SPADE_MASK:
            return _cheapest(st, cx, winners & _SPADE_MASK)  # ruff a low trick so my partner can duck anything
    return -1


@njit(cache=True)
def _follow_attack(st, params, cx, winners: int, losers: int, following: bool, winner_seat: int) -> int:
    """A live Nil on the other side: let it win, or keep a card to beat it low; -1 when not attacking."""
    attack = cx[ATTACK]
    if (attack >> winner_seat) & 1 and losers and cx[NEED] < cx[REMAINING]:
        # The Nil is winning: let it (highest card that stays under). Busting it is worth 100 points and a
        # bag, more than the trick costs unless we need every trick.
        return _under(cx, losers, following)
    if attack and params[ATTACK_FOLLOW] and _can_attack(st, params, cx):
        for i in range(cx[N_AFTER]):
            target = cx[AFTER + i]
            if (attack >> target) & 1:
                # The Nil plays after me: is its cover done (its partner has played, or plays after it)?
                if st[N] == 4:
                    for j in range(i):
                        if cx[AFTER + j] == (target + 2) % 4:
                            return -1
                # Nobody will lift the trick for it: keep the card to beat low.
                return _under(cx, losers, following) if losers else _cheapest(st, cx, winners)
    return -1


@njit(cache=True)
def _follow_partner_winning(st, params, cx, share, winners: int, losers: int, following: bool, best: int) -> int:
    """Do not overtake a partner whose card should hold; overtake one likely to be beaten."""
    if not cx[WANT]:
        return _duck(cx, winners, losers, following)
    if cx[OPP_AFTER] and winners:
        holds = _survives_after(st, cx, share, best, cx[ATTACK] if not params[ATTACK_FOLLOW] else 0)
        if holds < params[PARTNER_SAFE]:
            return _win_safely(st, params, cx, share, winners, losers, following)
    return _shed_low(st, cx, losers, following) if losers else _cheapest(st, cx, winners)


@njit(cache=True)
def _survives_after(st, cx, share, best: int, wanted: int) -> float:
    """Chance that the trick's winning card ``best`` is not beaten by the opponents still to play (``wanted``: seats
    whose win we want, Nil bidders under attack, not counted)."""
    led = _suit(st[TRICK_CARDS])
    prob = 1.0
    for i in range(cx[N_AFTER]):
        p = cx[AFTER + i]
        if p % 2 != st[ME] % 2 and not (wanted >> p) & 1:
            prob *= 1.0 - _p_beats(cx, share, p, best, led)
    return prob


@njit(cache=True)
def _under(cx, losers: int, following: bool) -> int:
    """Stay under the trick with the card most worth getting rid of (``losers`` is not empty)."""
    return highest_card(losers) if following else _discard_winner(cx, losers)


@njit(cache=True)
def _duck(cx, winners: int, losers: int, following: bool) -> int:
    return _under(cx, losers, following) if losers else _win_anyway(cx, winners)


@njit(cache=True)
def _shed_low(st, cx, losers: int, following: bool) -> int:
    """A trick I do not contest: my cheapest card of the suit, or junk when void."""
    return _cheapest(st, cx, losers) if following else _discard_junk(st, cx, losers)


@njit(cache=True)
def _win_anyway(cx, winners: int) -> int:
    """Every card wins: the lowest while others still play (one may overtake it), else the highest (shed it)."""
    return lowest_card(winners) if cx[N_AFTER] else highest_card(winners)


@njit(cache=True)
def _win_safely(st, params, cx, share, winners: int, losers: int, following: bool) -> int:
    """Second hand low, third hand high, otherwise the cheapest card likely to hold."""
    ranked = np.empty(13, np.int64)  # the winners by (spade, rank), ties in card order (a stable sort)
    keys = np.empty(13, np.int64)
    count = 0
    m = winners
    while m:
        c = lowest_card(m)
        m &= m - 1
        key = ((_suit(c) == SPADES) * 16 + _rank(c)) * 64 + c
        j = count
        while j > 0 and keys[j - 1] > key:
            keys[j], ranked[j] = keys[j - 1], ranked[j - 1]
            j -= 1
        keys[j], ranked[j] = key, c
        count += 1
    if not cx[OPP_AFTER]:
        return _low_of(st, cx, ranked[0])
    chances = np.empty(13)
    first_safe = -1
    for i in range(count):
        chances[i] = _survives(st, cx, share, ranked[i], True, AFTER, cx[N_AFTER])
        if first_safe < 0 and chances[i] >= params[SAFE]:
            first_safe = i
    if st[N] == 4 and st[TRICK_LEN] == 1 and following:
        # Second hand low (my partner plays last), unless covering an honour with a card that holds.
        led_card = st[TRICK_CARDS]
        if not (_rank(led_card) >= params[COVER_HONOUR_RANK] and first_safe >= 0):
            return _cheapest(st, cx, st[LEGAL] & _SUIT_MASKS[_suit(led_card)])
    if first_safe >= 0:
        return _low_of(st, cx, ranked[first_safe])
    top = 0
    for i in range(1, count):
        if chances[i] > chances[top]:
            top = i
    if chances[top] < params[HOPELESS] and losers:
        return _cheapest(st, cx, losers) if following else _discard_junk(st, cx, losers)
    return _low_of(st, cx, ranked[top])


# ------------------------------------------------------------------ lead


@njit(cache=True)
def _lead(st, params, cx, share) -> int:
    if cx[MODE] == MY_NIL:
        return _lead_nil(st, cx, share)
    if cx[MODE] == COVER:
        return _lead_cover(st, cx, share)
    if cx[ATTACK] and _can_attack(st, params, cx):
        target = lowest_card(cx[ATTACK])  # the first seat (in seat order) with a live Nil
        cands = 0
        m = st[LEGAL]
        while m:
            c = lowest_card(m)
            m &= m - 1
            if _p_has_any(cx, share, target, _SUIT_MASKS[_suit(c)] & cx[UNSEEN]) > params[NIL_ATTACK_SUIT]:
                cands |= np.int64(1) << c
        if cands:
            return _cheapest(st, cx, cands)
    if not cx[WANT]:
        return _lead_duck(st, cx, share)
    card = _lead_cash(st, params, cx, share)
    if card >= 0:
        return card
    side_cards = st[LEGAL] & ~_SPADE_MASK
    if not side_cards:
        return _cheapest(st, cx, st[LEGAL])
    partner = st[PARTNER]
    if partner >= 0 and _p_has_any(cx, share, partner, _SPADE_MASK) > params[PARTNER_RUFF]:
        ruff = 0  # side suits my partner is void in, while it holds a spade
        for s in range(3):
            if (st[VOIDS + partner] >> s) & 1:
                ruff |= side_cards & _SUIT_MASKS[s]
        if ruff:
            return _cheapest(st, cx, ruff)
    return _lead_low(st, params, cx, share, side_cards)


@njit(cache=True)
def _lead_nil(st, cx, share) -> int:
    """My Nil: the lead the others most likely beat (a side-suit card, the lowest, among equals)."""
    best, best_p, best_key = -1, 2.0, 0
    m = st[LEGAL]
    while m:
        c = lowest_card(m)
        m &= m - 1
        p = 1.0 - _taken(cx, share, c, OTHERS, st[N] - 1)
        key = (_suit(c) == SPADES) * 16 + _rank(c)
        if p < best_p or (p == best_p and key < best_key):
            best, best_p, best_key = c, p, key
    return best


@njit(cache=True)
def _lead_cover(st, cx, share) -> int:
    """My partner's Nil: lead high so my partner can play anything under it; suits it is out of are safest."""
    best, best_void, best_p, best_key = -1, -1, -1.0, -1
    m = st[LEGAL]
    while m:
        c = lowest_card(m)
        m &= m - 1
        s = _suit(c)
        void = 1 if (st[VOIDS + st[PARTNER]] >> s) & 1 and s != SPADES else 0
        p = _survives(st, cx, share, c, False, OPPONENTS, cx[N_OPP])
        key = (s != SPADES) * 16 + _rank(c)
        if void > best_void or (void == best_void and (p > best_p or (p == best_p and key > best_key))):
            best, best_void, best_p, best_key = c, void, p, key
    return best


@njit(cache=True)
def _lead_duck(st, cx, share) -> int:
    """Duck: lead what an opponent most likely beats (to two decimals); among equals the highest such card."""
    best, best_p, best_key = -1, -1, -1
    m = st[LEGAL]
    while m:
        c = lowest_card(m)
        m &= m - 1
        p = _round2(_taken(cx, share, c, OPPONENTS, cx[N_OPP]))
        key = (_suit(c) != SPADES) * 16 + _rank(c)
        if p > best_p or (p == best_p and key > best_key):
            best, best_p, best_key = c, p, key
    return best


@njit(cache=True)
def _lead_cash(st, params, cx, share) -> int:
    """Want tricks: cash a winner that should not be ruffed (a side suit first: the safest, then my shortest;
    a boss spade while the opponents hold spades); -1 when there is none."""
    side_best, side_p, side_len, spade_cash = -1, -1.0, 0, -1
    m = st[LEGAL]
    while m:
        c = lowest_card(m)
        m &= m - 1
        if not _is_boss(c, cx[UNSEEN]):
            continue
        p = _survives(st, cx, share, c, False, OPPONENTS, cx[N_OPP])
        if p < params[SAFE]:
            continue
        if _suit(c) != SPADES:
            length = -popcount(st[HAND] & _SUIT_MASKS[_suit(c)])
            if side_best < 0 or p > side_p or (p == side_p and length > side_len):
                side_best, side_p, side_len = c, p, length
        elif spade_cash < 0:
            spade_cash = c
    if side_best >= 0:
        return side_best
    if spade_cash >= 0:
        for i in range(cx[N_OPP]):
            if cx[POSSIBLE + cx[OPPONENTS + i]] & _SPADE_MASK:
                return spade_cash  # draw trumps with a boss spade
    return -1


@njit(cache=True)
def _lead_low(st, params, cx, share, side_cards: int) -> int:
    """A low lead: partner's suits, no exposed honours, no suit an opponent ruffs (the lowest score wins)."""
    hand = st[HAND]
    best, best_score, best_rank = -1, 0.0, 0
    m = side_cards
    while m:
        c = lowest_card(m)
        m &= m - 1
        s = _suit(c)
        mine = hand & _SUIT_MASKS[s]
        score = 0.0
        if (st[PARTNER_LED] >> s) & 1:
            score -= 2.0
        for i in range(cx[N_OPP]):
            p = cx[OPPONENTS + i]
            if (st[VOIDS + p] >> s) & 1 and _p_has_any(cx, share, p, _SPADE_MASK) > params[OPPONENT_RUFF]:
                score += 3.0
        for honour_rank, guards in ((KING, 1), (QUEEN, 2)):  # K needs one card under it, Q two
            honour = s * 13 + honour_rank
            exposed = not _is_boss(honour, cx[UNSEEN]) and popcount(mine & lower_mask(honour)) <= guards
            if _has(mine, honour) and exposed:
                score += 2.0
        length = popcount(mine)
        if length == 1 and hand & _SPADE_MASK:
            score -= 1.0  # lead a singleton to ruff the suit later
        score -= 0.2 * length
        if best < 0 or score < best_score or (score == best_score and _rank(c) < best_rank):
            best, best_score, best_rank = c, score, _rank(c)
    return _low_of(st, cx, best)


# ------------------------------------------------------------------ from the view


@functools.lru_cache(maxsize=16)
def _params_array(params: Params) -> np.ndarray:
    return np.array([params.safe, params.partner_safe, params.hopeless, params.cover_honour_rank,
                     params.cover_ruff_max_rank, params.nil_attack_suit, params.partner_ruff, params.opponent_ruff,
                     params.set_slack, params.attack_slack, params.attack_blind_nil, params.attack_follow],
                    np.float64)


_BIT = tuple(1 << c for c in range(NUM_CARDS))
_SUIT_BIT = tuple(1 << SUIT_OF[c] for c in range(NUM_CARDS))
_VOID_BITS = {frozenset(s for s in range(4) if m >> s & 1): m for m in range(16)}


def _state(view: PlayerView, hand: int, read_nil_ducks: bool = False) -> np.ndarray:
    """The decision's inputs as one array (the layout of the constants above)."""
    n, partner, bit = view.num_players, view.partner, _BIT
    played_by = [0, 0, 0, 0]
    for p, c in view.plays:
        played_by[p] |= bit[c]
    partner_led = 0  # the suits my partner led a trick in
    if partner is not None:
        for t in view.completed_tricks:
            if t.leader == partner:
                partner_led |= _SUIT_BIT[t.plays[0][1]]
    trick = view.trick
    if trick and trick[0][0] == partner:
        partner_led |= _SUIT_BIT[trick[0][1]]
    legal, passed, discarded = mask_of(view.legal_actions), mask_of(view.passed), mask_of(view.discarded)
    seats, cards = [0, 0, 0, 0], [0, 0, 0, 0]
    for i, (p, c) in enumerate(trick):
        seats[i], cards[i] = p, c
    voids = [_VOID_BITS[v] for v in view.voids]
    bids, tricks = view.bids, view.tricks_won
    if n == 2:
        voids, bids, tricks = voids + [0, 0], bids + (0, 0), tricks + (0, 0)
    ruled_out = nil_ducks(view) if read_nil_ducks else {}
    return np.fromiter((view.seat, n, -1 if partner is None else partner, hand, legal, passed, discarded,
                        view.discard_pile_size, view.looked, partner_led, len(trick), *seats, *cards, *played_by,
                        *voids, *bids, *tricks, sum(1 << p for p in range(n) if view.blind[p]),
                        *(ruled_out.get(p, 0) for p in range(4))), np.int64, STATE_SIZE)


def choose_card(view: PlayerView, hand: int | None = None, params: Params = DEFAULT) -> int:
    """The heuristic's card for ``view`` (which must be a PLAY decision of this seat)."""
    if hand is None:
        hand = mask_of(view.hand)
    return int(choose(_state(view, hand, params.read_nil_ducks), _params_array(params)))

