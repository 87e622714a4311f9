"""Worlds for search: full deals the seat cannot tell from the real one.

Every world is drawn by the engine's resampler from the seat's information state
(:func:`spades_env.rebuild.information_state`: the one the drivers bind to the view for an agent
with ``needs_infostate``, or one rebuilt from a view that has none). Uniform worlds
(:func:`worlds`) are what it draws by itself; the opponent models here choose some hidden hands
their own way and let it draw the rest given them (``InformationState.resample(rng, hands=...)``):
the two-player opponent's hand as the heuristic draws (:func:`drawn_worlds`), four-player worlds
that fit the other seats' bids (:func:`fitted_worlds`, by rejection), an opposing Blind Nil
bidder's and its partner's hands as the heuristic's exchange leaves them (:func:`exchanged_worlds`),
and opposing Nil bidders' hands that fit how they ducked (:func:`ducked_worlds`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from functools import lru_cache, partial

import numpy as np

from spades_env.cards import FULL_DECK, cards_of, mask_of
from spades_env.determinize import HAND_SIZE, NoConsistentDeal
from spades_env.game import Phase, SpadesGame
from spades_env.rebuild import InconsistentView, cards_allowed, cards_played, information_state
from spades_env.variant import variant_of
from spades_env.view import PlayerView

from ..heuristic.bidding import KEEP_VALUES, bids_nil, drawn_hand, estimate_tricks, exchange, kept_counts, nil_risk
from ..heuristic.params import V2
from ..heuristic.reading import fits_discards, nil_discards, nil_ducks, opposing_nils

HAND_TRIES = 32  # draws of a Nil bidder's hand to fit its discards or its bid (ducked_worlds), the last one kept

__all__ = ["InconsistentView", "drawn_worlds", "ducked_worlds", "exchange_odds", "exchanged_worlds", "fitted_worlds",
           "keep_odds", "nil_discards", "nil_ducks", "simulate_draw", "weighted_subset", "worlds"]


def worlds(view: PlayerView, count: int, rng: np.random.Generator) -> Iterator[SpadesGame]:
    """``count`` independent full games consistent with ``view``, uniformly among the consistent deals.

    Also before a four-player seat has looked at its hand (its Blind Nil choice): it has seen no card,
    so every deal fits what it knows, and the world is a shuffled deck with the bids made so far.
    """
    state = information_state(view)
    for _ in range(count):
        yield state.resample(rng)


def fitted_worlds(view: PlayerView, count: int, rng: np.random.Generator, nil_risk: float | None = None,
                  bid_sigma: float | None = None, exchange_fit: bool = False, nil_play: float = 0.0,
                  nil_discards: bool = False, nil_fit: bool = False, tries: int = 8) -> Iterator[SpadesGame]:
    """Four players: worlds that fit what the other seats bid, for seats that bid as the heuristic does.

    Why: uniform worlds deal a Nil bidder aces and kings as often as anyone (so that in most of them its
    Nil falls whatever the defence plays and every card ties), and a seat that bid 5 as often a hand of 2
    tricks as one of 8. Two opponent models, each off when None:

    - ``nil_risk``: every other seat that bid Nil (not blind, no Blind Nil beside it) holds, as dealt, a
      hand of Nil danger (the heuristic's ``nil_risk``) at most this (the heuristic bids Nil at 0.75 or less);
    - ``bid_sigma``: every other seat that bid 1 or more was dealt a hand whose trick estimate (the
      heuristic's ``estimate_tricks``, from which it bids, plus what it counts for a Blind Nil partner's
      exchange) lies near the bid: a world is kept with probability ``exp(-d / (2 sigma^2))``, ``d`` the
      sum over those seats of the squared differences.

    Worlds are drawn by rejection, at most ``tries`` draws per world; past that the remaining worlds are
    taken as drawn. Without a seat to fit, the worlds as drawn: those of :func:`ducked_worlds` with
    ``nil_play`` (its ``trust``; ``nil_discards`` and ``nil_fit``, its ``discards`` and ``bid_fit``), else of
    :func:`exchanged_worlds` with ``exchange_fit``, else of :func:`drawn_worlds`.
    """
    fit = _bid_fit(view, nil_risk, bid_sigma)
    if nil_play:
        draw = partial(ducked_worlds, exchange_fit=exchange_fit, trust=nil_play, discards=nil_discards, bid_fit=nil_fit)
    else:
        draw = exchanged_worlds if exchange_fit else drawn_worlds
    if fit is None:
        yield from draw(view, count, rng)
        return
    draws = draw(view, count * tries, rng)
    left = count * tries
    for made in range(count):
        for world in draws:
            left -= 1
            p = fit(world)
            if p >= 1.0 or (p > 0.0 and rng.random() < p) or left < count - made:
                yield world
                break


def _bid_fit(view: PlayerView, max_risk: float | None, sigma: float | None) -> Callable[[SpadesGame], float] | None:
    """The probability of keeping a world (see :func:`fitted_worlds`), or None when no seat is fitted."""
    if view.num_players != 4:
        return None
    others = [seat for seat in range(4) if seat != view.seat and view.bids[seat] is not None]
    exchanged = [view.blind[seat] or view.blind[(seat + 2) % 4] for seat in range(4)]
    nil_seats = [] if max_risk is None else [s for s in others if view.bids[s] == 0 and not exchanged[s]]
    bid_seats = [] if sigma is None else [s for s in others if view.bids[s] > 0]
    if not nil_seats and not bid_seats:
        return None
    # The heuristic counts its Blind Nil partner's three best cards as this many tricks when it bids.
    expected = {s: view.bids[s] - (V2.blind_partner_tricks if exchanged[s] and view.config.blind_nil_exchange else 0)
                for s in bid_seats}

    def fit(world: SpadesGame) -> float:
        dealt = world.start_hands
        if any(nil_risk(dealt[seat]) > max_risk for seat in nil_seats):
            return 0.0
        if not bid_seats:
            return 1.0
        d = sum((estimate_tricks(dealt[seat]) - bid) ** 2 for seat, bid in expected.items())
        return math.exp(-d / (2 * sigma * sigma))

    return fit


def drawn_worlds(view: PlayerView, count: int, rng: np.random.Generator) -> Iterator[SpadesGame]:
    """Two players: ``count`` worlds in which the opponent drew its hand as the heuristic draws.

    Why not :func:`worlds`: the opponent's hand is not a uniform half of the 26 cards of its turns (all
    of them I never saw, every other card I kept or saw discarded); it *chose* it, card by card, keeping
    the good ones. Uniform worlds give it too weak a hand: bids by play-outs on them overbid (measured
    against the heuristic, 200 single-hand deals: a set rate of 28.5% against its 14.0%, −13.4 points per
    deal). This is an opponent model, for an opponent that draws as the heuristic does:

    - at the bid, the 26 cards are shuffled into the opponent's 13 turns and its keep-or-discard choices
      replayed with the heuristic's rule (:func:`~spades_env.agents.heuristic.bidding.keep_offered`):
      worlds from the distribution the draw itself makes;
    - in the play, where its played cards and voids must fit too (which few such draws do), its hand
      is drawn with a weight per card, the odds that the draw keeps that card (:func:`keep_odds`), among
      the hands consistent with the view.

    Where the opponent drew blind, or either side made Blind Nil replacements, its hand is uniform after
    all: :func:`worlds`.
    """
    if view.num_players != 2 or any(view.blind) or view.replacements or len(view.discarded) != HAND_SIZE:
        yield from worlds(view, count, rng)
        return
    seat, opp = view.seat, 1 - view.seat
    played = cards_played(view)
    pool = FULL_DECK & ~(mask_of(view.hand) | played[seat]) & ~mask_of(view.discarded)  # the opponent's turns
    state = information_state(view)
    if view.phase == Phase.BID:  # the opponent's hand as a heuristic drawer keeps it from its turns
        cards = np.array(cards_of(pool))
        for _ in range(count):
            yield state.resample(rng, hands={opp: simulate_draw(rng.permutation(cards).tolist())})
        return
    odds = keep_odds(pool)
    candidates = cards_of(pool & ~played[opp] & cards_allowed(view)[opp])
    weights = [odds[c] for c in candidates]
    size = HAND_SIZE - played[opp].bit_count()
    for _ in range(count):
        yield state.resample(rng, hands={opp: weighted_subset(candidates, weights, size, rng)})


def exchanged_worlds(view: PlayerView, count: int, rng: np.random.Generator,
                     excluded: dict[int, int] | None = None, trust: float = 1.0) -> Iterator[SpadesGame]:
    """Four players, in the play against a Blind Nil that was exchanged: worlds in which the bidder's and its
    partner's hands are what the heuristic's exchange (:func:`~spades_env.agents.heuristic.bidding.exchange`)
    leaves them.

    Why not :func:`worlds`: the bidder gave its partner its three most dangerous cards for the partner's three
    lowest, so it holds far fewer high cards than a uniform hand, and its partner more; defenders who solve
    uniform worlds see a Blind Nil that falls whatever they play, or one that stands, far more often than it
    does. This is an opponent model, for a side that exchanges as the heuristic does: the bidder's hand is
    drawn with a weight per card, the odds that the exchange leaves the card with it (:func:`exchange_odds`),
    among the hands consistent with the view; then its partner's the same way among the cards left; my partner
    holds the rest. Where the weighted hands leave my partner none that fits its voids, the partner's hand, then
    the bidder's, are drawn uniformly. Elsewhere (no such Blind Nil, or I am on its side): :func:`drawn_worlds`.
    ``excluded`` ({seat: cards}) weighs down the bidder's cards its ducks rule out (:func:`ducked_worlds`).
    """
    bidder = _exchanged_bidder(view)
    if bidder is None:
        yield from drawn_worlds(view, count, rng)
        return
    seat, partner = view.seat, (bidder + 2) % 4
    excluded = excluded or {}
    played = cards_played(view)
    dealt = mask_of(view.hand) | played[seat]
    odds_bidder, odds_partner = exchange_odds(FULL_DECK & ~dealt, variant_of(4).blind_nil_cards)
    allowed = cards_allowed(view)
    held = FULL_DECK & ~dealt & ~(played[0] | played[1] | played[2] | played[3])  # the three other hands
    state = information_state(view)
    for _ in range(count):
        hands: dict[int, int] = {}
        try:
            cards, weights = _duck_weights(cards_of(held & allowed[bidder]), excluded.get(bidder, 0), trust)
            hands[bidder] = weighted_subset(cards, [w * odds_bidder[c] for c, w in zip(cards, weights)],
                                            HAND_SIZE - played[bidder].bit_count(), rng)
            cards, weights = _duck_weights(cards_of(held & allowed[partner] & ~hands[bidder]),
                                           excluded.get(partner, 0), trust)
            hands[partner] = weighted_subset(cards, [w * odds_partner[c] for c, w in zip(cards, weights)],
                                             HAND_SIZE - played[partner].bit_count(), rng)
        except InconsistentView:
            pass
        for given in (hands, {bidder: hands[bidder]} if bidder in hands else {}, {}):
            try:
                yield state.resample(rng, hands=given)
                break
            except NoConsistentDeal:
                continue


def _exchanged_bidder(view: PlayerView) -> int | None:
    """The opposing Blind Nil bidder whose exchange :func:`exchanged_worlds` models, or None."""
    bidders = [s for s in ((view.seat + 1) % 4, (view.seat + 3) % 4) if view.num_players == 4 and view.blind[s]]
    if (view.phase != Phase.PLAY or not view.config.blind_nil_exchange or len(bidders) != 1
            or view.blind[(bidders[0] + 2) % 4]):
        return None
    return bidders[0]


def ducked_worlds(view: PlayerView, count: int, rng: np.random.Generator, exchange_fit: bool = False,
                  trust: float = 1.0, discards: bool = False, bid_fit: bool = False) -> Iterator[SpadesGame]:
    """Four players, against a standing Nil: worlds in which each opposing Nil bidder holds none of the cards
    its ducks rule out (:func:`nil_ducks`); with ``trust`` below 1, such a card is drawn with weight
    ``1 - trust`` against 1 for the others (a bidder that keeps to the rule that share of the time).

    Why: a Nil bidder's card play shows its hand. Following under the winning card it plays the highest card
    that stays under, so it has no card between that one and the winner; uniform worlds keep dealing it those
    cards, and a defence solving them leads into holdings it does not have. This is an opponent model, for a Nil
    bidder that ducks so (the heuristic does; a seat that shows otherwise is drawn as before). The bidder's
    hand is drawn uniformly among the cards left it, or with :func:`exchanged_worlds`' weights
    (``exchange_fit``) for an exchanged Blind Nil; the other hands given it. Where the cards left cannot
    make its hand, or no opposing Nil has ducked: :func:`exchanged_worlds` with ``exchange_fit``, else
    :func:`drawn_worlds`.

    With ``discards`` (not for an exchanged Blind Nil with ``exchange_fit``), its hand also fits how it threw
    cards when void in the suit led (:func:`nil_discards`: the most dangerous card that stayed under): its hand is
    drawn again until it does (a hand that does not is kept with probability ``1 - trust``), at most
    ``HAND_TRIES`` times, the last draw kept. With ``bid_fit`` the same for a Nil bid on a dealt hand (neither side
    in Blind Nil): its dealt hand (what it holds and what it played) one the heuristic bids Nil with in its seat
    (:func:`~spades_env.agents.heuristic.bidding.bids_nil`, given its partner's bid before it and the score).
    """
    excluded = nil_ducks(view)
    fits = _hand_fits(view, discards, bid_fit)
    if exchange_fit and _exchanged_bidder(view) is not None:
        yield from exchanged_worlds(view, count, rng, excluded, trust)
        return
    if not excluded and not fits:
        yield from (exchanged_worlds if exchange_fit else drawn_worlds)(view, count, rng)
        return
    played = cards_played(view)
    allowed = cards_allowed(view)
    held = FULL_DECK & ~mask_of(view.hand) & ~mask_of(view.passed)
    for cards in played:
        held &= ~cards
    state = information_state(view)
    for _ in range(count):
        yield _ducked_world(state, excluded, trust, held, allowed, played, rng, fits)


def _hand_fits(view: PlayerView, discards: bool, bid_fit: bool) -> dict[int, Callable[[int], bool]]:
    """Per opposing Nil bidder to fit (:func:`ducked_worlds`' ``discards`` and ``bid_fit``), whether a hand it may
    hold now fits what it showed."""
    thrown = nil_discards(view) if discards else {}
    bids = _nil_bid_context(view) if bid_fit else {}
    if not thrown and not bids:
        return {}
    played = cards_played(view)

    def fits(seat: int, hand: int) -> bool:
        return ((seat not in thrown or fits_discards(thrown[seat], hand))
                and (seat not in bids or bids_nil(hand | played[seat], 4, *bids[seat], V2)))

    return {seat: partial(fits, seat) for seat in opposing_nils(view) if seat in thrown or seat in bids}


def _nil_bid_context(view: PlayerView) -> dict[int, tuple[int | None, int]]:
    """Per opposing seat whose Nil on a dealt hand stands (neither it nor its partner in Blind Nil): what the heuristic
    bids Nil on, its partner's bid when it bid (None if the partner bid after it) and its side's deficit."""
    first = (view.dealer + 1) % 4
    out = {}
    for seat in opposing_nils(view):
        partner = (seat + 2) % 4
        if view.blind[seat] or view.blind[partner]:
            continue
        before = (partner - first) % 4 < (seat - first) % 4
        out[seat] = (view.bids[partner] if before else None, view.scores[1 - seat % 2] - view.scores[seat % 2])
    return out


def _duck_weights(cards: list[int], ruled_out: int, trust: float) -> tuple[list[int], list[float]]:
    """``cards`` and their weights in a Nil bidder's hand draw: ``1 - trust`` for a ruled-out card, 1 for the others
    (a card of weight 0 left out)."""
    weights = [1.0 - trust if ruled_out >> c & 1 else 1.0 for c in cards]
    kept = [i for i, w in enumerate(weights) if w > 0]
    return [cards[i] for i in kept], [weights[i] for i in kept]


def _ducked_world(state, excluded: dict[int, int], trust: float, held: int, allowed: list[int], played: list[int],
                  rng: np.random.Generator, fits: dict[int, Callable[[int], bool]] | None = None,
                  tries: int = 16) -> SpadesGame:
    """One world of :func:`ducked_worlds`: the bidders' hands drawn first (each fitting ``fits``), again while the
    other seats' voids leave the rest no deal; past ``tries``, a uniform world (the model gives way to what the
    seat saw)."""
    fits = fits or {}
    seats = [*excluded, *(seat for seat in fits if seat not in excluded)]
    for _ in range(tries):
        hands: dict[int, int] = {}
        for seat in seats:
            cards, weights = _duck_weights(cards_of(held & allowed[seat] & ~sum(hands.values())),
                                           excluded.get(seat, 0), trust)
            try:
                for _ in range(HAND_TRIES if seat in fits else 1):
                    hands[seat] = weighted_subset(cards, weights, HAND_SIZE - played[seat].bit_count(), rng)
                    if seat not in fits or fits[seat](hands[seat]) or rng.random() >= trust:
                        break
            except InconsistentView:
                continue
        try:
            return state.resample(rng, hands=hands)
        except NoConsistentDeal:
            continue
    return state.resample(rng)


@lru_cache(maxsize=64)
def exchange_odds(pool: int, cards: int, draws: int = 256) -> tuple[dict[int, float], dict[int, float]]:
    """For a defender whose dealt hand leaves ``pool`` (39 cards) to the others: per card, the odds that the
    Blind Nil bidder holds it after exchanging ``cards`` each way by the heuristic's rule, ``p / (1 - p)``, and
    the odds that its partner does rather than my partner, ``q / (1 - p - q)``; counted over ``draws`` uniform
    deals of the pool (seeded by it: the same for every decision of a hand), kept off 0 and 1."""
    rng = np.random.default_rng(pool)
    deck = np.array(cards_of(pool))
    with_bidder = dict.fromkeys(deck.tolist(), 0)
    with_partner = dict.fromkeys(deck.tolist(), 0)
    for _ in range(draws):
        order = rng.permutation(deck)
        bidder, partner = exchange(mask_of(order[:HAND_SIZE].tolist()),
                                   mask_of(order[HAND_SIZE:2 * HAND_SIZE].tolist()), cards)
        for card in with_bidder:
            with_bidder[card] += bidder >> card & 1
            with_partner[card] += partner >> card & 1
    return ({card: _odds(k, draws - k) for card, k in with_bidder.items()},
            {card: _odds(with_partner[card], draws - k - with_partner[card]) for card, k in with_bidder.items()})


def _odds(hits: int, misses: int) -> float:
    """The odds ``hits / misses`` of a counted event, half a count added to each so that they stay off 0 and
    infinity."""
    return (hits + 0.5) / (misses + 0.5)


def simulate_draw(order: list[int]) -> int:
    """The hand (a mask) a player drawing as the heuristic does keeps from its turns' cards in ``order``
    (each turn offers the first of its two cards: kept, the second seen and dropped; or dropped, the
    second kept)."""
    return int(drawn_hand(np.asarray(order, np.int64), KEEP_VALUES))


@lru_cache(maxsize=64)
def keep_odds(pool: int, draws: int = 256) -> dict[int, float]:
    """Per card of ``pool`` (the 26 cards of the opponent's turns), the odds ``p / (1 - p)`` that a heuristic
    drawer keeps it, ``p`` counted over ``draws`` simulated draws (seeded by the pool: the same for every
    decision of a hand) and kept off 0 and 1."""
    rng = np.random.default_rng(pool)
    cards = np.array(cards_of(pool))
    kept = kept_counts(np.stack([rng.permutation(cards) for _ in range(draws)]), KEEP_VALUES)
    return {card: _odds(int(kept[card]), draws - int(kept[card])) for card in cards.tolist()}


def weighted_subset(cards: list[int], weights: list[float], size: int, rng: np.random.Generator) -> int:
    """``size`` of ``cards`` (a mask), each subset drawn with probability proportional to the product of its
    cards' weights (exactly, by the sums over the later cards' subsets of each size)."""
    m = len(cards)
    if size > m:
        raise InconsistentView(f"the opponent holds {size} cards, but only {m} fit what it played")
    tail = np.zeros((m + 1, size + 1))  # tail[i, j]: the sum over subsets of j of cards[i:] of their products
    tail[m, 0] = 1.0
    for i in range(m - 1, -1, -1):
        tail[i, 0] = 1.0
        tail[i, 1:] = tail[i + 1, 1:] + weights[i] * tail[i + 1, :-1]
    out, need = 0, size
    for i in range(m):
        if need == 0:
            break
        if rng.random() * tail[i, need] < weights[i] * tail[i + 1, need - 1]:
            out |= 1 << cards[i]
            need -= 1
    return out
