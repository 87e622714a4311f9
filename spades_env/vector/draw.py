"""The two-player draw (keep or discard from the stock) and the Blind Nil replacements, as batched
transitions (see :mod:`spades_env.vector.bidding` for the conventions)."""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..cards import NUM_CARDS
from .backend import first_true
from .state import BLIND, DRAW, MAX_REPLACEMENTS, REPLACE


class TwoPlayerDraw:
    """The DRAW and REPLACE phases (a mixin of :class:`~spades_env.vector.VectorSpades`)."""

    def _enter_draw_turn(self, games) -> None:
        """The player to act draws: Blind Nil choice first if still open; a Blind Nil bidder draws unseen
        (keep the top card, discard the next) with no decision, which may chain to the stock's end."""
        be, n, off = self._be, self.num_players, self._off
        while len(games):
            player = be.take(self.current_player, games)
            seat = games * n + player
            decided, blind = be.take(self.decided, seat), be.take(self.blind, seat)
            be.put(self.phase, be.compress(~decided, games), BLIND)
            drawing = decided & ~blind
            draw_games = be.compress(drawing, games)
            if len(draw_games):
                be.put(self.phase, draw_games, DRAW)
                top = be.take(self.stock, draw_games * NUM_CARDS + be.take(self.stock_pos, draw_games))
                be.put(self._flat, self._own_row(draw_games, be.compress(drawing, player)) + off["offered"] + top, 1)
            auto = be.compress(decided & blind, games)
            games = self._draw(auto, be.full(len(auto), True, be.bool), seen=False) if len(auto) else auto

    def _draw_turn(self, games, action) -> None:
        self._enter_draw_turn(self._draw(games, action == A.KEEP, seen=True))

    def _draw(self, games, keep_first, seen: bool):
        """Take the top two cards of the stock: keep one, discard the other. Returns the games whose
        stock is not empty (the other player draws next); the others go on to the bidding."""
        be, xp, n, off, flat = self._be, self._be.xp, self.num_players, self._off, self._flat
        player = be.take(self.current_player, games)
        seat = games * n + player
        pos = be.take(self.stock_pos, games)
        first = be.take(self.stock, games * NUM_CARDS + pos)
        second = be.take(self.stock, games * NUM_CARDS + pos + 1)
        kept, dropped = xp.where(keep_first, first, second), xp.where(keep_first, second, first)
        pos = pos + 2
        be.put(self.stock_pos, games, pos)
        be.put(self.hands, seat, be.take(self.hands, seat) | (1 << kept))
        be.put(self.pile, games, be.take(self.pile, games) | (1 << dropped))
        own = self._own_row(games, player)
        if seen:  # the drawer has looked: the kept card shows, the dropped one is a known discard
            be.put(flat, own + off["hand"] + kept, 1)
            be.put(flat, own + off["discarded"] + dropped, 1)
            be.put(flat, own + off["offered"] + first, 0)
        observers = be.take(self._game_seats, games)
        self._put_count(observers, "stock", pos)
        self._put_count(observers, "discard_pile", pos)
        more = pos < NUM_CARDS
        going = be.compress(more, games)
        be.put(self.current_player, going, 1 - be.compress(more, player))
        ended = be.compress(~more, games)
        if len(ended):  # the stock is empty: both players look at their hands and the bidding starts
            both = be.take(self._game_seats, ended)
            be.put_cols(self._flags, both, off["hand"], be.astype(be.unpack(be.take(self.hands, both)), be.u8))
            self._advance_bidding(ended)
        return going

    def _replace(self, games, action) -> None:
        """Two players, after the bidding: a Blind Nil bidder puts a card back and draws one at random
        from the discard pile (not the cards put back), up to three times, or says done."""
        be, n, off, flat = self._be, self.num_players, self._off, self._flat
        player = be.take(self.current_player, games)
        swapping = action != A.DONE
        swaps = be.compress(swapping, games)
        if len(swaps):
            who, card = be.compress(swapping, player), be.compress(swapping, action)
            pool = be.take(self.pile, swaps) & ~be.take(self.returned, swaps)
            pool_cards = be.to_numpy(be.unpack(pool))  # (k, 52) host side: rare, and draws are host-side
            picks = self._deals.indices(be.to_numpy(swaps), pool_cards.sum(axis=1))
            drawn = be.asarray(np.array([np.flatnonzero(row)[i] for row, i in zip(pool_cards, picks)], np.int64)
                               .reshape(-1), be.i64)
            bit, drawn_bit = 1 << card, 1 << drawn
            seat = swaps * n + who
            be.put(self.hands, seat, be.take(self.hands, seat) ^ bit | drawn_bit)
            be.put(self.pile, swaps, be.take(self.pile, swaps) ^ drawn_bit | bit)
            be.put(self.returned, swaps, be.take(self.returned, swaps) | bit)
            own = self._own_row(swaps, who)
            be.put(flat, own + off["hand"] + card, 0)
            be.put(flat, own + off["hand"] + drawn, 1)
            be.put(flat, own + off["discarded"] + card, 1)
            be.put(flat, own + off["replaced"] + drawn, 1)
            be.put(self.replaced, swaps, be.take(self.replaced, swaps) + 1)
        finished = ~swapping | (be.take(self.replaced, games) == MAX_REPLACEMENTS)
        done = be.compress(finished, games)
        if len(done):
            be.put(self.replaced, done, 0)
            self._next_replacer(done, be.compress(finished, player))

    def _next_replacer(self, games, after) -> None:
        """The next Blind Nil bidder after seat ``after`` (-1: from the start) in bidding order replaces,
        or the play starts."""
        be, n = self._be, self.num_players
        order = self._bidding_order(games)
        blind = be.take(self.blind, games[:, None] * n + order)
        position = first_true(be, order == after[:, None], -1)
        later = blind & (self._seat_ids[None, :] > position[:, None])
        more = later.any(axis=1)
        nxt = be.take(order.reshape(-1), be.arange(len(games)) * n + be.astype(later, be.i64).argmax(axis=1))
        going = be.compress(more, games)
        if len(going):
            be.put(self.phase, going, REPLACE)
            be.put(self.current_player, going, be.compress(more, nxt))
        self._start_play(be.compress(~more, games))
