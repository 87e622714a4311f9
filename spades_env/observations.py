"""Observation encoders: the per-player vector, its layout table and a decoder.

Every block is relative to the observer's seat: seat order is (self, left,
partner, right) in the four-player game and (self, opponent) in the
two-player game. Three kinds share one layout:

* ``"default"`` -- what a player at the table knows (RULES.md section 3);
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
from .cards import NUM_CARDS, RANKS, SUITS, bits_to_array, card_to_str
from .game import Phase, SpadesGame

KINDS = ("default", "history", "oracle")
BID_CODES = 16  # not yet bid, 0..13, Blind Nil
SCORE_CLIP = 10.0  # scores are scaled by the target and clipped to +-10 targets
NUM_PHASES = len(Phase)


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
    n = num_players
    seats = "(self, left, partner, right)" if n == 4 else "(self, opponent)"
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
        ("dealer", (n,), 0, 1, "dealer seat" if n == 4 else "first drawer"),
    ]
    if n == 4:
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


def encode(game: SpadesGame, observer: int, kind: str = "default") -> np.ndarray:
    """The observation of ``observer``, built from scratch (the reference encoding)."""
    n = game.num_players
    at = _offsets(n, kind)
    v = np.zeros(observation_size(n, kind), np.float32)
    rel = [(p - observer) % n for p in range(n)]  # seat of each player as seen by the observer
    ones = [at["bids"] + rel[p] * BID_CODES + _bid_code(game, p) for p in range(n)]
    ones += [at["trick"] + rel[p] * NUM_CARDS + card for p, card in game.trick]
    ones += [at["voids"] + rel[p] * 4 + s for p in range(n) for s in range(4) if game.voids[p] >> s & 1]
    ones += [at["leader"] + rel[game.leader], at["phase"] + int(game.phase), at["dealer"] + rel[game.dealer]]
    if game.phase != Phase.GAME_OVER:
        ones.append(at["to_act"] + rel[game.current_player])
    if game.spades_broken:
        ones.append(at["spades_broken"])
    ones += [at["passed"] + card for giver, _, card in game.passes if giver == observer]
    ones += [at["received"] + card for _, receiver, card in game.passes if receiver == observer]
    if n == 2:
        if game.phase == Phase.DRAW and game.current_player == observer:
            ones.append(at["offered"] + game.offered)
        ones += [at["replaced"] + drawn for player, _, drawn in game.replacements if player == observer]
        _put_cards(v, at["discarded"], game.discards[observer])
        v[at["stock"]] = (NUM_CARDS - game.stock_pos) / NUM_CARDS
        v[at["discard_pile"]] = game.discard_pile.bit_count() / 26
    if kind == "history":
        width = NUM_CARDS + n
        for i, (p, card) in enumerate(game.plays):
            ones += [at["history"] + i * width + card, at["history"] + i * width + NUM_CARDS + rel[p]]
    v[ones] = 1
    if game.looked[observer]:
        _put_cards(v, at["hand"], game.hands[observer])
    for p in range(n):
        v[at["tricks"] + rel[p]] = game.tricks[p] / 13
        _put_cards(v, at["played"] + rel[p] * NUM_CARDS, game.played[p])
    if kind == "oracle":
        for k in range(1, n):
            _put_cards(v, at["other_hands"] + (k - 1) * NUM_CARDS, game.hands[(observer + k) % n])
    v[at["scores"]:at["scores"] + 2] = _scores(game, observer)
    v[at["bags"]:at["bags"] + 2] = _bags(game, observer)
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


def _scores(game: SpadesGame, observer: int) -> list[float]:
    own = game.side_of[observer]
    t = game.config.target_score
    return [max(-SCORE_CLIP, min(SCORE_CLIP, game.scores[s] / t)) for s in (own, 1 - own)]


def _bags(game: SpadesGame, observer: int) -> list[float]:
    own = game.side_of[observer]
    return [game.bags[s] / game.config.bag_limit for s in (own, 1 - own)]


class ObservationTracker:
    """All players' observation vectors, updated incrementally after each action.

    Call :meth:`rebuild` after ``game.reset`` and :meth:`update` after each
    ``game.apply``; :attr:`vectors` row ``p`` is then ``encode(game, p, kind)``.
    Updates are scalar writes into one flat array at precomputed offsets: a
    card played costs a few dozen of them instead of a fresh encoding.
    """

    def __init__(self, game: SpadesGame, kind: str = "default") -> None:
        self.game = game
        self.kind = kind
        n = game.num_players
        self.size = observation_size(n, kind)
        self.flat = np.zeros(n * self.size, np.float32)
        self.vectors = self.flat.reshape(n, self.size)  # a view: row p is player p's observation
        self._offset = off = _offsets(n, kind)
        bases = range(0, n * self.size, self.size)
        # _at[block][p]: flat offsets, one per observer, where player p's row of a per-seat block
        # starts (row width: 52 cards, 4 suits or 1 entry); spades_broken is one entry per observer.
        widths = {"played": NUM_CARDS, "trick": NUM_CARDS, "voids": 4, "to_act": 1, "leader": 1, "tricks": 1}
        self._at = {name: [[base + off[name] + (p - o) % n * width for o, base in enumerate(bases)]
                           for p in range(n)] for name, width in widths.items()}
        self._at["spades_broken"] = [[base + off["spades_broken"] for base in bases]]
        # The same offsets as index arrays: one numpy write covers every observer.
        self._idx = {name: [np.array(rows) for rows in per_player] for name, per_player in self._at.items()}
        # _card_idx[p][card]: where a card played by p lands ("played" and "trick"), every observer.
        self._card_idx = [[np.array(self._at["played"][p] + self._at["trick"][p]) + card for card in range(NUM_CARDS)]
                          for p in range(n)]
        self._hand_at = [base + off["hand"] for base in bases]
        self._trick_slices = [(base + off["trick"], base + off["trick"] + n * NUM_CARDS) for base in bases]
        self._hand_number = -1

    def rebuild(self) -> None:
        for p in range(self.game.num_players):
            self.vectors[p] = encode(self.game, p, self.kind)
        self._hand_number = self.game.hand_number
        self._voids = list(self.game.voids)
        self._broken = self.game.spades_broken
        self._to_act = None if self.game.phase == Phase.GAME_OVER else self.game.current_player
        self._leader = self.game.leader
        self._phase = int(self.game.phase)

    def update(self, player: int, action: int, phase: Phase) -> None:
        """Fold in ``action`` just taken by ``player`` in ``phase``."""
        game = self.game
        hand_over = game.hand_number != self._hand_number
        if hand_over and game.phase != Phase.GAME_OVER or (
                game.num_players == 2 and phase not in (Phase.PLAY, Phase.DRAW) or
                phase == Phase.DRAW and game.phase != Phase.DRAW):
            # A new deal changes nearly everything; so do a two-player bid, Blind Nil choice,
            # replacement or the end of the draw (several private blocks): rebuild whole.
            self.rebuild()
            return
        f, off, size, n = self.flat, self._offset, self.size, game.num_players
        bases = range(0, n * size, size)
        if phase == Phase.PLAY:
            self._card_played(player, action)
        elif phase == Phase.DRAW:
            self._drawn(player)
        elif phase in (Phase.BID, Phase.BLIND):
            if action != A.LOOK:
                code = _bid_code(game, player)
                for o, base in enumerate(bases):
                    start = base + off["bids"] + (player - o) % n * BID_CODES
                    f[start] = 0
                    f[start + code] = 1
            if phase == Phase.BLIND:  # Blind Nil or not, the player now looks at the hand
                start = player * size + off["hand"]
                f[start:start + NUM_CARDS] = bits_to_array(game.hands[player])
        elif phase == Phase.PASS:
            giver, receiver, card = game.passes[-1]
            f[giver * size + off["hand"] + card] = 0
            f[receiver * size + off["hand"] + card] = 1
            f[giver * size + off["passed"] + card] = 1
            f[receiver * size + off["received"] + card] = 1
            if "other_hands" in off:
                for o, base in enumerate(bases):
                    if o != giver:
                        f[base + off["other_hands"] + ((giver - o) % n - 1) * NUM_CARDS + card] = 0
                    if o != receiver:
                        f[base + off["other_hands"] + ((receiver - o) % n - 1) * NUM_CARDS + card] = 1
        if hand_over:  # the last trick ended the game: no new deal, only the totals change
            self._hand_number = game.hand_number
            for o, base in enumerate(bases):
                f[base + off["scores"]:base + off["scores"] + 2] = _scores(game, o)
                f[base + off["bags"]:base + off["bags"] + 2] = _bags(game, o)
        if game.phase != self._phase:
            for base in bases:
                f[base + off["phase"] + self._phase] = 0
                f[base + off["phase"] + game.phase] = 1
            self._phase = int(game.phase)
        to_act = None if game.phase == Phase.GAME_OVER else game.current_player
        if to_act != self._to_act:
            self._move("to_act", self._to_act, to_act)
            self._to_act = to_act

    def _card_played(self, player: int, card: int) -> None:
        """The hot path: one card played (about 75% of all decisions)."""
        game, f, off, n = self.game, self.flat, self._offset, self.game.num_players
        f[self._hand_at[player] + card] = 0
        f[self._card_idx[player][card]] = 1  # the card in "played" and "trick", for every observer
        if not game.trick:  # the trick is complete: clear it, count it, and move the lead
            winner = game.leader
            for start, stop in self._trick_slices:
                f[start:stop] = 0
            f[self._idx["tricks"][winner]] = game.tricks[winner] / 13
            self._move("leader", self._leader, winner)
            self._leader = winner
        if game.voids[player] != self._voids[player]:
            suit = (game.voids[player] & ~self._voids[player]).bit_length() - 1
            self._voids[player] = game.voids[player]
            f[self._idx["voids"][player] + suit] = 1
        if game.spades_broken != self._broken:
            self._broken = game.spades_broken
            f[self._idx["spades_broken"][0]] = 1
        if "history" in off:
            start = off["history"] + (len(game.plays) - 1) * (NUM_CARDS + n)
            for o, base in enumerate(range(0, n * self.size, self.size)):
                f[base + start + card] = 1
                f[base + start + NUM_CARDS + (player - o) % n] = 1
        if "other_hands" in off:
            for o, base in enumerate(range(0, n * self.size, self.size)):
                if o != player:
                    f[base + off["other_hands"] + ((player - o) % n - 1) * NUM_CARDS + card] = 0

    def _drawn(self, player: int) -> None:
        """A two-player draw turn, possibly followed by a Blind Nil bidder's blind turn (whose
        cards nobody sees): the drawer's hand and known discards, the offered card, the counts."""
        game, f, off = self.game, self.flat, self._offset
        mine = player * self.size
        f[mine + off["hand"]:mine + off["hand"] + NUM_CARDS] = bits_to_array(game.hands[player])
        f[mine + off["discarded"]:mine + off["discarded"] + NUM_CARDS] = bits_to_array(game.discards[player])
        stock, pile = (NUM_CARDS - game.stock_pos) / NUM_CARDS, game.discard_pile.bit_count() / 26
        for o, base in enumerate(range(0, 2 * self.size, self.size)):
            f[base + off["offered"]:base + off["offered"] + NUM_CARDS] = 0
            if game.current_player == o:
                f[base + off["offered"] + game.offered] = 1
            f[base + off["stock"]] = stock
            f[base + off["discard_pile"]] = pile
            if "other_hands" in off:  # the opponent's hand grew (a drawer, or a blind drawer after it)
                start = base + off["other_hands"]
                f[start:start + NUM_CARDS] = bits_to_array(game.hands[1 - o])

    def _move(self, block: str, old: int | None, new: int | None) -> None:
        """Move a per-seat one-hot from seat ``old`` to seat ``new`` (None: no seat) for every observer."""
        if old is not None:
            self.flat[self._idx[block][old]] = 0
        if new is not None:
            self.flat[self._idx[block][new]] = 1


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


__all__ = ["KINDS", "Block", "layout", "observation_size", "bounds", "layout_table", "encode",
           "decode", "ObservationTracker", "RANKS"]
