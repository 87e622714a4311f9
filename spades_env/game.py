"""The pure rules engine: a Spades game as a state machine.

This module is the single source of truth for the rules (``docs/rules.md``). It
imports neither gymnasium nor pettingzoo; the PettingZoo environment,
observation encoders, records, agents and tools are all views of a
:class:`SpadesGame`.

State is kept in plain Python ints and lists (hands are 52-bit masks, see
:mod:`spades_env.cards`) so that one step costs a few microseconds.
"""

from __future__ import annotations

import inspect
import numbers
from enum import IntEnum
from typing import NamedTuple

import numpy as np

from . import actions as A
from .cards import (
    CARD_NAMES,
    NUM_CARDS,
    SPADE_MASK,
    SPADES,
    SUIT_MASK_OF,
    SUIT_OF,
    TRICKS_PER_HAND,
    card_to_str,
    cards_of,
    mask_of,
    to_card,
    trick_winner,
)
from .rules import SpadesConfig, check_int
from .scoring import SideScore, decide_winner, score_side
from .variant import Variant, variant_of


class CompletedTrick(NamedTuple):
    """A finished trick of this hand: who led it, who won it, and its cards ``(seat, card)`` in play order."""

    leader: int
    winner: int
    plays: tuple[tuple[int, int], ...]


class Phase(IntEnum):
    BLIND = 0  # choose Blind Nil or look at the hand
    BID = 1
    PASS = 2  # Blind Nil card exchange between partners (four players)
    DRAW = 3  # keep or discard the top card of the stock (two players)
    REPLACE = 4  # Blind Nil replacements after the bidding (two players)
    PLAY = 5
    GAME_OVER = 6


# The phases as module constants: the hot paths compare by identity (``Phase.X`` costs a class lookup,
# about 55 ns, every time it is spelled).
_BLIND, _BID, _PASS, _DRAW, _REPLACE, _PLAY, _GAME_OVER = Phase
_NUM_ACTIONS = A.NUM_ACTIONS


class IllegalActionError(ValueError):
    """An action that is not legal now; the game is left exactly as it was."""


def _copy_generator(generator: np.random.Generator) -> np.random.Generator:
    """A generator that continues exactly as ``generator`` would, drawing independently of it."""
    bit_generator = type(generator.bit_generator)()
    bit_generator.state = generator.bit_generator.state
    return np.random.Generator(bit_generator)


class SpadesGame:
    """One game of Spades (several hands to the target score).

    Use :meth:`reset` to start, :meth:`legal_actions` / :meth:`legal_mask` to
    see what the player to act (:attr:`current_player`) may do, and
    :meth:`apply` to act. Completed hands are appended to
    :attr:`hand_records` as JSON-ready dicts.
    """

    # ------------------------------------------------------ the declared state
    # Every attribute an instance holds, declared once. clone() copies the lists one level deep and shares
    # the rest (ints, tuples, the frozen config); tests/test_game_state.py checks that a game holds exactly
    # these attributes in every phase of both variants.

    # The rules (fixed at construction).
    config: SpadesConfig
    variant: Variant
    num_players: int
    members: tuple[tuple[int, ...], ...]  # the seats of each side (partnership, or one player alone)
    side_of: tuple[int, ...]  # the side of each seat
    _partner: tuple[int | None, ...]
    # The game.
    _rng: np.random.Generator | int | None  # the generator of chance outcomes not passed in, or its seed (see rng)
    _rng_shared: bool  # held with a clone until either reads it
    scores: list[int]  # per side
    bags: list[int]  # per side, carried into this hand
    hand_number: int  # hands completed
    hand_records: list[dict]  # the completed hands (rules.md section 3)
    winner: int | None  # the winning side, once decided
    terminated: bool
    truncated: bool
    phase: Phase
    current_player: int
    # The hand.
    dealer: int  # the dealer, or the first drawer of the two-player game
    scores_before: tuple[int, ...]
    bags_before: tuple[int, ...]
    hands: list[int]  # the cards each seat holds (masks)
    start_hands: tuple[int, ...]  # as dealt (two players: as kept when the stock ran out)
    stock: list[int]  # two players: the stock, top first
    stock_pos: int  # two players: the index of the top card of the stock
    discard_pile: int  # two players: every card out of play
    discards: list[int]  # two players: the discarded cards each player has seen
    replacements: list[tuple[int, int, int]]  # two players: (player, card put back, card drawn)
    returned: int  # two players: the cards put back by Blind Nil replacements (never drawn again)
    _replaced: int  # replacements made so far by the current replacer
    bids: list[int | None]  # per seat; 0 is Nil
    blind: list[bool]  # per seat: the bid is Blind Nil
    decided: list[bool]  # the Blind Nil choice is made (or not offered)
    looked: list[bool]  # the player sees their hand
    passes: list[tuple[int, int, int]]  # the Blind Nil exchange: (giver, receiver, card)
    _pass_queue: list[tuple[int, int]]  # the exchange still to make: (giver, receiver) per card
    tricks: list[int]  # tricks taken, per seat
    trick: list[tuple[int, int]]  # the current trick: (seat, card) in play order
    leader: int  # the seat that leads (led) the current trick
    spades_broken: bool
    played: list[int]  # the cards each seat has played this hand (masks)
    voids: list[int]  # the suits each seat has shown out of (4-bit masks)
    trick_winners: list[int]
    # the tricks as (leader, winner, plays), grown by one at each trick's end: every view shows them,
    # and rebuilding them from plays at each decision took a third of building a view
    completed_tricks: tuple[CompletedTrick, ...]
    plays: list[tuple[int, int]]  # (seat, card) in play order
    actions: list[tuple[int, int]]  # (seat, action) this hand
    # A cache, not state: the legal actions now (None until asked, and after each action).
    _legal: int | None

    def __init__(self, config: SpadesConfig | None = None, **options) -> None:
        if config is not None and options:
            raise ValueError("pass either a SpadesConfig or keyword options, not both")
        self.config = config if config is not None else SpadesConfig(**options)
        self.variant = variant_of(self.config.num_players)
        self.num_players = self.variant.num_players
        # Side (partnership, or the player alone in the two-player game) of each seat.
        self.members: tuple[tuple[int, ...], ...] = self.variant.sides
        self.side_of: tuple[int, ...] = self.variant.side_of
        self._partner = self.variant.partner
        self.phase = _GAME_OVER
        self.current_player = 0
        self.hand_records = []
        self.rng = None
        self.scores, self.bags = [0, 0], [0, 0]
        self.hand_number, self.winner, self.terminated, self.truncated = 0, None, False, False
        self._empty_hand(0)  # so that every declared field exists before reset

    # ------------------------------------------------------------- search API

    def clone(self) -> SpadesGame:
        """An independent copy of the game, for search (OpenSpiel's ``State.clone``).

        Tens of times cheaper than ``copy.deepcopy`` (``experiments/bench_clone.py``): the lists
        are copied one level deep, the rest shared (ints, tuples, the frozen config, the hand
        records, which are never changed once written). The random generator is shared
        copy-on-write (see :attr:`rng`), so the clone's draws never change the original's deals.
        """
        state = self.__dict__.copy()
        for name in _LISTS:
            state[name] = state[name][:]
        state["_legal"] = None  # the copy's hidden cards may be changed (resampling), so its legal actions too
        new = object.__new__(type(self))
        new.__dict__ = state
        self._rng_shared = new._rng_shared = True
        return new

    @property
    def rng(self) -> np.random.Generator | None:
        """The generator of later deals (and of two-player Blind Nil replacement draws).

        After :meth:`clone` both games hold one generator until either reads it; the first reader
        takes its own copy (same bit generator type and state), so neither game sees the other's
        draws and each deals exactly what it would have dealt without the clone. Read it anew
        after cloning rather than keeping a reference.
        """
        if isinstance(self._rng, int):  # a seed not yet made into a generator (see seed_rng)
            self._rng, self._rng_shared = np.random.default_rng(self._rng), False
        elif self._rng_shared:
            self._rng_shared = False
            if self._rng is not None:
                self._rng = _copy_generator(self._rng)
        return self._rng

    @rng.setter
    def rng(self, generator: np.random.Generator | None) -> None:
        self._rng = generator
        self._rng_shared = False

    def seed_rng(self, seed: int) -> None:
        """Deal later hands from a generator seeded with ``seed``, made when :attr:`rng` is first read.

        Why: search draws thousands of worlds that never deal again, and making a generator costs
        more than drawing a world's hidden cards.
        """
        self._rng, self._rng_shared = int(seed), False

    def resample(self, seat: int, rng: np.random.Generator | int | None = None) -> SpadesGame:
        """A full game that ``seat`` cannot tell from this one, hidden cards dealt at random
        (OpenSpiel's ``resample_from_infostate``); see :func:`spades_env.determinize.resample`."""
        from .determinize import resample

        return resample(self, seat, rng)

    def information_state_key(self, seat: int) -> str:
        """Equal for exactly the states ``seat`` cannot tell apart (OpenSpiel's
        ``information_state_string``); see :func:`spades_env.determinize.information_state_key`."""
        from .determinize import information_state_key

        return information_state_key(self, seat)

    # ------------------------------------------------------------------ reset

    def reset(self, seed: int | None = None, *, deal=None, dealer: int | None = None,
              scores=None, bags=None) -> None:
        """Start a new game.

        ``deal`` fixes the first hand: four lists of 13 cards by seat (ids or
        text), or for two players the order of the 52-card stock (top
        first). ``dealer`` is the first dealer (two players: the first
        drawer), else drawn from ``seed``; ``scores`` and ``bags`` are the
        starting totals of the two sides. Later hands come from the seeded
        generator; ``seed=None`` continues it (a fresh one the first time),
        as gymnasium's ``reset`` does.
        """
        n = self.num_players
        hands = None if deal is None else self._check_deal(deal)
        if dealer is not None:
            check_int("dealer", dealer, low=0, high=n - 1)
        self.scores = self._check_pair("scores", scores, low=None)
        self.bags = self._check_pair("bags", bags, low=0, high=self.config.bag_limit - 1)
        if seed is not None or self.rng is None:  # as gymnasium: no seed continues the current generator
            self.rng = np.random.default_rng(seed)
        first_dealer = int(self.rng.integers(n)) if dealer is None else int(dealer)
        self.hand_number = 0  # hands completed
        self.hand_records = []
        self.winner: int | None = None  # winning side
        self.terminated = False
        self.truncated = False
        self._start_hand(first_dealer, hands)

    def _check_pair(self, name: str, value, low, high=None) -> list[int]:
        if value is None:
            return [0, 0]
        value = list(value)
        if len(value) != 2:
            raise ValueError(f"{name} must give 2 values (one per side), got {value!r}")
        for v in value:
            check_int(name, v, low=low, high=high)
        return [int(v) for v in value]

    def _check_deal(self, deal) -> list[int]:
        if self.variant.drawn:
            return self._check_stock(deal)
        n = self.num_players
        try:
            hands = [[to_card(c) for c in hand] for hand in deal]
        except (TypeError, ValueError) as exc:
            raise ValueError(f"deal must be {n} lists of 13 cards (ids 0..51 or text like 'AS'): {exc}") from None
        if len(hands) != n or any(len(h) != 13 for h in hands):
            raise ValueError(f"deal must be {n} hands of 13 cards, got sizes {[len(h) for h in hands]}")
        every = [c for h in hands for c in h]
        if len(set(every)) != len(every):
            dup = sorted({card_to_str(c) for c in every if every.count(c) > 1})
            raise ValueError(f"deal repeats cards: {', '.join(dup)}")
        return [mask_of(h) for h in hands]

    def _check_stock(self, deal) -> list[int]:
        try:
            stock = [to_card(c) for c in deal]
        except (TypeError, ValueError) as exc:
            raise ValueError(f"a two-player deal is the stock order: 52 cards (ids 0..51 or text like 'AS'): {exc}") \
                from None
        if len(stock) != NUM_CARDS or len(set(stock)) != NUM_CARDS:
            raise ValueError(f"a two-player deal is the stock order: 52 distinct cards, got {len(stock)} cards "
                             f"of which {len(set(stock))} distinct")
        return stock

    def _start_hand(self, dealer: int, deal: list[int] | None = None) -> None:
        """Deal (four players) or lay out the stock (two players) and start the hand.

        ``dealer`` is the dealer, or the first drawer of the two-player game:
        either way the next seat bids first and leads the first trick. ``deal``
        is the chance outcome (hand masks, or the stock order); None draws it.
        """
        n = self.num_players
        if deal is None:
            perm = self.rng.permutation(NUM_CARDS).tolist()
            deal = perm if self.variant.drawn else [mask_of(perm[13 * p: 13 * p + 13]) for p in range(n)]
        self._empty_hand(dealer)
        if self.variant.drawn:
            self.stock = list(deal)
            self.stock_pos = 0
            self.current_player = dealer
            self._enter_draw_turn()
        else:
            self.hands = list(deal)
            self.start_hands = tuple(self.hands)
            self.current_player = (dealer + 1) % n
            self._enter_bid_turn()

    def _empty_hand(self, dealer: int) -> None:
        """Every field of the hand at its start value, no cards dealt (see the declared state)."""
        n = self.num_players
        self.dealer = dealer
        self._legal = None
        self.stock = []
        self.stock_pos = NUM_CARDS
        self.hands = [0] * n
        self.start_hands = tuple(self.hands)
        self.discard_pile = 0
        self.discards = [0] * n
        self.replacements = []
        self.returned = 0
        self._replaced = 0
        self.scores_before = tuple(self.scores)
        self.bags_before = tuple(self.bags)
        self.bids = [None] * n
        self.blind = [False] * n
        self.decided = [not self._blind_nil_allowed(p) for p in range(n)]
        self.looked = list(self.decided)
        self.tricks = [0] * n
        self.trick = []
        self.leader = (dealer + 1) % n
        self.spades_broken = False
        self.played = [0] * n
        self.voids = [0] * n
        self.passes = []
        self._pass_queue = []
        self.trick_winners = []
        self.completed_tricks = ()
        self.plays = []
        self.actions = []

    def _blind_nil_allowed(self, player: int) -> bool:
        return self.config.blind_nil_open(self.scores, self.side_of[player])

    def _enter_bid_turn(self) -> None:
        self.phase = _BID if self.decided[self.current_player] else _BLIND

    # ------------------------------------------------------ two-player draw

    @property
    def offered(self) -> int | None:
        """The top card of the stock, seen by the player deciding to keep or discard it."""
        return self.stock[self.stock_pos] if self.phase is _DRAW else None

    def _enter_draw_turn(self) -> None:
        player = self.current_player
        if not self.decided[player]:
            self.phase = _BLIND
        elif self.blind[player]:
            # A Blind Nil bidder draws without looking: keep the top card, discard the next unseen.
            self._draw(player, keep_first=True, seen=False)
        else:
            self.phase = _DRAW

    def _draw(self, player: int, keep_first: bool, seen: bool = True) -> None:
        first, second = self.stock[self.stock_pos], self.stock[self.stock_pos + 1]
        kept, dropped = (first, second) if keep_first else (second, first)
        self.stock_pos += 2
        self.hands[player] |= 1 << kept
        self.discard_pile |= 1 << dropped
        if seen:
            self.discards[player] |= 1 << dropped
        if self.stock_pos < NUM_CARDS:
            self.current_player = 1 - player
            self._enter_draw_turn()
            return
        # The stock is empty: everyone looks at their hand and the bidding starts.
        self.start_hands = tuple(self.hands)
        self.looked = [True, True]
        self._advance_bidding()

    def _replace(self, player: int, action: int, drawn: int | None) -> None:
        """One Blind Nil replacement decision: put ``action`` back and draw ``drawn`` (None: at random), or stop."""
        if action != A.DONE:
            if drawn is None:
                pool = cards_of(self._drawable())
                drawn = pool[int(self.rng.integers(len(pool)))]
            bit, drawn_bit = 1 << action, 1 << drawn
            self.hands[player] = self.hands[player] ^ bit | drawn_bit
            self.discard_pile = self.discard_pile ^ drawn_bit | bit
            self.returned |= bit
            self.discards[player] |= bit
            self.replacements.append((player, action, drawn))
            self._replaced += 1
            if self._replaced < self.variant.blind_nil_cards:
                return
        self._replaced = 0
        replacers = [p for p in self._bidding_order() if self.blind[p]]
        later = replacers[replacers.index(player) + 1:]
        if later:
            self.current_player = later[0]
        else:
            self._start_play()

    # ------------------------------------------------------------ legality

    def partner(self, player: int) -> int | None:
        return self._partner[player]

    def legal_mask(self) -> int:
        """Legal action ids now, as a bitmask over the action table (cached until the next action:
        the env asks for it once to build the mask and once more to check the chosen action)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> int:
        phase = self.phase
        if phase is _PLAY:
            return self._legal_plays(self.current_player)
        if phase is _BID:
            low = 0 if self.config.nil else 1
            return ((1 << (A.MAX_BID + 1)) - (1 << low)) << A.BID_BASE
        if phase is _BLIND:
            return (1 << A.BLIND_NIL) | (1 << A.LOOK)
        if phase is _PASS:
            return self.hands[self.current_player]
        if phase is _DRAW:
            return (1 << A.KEEP) | (1 << A.DISCARD)
        if phase is _REPLACE:
            return self.hands[self.current_player] | (1 << A.DONE)
        return 0

    def _legal_plays(self, player: int) -> int:
        hand = self.hands[player]
        if self.trick:
            follow = hand & SUIT_MASK_OF[self.trick[0][1]]
            return follow or hand
        if self.spades_broken:
            return hand
        return (hand & ~SPADE_MASK) or hand

    def legal_actions(self) -> list[int]:
        return cards_of(self.legal_mask())

    def is_legal(self, action: int) -> bool:
        return 0 <= action < A.NUM_ACTIONS and bool(self.legal_mask() >> action & 1)

    # ---------------------------------------------------------------- apply

    def apply(self, action: int, outcome=None) -> None:
        """Play ``action`` for :attr:`current_player`.

        ``outcome`` fixes the chance outcome the action brings about, where
        the caller knows it (a replay, a resampled world) rather than the
        generator: the card a two-player Blind Nil replacement draws (one of
        :meth:`chance_outcomes`), or the next hand's deal when the action
        ends a hand (as ``reset(deal=)`` takes it; unused if the game ends).
        None draws it. Raises :class:`IllegalActionError` (a ``ValueError``)
        naming the action, the phase and the legal actions, or a
        ``ValueError`` for an outcome that cannot happen; the game is then
        untouched.
        """
        legal, given = self._legal, action
        if legal is None:  # legal_mask(), inlined: apply is the engine's hottest call
            legal = self._legal = self._compute_legal()
        if type(action) is not int:  # numpy integers are fine; bools, floats and strings are not
            if isinstance(action, bool) or not isinstance(action, numbers.Integral):
                raise IllegalActionError(self._illegal_message(given, legal))
            action = int(action)
        if not (0 <= action < _NUM_ACTIONS and legal >> action & 1):
            raise IllegalActionError(self._illegal_message(given, legal))
        player, phase = self.current_player, self.phase
        if outcome is not None:
            outcome = self._check_outcome(action, outcome)
        self._legal = None
        self.actions.append((player, action))
        if phase is _PLAY:
            self._play(player, action, outcome)
        elif phase is _BID:
            self.bids[player] = action - A.BID_BASE
            self._advance_bidding()
        elif phase is _BLIND:
            self.decided[player] = True
            if action == A.BLIND_NIL:
                self.bids[player] = 0
                self.blind[player] = True
            if self.variant.drawn:  # the choice opens the player's first draw turn
                self.looked[player] = action == A.LOOK  # a Blind Nil bidder draws unseen
                self._enter_draw_turn()
                return
            self.looked[player] = True  # Blind Nil or not, the player now sees the hand
            if action == A.BLIND_NIL:
                self._advance_bidding()
            else:
                self.phase = _BID
        elif phase is _DRAW:
            self._draw(player, keep_first=action == A.KEEP)
        elif phase is _PASS:
            self._pass(action)
        elif phase is _REPLACE:
            self._replace(player, action, outcome)
        self._legal = None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards a two-player Blind Nil replacement draws now, each with its probability (OpenSpiel's
        ``chance_outcomes``); empty in every other phase. A deal is uniform over the shuffles of the deck."""
        if self.phase is not _REPLACE:
            return []
        pool = cards_of(self._drawable())
        return [(card, 1 / len(pool)) for card in pool]

    def _drawable(self) -> int:
        """The cards a replacement may draw: the discard pile less the cards put back (never drawn again)."""
        return self.discard_pile & ~self.returned

    def _check_outcome(self, action: int, outcome):
        """The chance outcome given to :meth:`apply`, checked and in the engine's form."""
        phase = self.phase
        if phase is _REPLACE and action != A.DONE:
            try:
                card = to_card(outcome)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"a replacement draw is one card (an id 0..51 or text like 'AS'): {exc}") from None
            if not self._drawable() >> card & 1:
                raise ValueError(f"replacement draw {card_to_str(card)} is not in the discard pile; it may draw "
                                 f"{', '.join(card_to_str(c) for c, _ in self.chance_outcomes())}")
            return card
        if phase is _PLAY and len(self.trick_winners) == TRICKS_PER_HAND - 1 and len(self.trick) == \
                self.num_players - 1:
            return self._check_deal(outcome)
        raise ValueError(f"action {A.action_to_str(action)} in phase {phase.name} brings about no chance outcome: "
                         "outcome is a replacement draw or, with the last card of a hand, the next deal")

    def _illegal_message(self, action, legal: int) -> str:
        if not isinstance(action, bool) and isinstance(action, numbers.Integral) and 0 <= action < A.NUM_ACTIONS:
            what = f"{action!r} ({A.action_to_str(int(action))})"
        else:
            what = f"{action!r} (not an action id: ids are integers 0..{A.NUM_ACTIONS - 1})"
        if self.phase is _GAME_OVER:
            return f"illegal action {what}: the game is over"
        names = ", ".join(f"{a} ({A.action_to_str(a)})" for a in cards_of(legal))
        return (f"illegal action {what} for player {self.current_player} in phase "
                f"{self.phase.name}; legal actions: {names}")

    def _bidding_order(self) -> list[int]:
        """The seat after the dealer (first drawer) bids first, then clockwise."""
        return [(self.dealer + k) % self.num_players for k in range(1, self.num_players + 1)]

    def _advance_bidding(self) -> None:
        """Give the turn to the next seat still to bid, or end the bidding round."""
        waiting = [p for p in self._bidding_order() if self.bids[p] is None]
        if waiting:
            self.current_player = waiting[0]
            self._enter_bid_turn()
            return
        # The Blind Nil bidders who exchange (or replace) cards, in bidding order: none without the exchange.
        blind_order = [p for p in self._bidding_order() if self.blind[p]] if self.config.blind_nil_exchange else []
        if self.variant.blind_nil_exchange == "replace":  # Blind Nil bidders may now replace cards
            if blind_order:
                self.phase = _REPLACE
                self.current_player = blind_order[0]
            else:
                self._start_play()
            return
        # Queue the Blind Nil exchanges, in bidding order (none when both partners bid Blind Nil).
        for bidder in blind_order:
            partner = self.partner(bidder)
            if not self.blind[partner]:
                cards = self.variant.blind_nil_cards
                self._pass_queue += [(partner, bidder)] * cards + [(bidder, partner)] * cards
        if self._pass_queue:
            self.phase = _PASS
            self.current_player = self._pass_queue[0][0]
        else:
            self._start_play()

    def _pass(self, card: int) -> None:
        giver, receiver = self._pass_queue.pop(0)
        bit = 1 << card
        self.hands[giver] ^= bit
        self.hands[receiver] |= bit
        self.passes.append((giver, receiver, card))
        if self._pass_queue:
            self.current_player = self._pass_queue[0][0]
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase = _PLAY
        self.current_player = self.leader

    def _play(self, player: int, card: int, next_deal: list[int] | None = None) -> None:
        suit, bit, trick = SUIT_OF[card], 1 << card, self.trick
        self.hands[player] ^= bit
        self.played[player] |= bit
        self.plays.append((player, card))
        if trick:
            led = SUIT_OF[trick[0][1]]
            if suit != led:
                self.voids[player] |= 1 << led
                if suit == SPADES:
                    self.spades_broken = True
        elif suit == SPADES:  # leading a spade: legal only once broken, or when forced (which breaks them)
            self.spades_broken = True
        trick.append((player, card))
        if len(trick) < self.num_players:
            self.current_player = (player + 1) % self.num_players
            return
        winner = self.trick_winner(trick)
        self.tricks[winner] += 1
        self.trick_winners.append(winner)
        self.completed_tricks += (CompletedTrick(trick[0][0], winner, tuple(trick)),)
        self.trick = []
        self.leader = self.current_player = winner
        if len(self.trick_winners) == TRICKS_PER_HAND:
            self._end_hand(next_deal)

    trick_winner = staticmethod(trick_winner)  # the player whose card takes a trick (cards.TRICK_POWER)

    # -------------------------------------------------------------- scoring

    def _end_hand(self, next_deal: list[int] | None) -> None:
        cfg = self.config
        results: list[SideScore] = []
        for side, members in enumerate(self.members):
            result = score_side([self.bids[m] for m in members], [self.blind[m] for m in members],
                                [self.tricks[m] for m in members], self.bags[side], cfg.bag_limit, cfg.bag_penalty)
            self.scores[side] += result.total
            self.bags[side] = result.bags_after
            results.append(result)
        self.hand_number += 1
        winner = decide_winner(self.scores, [r.total for r in results], cfg.target_score, cfg.mercy_threshold,
                               cfg.single_hand)
        if winner is not None or cfg.single_hand:
            self.winner = winner
            self.terminated = True
        elif self.hand_number >= cfg.max_hands:
            self.truncated = True
        self.hand_records.append(self._hand_record(results))
        if self.terminated or self.truncated:
            self.phase = _GAME_OVER
        else:
            self._start_hand((self.dealer + 1) % self.num_players, next_deal)

    @property
    def started(self) -> bool:
        """Whether :meth:`reset` has started a game (before it, every field holds an empty hand)."""
        return self._rng is not None

    @property
    def game_over(self) -> bool:
        return self.phase is _GAME_OVER

    def _hand_record(self, results: list[SideScore]) -> dict:
        """What docs/rules.md section 3 asks a hand to expose, JSON-ready (cards as text)."""
        return {
            "hand": self.hand_number,
            "num_players": self.num_players,
            "dealer": self.dealer,
            "hands": [[CARD_NAMES[c] for c in cards_of(h)] for h in self.start_hands],
            "bids": list(self.bids),
            "blind_nil": list(self.blind),
            "passes": [[g, r, CARD_NAMES[c]] for g, r, c in self.passes],
            "stock": [CARD_NAMES[c] for c in self.stock],
            "discards": [[CARD_NAMES[c] for c in cards_of(m)] for m in self.discards],
            "replacements": [[p, CARD_NAMES[c], CARD_NAMES[d]] for p, c, d in self.replacements],
            "plays": [[p, CARD_NAMES[c]] for p, c in self.plays],
            "trick_winners": list(self.trick_winners),
            "tricks": list(self.tricks),
            "actions": [[p, a] for p, a in self.actions],
            "scores_before": list(self.scores_before),
            "bags_before": list(self.bags_before),
            "sides": [r.to_dict() for r in results],
            "points": [r.total for r in results],
            "scores": list(self.scores),
            "bags": list(self.bags),
            "game_over": self.terminated or self.truncated,
            "winner": self.winner,
            "truncated": self.truncated,
        }


# The declared fields that hold lists, the ones the engine changes in place: clone() copies these.
_LISTS = tuple(name for name, hint in inspect.get_annotations(SpadesGame).items() if hint.startswith("list["))
