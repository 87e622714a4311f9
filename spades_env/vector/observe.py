"""The observation writers of the batched engine.

Every seat's observation (the ``"default"`` encoding of :mod:`spades_env.observations`) is stored as a
row that the transitions update in place, entry by entry, as the reference ``ObservationTracker`` does.
The fractional entries are stored twice: as float32 and, in the row itself, as their uint8 code
(:func:`~spades_env.observations.quantize`), so that a uint8 observation is a copy of the row. The
blocks that change at nearly every step (phase, seat to act, the current trick: kept in all four rows,
it costs more writes than it saves) and the oracle's other hands are written only when observations
are read (:meth:`ObservationWriter._observations`).
"""

from __future__ import annotations

import numpy as np

from ..cards import NUM_CARDS
from ..observations import BID_CODES, FRACTIONAL_BLOCKS, SCORE_CLIP, bounds, layout, observation_size, quantize
from .state import DRAW, GAME_OVER


class ObservationWriter:
    """Stored observation rows and the views built from them (a mixin of
    :class:`~spades_env.vector.VectorSpades`)."""

    def _init_observation_tables(self) -> None:
        """The index tables of the writers and the stored rows (needs the seat lookups of the engine)."""
        be, B, n, i64, f32 = self._be, self.num_envs, self.num_players, self._be.i64, self._be.f32
        # Offsets of the observation blocks and index tables.
        self._off = off = {name: b.start for name, b in layout(n, "default").items()}
        blocks = layout(n, "default")
        self._row_size = D = observation_size(n, "default")  # the stored rows have the default layout
        real_names = [name for name in FRACTIONAL_BLOCKS if name in blocks]
        # _roff[name]: offset of a fractional block in a row of _reals; _real_spans: (obs start, stop, reals start)
        # of the contiguous runs of fractional blocks in the observation.
        self._roff, self._real_spans, width = {}, [], 0
        for name in real_names:
            block = blocks[name]
            self._roff[name] = width
            if self._real_spans and self._real_spans[-1][1] == block.start:
                start, _, rstart = self._real_spans.pop()
                self._real_spans.append((start, block.stop, rstart))
            else:
                self._real_spans.append((block.start, block.stop, width))
            width += block.size
        self._num_reals = width
        low, high = bounds(n, "default")  # the bounds of the fractional entries, for the uint8 codes
        columns = np.concatenate([np.arange(blocks[name].start, blocks[name].stop) for name in real_names])
        self._real_low, self._real_high = be.asarray(low[columns], f32), be.asarray(high[columns], f32)
        self._out_rows = self._ar * self.observation_size  # where game b's row starts in a batch of observations
        self._out_phase = self._out_rows + off["phase"]
        seats = np.arange(n)
        rel = (seats[:, None] - seats[None, :]) % n  # rel[p, o]: where seat p sits in observer o's frame
        game_rows = (np.arange(B)[:, None] * n + seats[None, :]) * D  # (B, o): where observer o's row of game b starts
        # _seat_at[block][game * n + p]: flat indices (n,) of seat p's entry of a per-seat block in every row
        # of the game (plus the bid code for "bids").
        widths = {"bids": BID_CODES, "leader": 1, "dealer": 1}
        self._seat_at = {name: be.asarray(self._entries_table(game_rows, rel, name, w), i64)
                         for name, w in widths.items()}
        self._game_seats = be.asarray(np.arange(B * n).reshape(B, n), i64)  # [b]: the seats of game b
        # _tricks_at[game * n + p]: seat p's tricks-won entry in every observer's stored row (+ the code) and
        # float32 row (+ the value).
        real_rows = (np.arange(B)[:, None] * n + seats[None, :]) * width
        self._tricks_at = (be.asarray(self._entries_table(game_rows, rel, "tricks", 1), i64),
                           be.asarray(self._entries_table(real_rows, rel, "tricks", 1, self._roff), i64))
        self._voids_at = be.asarray(self._entries_table(game_rows, rel, "voids", 4), i64)
        self._broken_at = be.asarray(game_rows + off["spades_broken"], i64)  # (B, o)
        # Where a card played by seat (game * n + seat) is written, plus the card id: its own hand entry
        # (to 0), and its played entry in every observer's row (to 1).
        self._hand_at = be.asarray(np.arange(B * n) * D + off["hand"], i64)
        self._played_at = be.asarray(self._entries_table(game_rows, rel, "played"), i64)
        # The current trick, written into the observations when they are read: _trick_at[o, s], the offset of
        # seat s's row of the trick block in observer o's observation; _live_trick_at[game * n + o], the same
        # in a batch of observations of the seats to act (row b at b * observation_size).
        trick_at = off["trick"] + rel.T * NUM_CARDS
        self._live_trick_at = be.asarray((np.arange(B * n) // n * self.observation_size)[:, None]
                                         + np.tile(trick_at, (B, 1)), i64)
        self._trick_at = be.asarray(trick_at, i64)
        self._rel = be.asarray(rel, i64)
        # (own side, other side) of each observer, to lay out the per-side blocks.
        self._side_perm = be.asarray([[o % 2, 1 - o % 2] for o in range(n)], i64)
        self._totals_ids = be.arange(4)  # scores (own side, other side), then bags (the same)
        assert blocks["bags"].start == blocks["scores"].stop and self._roff["bags"] == self._roff["scores"] + 2
        self._counted = self._count_tables(blocks, low, high)
        self._init_rows()

    def _init_rows(self) -> None:
        """The stored rows (see the module docstring)."""
        be, B, n, D, f32 = self._be, self.num_envs, self.num_players, self._row_size, self._be.f32
        # Every seat's observation, kept in two parts so that the hot data stays in cache: the rows in
        # the observation's own layout as uint8 (the 0/1 entries, and the fractional ones as their uint8
        # codes), and the few fractional blocks (tricks / 13, scores, bags, target, stock, discard pile)
        # as float32 for the float32 observations. The blocks that change at nearly every step (phase,
        # to_act, the current trick) stay 0 in the rows: they are written into the observations when these
        # are built.
        # Each part is kept only where it is read: the codes for uint8 observations, the float32 values for
        # float32 ones and for state() (oracle).
        self._keep_codes = self._obs_dtype is be.u8
        self._keep_reals = not self._keep_codes or self.observation_kind == "oracle"
        # The spans the compiled live view copies from the float32 rows (none for uint8 observations).
        self._live_spans = np.array([] if self._keep_codes else self._real_spans, np.int64).reshape(-1, 3)
        self._flags = be.zeros((B * n, D), be.u8)  # row game * n + p: seat p's observation in game b
        self._flat = self._flags.reshape(-1)
        self._reals = be.zeros((B * n, self._num_reals), f32)
        self._rflat = self._reals.reshape(-1)
        self._final_flags = be.zeros((B * n, D), be.u8)  # the same, for the last finished game of each slot
        self._final_reals = be.zeros((B * n, self._num_reals), f32)
        # The rows' codes of the fractional entries match the float32 rows from the start (0.0 is not code 0
        # where a block's low bound is negative: the scores).
        zero_codes = be.astype(quantize(be.zeros(self._num_reals, f32), self._real_low, self._real_high, be.xp), be.u8)
        for rows in (self._flags, self._final_flags) if self._keep_codes else ():
            for start, stop, rstart in self._real_spans:
                rows[:, start:stop] = zero_codes[rstart:rstart + stop - start]

    def _count_tables(self, blocks: dict, low: np.ndarray, high: np.ndarray) -> dict:
        """(values, codes) by count for the blocks that hold a count (tricks won, cards drawn): float32
        exactly as the reference rounds its doubles, and the uint8 codes of these values."""
        be = self._be
        counted = {"tricks": np.arange(14) / 13, "stock": (NUM_CARDS - np.arange(NUM_CARDS + 1)) / NUM_CARDS,
                   "discard_pile": np.arange(NUM_CARDS + 1) // 2 / 26}
        tables = {}
        for name, values in counted.items():
            if name in blocks:
                b, values = blocks[name], values.astype(np.float32)
                assert len(set(low[b.start:b.stop])) == len(set(high[b.start:b.stop])) == 1, name
                codes = quantize(values, low[b.start], high[b.start])
                tables[name] = be.asarray(values, be.f32), be.asarray(codes, be.u8)
        return tables

    def _entries_table(self, game_rows: np.ndarray, rel: np.ndarray, block: str, width: int = NUM_CARDS,
                       offsets: dict | None = None):
        """A per-seat block as one table per seat index (game * n + seat): the flat indices (n,) of that
        seat's entry in every observer's row of its game (one gather instead of two gathers and an add).
        ``game_rows`` (B, o): where the rows start; ``offsets``: the blocks' offsets in a row (the
        observation's by default)."""
        start = (self._off if offsets is None else offsets)[block]
        return (game_rows[:, None, :] + start + rel[None] * width).reshape(-1, self.num_players)

    def _put_fractions(self, seats, block: str, values, column=0, codes=None) -> None:
        """Fractional entries: ``values`` (float32) at ``column`` of ``block`` in the rows of observer seats
        ``seats`` (game * n + observer), in the float32 rows and, as uint8 ``codes`` (by default
        computed), in the stored rows, each where kept (shapes broadcast; ``column`` an int or an index
        array)."""
        be = self._be
        at = self._roff[block] + column
        if self._keep_reals:
            be.put(self._rflat, seats * self._num_reals + at, be.asarray(values, be.f32))
        if not self._keep_codes:
            return
        if codes is None:
            if isinstance(at, int):
                low, high = self._real_low[at], self._real_high[at]
            else:
                low, high = be.take(self._real_low, at), be.take(self._real_high, at)
            codes = quantize(be.asarray(values, be.f32), low, high, be.xp)
        be.put(self._flat, seats * self._row_size + self._off[block] + column, codes)

    def _put_tricks_won(self, won, count) -> None:
        """Seats ``won`` (game * n + seat, (k,)) have now won ``count`` tricks: their entry in every row."""
        be = self._be
        values, codes = self._counted["tricks"]
        flags_at, reals_at = self._tricks_at
        if self._keep_reals:
            be.put(self._rflat, be.take(reals_at, won), be.take(values, count)[:, None])
        if self._keep_codes:
            be.put(self._flat, be.take(flags_at, won), be.take(codes, count)[:, None])

    def _put_count(self, seats, block: str, count, column=0) -> None:
        """A count block (see ``_counted``): the entry for ``count`` (k,) at ``column`` in the rows of
        observer seats ``seats`` (k, n)."""
        be = self._be
        values, codes = self._counted[block]
        values = be.take(values, count)[:, None] if self._keep_reals else None
        codes = be.take(codes, count)[:, None] if self._keep_codes else None
        self._put_fractions(seats, block, values, column, codes)

    def _seat_entries(self, games, block: str, seat):
        """Flat indices (k, n): seat ``seat``'s entry of a per-seat block in every observer's row."""
        return self._be.take(self._seat_at[block], games * self.num_players + seat)

    def _own_row(self, games, seat):
        """Flat index (k,) where seat ``seat``'s own observation row starts."""
        return (games * self.num_players + seat) * self._row_size

    def _show_hands(self, games, seat) -> None:
        """Write the hand block of seat ``seat``'s row from its hand (the player looks)."""
        be, seats = self._be, games * self.num_players + seat
        be.put_cols(self._flags, seats, self._off["hand"], be.astype(be.unpack(be.take(self.hands, seats)), be.u8))

    def _write_new_hand_rows(self, games, seats, dealer, may_blind, phase) -> None:
        """Rebuild the rows of ``games`` (seats ``seats``, (k, n)) for a hand just dealt: a seat that may
        still choose Blind Nil does not see its hand yet."""
        be, off, flat, n, cfg = self._be, self._off, self._flat, self.num_players, self.config
        for rows, kept in ((self._flags, True), (self._reals, self._keep_reals)):
            if kept:
                self._set(rows.reshape(self.num_envs, -1), games, 0)  # a game's rows are contiguous
        be.put_cols(self._flags, seats, off["hand"],
                    be.astype(be.unpack(be.take(self.hands, seats)) & ~may_blind[:, :, None], be.u8))
        be.put(flat, be.take(self._seat_at["bids"], seats), 1)  # code 0: nobody has bid
        be.put(flat, self._seat_entries(games, "leader", (dealer + 1) % n), 1)
        be.put(flat, self._seat_entries(games, "dealer", dealer), 1)
        self._put_fractions(seats, "target", min(cfg.target_score / 1000, SCORE_CLIP))
        if n == 2:
            self._put_fractions(seats, "stock", 1.0)
            drawing = be.compress(phase == DRAW, games)
            if len(drawing):
                top = be.take(self.stock, drawing * NUM_CARDS)
                be.put(flat, self._own_row(drawing, be.take(self.current_player, drawing)) + off["offered"] + top, 1)
        self._write_totals(games)

    def _write_totals(self, games) -> None:
        """Scores (/ target, clipped) and bags (/ bag_limit) as (own side, other side) for every observer."""
        be, cfg = self._be, self.config
        scores = be.astype(be.take(self.scores, games)[:, self._side_perm], be.f64) / cfg.target_score
        bags = be.astype(be.take(self.bags, games)[:, self._side_perm], be.f64) / cfg.bag_limit
        seats = be.take(self._game_seats, games)
        scores = be.xp.clip(scores, -SCORE_CLIP, SCORE_CLIP)
        # The two blocks are next to each other in both forms of the rows: one write.
        totals = be.astype(be.xp.concatenate([scores, bags], axis=2), be.f32)
        self._put_fractions(seats[..., None], "scores", totals, self._totals_ids)

    def _store_final_observations(self, games) -> None:
        """The game-over observations (final totals; phase GAME_OVER and nobody to act are written when
        they are read), kept before the slot starts a new game."""
        be = self._be
        self._write_totals(games)
        if len(games) == self.num_envs:  # every game ended together (single hands): swap, all rows are rebuilt
            self._flags, self._final_flags = self._final_flags, self._flags
            self._reals, self._final_reals = self._final_reals, self._reals
            self._flat, self._rflat = self._flags.reshape(-1), self._reals.reshape(-1)
            return
        seats = be.take(self._game_seats, games)
        be.put(self._final_flags, seats, be.take(self._flags, seats))
        if self._keep_reals:
            be.put(self._final_reals, seats, be.take(self._reals, seats))

    # --------------------------------------------------------------- views

    def _observations(self, games, observers, final: bool = False, dtype=None):
        """Observations (shape S + (observation_size,), in ``dtype``, by default the engine's
        ``observation_dtype``) of seats ``observers`` in games ``games`` (both of shape S): the stored rows,
        plus the phase, to_act and trick blocks written from the game state (and the other hands for the
        oracle kind). ``games is self._ar`` (the seats to act, one per game, in order) takes views instead
        of gathers. As uint8 the fractional entries are :func:`~spades_env.observations.quantize`'s codes."""
        be, off, n, D = self._be, self._off, self.num_players, self.observation_size
        dtype = self._obs_dtype if dtype is None else dtype
        live = games is self._ar  # then observers are the seats to act
        seats = self._acting_seat if live else games * n + observers
        flags, reals = (self._final_flags, self._final_reals) if final else (self._flags, self._reals)
        if self.observation_kind == "default":
            out = be.take(flags, seats)  # the stored rows are uint8: a new array either way
            if dtype is not be.u8:
                out = be.astype(out, dtype)
        else:  # the other seats' hands, in seat order from the observer's left
            out = be.zeros((*seats.shape, D), dtype)
            out[..., :self._row_size] = be.take(flags, seats)
            if not final:  # at the end of a game every hand is empty
                others = be.take(self.hands, games[..., None] * n + be.take(self._next_seats, observers))
                out[..., self._row_size:] = be.astype(be.unpack(others), dtype).reshape(*seats.shape, -1)
        if dtype is not be.u8:  # the rows hold uint8 codes of the fractional entries: their float32 values
            reals = be.take(reals, seats)
            for start, stop, rstart in self._real_spans:
                out[..., start:stop] = reals[..., rstart:rstart + stop - start]
        flat = out.reshape(-1)
        rows = self._out_rows if live else be.arange(flat.shape[0] // D).reshape(seats.shape) * D
        if final:  # the game is over: nobody to act, no trick
            be.put(flat, rows + off["phase"] + GAME_OVER, 1)
            return out
        if live:
            if self._phase_now is not None:  # most steps: one column
                out[:, off["phase"] + self._phase_now] = 1
            else:
                be.put(flat, self._out_phase + self.phase, 1)
            out[:, off["to_act"]] = 1  # the seat to act sees itself (seat 0 of its frame) to act
        else:
            be.put(flat, rows + off["phase"] + be.take(self.phase, games), 1)
            to_act = be.take(self._rel.reshape(-1), be.take(self.current_player, games) * n + observers)
            be.put(flat, rows + off["to_act"] + to_act, 1)
        cards = (self.trick_cards.reshape(-1, n) if live
                 else be.take(self.trick_cards, games[..., None] * n + self._seat_ids))  # (S, n) by seat, -1: none
        played = cards >= 0
        # Seat s's trick card in the observer's frame; a seat with no card writes 0 at the start of its own
        # (empty) row of the block.
        at = (be.take(self._live_trick_at, seats) if live
              else rows[..., None] + be.take(self._trick_at, observers)) + cards * played
        be.put(flat, at, played)
        return out

    def state(self):
        """(B, oracle size) float32: the global state for centralised critics, as ``spades_v0``'s
        ``state()``: seat 0's ``"oracle"`` observation with seat 0's own hand shown even before it looks.
        Needs ``observation="oracle"``."""
        if self.observation_kind != "oracle":
            raise ValueError("state() needs observation='oracle'")
        be = self._be
        out = self._observations(self._ar[:, None], be.zeros((self.num_envs, 1), be.i64), dtype=be.f32)[:, 0]
        start = self._off["hand"]
        out[:, start:start + NUM_CARDS] = be.astype(be.unpack(be.take(self.hands, self._ar * self.num_players)),
                                                   be.f32)
        return out

    def _all_seats(self):
        return self._ar[:, None] + 0 * self._seat_ids, self._ar[:, None] * 0 + self._seat_ids

    @property
    def obs_buffer(self):
        """(B, n, D) (``observation_dtype``): every seat's observation, row ``[b, p]`` relative to seat ``p``
        (a copy)."""
        return self._observations(*self._all_seats())

    @property
    def final_observations(self):
        """(B, n, D) (``observation_dtype``): every seat's last observation (phase GAME_OVER) of the last game
        that ended in each slot (a copy); read it for the slots flagged terminated / truncated by the step."""
        return self._observations(*self._all_seats(), final=True)

    def _current_obs(self):
        return self._observations(self._ar, self.current_player)
