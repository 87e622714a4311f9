"""Observation encoders: the per-player vector, its layout table and a decoder.

Every block is relative to the observer's seat: seat order is (self, left,
partner, right) in the four-player game and (self, opponent) in the
two-player game. Three kinds share one layout:

* ``"default"`` -- what a player at the table knows (docs/rules.md section 3);
* ``"history"`` -- the default plus the ordered trick history (for sequence
  models);
* ``"oracle"``  -- the default plus the other players' hands (for privileged
  critics and debugging, like PettingZoo's hanabi "seer" option).

:func:`encode` builds a vector from scratch and is the definition of the
encoding. :class:`ObservationTracker` keeps all players' vectors up to date
one action at a time, which is what makes ``observe()`` cheap; a test checks
after every action of thousands of games that the two agree.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from . import actions as A
from .cards import NUM_CARDS, SUITS, TRICKS_PER_HAND, bits_to_array, card_to_str, cards_of, masks_to_rows
from .game import Phase, SpadesGame
from .variant import variant_of

KINDS = ("default", "history", "oracle")
BID_CODES = 16  # not yet bid, 0..13, Blind Nil
# The blocks whose entries are not 0/1 (counts / a scale, clipped scores); every other entry is 0 or 1.
FRACTIONAL_BLOCKS = ("tricks", "stock", "discard_pile", "scores", "bags", "target")
UINT8_LEVELS = 255  # a fractional entry as uint8: its place between the block's bounds, in 255 steps
SCORE_CLIP = 10.0  # scores are scaled by the target and clipped to +-10 targets
NUM_PHASES = len(Phase)
_PLAY, _BID, _DRAW, _BLIND, _PASS = Phase.PLAY, Phase.BID, Phase.DRAW, Phase.BLIND, Phase.PASS
_GAME_OVER = Phase.GAME_OVER


@dataclass(frozen=True)
class Block:
    name: str
    start: int
    shape: tuple[int, ...]
    low: float
    high: float
    meaning: str

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def stop(self) -> int:
        return self.start + self.size


@functools.cache
def layout(num_players: int = 4, kind: str = "default") -> dict[str, Block]:
    """The observation layout: block name -> :class:`Block` (start, shape, bounds, meaning)."""
    if kind not in KINDS:
        raise ValueError(f"observation kind must be one of {KINDS}, got {kind!r}")
    variant = variant_of(num_players)
    n, seats = num_players, variant.relative_seats
    specs = [
        ("hand", (NUM_CARDS,), 0, 1, "my cards (all 0 until I have looked, see Blind Nil)"),
        ("bids", (n, BID_CODES), 0, 1, f"bid per seat {seats}: one-hot of not-yet, 0..13, Blind Nil"),
        ("tricks", (n,), 0, 1, "tricks taken this hand per seat / 13"),
        ("trick", (n, NUM_CARDS), 0, 1, "cards in the current trick, by seat"),
        ("leader", (n,), 0, 1, "seat that leads (led) the current trick"),
        ("played", (n, NUM_CARDS), 0, 1, "cards already played this hand, by seat"),
        ("voids", (n, 4), 0, 1, "suits (C, D, H, S) a seat has shown out of"),
        ("spades_broken", (1,), 0, 1, "spades have been broken"),
        ("phase", (NUM_PHASES,), 0, 1, "one-hot phase: " + ", ".join(p.name for p in Phase)),
        ("to_act", (n,), 0, 1, "seat to act (all 0 when the game is over)"),
        ("dealer", (n,), 0, 1, "first drawer" if variant.drawn else "dealer seat"),
    ]
    if not variant.drawn:
        specs += [
            ("passed", (NUM_CARDS,), 0, 1, "cards I passed to my partner (Blind Nil exchange)"),
            ("received", (NUM_CARDS,), 0, 1, "cards my partner passed to me"),
        ]
    else:
        specs += [
            ("offered", (NUM_CARDS,), 0, 1, "the top card of the stock, while I decide to keep or discard it"),
            ("discarded", (NUM_CARDS,), 0, 1, "discarded cards I have seen (draw) or put back (replacement)"),
            ("replaced", (NUM_CARDS,), 0, 1, "cards I drew from the discard pile as Blind Nil replacements"),
            ("stock", (1,), 0, 1, "cards left in the stock / 52"),
            ("discard_pile", (1,), 0, 1, "cards in the discard pile / 26"),
        ]
    specs += [
        ("scores", (2,), -SCORE_CLIP, SCORE_CLIP, "running score (my side, other side) / target, clipped"),
        ("bags", (2,), 0, 1, "bags carried (my side, other side) / bag_limit"),
        ("target", (1,), 0, SCORE_CLIP, "target score / 1000, clipped"),
    ]
    if kind == "history":
        specs.append(("history", (13, n, NUM_CARDS + n), 0, 1,
                      "trick t, k-th card played: card one-hot then seat one-hot"))
    if kind == "oracle":
        specs.append(("other_hands", (n - 1, NUM_CARDS), 0, 1, "the other seats' hands, in seat order"))
    blocks, start = {}, 0
    for name, shape, low, high, meaning in specs:
        blocks[name] = Block(name, start, shape, float(low), float(high), meaning)
        start += blocks[name].size
    return blocks


@functools.cache
def observation_size(num_players: int = 4, kind: str = "default") -> int:
    return sum(b.size for b in layout(num_players, kind).values())


def bounds(num_players: int = 4, kind: str = "default") -> tuple[np.ndarray, np.ndarray]:
    """Per-entry low and high bounds, for the gymnasium ``Box``."""
    blocks = layout(num_players, kind)
    size = observation_size(num_players, kind)
    low, high = np.zeros(size, np.float32), np.ones(size, np.float32)
    for b in blocks.values():
        low[b.start:b.stop], high[b.start:b.stop] = b.low, b.high
    return low, high


def quantize(values, low, high, xp=np):
    """Fractional entries (float32, with their float32 bounds) as uint8 codes (still float32):
    ``(x - low) / (high - low)`` in :data:`UINT8_LEVELS` steps, rounded half up, in float32 arithmetic;
    ``xp`` is numpy or torch."""
    return xp.floor((values - low) * (UINT8_LEVELS / (high - low)) + 0.5)


def to_uint8(vector: np.ndarray, num_players: int = 4, kind: str = "default") -> np.ndarray:
    """An observation (float32, ``(..., size)``) in the uint8 form of the batched engine's
    ``observation_dtype="uint8"``: the 0/1 entries as they are, each entry of a fractional block
    (:data:`FRACTIONAL_BLOCKS`) as :func:`quantize` gives it. Counts stay exact (tricks, bags, stock and
    discard pile: decode ``low + code * (high - low) / 255`` and round); scores and the target keep
    1/255 of their range."""
    low, high = bounds(num_players, kind)
    out = np.asarray(vector, np.float32).copy()
    for name in FRACTIONAL_BLOCKS:
        b = layout(num_players, kind).get(name)
        if b is not None:
            out[..., b.start:b.stop] = quantize(out[..., b.start:b.stop], low[b.start:b.stop], high[b.start:b.stop])
    return out.astype(np.uint8)


def layout_table(num_players: int = 4, kind: str = "oracle") -> str:
    """The layout as a Markdown table (for the docs)."""
    rows = ["| block | offset | shape | meaning |", "|---|---|---|---|"]
    for b in layout(num_players, kind).values():
        rows.append(f"| `{b.name}` | {b.start} | {b.shape} | {b.meaning} |")
    return "\n".join(rows)


def _bid_code(game: SpadesGame, player: int) -> int:
    bid = game.bids[player]
    if bid is None:
        return 0
    return BID_CODES - 1 if game.blind[player] else bid + 1


def encode(game: SpadesGame, observer: int, kind: str = "default", out: np.ndarray | None = None) -> np.ndarray:
    """The observation of ``observer``, built from scratch (the reference encoding).

    Every 0/1 entry is gathered into one index list and set in one write; ``out``
    (a zeroed vector of the right size) is filled in place instead of a new array.
    """
    n = game.num_players
    at = _offsets(n, kind)
    v = np.zeros(observation_size(n, kind), np.float32) if out is None else out
    rel = [(p - observer) % n for p in range(n)]  # seat of each player as seen by the observer
    ones = [at["bids"] + rel[p] * BID_CODES + _bid_code(game, p) for p in range(n)]
    ones += [at["trick"] + rel[p] * NUM_CARDS + card for p, card in game.trick]
    ones += [at["voids"] + rel[p] * 4 + s for p in range(n) if game.voids[p] for s in range(4)
             if game.voids[p] >> s & 1]
    ones += [at["leader"] + rel[game.leader], at["phase"] + int(game.phase), at["dealer"] + rel[game.dealer]]
    if game.phase != Phase.GAME_OVER:
        ones.append(at["to_act"] + rel[game.current_player])
    if game.spades_broken:
        ones.append(at["spades_broken"])
    if game.looked[observer]:
        _put_cards(v, at["hand"], game.hands[observer])
    if game.plays:
        ones += [at["played"] + rel[p] * NUM_CARDS + card for p, card in game.plays]
    if game.passes:
        ones += [at["passed"] + card for giver, _, card in game.passes if giver == observer]
        ones += [at["received"] + card for _, receiver, card in game.passes if receiver == observer]
    if game.variant.drawn:
        if game.phase == Phase.DRAW and game.current_player == observer:
            ones.append(at["offered"] + game.offered)
        ones += [at["replaced"] + drawn for player, _, drawn in game.replacements if player == observer]
        ones += [at["discarded"] + card for card in cards_of(game.discards[observer])]
        v[at["stock"]] = (NUM_CARDS - game.stock_pos) / NUM_CARDS
        v[at["discard_pile"]] = game.discard_pile.bit_count() / 26
    if kind == "history":
        width = NUM_CARDS + n
        for i, (p, card) in enumerate(game.plays):
            ones += [at["history"] + i * width + card, at["history"] + i * width + NUM_CARDS + rel[p]]
    if kind == "oracle":
        for k in range(1, n):
            start = at["other_hands"] + (k - 1) * NUM_CARDS
            ones += [start + card for card in cards_of(game.hands[(observer + k) % n])]
    v[ones] = 1
    if game.trick_winners:
        v[at["tricks"]:at["tricks"] + n] = [game.tricks[(observer + k) % n] / TRICKS_PER_HAND for k in range(n)]
    if game.scores[0] or game.scores[1] or game.bags[0] or game.bags[1]:
        v[at["scores"]:at["bags"] + 2] = _score_rows(game)[observer]
    v[at["target"]] = min(game.config.target_score / 1000, SCORE_CLIP)
    return v


def encode_state(game: SpadesGame) -> np.ndarray:
    """The global state for centralised critics: player 0's ``"oracle"`` vector, with player 0's
    own hand shown even before they have looked (the state hides nothing)."""
    v = encode(game, 0, "oracle")
    if not game.looked[0]:
        _put_cards(v, _offsets(game.num_players, "oracle")["hand"], game.hands[0])
    return v


@functools.cache
def _offsets(num_players: int, kind: str) -> dict[str, int]:
    return {name: b.start for name, b in layout(num_players, kind).items()}


def _put_cards(v: np.ndarray, start: int, mask: int) -> None:
    if mask:
        v[start:start + NUM_CARDS] = bits_to_array(mask)


def _frozen(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


def _write(zeros, ones) -> tuple[np.ndarray, np.ndarray]:
    """One numpy write that clears ``zeros`` and sets ``ones`` (flat indices): ``flat[at] = values``."""
    at = np.array([*zeros, *ones], np.intp)
    return _frozen(at), _frozen(np.repeat(np.array([0, 1], np.float32), [len(at) - len(ones), len(ones)]))


def _merge(*writes: tuple[np.ndarray, np.ndarray | float]) -> tuple[np.ndarray, np.ndarray]:
    """Several ``(indices, values)`` writes as one (a scalar value fills its indices)."""
    at = np.concatenate([w[0] for w in writes]).astype(np.intp)
    values = np.concatenate([np.broadcast_to(np.float32(w[1]), len(w[0])) for w in writes]).astype(np.float32)
    return _frozen(at), _frozen(values)


def _score_rows(game: SpadesGame) -> list[list[float]]:
    """Each observer's ``scores`` and ``bags`` entries (own side first): scores scaled by the target and
    clipped, bags by the bag limit. Partners share a row."""
    t, limit = game.config.target_score, game.config.bag_limit
    (s0, s1), (b0, b1) = [max(-SCORE_CLIP, min(SCORE_CLIP, s / t)) for s in game.scores], game.bags
    by_side = ([s0, s1, b0 / limit, b1 / limit], [s1, s0, b1 / limit, b0 / limit])
    return [by_side[side] for side in game.side_of]


class _WriteTables:
    """The flat indices and values of every incremental write of :class:`ObservationTracker`, for one variant
    and observation kind. They depend on nothing else, so trackers share them (read-only arrays)."""

    def __init__(self, n: int, kind: str) -> None:
        size = observation_size(n, kind)
        self.offset = off = _offsets(n, kind)
        bases = range(0, n * size, size)
        # idx[block][p]: flat indices, one per observer, where player p's row of a per-seat block
        # starts (row width: 52 cards, 16 bid codes, 4 suits or 1 entry).
        widths = {"played": NUM_CARDS, "trick": NUM_CARDS, "bids": BID_CODES, "voids": 4, "to_act": 1,
                  "leader": 1, "tricks": 1, "dealer": 1}
        self.idx = idx = {name: [_frozen(np.array([base + off[name] + (p - o) % n * width
                                                   for o, base in enumerate(bases)])) for p in range(n)]
                          for name, width in widths.items()}
        self.broken_idx = _frozen(np.array([base + off["spades_broken"] for base in bases]))
        self.phase_idx = _frozen(np.array([base + off["phase"] for base in bases]))
        hand_at = [base + off["hand"] for base in bases]
        # A card played by p: zeros at the card in p's hand and at p's to-act flags; ones at the
        # card in "played" (and in "trick" while the trick goes on) and at the next seat's to-act
        # flags; a completed trick's winner gets the lead and the turn.
        # Each is one write of (indices, values): the zeros first, then the ones.
        to_act = idx["to_act"]
        self.play_writes = [[_write([hand_at[p] + card, *to_act[p]],
                                    [*(idx["played"][p] + card), *(idx["trick"][p] + card), *to_act[(p + 1) % n]])
                             for card in range(NUM_CARDS)] for p in range(n)]
        self.last_writes = [[_write([hand_at[p] + card, *to_act[p]], idx["played"][p] + card)
                             for card in range(NUM_CARDS)] for p in range(n)]
        self.lead_writes = [[_write([] if old == new else idx["leader"][old],
                                    [*to_act[new], *([] if old == new else idx["leader"][new])])
                             for new in range(n)] for old in range(n)]
        # A decision outside the play hands the turn from one seat to another (or keeps it).
        self.turn_writes = [[_write(to_act[old], to_act[new]) if old != new else None for new in range(n)]
                            for old in range(n)]
        self.bid_writes = [[None, *(_write(idx["bids"][p], idx["bids"][p] + code) for code in range(1, BID_CODES))]
                           for p in range(n)]  # [p][code]: code 0 (no bid yet) cleared, the bid's code set
        # A completed trick: the winner's trick count (1..13) with the lead and the turn, in one write.
        self.win_writes = [[[_merge(self.lead_writes[old][new], (idx["tricks"][new], count / TRICKS_PER_HAND))
                             for count in range(TRICKS_PER_HAND + 1)] for new in range(n)] for old in range(n)]
        self.over_writes = [_merge(_write([*self.phase_idx + Phase.PLAY, *to_act[p]], self.phase_idx + _GAME_OVER))
                            for p in range(n)]  # [seat to act]: the phase becomes GAME_OVER, nobody acts
        self.at = [{name: base + start for name, start in off.items()} for base in bases]  # [observer][block]
        self.others = [[(o + k) % n for k in range(1, n)] for o in range(n)]  # the oracle's other seats
        self.n = n
        self._deal_ones: dict[tuple[int, int, int], np.ndarray] = {}  # filled as deals need them

    def deal_ones(self, dealer: int, to_act: int, phase: int) -> np.ndarray:
        """The 0/1 entries set right after a deal: nobody has bid, the seat after the dealer leads, the phase
        and the seat to act; flat indices over every observer (built on first use)."""
        key = (dealer, to_act, phase)
        ones = self._deal_ones.get(key)
        if ones is None:
            n, idx = self.n, self.idx
            ones = self._deal_ones[key] = _frozen(np.concatenate(
                [*(idx["bids"][p] for p in range(n)), idx["leader"][(dealer + 1) % n], self.phase_idx + phase,
                 idx["to_act"][to_act], idx["dealer"][dealer]]))
        return ones


@functools.cache
def _write_tables(n: int, kind: str) -> _WriteTables:
    return _WriteTables(n, kind)


class ObservationTracker:
    """All players' observation vectors, updated incrementally after each action.

    Call :meth:`rebuild` after ``game.reset`` and :meth:`update` after each
    ``game.apply``; :attr:`vectors` row ``p`` is then ``encode(game, p, kind)``.
    Every update writes into one flat array at precomputed index arrays, one
    numpy write covering all observers: a card played costs two or three
    writes instead of a fresh encoding (this is what makes ``observe()`` a copy).
    """

    def __init__(self, game: SpadesGame, kind: str = "default") -> None:
        self.game = game
        self.kind = kind
        n = game.num_players
        self.size = observation_size(n, kind)
        self.flat = np.zeros(n * self.size, np.float32)
        self.vectors = self.flat.reshape(n, self.size)  # a view: row p is player p's observation
        # The writes, built once per variant and kind (4 ms each time before), bound one by one: the update
        # paths read them as the tracker's own attributes, one lookup fewer per action.
        t = _write_tables(n, kind)
        self._offset, self._idx, self._broken_idx, self._phase_idx = t.offset, t.idx, t.broken_idx, t.phase_idx
        self._play_writes, self._last_writes = t.play_writes, t.last_writes
        self._turn_writes, self._bid_writes, self._win_writes = t.turn_writes, t.bid_writes, t.win_writes
        self._over_writes, self._at, self._others, self._tables = t.over_writes, t.at, t.others, t
        off = t.offset
        self._trick_block = self.vectors[:, off["trick"]:off["trick"] + n * NUM_CARDS]
        self._score_block = self.vectors[:, off["scores"]:off["bags"] + 2]  # scores, then bags: 4 entries
        # Single entries go through a memoryview of the rows: half the cost of a numpy scalar write.
        self._mv = memoryview(self.flat)
        self._hand_number = -1

    def rebuild(self) -> None:
        """Every row from the game as it is now: a hand just dealt (the state at every reset and every
        new deal) is written for all observers at once, any other state through :func:`encode`."""
        self.flat[:] = 0
        if self.game.actions or self.game.phase is _GAME_OVER:
            for p in range(self.game.num_players):
                encode(self.game, p, self.kind, out=self.vectors[p])
        else:
            self._deal()
        self._hand_number = self.game.hand_number
        self._phase = self.game.phase  # the phase the rows show
        self._stock_pos = self.game.stock_pos
        self._voids = list(self.game.voids)
        self._broken = self.game.spades_broken
        self._leader = self.game.leader

    def update(self, player: int, action: int, phase: Phase) -> None:
        """Fold in ``action`` just taken by ``player`` in ``phase``."""
        game = self.game
        if phase is _PLAY:
            if game.hand_number == self._hand_number:
                self._card_played(player, action)
            elif game.phase is _GAME_OVER:  # the last trick ended the game: no new deal
                self._card_played(player, action)
                self._game_over()
            else:
                self.rebuild()  # a new deal changes nearly everything
        elif phase is _DRAW and game.phase is _DRAW and game.stock_pos - self._stock_pos == 2:
            self._one_draw(player)  # the hot path of the two-player draw
        elif phase is _BID:
            self._bid(player)
        elif not game.variant.drawn and phase in (_BLIND, _PASS) or (
                phase is _DRAW and game.phase in (_DRAW, _BID)):  # another draw, or the bidding
            self._set_phase_and_turn(player)
            if phase is _BLIND:
                self._blind(player, action)
            elif phase is _PASS:
                self._passed()
            else:
                self._drawn(player)
        else:
            # A two-player Blind Nil choice or replacement touches several private blocks (and
            # may run the opponent's blind draws): rebuild whole.
            self.rebuild()

    # ------------------------------------------------------------ by phase

    def _card_played(self, player: int, card: int) -> None:
        game, f = self.game, self.flat
        if game.trick:  # the trick goes on (three cards in four: the hot path)
            at, values = self._play_writes[player][card]
            f[at] = values
        else:  # the trick is complete: clear it, count it, the winner leads
            winner = game.leader
            at, values = self._last_writes[player][card]
            f[at] = values
            self._trick_block.fill(0)
            at, values = self._win_writes[self._leader][winner][game.tricks[winner]]
            f[at] = values
            self._leader = winner
        if game.voids[player] != self._voids[player]:  # a new known void, perhaps spades broken
            suit = (game.voids[player] & ~self._voids[player]).bit_length() - 1
            self._voids[player] = game.voids[player]
            f[self._idx["voids"][player] + suit] = 1
            if game.spades_broken != self._broken:
                self._broken = True
                f[self._broken_idx] = 1
        elif game.spades_broken != self._broken:  # a forced spade lead
            self._broken = True
            f[self._broken_idx] = 1
        if self.kind != "default":
            self._card_played_extras(player, card)

    def _card_played_extras(self, player: int, card: int) -> None:
        """The ordered history gains an entry; the oracle's view of the player's hand loses the card."""
        f, off, n = self.flat, self._offset, self.game.num_players
        for o, base in enumerate(range(0, n * self.size, self.size)):
            if "history" in off:
                start = base + off["history"] + (len(self.game.plays) - 1) * (NUM_CARDS + n)
                f[start + card] = 1
                f[start + NUM_CARDS + (player - o) % n] = 1
            if "other_hands" in off and o != player:
                f[base + off["other_hands"] + ((player - o) % n - 1) * NUM_CARDS + card] = 0

    def _game_over(self) -> None:
        """After the last card of the game: the totals, the phase, and nobody to act."""
        game = self.game
        self._hand_number = game.hand_number
        self._score_block[:] = _score_rows(game)
        at, values = self._over_writes[game.current_player]
        self.flat[at] = values
        self._phase = _GAME_OVER

    def _bid(self, player: int) -> None:
        """A bid: the seat had none yet (code 0), now it has one."""
        at, values = self._bid_writes[player][_bid_code(self.game, player)]
        self.flat[at] = values
        self._set_phase_and_turn(player)

    def _blind(self, player: int, action: int) -> None:
        """The four-player Blind Nil choice: a Blind Nil bid, and either way the player looks."""
        if action == A.BLIND_NIL:
            f, idx = self.flat, self._idx["bids"][player]
            f[idx] = 0
            f[idx + _bid_code(self.game, player)] = 1
        start = player * self.size + self._offset["hand"]
        self.flat[start:start + NUM_CARDS] = bits_to_array(self.game.hands[player])

    def _passed(self) -> None:
        game, f, off, n, size = self.game, self.flat, self._offset, self.game.num_players, self.size
        giver, receiver, card = game.passes[-1]
        f[giver * size + off["hand"] + card] = 0
        f[receiver * size + off["hand"] + card] = 1
        f[giver * size + off["passed"] + card] = 1
        f[receiver * size + off["received"] + card] = 1
        if "other_hands" in off:
            for o in range(n):
                base = o * size + off["other_hands"]
                if o != giver:
                    f[base + ((giver - o) % n - 1) * NUM_CARDS + card] = 0
                if o != receiver:
                    f[base + ((receiver - o) % n - 1) * NUM_CARDS + card] = 1

    def _drawn(self, player: int) -> None:
        """A two-player draw turn followed by a Blind Nil bidder's blind turn (whose cards nobody sees)
        or by the end of the draw (both players look): the drawer's hand and known discards, the offered
        card, the counts. (A plain draw, the other player drawing next, is :meth:`_one_draw`.)"""
        game, f, off = self.game, self.flat, self._offset
        self._stock_pos = game.stock_pos
        for seat in (player,) if game.phase is Phase.DRAW else (0, 1):
            start = seat * self.size + off["hand"]
            f[start:start + NUM_CARDS] = bits_to_array(game.hands[seat])
        mine = player * self.size
        f[mine + off["discarded"]:mine + off["discarded"] + NUM_CARDS] = bits_to_array(game.discards[player])
        stock, pile = (NUM_CARDS - game.stock_pos) / NUM_CARDS, game.discard_pile.bit_count() / 26
        for o, base in enumerate(range(0, 2 * self.size, self.size)):
            f[base + off["offered"]:base + off["offered"] + NUM_CARDS] = 0
            if game.current_player == o and game.phase is Phase.DRAW:
                f[base + off["offered"] + game.offered] = 1
            f[base + off["stock"]] = stock
            f[base + off["discard_pile"]] = pile
            if "other_hands" in off:  # the opponent's hand grew (a drawer, or a blind drawer after it)
                start = base + off["other_hands"]
                f[start:start + NUM_CARDS] = bits_to_array(game.hands[1 - o])

    def _one_draw(self, player: int) -> None:
        """``player`` kept one of the top two cards and discarded the other; the opponent is offered the
        next: entry by entry (the hot path of the two-player draw, 24 decisions of a hand)."""
        game, mv = self.game, self._mv
        self._stock_pos = pos = game.stock_pos
        first, second = game.stock[pos - 2], game.stock[pos - 1]
        kept, dropped = (first, second) if game.hands[player] >> first & 1 else (second, first)
        mine, theirs = self._at[player], self._at[1 - player]
        mv[mine["hand"] + kept] = mv[mine["discarded"] + dropped] = mv[theirs["offered"] + game.offered] = 1
        # to_act is by relative seat (self, opponent): the turn passes to the opponent
        mv[mine["offered"] + first] = mv[mine["to_act"]] = mv[theirs["to_act"] + 1] = 0
        mv[mine["to_act"] + 1] = mv[theirs["to_act"]] = 1
        stock, pile = (NUM_CARDS - pos) / NUM_CARDS, game.discard_pile.bit_count() / 26
        mv[mine["stock"]] = mv[theirs["stock"]] = stock
        mv[mine["discard_pile"]] = mv[theirs["discard_pile"]] = pile
        if "other_hands" in mine:
            mv[theirs["other_hands"] + kept] = 1

    def _set_phase_and_turn(self, player: int) -> None:
        """After a decision outside the play: the phase may change, and the turn moves on."""
        game, f, phase = self.game, self.flat, self._offset["phase"]
        if game.phase is not self._phase:
            self.vectors[:, phase:phase + NUM_PHASES] = 0
            f[self._phase_idx + int(game.phase)] = 1
            self._phase = game.phase
        turn = self._turn_writes[player][game.current_player]
        if turn is not None:
            f[turn[0]] = turn[1]

    # ------------------------------------------------------------ a new deal

    def _deal(self) -> None:
        """The rows of a hand just dealt (no action yet), on zeroed rows: what :func:`encode` gives, with one
        write per block for all observers."""
        game, n, vectors, off = self.game, self.game.num_players, self.vectors, self._offset
        self.flat[self._tables.deal_ones(game.dealer, game.current_player, int(game.phase))] = 1
        hands = masks_to_rows(game.hands)
        hand = off["hand"]
        vectors[:, hand:hand + NUM_CARDS] = hands if all(game.looked) else hands * np.array(game.looked)[:, None]
        if "other_hands" in off:
            start = off["other_hands"]
            vectors[:, start:start + (n - 1) * NUM_CARDS] = hands[self._others].reshape(n, -1)
        if game.variant.drawn:
            if game.phase is Phase.DRAW:
                vectors[game.current_player, off["offered"] + game.offered] = 1
            vectors[:, off["stock"]] = (NUM_CARDS - game.stock_pos) / NUM_CARDS
            vectors[:, off["discard_pile"]] = game.discard_pile.bit_count() / 26
        if game.scores[0] or game.scores[1] or game.bags[0] or game.bags[1]:
            self._score_block[:] = _score_rows(game)
        vectors[:, off["target"]] = min(game.config.target_score / 1000, SCORE_CLIP)


def decode(vector: np.ndarray, num_players: int = 4, kind: str = "default") -> dict:
    """Turn an observation vector back into a readable dict (for debugging)."""
    vector = np.asarray(vector)
    blocks = layout(num_players, kind)
    expected = observation_size(num_players, kind)
    if vector.shape != (expected,):
        raise ValueError(f"expected a vector of shape ({expected},) for {num_players} players, "
                         f"kind {kind!r}; got {vector.shape}")

    def block(name: str) -> np.ndarray:
        b = blocks[name]
        return vector[b.start:b.stop].reshape(b.shape)

    def cards(row: np.ndarray) -> list[str]:
        return [card_to_str(int(c)) for c in np.flatnonzero(row[:NUM_CARDS])]

    def bid(row: np.ndarray) -> str | int | None:
        code = int(np.argmax(row))
        return None if code == 0 else "blind nil" if code == BID_CODES - 1 else code - 1

    out = {
        "hand": cards(block("hand")),
        "bids": [bid(r) for r in block("bids")],
        "tricks": [round(float(x) * 13) for x in block("tricks")],
        "trick": [cards(r) for r in block("trick")],
        "leader": int(np.argmax(block("leader"))),
        "played": [cards(r) for r in block("played")],
        "voids": [[SUITS[s] for s in np.flatnonzero(r)] for r in block("voids")],
        "spades_broken": bool(block("spades_broken")[0]),
        "phase": Phase(int(np.argmax(block("phase")))).name,
        "to_act": int(np.argmax(block("to_act"))) if block("to_act").any() else None,
        "dealer": int(np.argmax(block("dealer"))),
        "scores": [float(x) for x in block("scores")],
        "bags": [float(x) for x in block("bags")],
        "target": float(block("target")[0]),
    }
    for name in ("passed", "received", "offered", "discarded", "replaced"):
        if name in blocks:
            out[name] = cards(block(name))
    for name in ("stock", "discard_pile"):
        if name in blocks:
            out[name] = float(block(name)[0])
    if kind == "history":
        out["history"] = [
            [(card_to_str(int(np.argmax(p[:NUM_CARDS]))), int(np.argmax(p[NUM_CARDS:]))) for p in trick if p.any()]
            for trick in block("history") if trick.any()
        ]
    if kind == "oracle":
        out["other_hands"] = [cards(r) for r in block("other_hands")]
    return out


__all__ = ["KINDS", "FRACTIONAL_BLOCKS", "Block", "layout", "observation_size", "bounds", "layout_table", "encode",
           "encode_state", "decode", "quantize", "to_uint8", "ObservationTracker"]
