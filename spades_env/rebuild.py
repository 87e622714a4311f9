"""A game rebuilt from a seat's view: the information state of a view that has none bound.

The drivers bind each view to its game (``view.infostate``, :class:`spades_env.view.InformationState`),
and that is how an agent should resample. A view without one (a view from a record, or an agent's
``act`` called by hand) holds everything the seat knows, so :func:`information_state` rebuilds *a*
game the seat cannot tell from the real one (:func:`game_from_view`: its own cards, every bid and card
played, the voids shown, its Blind Nil exchange, the scores; the hidden cards placed anywhere they
fit) and binds the view to it: the resampler reads only what the seat knows, so where the rebuilt
game put the hidden cards does not matter, and its samples are the bound state's.

Rebuilding replays the hand through the engine (``SpadesGame.apply``), so a view the rebuild cannot
explain raises :class:`InconsistentView` instead of giving wrong worlds, and
``player_view(game_from_view(v), v.seat) == v`` (tests/test_search_agent.py).

The view holds everything the seat knows but one thing: in the two-player game, how many Blind Nil
replacements the opponent made (a replacement is seen to happen; the view does not show it). The
rebuild assumes the most, three (or as many as the opponent's played cards prove), which only widens
where my seen discards may be: a sample may give the opponent a card I saw discarded.
"""

from __future__ import annotations

from collections.abc import Callable

from . import actions as A
from .cards import FULL_DECK, NUM_CARDS, SPADES, SUIT_MASKS, cards_of, mask_of
from .determinize import HAND_SIZE
from .game import Phase, SpadesGame
from .view import InformationState, PlayerView

MAX_REPLACEMENTS = 3  # two players: a Blind Nil bidder may replace up to three cards
_NOT_SPADES = FULL_DECK & ~SUIT_MASKS[SPADES]


class InconsistentView(ValueError):
    """The view describes no position the rules can reach."""


def information_state(view: PlayerView) -> InformationState:
    """The view's information state: the one bound to it, or one bound to a game rebuilt from it."""
    return view.infostate if view.infostate is not None else InformationState(game_from_view(view), view.seat)


def game_from_view(view: PlayerView, at_play: Callable[[SpadesGame], None] | None = None) -> SpadesGame:
    """A game in exactly the position of ``view``, with the hidden cards placed arbitrarily but consistently.

    Works at a bid, a card play, and a four-player seat's Blind Nil choice (it has seen no card: any deal
    fits, and the game is a shuffled deck with the earlier bids replayed). ``at_play(game)`` is called before
    each card of the hand is played again: the positions the seats played from, for what any seat saw then
    (its public part; the hidden hands are the rebuild's).
    """
    if view.phase == Phase.BLIND and not view.looked and view.num_players == 4:
        return _unseen_game(view)
    if not view.looked or view.phase not in (Phase.BID, Phase.PLAY):
        raise ValueError(f"a game is rebuilt for a bid, a card play or a Blind Nil choice, not in {view.phase.name}")
    game = SpadesGame(view.config)
    if view.num_players == 4:
        _replay_four(game, view, at_play)
    else:
        _replay_two(game, view, at_play)
    if game.phase != view.phase or game.current_player != view.seat:
        raise InconsistentView(f"the rebuilt game is at {game.phase.name} for seat {game.current_player}, "
                               f"the view at {view.phase.name} for seat {view.seat}")
    return game


def _unseen_game(view: PlayerView) -> SpadesGame:
    """A four-player game at the seat's Blind Nil choice: a deal (the deck in order; the resampler draws
    uniform ones), the earlier bids replayed."""
    game = SpadesGame(view.config)
    game.reset(deal=[list(range(HAND_SIZE * p, HAND_SIZE * (p + 1))) for p in range(4)],
               dealer=view.dealer, scores=view.scores, bags=view.bags)
    game.hand_number = view.hand_number
    _bid_and_play(game, view, [], {})
    if game.phase != Phase.BLIND or game.current_player != view.seat:
        raise InconsistentView(f"the rebuilt game is at {game.phase.name}, the view at BLIND")
    return game


# ---------------------------------------------------------------- what both variants share


def cards_played(view: PlayerView) -> list[int]:
    """Per seat, the cards it has played this hand (a mask)."""
    out = [0] * view.num_players
    for seat, card in view.plays:
        out[seat] |= 1 << card
    return out


def cards_allowed(view: PlayerView) -> list[int]:
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


def _bid_and_play(game: SpadesGame, view: PlayerView, pass_cards: list[int], replacements: dict,
                  at_play: Callable[[SpadesGame], None] | None = None) -> None:
    """Replay the hand from the deal to the view's position (a bid, a card play, or the seat's own Blind Nil
    choice): Blind Nil choices, bids, the exchange's
    cards in queue order, two-player replacements ``{seat: [(put back, drawn), ...]}``, the card play
    (``at_play(game)`` before each card)."""
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
            if at_play is not None:
                at_play(game)
            _apply(game, card)


def _replace_one(game: SpadesGame, queue: list[tuple[int, int]]) -> None:
    """One replacement decision of the seat to act from its queue (done when it is empty)."""
    if not queue:
        _apply(game, A.DONE)
        return
    put, drawn = queue.pop(0)
    _apply(game, put, drawn)


# ---------------------------------------------------------------- four players


def exchanges(view: PlayerView) -> list[tuple[int, int]]:
    """The Blind Nil exchanges ``(bidder, partner)`` in the engine's queue order (bidding order)."""
    if view.phase == Phase.BID or not view.config.blind_nil_exchange:
        return []
    order = [(view.dealer + k) % 4 for k in range(1, 5)]
    return [(p, (p + 2) % 4) for p in order if view.blind[p] and not view.blind[(p + 2) % 4]]


def _replay_four(game: SpadesGame, view: PlayerView, at_play: Callable[[SpadesGame], None] | None = None) -> None:
    seat, partner = view.seat, (view.seat + 2) % 4
    played = cards_played(view)
    mine = mask_of(view.hand)
    known_partner = mask_of(view.passed) & ~mine & ~(played[0] | played[1] | played[2] | played[3])
    hidden = FULL_DECK & ~mine & ~known_partner & ~(played[0] | played[1] | played[2] | played[3])
    allowed = cards_allowed(view)
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
    _bid_and_play(game, view, [card for _, _, card in passes], {}, at_play)


def _four_player_passes(view: PlayerView, held: list[int]) -> list[tuple[int, int, int]]:
    """The exchange's passes ``(giver, receiver, card)`` in queue order: the seat's own as the view shows
    them, the others' any card the receiver holds (any such card explains the deal)."""
    passes: list[tuple[int, int, int]] = []
    seat = view.seat
    for bidder, partner in exchanges(view):
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


def _replay_two(game: SpadesGame, view: PlayerView, at_play: Callable[[SpadesGame], None] | None = None) -> None:
    """Rebuild the two-player hand, the opponent's cards placed anywhere they fit."""
    seat, opp = view.seat, 1 - view.seat
    played = cards_played(view)
    mine = mask_of(view.hand)
    my_swaps = list(view.replacements)
    my_put = mask_of(c for c, _ in my_swaps)
    seen = mask_of(view.discarded) & ~my_put  # the drops I saw (none when I drew blind)
    my_kept = _before_swaps(mine | played[seat], my_swaps)
    hidden = FULL_DECK & ~(mine | played[0] | played[1] | mask_of(view.discarded))
    opp_size = HAND_SIZE - played[opp].bit_count()
    opp_now, hidden_pile = fill(hidden, [(opp_size, cards_allowed(view)[opp]),
                                         (hidden.bit_count() - opp_size, FULL_DECK)])
    opp_swaps = _opponent_replacements(view, opp_now | played[opp], seen, hidden_pile)
    opp_kept = _before_swaps(opp_now | played[opp], opp_swaps)
    drops = FULL_DECK & ~my_kept & ~opp_kept
    game.reset(deal=_stock(view, my_kept, opp_kept, seen, drops), dealer=view.dealer, scores=view.scores,
               bags=view.bags)
    game.hand_number = view.hand_number
    _bid_and_play(game, view, [], {seat: my_swaps, opp: opp_swaps}, at_play)


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
