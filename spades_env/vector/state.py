"""The batched engine's game state: one array per piece of state, with a leading batch axis.

Per game the arrays have shape ``(B,)``; per seat they are flat, ``(B * n,)``, indexed by
``game * n + seat``, so that one :meth:`~spades_env.vector.backend.Backend.take` reads a seat of many games.
Hands, the discard pile and the cards put back are 52-bit masks in int64.
"""

from __future__ import annotations

from ..cards import NUM_CARDS
from ..game import Phase
from ..scoring import SideScores

PASSES_PER_EXCHANGE = 6  # four players: the partner gives 3 cards, then the Blind Nil bidder gives 3 back
MAX_REPLACEMENTS = 3  # two players: a Blind Nil bidder replaces up to 3 cards
# Phase ids as plain ints (array libraries take them as scalars).
BLIND, BID, PASS, DRAW, REPLACE, PLAY, GAME_OVER = (int(p) for p in (
    Phase.BLIND, Phase.BID, Phase.PASS, Phase.DRAW, Phase.REPLACE, Phase.PLAY, Phase.GAME_OVER))
NO_TRICK = 4  # the value of ``led`` between tricks while spades are not broken (NO_TRICK + 1 once they are)
SIDE_FIELDS = SideScores._fields  # the SideScore fields, in the order of the last axis of the kept "sides"


class GameState:
    """Allocates the state arrays (``num_envs``, ``num_players``, ``_be`` must be set) and reads and writes
    them per game."""

    def _of(self, x, games):
        """``x[games]`` for a per-game array; ``x`` itself (not a copy: read it before ``x`` is written) when
        ``games`` is every game in order (``self._ar``), as on most steps."""
        return x if games is self._ar else self._be.take(x, games)

    def _set(self, x, games, value) -> None:
        """``x[games] = value`` for a per-game array (in place over the whole array for ``self._ar``)."""
        if games is self._ar:
            x[...] = value
        else:
            self._be.put(x, games, value)

    def _init_state(self) -> None:
        be, B, n = self._be, self.num_envs, self.num_players
        i64, bool_ = be.i64, be.bool
        self.hands = be.zeros(B * n, i64)  # 52-bit masks
        self.bids = be.full(B * n, -1, i64)  # -1: not yet bid
        self.blind = be.zeros(B * n, bool_)
        self.decided = be.zeros(B * n, bool_)  # the Blind Nil choice is made (or not offered)
        self.tricks = be.zeros(B * n, i64)
        self.trick_cards = be.full(B * n, -1, i64)  # card each seat put in the current trick
        self.trick_len = be.zeros(B, i64)
        # The suit led in the current trick; between tricks NO_TRICK + spades broken (0/1): an index into
        # the cards that may be led or followed (the engine's _allowed).
        self.led = be.full(B, NO_TRICK, i64)
        self.broken = be.zeros(B, bool_)
        self.tricks_done = be.zeros(B, i64)
        self.leader = be.zeros(B, i64)
        self.current_player = be.zeros(B, i64)
        self.dealer = be.zeros(B, i64)
        self.phase = be.zeros(B, i64)
        self.exchanges = be.full(B * 2, -1, i64)  # four players: Blind Nil bidders whose exchange is due
        self.num_passes = be.zeros(B, i64)
        self.passes_done = be.zeros(B, i64)
        self.stock = be.zeros(B * NUM_CARDS, i64)  # two players: stock order, game b at b * 52
        self.stock_pos = be.zeros(B, i64)
        self.pile = be.zeros(B, i64)  # two players: discard pile (mask)
        self.returned = be.zeros(B, i64)  # two players: cards put back by replacements (never drawn again)
        self.replaced = be.zeros(B, i64)  # two players: replacements made by the current replacer
        self.scores = be.zeros((B, 2), i64)
        self.bags = be.zeros((B, 2), i64)
        self.scores_before = be.zeros((B, 2), i64)
        self.bags_before = be.zeros((B, 2), i64)
        self.hand_number = be.zeros(B, i64)  # hands completed in this game
        # The last hand scored in each slot (read through hand_record()).
        self._last = {
            "hand": be.zeros(B, i64), "dealer": be.zeros(B, i64), "bids": be.zeros((B, n), i64),
            "blind_nil": be.zeros((B, n), bool_), "tricks": be.zeros((B, n), i64),
            "scores_before": be.zeros((B, 2), i64), "bags_before": be.zeros((B, 2), i64),
            "sides": be.zeros((B, 2, len(SIDE_FIELDS)), i64), "scores": be.zeros((B, 2), i64),
            "bags": be.zeros((B, 2), i64), "game_over": be.zeros(B, bool_), "winner": be.full(B, -1, i64),
            "truncated": be.zeros(B, bool_),
        }
