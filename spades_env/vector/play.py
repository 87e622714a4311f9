"""Card play and the end of each trick, as batched transitions (see :mod:`spades_env.vector.bidding`
for the conventions)."""

from __future__ import annotations

from ..cards import NUM_CARDS, SPADES
from .state import NO_TRICK


class TrickPlay:
    """The PLAY phase (a mixin of :class:`~spades_env.vector.VectorSpades`)."""

    def _play(self, games, card) -> None:
        if self._compiled:
            self._play_compiled(games, card)
            return
        be, xp, flat, n = self._be, self._be.xp, self._flat, self.num_players
        player = self._of(self.current_player, games)
        seat = self._of(self._acting_seat, games)  # games * n + player, from the step's start
        be.put(self.hands, seat, be.take(self.hands, seat) ^ be.take(self._card_bits, card))
        be.put(flat, be.take(self._hand_at, seat) + card, 0)
        be.put(flat, be.take(self._played_at, seat) + card[:, None], 1)
        suit = be.take(self._suit_of, card)
        size = self._of(self.trick_len, games)
        led = xp.where(size == 0, suit, self._of(self.led, games))
        self._set(self.led, games, led)
        off_suit = suit != led
        shown_out = be.nonzero(off_suit)
        if len(shown_out):  # a void is shown; writing it again later is harmless
            voids = be.take(self._voids_at, be.take(seat, shown_out)) + be.take(led, shown_out)[:, None]
            be.put(flat, voids, 1)
        breaks = be.nonzero((suit == SPADES) & ~self._of(self.broken, games))  # led only when allowed
        if len(breaks):
            breaking = be.take(games, breaks)
            be.put(self.broken, breaking, True)
            be.put(flat, be.take(self._broken_at, breaking), 1)
        be.put(self.trick_cards, seat, card)
        size = size + 1
        self._set(self.trick_len, games, size)
        self._set(self.current_player, games, be.take(self._next_seat, player))
        complete = be.nonzero(size == n)
        if len(complete):
            self._finish_tricks(games if len(complete) == len(games) else be.take(games, complete))

    def _play_compiled(self, games, card) -> None:
        """:meth:`_play` and :meth:`_finish_tricks` as one compiled pass (:func:`.kernels.play_cards`)."""
        flags_at, reals_at = self._tricks_at
        values, codes = self._counted["tricks"]
        self._kernels.threads(self.threads)
        self._kernels.play_cards(
            games, card, self.num_players, NO_TRICK, self.hands, self.current_player, self.trick_len, self.led,
            self.broken, self.trick_cards, self.tricks, self.leader, self.tricks_done, self._flat, self._rflat,
            self._keep_codes, self._keep_reals, self._hand_at, self._played_at, self._voids_at, self._broken_at,
            flags_at, reals_at, values, codes, self._seat_at["leader"], self._trick_power, self._suit_of)

    def _finish_tricks(self, games) -> None:
        """Score the completed tricks: the card of highest trick power (cards.TRICK_POWER) wins."""
        be, flat, n = self._be, self._flat, self.num_players
        seats = self._of(self._game_seats, games)
        cards = be.take(self.trick_cards, seats)  # (k, n) by seat
        power = be.take(self._trick_power, self._of(self.led, games)[:, None] * NUM_CARDS + cards)
        winner = power.argmax(axis=1)
        won = games * n + winner
        count = be.take(self.tricks, won) + 1
        be.put(self.tricks, won, count)
        self._put_tricks_won(won, count)
        be.put(flat, self._seat_entries(games, "leader", self._of(self.leader, games)), 0)
        be.put(flat, be.take(self._seat_at["leader"], won), 1)
        self._set(self.leader, games, winner)
        self._set(self.current_player, games, winner)
        self._set(self.trick_len, games, 0)
        self._set(self.led, games, NO_TRICK + be.astype(self._of(self.broken, games), be.i64))
        be.put(self.trick_cards, seats, -1)
        self._set(self.tricks_done, games, self._of(self.tricks_done, games) + 1)
