"""Bidding and the four-player Blind Nil exchange, as batched transitions.

Each method takes ``games`` (the indices of the games in the phase, host or device array of the backend)
and, for a move, the action of the seat to act in each; it updates the state arrays and the stored
observation rows of every seat that sees the move.
"""

from __future__ import annotations

from .. import actions as A
from ..observations import BID_CODES
from .state import BID, BLIND, PASS, PASSES_PER_EXCHANGE, PLAY


class Bidding:
    """The BLIND, BID and PASS phases (a mixin of :class:`~spades_env.vector.VectorSpades`)."""

    def _bid(self, games, action) -> None:
        self._record_bid(games, self._be.take(self.current_player, games), action - A.BID_BASE, blind=False)
        self._advance_bidding(games)

    def _blind(self, games, action) -> None:
        be, n = self._be, self.num_players
        player = be.take(self.current_player, games)
        seat = games * n + player
        be.put(self.decided, seat, True)
        is_blind = action == A.BLIND_NIL
        blind_games = be.compress(is_blind, games)
        if len(blind_games):
            self._record_bid(blind_games, be.compress(is_blind, player), be.zeros(len(blind_games), be.i64), True)
        if n == 2:  # the choice opens the player's first draw turn; a Blind Nil bidder draws unseen
            looking = be.compress(~is_blind, games)
            if len(looking):
                self._show_hands(looking, be.compress(~is_blind, player))
            self._enter_draw_turn(games)
            return
        self._show_hands(games, player)  # Blind Nil or not, the player now sees the hand
        if len(blind_games):
            self._advance_bidding(blind_games)
        be.put(self.phase, be.compress(~is_blind, games), BID)

    def _record_bid(self, games, player, bid, blind: bool) -> None:
        be = self._be
        seat = games * self.num_players + player
        be.put(self.bids, seat, bid)
        be.put(self.blind, seat, blind)
        at = self._seat_entries(games, "bids", player)
        be.put(self._flat, at, 0)
        be.put(self._flat, at + (BID_CODES - 1 if blind else bid[:, None] + 1), 1)

    def _bidding_order(self, games):
        """(k, n) seats in bidding order: the seat after the dealer (first drawer) first."""
        return (self._be.take(self.dealer, games)[:, None] + 1 + self._seat_ids) % self.num_players

    def _advance_bidding(self, games) -> None:
        """Give the turn to the first seat still to bid, or end the bidding round."""
        be, xp, n = self._be, self._be.xp, self.num_players
        order = self._bidding_order(games)
        waiting = be.take(self.bids, games[:, None] * n + order) < 0
        more = waiting.any(axis=1)
        nxt = be.take(order.reshape(-1), be.arange(len(games)) * n + be.astype(waiting, be.i64).argmax(axis=1))
        going = be.compress(more, games)
        if len(going):
            nxt = be.compress(more, nxt)
            be.put(self.current_player, going, nxt)
            be.put(self.phase, going, xp.where(be.take(self.decided, going * n + nxt), BID, BLIND))
        done = be.compress(~more, games)
        if not len(done):
            return
        if not self.config.blind_nil_exchange:  # no Blind Nil bidder exchanges or replaces cards
            self._start_play(done)
        elif n == 4:
            self._queue_exchanges(done)
        else:
            self._next_replacer(done, be.full(len(done), -1, be.i64))

    def _queue_exchanges(self, games) -> None:
        """Four players, after the bidding: each Blind Nil bidder whose partner did not bid Blind Nil
        exchanges cards with the partner, in bidding order (docs/rules.md, "the exchange")."""
        be, xp, n = self._be, self._be.xp, self.num_players
        count = be.zeros(len(games), be.i64)
        first = second = be.full(len(games), -1, be.i64)
        for k in range(1, n + 1):
            bidder = (be.take(self.dealer, games) + k) % n
            due = be.take(self.blind, games * n + bidder) & ~be.take(self.blind, games * n + (bidder + 2) % n)
            first = xp.where(due & (count == 0), bidder, first)
            second = xp.where(due & (count == 1), bidder, second)
            count = count + due
        be.put(self.exchanges, games * 2, first)
        be.put(self.exchanges, games * 2 + 1, second)
        be.put(self.num_passes, games, count * PASSES_PER_EXCHANGE)
        be.put(self.passes_done, games, 0)
        passing = count > 0
        exchanging = be.compress(passing, games)
        if len(exchanging):
            be.put(self.phase, exchanging, PASS)
            be.put(self.current_player, exchanging, self._passer(exchanging)[0])
        self._start_play(be.compress(~passing, games))

    def _passer(self, games):
        """(giver, receiver) of the next pass in each game: partner to bidder three times, then back."""
        be, xp = self._be, self._be.xp
        done = be.take(self.passes_done, games)
        bidder = be.take(self.exchanges, games * 2 + done // PASSES_PER_EXCHANGE)
        partner = (bidder + 2) % self.num_players
        to_bidder = done % PASSES_PER_EXCHANGE < PASSES_PER_EXCHANGE // 2
        return xp.where(to_bidder, partner, bidder), xp.where(to_bidder, bidder, partner)

    def _start_play(self, games) -> None:
        if len(games):
            self._be.put(self.phase, games, PLAY)
            self._be.put(self.current_player, games, self._be.take(self.leader, games))

    def _pass(self, games, card) -> None:
        be, n, off = self._be, self.num_players, self._off
        giver, receiver = self._passer(games)
        bit = 1 << card
        be.put(self.hands, games * n + giver, be.take(self.hands, games * n + giver) ^ bit)
        be.put(self.hands, games * n + receiver, be.take(self.hands, games * n + receiver) | bit)
        giver_row, receiver_row = self._own_row(games, giver), self._own_row(games, receiver)
        be.put(self._flat, giver_row + off["hand"] + card, 0)
        be.put(self._flat, receiver_row + off["hand"] + card, 1)
        be.put(self._flat, giver_row + off["passed"] + card, 1)
        be.put(self._flat, receiver_row + off["received"] + card, 1)
        done = be.take(self.passes_done, games) + 1
        be.put(self.passes_done, games, done)
        finished = done == be.take(self.num_passes, games)
        self._start_play(be.compress(finished, games))
        more = be.compress(~finished, games)
        if len(more):
            be.put(self.current_player, more, self._passer(more)[0])
