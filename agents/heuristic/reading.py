"""What the other side's card play says about its hands, read by the heuristic's own rules.

A Nil bidder that ducks as the heuristic's does (:func:`.play._follow_nil`: following suit, the highest card that
stays under the winning card) shows which cards it does not hold. The search's worlds (``nil_play``) and the
heuristic's card counting (``Params.read_nil_ducks``) both read it from here. Void in the suit led, it throws its
most dangerous card that stays under (:func:`nil_discards`): what it kept is then less dangerous, which the
search's worlds read too (``nil_discards``).
"""

from __future__ import annotations

from collections.abc import Iterator

from spades_env.cards import SUIT_MASKS, SUIT_OF, TRICK_POWER, cards_of
from spades_env.game import Phase
from spades_env.view import PlayerView

from .bidding import card_nil_danger

# One discard of a Nil bidder void in the suit led: (the card it threw, the cards it played from then on, that card
# included, the cards that would have beaten the trick's winning card then).
Discard = tuple[int, int, int]


def opposing_nils(view: PlayerView) -> list[int]:
    """The opponents whose Nil or Blind Nil stands (no trick taken yet), in the four-player card play; else none."""
    if view.num_players != 4 or view.phase != Phase.PLAY:
        return []
    return [s for s in ((view.seat + 1) % 4, (view.seat + 3) % 4) if view.bids[s] == 0 and not view.tricks_won[s]]


def _played_back_to_front(view: PlayerView, seat: int) -> Iterator[tuple[int, int | None, int]]:
    """``seat``'s cards of this hand, the last first: (card, the suit led to it or None where it led, the trick's
    winning card's power before it in the suit led, 0 where it led)."""
    for k in range(len(view.plays) - 1, -1, -1):
        who, card = view.plays[k]
        if who != seat:
            continue
        first = k - k % 4
        if k == first:
            yield card, None, 0
            continue
        led = SUIT_OF[view.plays[first][1]]
        yield card, led, max(TRICK_POWER[led][c] for _, c in view.plays[first:k])


def nil_ducks(view: PlayerView) -> dict[int, int]:
    """Per opponent whose Nil or Blind Nil stands (four players), the cards it cannot hold now if it ducks as Nil
    bidders do: following suit under the trick's winning card, its highest card that stays under (so it holds
    none between that card and the winner); over the winner, only when it has no card of the suit that stays
    under. A seat whose later plays show a card the rule says it did not hold ducks otherwise: none for it.
    """
    out = {}
    for seat in opposing_nils(view):
        excluded = later = 0
        for card, led, top in _played_back_to_front(view, seat):  # later: the cards it played after each duck
            if led is None or SUIT_OF[card] != led:
                later |= 1 << card
                continue
            power = TRICK_POWER[led]
            suit = SUIT_MASKS[led]
            if power[card] < top:  # it ducked: nothing of the suit between its card and the winner
                gap = sum(1 << c for c in cards_of(suit) if power[card] < power[c] < top)
            else:  # it could not: nothing of the suit under the winner
                gap = sum(1 << c for c in cards_of(suit) if power[c] < top)
            if gap & later:
                break
            excluded |= gap
            later |= 1 << card
        else:
            if excluded:
                out[seat] = excluded
    return out


def nil_discards(view: PlayerView) -> dict[int, list[Discard]]:
    """Per opponent whose Nil or Blind Nil stands (four players), its discards: each a card it played void in the
    suit led (:data:`Discard`). A bidder that discards as the heuristic's does (:func:`.play._follow_nil`) threw the
    most dangerous of its cards that stayed under the winning card (:func:`~.bidding.card_nil_danger`), so a hand
    it may hold now fits each discard (:func:`fits_discards`)."""
    out = {}
    for seat in opposing_nils(view):
        found, later = [], 0
        for card, led, top in _played_back_to_front(view, seat):
            later |= 1 << card
            if led is None or SUIT_OF[card] == led:
                continue
            power = TRICK_POWER[led]
            found.append((card, later, sum(1 << c for c in range(52) if power[c] > top)))
        if found:
            out[seat] = found
    return out


def fits_discards(discards: list[Discard], hand: int) -> bool:
    """Whether a Nil bidder holding ``hand`` now would have thrown each of ``discards`` (:func:`nil_discards`): of
    the cards it held then that stayed under the winner, the most dangerous (the first such card, in card order,
    among equals); where none stayed under, it had to win, and its card was one that did."""
    for card, later, beats in discards:
        held = hand | later
        under = held & ~beats
        if not under:
            if not beats >> card & 1:
                return False
            continue
        danger = card_nil_danger(card, held)
        for c in cards_of(under):
            d = card_nil_danger(c, held)
            if d > danger or (d == danger and c < card):
                return False
    return True
