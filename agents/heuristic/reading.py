"""What the other side's card play says about its hands, read by the heuristic's own rules.

A Nil bidder that ducks as the heuristic's does (:func:`.play._follow_nil`: following suit, the highest card that
stays under the winning card) shows which cards it does not hold. The search's worlds (``nil_play``) and the
heuristic's card counting (``Params.read_nil_ducks``) both read it from here.
"""

from __future__ import annotations

from spades_env.cards import SUIT_MASKS, SUIT_OF, TRICK_POWER, cards_of
from spades_env.game import Phase
from spades_env.view import PlayerView


def nil_ducks(view: PlayerView) -> dict[int, int]:
    """Per opponent whose Nil or Blind Nil stands (four players), the cards it cannot hold now if it ducks as Nil
    bidders do: following suit under the trick's winning card, its highest card that stays under (so it holds
    none between that card and the winner); over the winner, only when it has no card of the suit that stays
    under. A seat whose later plays show a card the rule says it did not hold ducks otherwise: none for it.
    """
    if view.num_players != 4 or view.phase != Phase.PLAY:
        return {}
    out = {}
    for seat in ((view.seat + 1) % 4, (view.seat + 3) % 4):
        if view.bids[seat] != 0 or view.tricks_won[seat]:
            continue
        excluded = later = 0
        for k in range(len(view.plays) - 1, -1, -1):  # back to front: the cards it played after each duck
            who, card = view.plays[k]
            if who != seat:
                continue
            first = k - k % 4
            led = SUIT_OF[view.plays[first][1]]
            power = TRICK_POWER[led]
            if k == first or SUIT_OF[card] != led:
                later |= 1 << card
                continue
            top = max(power[c] for _, c in view.plays[first:k])
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
