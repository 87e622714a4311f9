"""Worlds for search: full deals the seat cannot tell from the real one.

Uniform worlds come from the seat's information state (``view.infostate``,
which the drivers bind for an agent with ``needs_infostate``), resampled by the
engine (:func:`spades_env.determinize.resample`). Two kinds of world are not
uniform and are built from the view: the two-player opponent model
(:func:`drawn_worlds`: the opponent's hand drawn as the heuristic draws) and
the four-player Blind Nil choice (:func:`unseen_world`).

A view with no information state bound (a view from a record, or ``act``
called by hand) is answered too: the search rebuilds *a* game that the seat
cannot tell from the real one (:func:`game_from_view`: its own cards, every
bid and card played, the voids shown, its Blind Nil exchange, the scores; the
hidden cards placed anywhere they fit), then asks the engine's resampler
(:func:`spades_env.determinize.resample`) for worlds: the resampler reads only
what the seat knows, so where the rebuilt game put the hidden cards does not
matter, and the worlds are uniform over the deals consistent with the view.

Rebuilding replays the hand through the engine (``SpadesGame.apply``), so a
view the rebuild cannot explain raises instead of giving wrong worlds, and
``player_view(game_from_view(v), v.seat) == v`` (tests/test_search_agent.py).

The view holds everything the seat knows but one thing: in the two-player game,
how many Blind Nil replacements the opponent made (a replacement is seen to
happen; the view does not show it). The rebuild assumes the most, three (or as
many as the opponent's played cards prove), which only widens where my seen
discards may be: a world may give the opponent a card I saw discarded.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from functools import lru_cache

import numpy as np

from spades_env import actions as A
from spades_env.cards import FULL_DECK, NUM_CARDS, SPADES, SUIT_MASKS, cards_of, mask_of
from spades_env.game import Phase, SpadesGame
from spades_env.view import InformationState, PlayerView

from ..heuristic.bidding import estimate_tricks, keep_offered, nil_risk
from ..heuristic.params import V2

HAND_SIZE = 13
MAX_REPLACEMENTS = 3  # two players: a Blind Nil bidder may replace up to three cards
_NOT_SPADES = FULL_DECK & ~SUIT_MASKS[SPADES]


class InconsistentView(ValueError):
    """The view describes no position the rules can reach."""


def worlds(view: PlayerView, count: int, rng: np.random.Generator) -> Iterator[SpadesGame]:
    """``count`` independent full games consistent with ``view``, uniformly among the consistent deals.

    Also before a four-player seat has looked at its hand (its Blind Nil choice): it has seen no card,
    so every deal fits what it knows, and the world is a shuffled deck with the bids made so far.
    """
    if view.phase == Phase.BLIND and view.num_players == 4:
        for _ in range(count):
            yield unseen_world(view, rng)
        return
    state = view.infostate if view.infostate is not None else InformationState(game_from_view(view), view.seat)
    for _ in range(count):
        yield state.resample(rng)


def fitted_worlds(view: PlayerView, count: int, rng: np.random.Generator, nil_risk: float | None = None,
                  bid_sigma: float | None = None, tries: int = 8) -> Iterator[SpadesGame]:
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
    taken as drawn. Without a seat to fit, the worlds of :func:`drawn_worlds`.
    """
    fit = _bid_fit(view, nil_risk, bid_sigma)
    if fit is None:
        yield from drawn_worlds(view, count, rng)
        return
    draws = drawn_worlds(view, count * tries, rng)
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


def unseen_world(view: PlayerView, rng: np.random.Generator) -> SpadesGame:
    """A four-player game at the seat's Blind Nil choice: a uniform deal, the earlier bids replayed.

    The earlier bids say something about the bidders' hands only through their policies, which the
    seat does not know; as constraints they rule out no deal, so the deal is uniform (as the
    resampler's are among the deals consistent with the rules).
    """
    if view.phase != Phase.BLIND or view.num_players != 4:
        raise ValueError(f"an unseen world is drawn at a four-player Blind Nil choice, not at {view.phase.name}")
    deck = rng.permutation(NUM_CARDS)
    game = SpadesGame(view.config)
    game.reset(seed=int(rng.integers(2**63)), deal=[sorted(int(c) for c in deck[13 * p:13 * p + 13]) for p in range(4)],
               dealer=view.dealer, scores=view.scores, bags=view.bags)
    game.hand_number = view.hand_number
    _bid_and_play(game, view, [], {})
    if game.phase != Phase.BLIND or game.current_player != view.seat:
        raise InconsistentView(f"the rebuilt game is at {game.phase.name}, the view at BLIND")
    return game


def drawn_worlds(view: PlayerView, count: int, rng: np.random.Generator) -> Iterator[SpadesGame]:
    """Two players: ``count`` worlds in which the opponent drew its hand as the heuristic draws.

    Why not :func:`worlds`: the opponent's hand is not a uniform half of the 26 cards of its turns (all
    of them I never saw, every other card I kept or saw discarded); it *chose* it, card by card, keeping
    the good ones. Uniform worlds give it too weak a hand: bids by play-outs on them overbid (measured
    against the heuristic, 200 single-hand deals: a set rate of 28.5% against its 14.0%, −13.4 points per
    deal). This is an opponent model, for an opponent that draws as the heuristic does:

    - at the bid, the 26 cards are shuffled into the opponent's 13 turns and its keep-or-discard choices
      replayed with the heuristic's rule (:func:`~spades_env.agents.heuristic.bidding.keep_offered`):
      worlds from the distribution the draw itself makes (the bids made are replayed as they were);
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
    played = _played(view)
    pool = FULL_DECK & ~(mask_of(view.hand) | played[seat]) & ~mask_of(view.discarded)  # the opponent's turns
    if view.phase == Phase.BID:
        cards = np.array(cards_of(pool))
        for _ in range(count):
            game = SpadesGame(view.config)
            _replay_two(game, view, opponent=simulate_draw(rng.permutation(cards).tolist()))
            game.rng = np.random.default_rng(int(rng.integers(2**63)))
            yield game
        return
    odds = keep_odds(pool)
    candidates = cards_of(pool & ~played[opp] & _allowed(view)[opp])
    weights = [odds[c] for c in candidates]
    size = HAND_SIZE - played[opp].bit_count()
    for _ in range(count):
        game = SpadesGame(view.config)
        _replay_two(game, view, opponent=weighted_subset(candidates, weights, size, rng))
        game.rng = np.random.default_rng(int(rng.integers(2**63)))
        yield game


def simulate_draw(order: list[int]) -> int:
    """The hand (a mask) a player drawing as the heuristic does keeps from its turns' cards in ``order``
    (each turn offers the first of its two cards: kept, the second seen and dropped; or dropped, the
    second kept)."""
    hand = seen = 0
    for first, second in zip(order[0::2], order[1::2]):
        if keep_offered(first, hand | seen):
            hand, seen = hand | 1 << first, seen | 1 << second
        else:
            hand, seen = hand | 1 << second, seen | 1 << first
    return hand


@lru_cache(maxsize=64)
def keep_odds(pool: int, draws: int = 256) -> dict[int, float]:
    """Per card of ``pool`` (the 26 cards of the opponent's turns), the odds ``p / (1 - p)`` that a heuristic
    drawer keeps it, ``p`` counted over ``draws`` simulated draws (seeded by the pool: the same for every
    decision of a hand) and kept off 0 and 1."""
    rng = np.random.default_rng(pool)
    cards = np.array(cards_of(pool))
    kept = dict.fromkeys(cards.tolist(), 0)
    for _ in range(draws):
        hand = simulate_draw(rng.permutation(cards).tolist())
        for card in kept:
            kept[card] += hand >> card & 1
    return {card: (k + 0.5) / (draws - k + 0.5) for card, k in kept.items()}


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


def game_from_view(view: PlayerView) -> SpadesGame:
    """A game in exactly the position of ``view``, with the hidden cards placed arbitrarily but consistently.

    Works in the phases a search decides: a bid, or a card play.
    """
    if not view.looked or view.phase not in (Phase.BID, Phase.PLAY):
        raise ValueError(f"worlds are rebuilt for a bid or a card play, not in {view.phase.name}")
    game = SpadesGame(view.config)
    if view.num_players == 4:
        _replay_four(game, view)
    else:
        _replay_two(game, view)
    if game.phase != view.phase or game.current_player != view.seat:
        raise InconsistentView(f"the rebuilt game is at {game.phase.name} for seat {game.current_player}, "
                               f"the view at {view.phase.name} for seat {view.seat}")
    return game


# ------------------------------------------------------------------ what every variant shares


def _played(view: PlayerView) -> list[int]:
    out = [0] * view.num_players
    for seat, card in view.plays:
        out[seat] |= 1 << card
    return out


def _allowed(view: PlayerView) -> list[int]:
    """Per seat, the cards it may still hold: none of a suit it failed to follow, and only spades
    after leading a spade before spades were broken (it held nothing else)."""
    allowed = [FULL_DECK & ~sum(SUIT_MASKS[s] for s in voids) for voids in view.voids]
    broken = False
    for i, (seat, card) in enumerate(view.plays):
        spade = card // 13 == SPADES
        if i % view.num_players == 0 and spade and not broken:
            allowed[seat] &= ~_NOT_SPADES
        broken = broken or spade
    return allowed


def fill(cards: int, slots: list[tuple[int, int]]) -> list[int]:
    """Deal the mask ``cards`` into ``slots`` of ``(size, allowed mask)``, every card to a slot that
    allows it; the sizes must add up to the cards. Deterministic (a max flow from suits to slots)."""
    per_suit = [(cards & SUIT_MASKS[s]).bit_count() for s in range(4)]
    flow = [[0] * len(slots) for _ in range(4)]
    room = [size for size, _ in slots]

    def augment(suit: int, seen: set[int]) -> bool:
        """Find room for one more card of ``suit``, moving other suits' cards along (DFS)."""
        for j, (_, allowed) in enumerate(slots):
            if j in seen or not allowed & SUIT_MASKS[suit]:
                continue
            seen.add(j)
            if room[j] > 0:
                room[j] -= 1
                flow[suit][j] += 1
                return True
            for other in range(4):
                if flow[other][j] and augment(other, seen):
                    flow[other][j] -= 1
                    flow[suit][j] += 1
                    return True
        return False

    for suit in range(4):
        for _ in range(per_suit[suit]):
            if not augment(suit, set()):
                raise InconsistentView("no deal of the hidden cards fits the voids shown")
    out = [0] * len(slots)
    for suit in range(4):
        remaining = cards_of(cards & SUIT_MASKS[suit])
        for j, count in enumerate(flow[suit]):
            out[j] |= mask_of(remaining[:count])
            remaining = remaining[count:]
    return out


def _apply(game: SpadesGame, action: int, outcome: int | None = None) -> None:
    try:
        game.apply(action, outcome)
    except ValueError as exc:
        raise InconsistentView(f"the view cannot be replayed: {exc}") from None


def _bid_and_play(game: SpadesGame, view: PlayerView, pass_cards: list[int], replacements: dict) -> None:
    """Replay the hand from the deal to the view's position (a bid, a card play, or the seat's own Blind Nil
    choice): Blind Nil choices, bids, the exchange's
    cards in queue order, two-player replacements ``{seat: [(put back, drawn), ...]}``, the card play."""
    passes = iter(pass_cards)
    plays = iter(card for _, card in view.plays)
    while game.phase != Phase.GAME_OVER:
        seat, phase = game.current_player, game.phase
        if phase == Phase.BLIND:
            if seat == view.seat and not view.looked:
                return  # the seat's own Blind Nil choice is the view's position
            _apply(game, A.BLIND_NIL if view.blind[seat] else A.LOOK)
        elif phase == Phase.DRAW:
            _apply(game, A.KEEP)
        elif phase == Phase.BID:
            if view.bids[seat] is None:
                return
            _apply(game, A.bid_action(view.bids[seat]))
        elif phase == Phase.PASS:
            card = next(passes, None)
            if card is None:
                return
            _apply(game, card)
        elif phase == Phase.REPLACE:
            _replace_one(game, replacements[seat])
        else:
            card = next(plays, None)
            if card is None:
                return
            _apply(game, card)


def _replace_one(game: SpadesGame, queue: list[tuple[int, int]]) -> None:
    """One replacement decision of the seat to act from its queue (done when it is empty)."""
    if not queue:
        _apply(game, A.DONE)
        return
    put, drawn = queue.pop(0)
    _apply(game, put, drawn)


# ------------------------------------------------------------------ four players


def _exchanges(view: PlayerView) -> list[tuple[int, int]]:
    """The Blind Nil exchanges ``(bidder, partner)`` in the engine's queue order (bidding order)."""
    if view.phase == Phase.BID or not view.config.blind_nil_exchange:
        return []
    order = [(view.dealer + k) % 4 for k in range(1, 5)]
    return [(p, (p + 2) % 4) for p in order if view.blind[p] and not view.blind[(p + 2) % 4]]


def _replay_four(game: SpadesGame, view: PlayerView) -> None:
    seat, partner = view.seat, (view.seat + 2) % 4
    played = _played(view)
    mine = mask_of(view.hand)
    known_partner = mask_of(view.passed) & ~mine & ~(played[0] | played[1] | played[2] | played[3])
    hidden = FULL_DECK & ~mine & ~known_partner & ~(played[0] | played[1] | played[2] | played[3])
    allowed = _allowed(view)
    others = [p for p in range(4) if p != seat]
    sizes = [HAND_SIZE - played[p].bit_count() - (known_partner.bit_count() if p == partner else 0) for p in others]
    dealt = fill(hidden, [(size, allowed[p]) for size, p in zip(sizes, others)])
    now = [0] * 4
    now[seat] = mine
    for p, cards in zip(others, dealt):
        now[p] = cards
    now[partner] |= known_partner
    held = [now[p] | played[p] for p in range(4)]
    passes = _four_player_passes(view, held)
    for giver, receiver, card in reversed(passes):  # undo the exchange to find the dealt hands
        held[receiver] &= ~(1 << card)
        held[giver] |= 1 << card
    game.reset(deal=[cards_of(h) for h in held], dealer=view.dealer, scores=view.scores, bags=view.bags)
    game.hand_number = view.hand_number
    _bid_and_play(game, view, [card for _, _, card in passes], {})


def _four_player_passes(view: PlayerView, held: list[int]) -> list[tuple[int, int, int]]:
    """The exchange's passes ``(giver, receiver, card)`` in queue order: the seat's own as the view shows
    them, the others' any card the receiver holds (any such card explains the deal)."""
    passes: list[tuple[int, int, int]] = []
    seat = view.seat
    for bidder, partner in _exchanges(view):
        steps = [(partner, bidder)] * 3 + [(bidder, partner)] * 3
        if seat in (bidder, partner):
            cards = iter(list(view.passed) + list(view.received) if seat == partner
                         else list(view.received) + list(view.passed))
            passes += [(g, r, c) for (g, r), c in zip(steps, cards)]
            continue
        # Passes the seat did not see: undo them from the last, each a card its receiver holds then.
        hold = list(held)
        chosen = []
        for giver, receiver in reversed(steps):
            card = (hold[receiver] & -hold[receiver]).bit_length() - 1
            hold[receiver] &= ~(1 << card)
            hold[giver] |= 1 << card
            chosen.append((giver, receiver, card))
        passes += reversed(chosen)
    return passes


# ------------------------------------------------------------------ two players


def _replay_two(game: SpadesGame, view: PlayerView, opponent: int | None = None) -> None:
    """Rebuild the two-player hand; the opponent's cards are placed anywhere they fit, or are ``opponent``
    (its hand now, a mask) where given."""
    seat, opp = view.seat, 1 - view.seat
    played = _played(view)
    mine = mask_of(view.hand)
    my_swaps = list(view.replacements)
    my_put = mask_of(c for c, _ in my_swaps)
    seen = mask_of(view.discarded) & ~my_put  # the drops I saw (none when I drew blind)
    my_kept = _before_swaps(mine | played[seat], my_swaps)
    hidden = FULL_DECK & ~(mine | played[0] | played[1] | mask_of(view.discarded))
    opp_size = HAND_SIZE - played[opp].bit_count()
    if opponent is None:
        opp_now, hidden_pile = fill(hidden, [(opp_size, _allowed(view)[opp]), (hidden.bit_count() - opp_size,
                                                                               FULL_DECK)])
    else:
        opp_now, hidden_pile = opponent, hidden & ~opponent
    opp_swaps = _opponent_replacements(view, opp_now | played[opp], seen, hidden_pile)
    opp_kept = _before_swaps(opp_now | played[opp], opp_swaps)
    drops = FULL_DECK & ~my_kept & ~opp_kept
    game.reset(deal=_stock(view, my_kept, opp_kept, seen, drops), dealer=view.dealer, scores=view.scores,
               bags=view.bags)
    game.hand_number = view.hand_number
    _bid_and_play(game, view, [], {seat: my_swaps, opp: opp_swaps})


def _before_swaps(hand: int, swaps: list[tuple[int, int]]) -> int:
    """The hand before the Blind Nil replacements ``(put back, drawn)`` that turned it into ``hand``."""
    for put, drawn in reversed(swaps):
        hand = hand & ~(1 << drawn) | 1 << put
    return hand


def _opponent_replacements(view: PlayerView, final: int, seen: int, pile: int) -> list[tuple[int, int]]:
    """The opponent's Blind Nil replacements ``(put back, drawn)``, as many as the module docstring says:
    it drew back every card of mine it holds or played, and other cards of its hand; it put back cards
    now hidden in the pile."""
    if not (view.blind[1 - view.seat] and view.phase == Phase.PLAY and view.config.blind_nil_exchange):
        if final & seen:
            raise InconsistentView("the opponent holds a card I saw discarded but made no replacement")
        return []
    back = cards_of(final & seen)
    drawn = (back + cards_of(final & ~seen))[:max(MAX_REPLACEMENTS, len(back))]
    return list(zip(cards_of(pile)[:len(drawn)], drawn))


def _stock(view: PlayerView, my_kept: int, opp_kept: int, seen: int, drops: int) -> list[int]:
    """A stock order that deals these hands: each turn keeps its first card and drops the second (a seen
    drop on the seat's own turns, unless it drew blind)."""
    seat = view.seat
    my_drops = cards_of(seen) if seen else cards_of(drops)[:HAND_SIZE]
    opp_drops = cards_of(drops & ~mask_of(my_drops))
    keeps = {seat: iter(cards_of(my_kept)), 1 - seat: iter(cards_of(opp_kept))}
    dropped = {seat: iter(my_drops), 1 - seat: iter(opp_drops)}
    stock = []
    for turn in range(NUM_CARDS // 2):
        player = (view.dealer + turn) % 2
        stock += [next(keeps[player]), next(dropped[player])]
    return stock
