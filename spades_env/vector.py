"""A batched Spades engine: ``B`` games held as arrays and advanced by one call.

Why: a per-game Python loop (``SpadesGame`` + the AEC env) costs tens of
microseconds per decision, which bounds RL training speed. Here every piece of
state is an array with a leading batch axis (hands are 52-bit masks in
int64), and one :meth:`VectorSpades.step` applies one action in each of the
``B`` games with a few dozen whole-array operations, so the cost per decision
falls roughly as ``1 / B``.

What it returns is what an RL loop needs directly (:class:`VecStep`): the
observation of the seat to act in each game (exactly the ``"default"``
encoding of ``spades_v0``, see :mod:`spades_env.observations`), its legal
action mask, the seat to act, the reward of every seat on this step
(``"score"``: the hand's points for your side minus the other side's / 100,
partners equal; ``"win"``: +1 / -1 when the game is won), and termination /
truncation flags. A finished game restarts at once in its slot ("same-step"
auto-reset); its last observations stay readable in
:attr:`VectorSpades.final_observations`. :attr:`VectorSpades.obs_buffer`
gives every seat's observation (row ``p`` relative to seat ``p``).

The rules are those of :class:`~spades_env.game.SpadesGame`, the single source
of truth: the constants, the configuration, the scoring breakdown and the
observation layout are imported from the reference modules, and
``tests/test_vector.py`` plays thousands of games through both engines with
the same deals and actions and asserts identical masks, observations,
rewards and hand records at every step. What is re-expressed here is only the
array form of each transition.

Deals: with ``per_game_seeds=True`` the game in each slot owns
``numpy.random.default_rng(seed)`` and draws its first dealer, every deal and
every two-player replacement card with the same calls as
``SpadesGame.reset(seed)``, so slot ``b`` replays
``SpadesGame().reset(vec.game_seeds[b])`` whatever the batch size (for
cross-checks and duplicate evaluation). The default draws every slot's deals
from one generator instead, which is much faster when many games start at
once and is reproducible for a given seed and batch size. ``reset`` also
takes fixed first deals, dealers and starting scores, as ``SpadesGame.reset``.

Arrays are numpy by default; ``device="cuda"`` (or ``"cpu"``, ``"torch"``)
runs the same code on torch tensors. Every indexed read and write goes
through :meth:`_Backend.take` / :meth:`_Backend.put` on flat arrays, which
are fast in numpy and, as ``index_select`` / ``index_copy_``, in torch.

A self-play loop::

    vec = VectorSpades(1024, seed=0)            # or device="cuda"
    out = vec.reset()
    for _ in range(steps):
        actions = policy(out.obs, out.mask)     # one action id per game, for seat out.player[b]
        out = vec.step(actions)
        # out.rewards[b, p]: what seat p of game b receives on this step (all seats, not only the actor);
        # out.terminated | out.truncated: the game in slot b ended (slot b now holds a new game).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from . import actions as A
from .cards import FULL_DECK, NUM_CARDS, SPADE_MASK, SPADES, SUIT_MASKS, to_card
from .game import Phase, SpadesConfig
from .observations import BID_CODES, SCORE_CLIP, layout, observation_size
from .scoring import BLIND_NIL_BONUS, NIL_BONUS, SideScore

REWARD_MODES = ("score", "win")
OBSERVATION_KINDS = ("default", "oracle")
PASSES_PER_EXCHANGE = 6  # four players: the partner gives 3 cards, then the Blind Nil bidder gives 3 back
MAX_REPLACEMENTS = 3  # two players: a Blind Nil bidder replaces up to 3 cards
# Phase ids as plain ints (array libraries take them as scalars).
BLIND, BID, PASS, DRAW, REPLACE, PLAY, GAME_OVER = (int(p) for p in (
    Phase.BLIND, Phase.BID, Phase.PASS, Phase.DRAW, Phase.REPLACE, Phase.PLAY, Phase.GAME_OVER))
SIDE_FIELDS = ("contract", "overtricks", "nil", "bag_penalty", "bid", "counted_tricks", "made", "bags_taken",
               "bags_after")  # the SideScore fields, in the order of the records' last axis


class VecStep(NamedTuple):
    """What :meth:`VectorSpades.reset` and :meth:`VectorSpades.step` return (arrays of the env's backend).

    ``obs`` (B, obs_size) float32: observation of the seat to act. ``mask`` (B, 71) bool: its legal actions.
    ``player`` (B,): seat to act. ``rewards`` (B, num_players) float32: what each seat receives on this
    step. ``terminated`` / ``truncated`` (B,) bool: the game in this slot ended on this step (the slot
    already holds a new game). ``hand_done`` (B,) bool: a hand was scored on this step (see
    :meth:`VectorSpades.hand_record`).
    """

    obs: Any
    mask: Any
    player: Any
    rewards: Any
    terminated: Any
    truncated: Any
    hand_done: Any


class _Backend:
    """The array calls whose spelling differs between numpy and torch; the rest of the code is shared.

    ``take`` / ``put`` gather and scatter along the first axis with an index array of any shape. In torch
    they are ``index_select`` / ``index_copy_`` / ``index_fill_``: advanced indexing (``x[idx]``) is one to
    three orders of magnitude slower on a CPU.
    """

    def __init__(self, device: Any = None) -> None:
        self.is_torch = device not in (None, "numpy")
        if not self.is_torch:
            self.xp, self.device = np, None
            self.f32, self.f64, self.i64, self.u8, self.bool = np.float32, np.float64, np.int64, np.uint8, np.bool_
            return
        import torch

        if device == "torch":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.xp, self.device = torch, torch.device(device)
        self.f32, self.f64, self.i64, self.u8, self.bool = (torch.float32, torch.float64, torch.int64, torch.uint8,
                                                            torch.bool)
        self._bits = torch.arange(64, device=self.device)

    def zeros(self, shape, dtype):
        if self.is_torch:
            return self.xp.zeros(shape, dtype=dtype, device=self.device)
        return np.zeros(shape, dtype)

    def full(self, shape, value, dtype):
        if self.is_torch:
            return self.xp.full(shape if isinstance(shape, tuple) else (shape,), value, dtype=dtype,
                                device=self.device)
        return np.full(shape, value, dtype)

    def arange(self, size: int):
        return self.xp.arange(size, device=self.device) if self.is_torch else np.arange(size)

    def asarray(self, value, dtype):
        if self.is_torch:
            if isinstance(value, self.xp.Tensor):
                return value.to(device=self.device, dtype=dtype)
            return self.xp.as_tensor(np.asarray(value), dtype=dtype, device=self.device)
        return np.asarray(value, dtype)

    def take(self, x, idx):
        """``x[idx]`` along the first axis: shape ``idx.shape + x.shape[1:]``."""
        if self.is_torch:
            return x.index_select(0, idx.reshape(-1)).reshape(*idx.shape, *x.shape[1:])
        return x[idx] if x.ndim == 1 else x.take(idx, axis=0)  # take(): rows several times faster than x[idx]

    def put(self, x, idx, value) -> None:
        """``x[idx] = value`` along the first axis, ``value`` a scalar or broadcastable (no repeated indices)."""
        if not self.is_torch:
            x[idx] = value
        elif isinstance(value, (bool, int, float)):
            x.index_fill_(0, idx.reshape(-1), value)
        else:
            full = self.xp.broadcast_to(value.to(x.dtype), (*idx.shape, *x.shape[1:]))
            x.index_copy_(0, idx.reshape(-1), full.reshape(-1, *x.shape[1:]))

    def put_cols(self, x, rows, start: int, value, width: int | None = None) -> None:
        """``x[rows, start:start + width] = value`` for a 2-d ``x`` (width defaults to value's last axis):
        a block of columns written in the rows ``rows`` (no repeated rows)."""
        width = value.shape[-1] if width is None else width
        if not self.is_torch:
            x[rows, start:start + width] = value
        elif isinstance(value, (bool, int, float)):
            x.narrow(1, start, width).index_fill_(0, rows.reshape(-1), value)
        else:
            x.narrow(1, start, width).index_copy_(0, rows.reshape(-1), value.reshape(-1, width).to(x.dtype))

    def nonzero(self, flags):
        """Indices where a 1-d boolean array is true."""
        return flags.nonzero().view(-1) if self.is_torch else flags.nonzero()[0]

    def compress(self, flags, x):
        """``x[flags]`` for a 1-d boolean ``flags``."""
        return x.index_select(0, flags.nonzero().view(-1)) if self.is_torch else x[flags]

    def unpack(self, masks, width: int = NUM_CARDS):
        """Bitmasks as booleans: int64 masks of shape (..., w) (w words, little end first; w = 1 may be
        dropped) give (..., width) with bit i of the whole at index i."""
        if width > 64 and masks.shape[-1] * 64 < width:
            raise ValueError(f"{masks.shape[-1]} words hold fewer than {width} bits")
        lead = masks.shape[:-1] if width > 64 else masks.shape
        if self.is_torch:
            bits = (masks.reshape(*lead, -1)[..., None] >> self._bits) & 1 == 1
            return bits.reshape(*lead, -1)[..., :width]
        raw = np.ascontiguousarray(masks, np.int64).view(np.uint8).reshape(*lead, -1)
        return np.unpackbits(raw, axis=-1, count=width, bitorder="little").view(bool)

    def astype(self, x, dtype):
        return x.to(dtype) if self.is_torch else x.astype(dtype)

    def copy(self, x):
        return x.clone() if self.is_torch else x.copy()

    def to_numpy(self, x) -> np.ndarray:
        return x.cpu().numpy() if self.is_torch else np.asarray(x)


class _DealSource:
    """Where deals (and two-player replacement draws) come from; see the module docstring.

    ``per_game``: game ``b`` owns ``default_rng(seed)`` and draws from it as ``SpadesGame`` does (the first
    dealer unless given, one permutation per hand, one ``integers`` per replacement). Otherwise one
    generator serves every slot, with vectorised draws. Host-side numpy either way.
    """

    def __init__(self, num_envs: int, num_players: int, per_game: bool, seed: int | None) -> None:
        self.per_game, self.num_players = per_game, num_players
        self.master = np.random.default_rng(seed)
        self.rngs: list[np.random.Generator | None] = [None] * num_envs
        self.seeds = np.zeros(num_envs, np.int64)

    def new_games(self, slots: np.ndarray, seeds: np.ndarray | None, dealers: np.ndarray | None) -> np.ndarray:
        """Start games in ``slots``; returns their first dealers."""
        if not self.per_game:
            if seeds is not None:
                raise ValueError("seeds need per_game_seeds=True (each game then owns a generator)")
            return self.master.integers(self.num_players, size=len(slots)) if dealers is None else dealers
        if seeds is None:
            seeds = self.master.integers(2**63, size=len(slots))
        for b, s in zip(slots.tolist(), seeds.tolist()):
            self.rngs[b] = np.random.default_rng(s)
            self.seeds[b] = s
        if dealers is not None:
            return dealers
        return np.array([self.rngs[b].integers(self.num_players) for b in slots.tolist()], np.int64)

    def permutations(self, slots: np.ndarray) -> np.ndarray:
        """One shuffled deck (k, 52) per slot."""
        if not self.per_game:
            return self.master.permuted(np.broadcast_to(np.arange(NUM_CARDS), (len(slots), NUM_CARDS)), axis=1)
        return np.array([self.rngs[b].permutation(NUM_CARDS) for b in slots.tolist()],
                        np.int64).reshape(len(slots), NUM_CARDS)

    def indices(self, slots: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """A uniform index in ``0..counts[i]-1`` per slot."""
        if not self.per_game:
            return self.master.integers(counts)
        return np.array([self.rngs[b].integers(c) for b, c in zip(slots.tolist(), counts.tolist())], np.int64)


class VectorSpades:
    """``num_envs`` games of Spades stepped together (see the module docstring).

    ``num_players`` (4 or 2), ``observation`` (``"default"``, or ``"oracle"``: the default plus the other
    seats' hands, for privileged critics), ``reward`` (``"score"`` or ``"win"``), ``device`` (``None``/``"numpy"``:
    numpy arrays; ``"cpu"``, ``"cuda"``, ``"torch"``: torch tensors, ``"torch"`` picking cuda when
    available), ``seed`` (the deal generator, or with ``per_game_seeds`` the generator of each new
    game's seed), ``per_game_seeds`` and every rules Option of :class:`SpadesConfig`.
    """

    def __init__(self, num_envs: int, num_players: int = 4, reward: str = "score", device: Any = None,
                 seed: int | None = None, per_game_seeds: bool = False, observation: str = "default",
                 **rules) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, got {reward!r}")
        if observation not in OBSERVATION_KINDS:
            raise ValueError(f"observation must be one of {OBSERVATION_KINDS}, got {observation!r}")
        self.config = SpadesConfig(num_players=num_players, **rules)
        self.num_envs = B = num_envs
        self.num_players = n = num_players
        self.reward_mode = reward
        # The stored rows have the default layout; the oracle kind appends the other hands when built.
        self.observation_kind = observation
        self.observation_size = observation_size(n, observation)
        D = observation_size(n, "default")
        self._row_size = D
        self.num_actions = A.NUM_ACTIONS
        be = self._be = _Backend(device)
        self.device = be.device if be.is_torch else "numpy"
        self._deals = _DealSource(B, n, per_game_seeds, seed)
        i64, f32, bool_ = be.i64, be.f32, be.bool
        cfg = self.config

        # Offsets of the observation blocks and index tables.
        self._off = off = {name: b.start for name, b in layout(n, "default").items()}
        blocks = layout(n, "default")
        real_names = [name for name in ("tricks", "stock", "discard_pile", "scores", "bags", "target")
                      if name in blocks]
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
        self._ar = be.arange(B)
        self._out_rows = self._ar * self.observation_size  # where game b's row starts in a batch of observations
        seats = np.arange(n)
        rel = (seats[:, None] - seats[None, :]) % n  # rel[p, o]: where seat p sits in observer o's frame
        # _rows[b, o]: flat offset of observer o's row in game b.
        self._rows = be.asarray((np.arange(B)[:, None] * n + seats[None, :]) * D, i64)
        self._rrows = be.asarray((np.arange(B)[:, None] * n + seats[None, :]) * width, i64)  # the same in _reals
        # _seat_at[block][p, o]: offset in observer o's row of seat p's entry of a per-seat block.
        widths = {"bids": BID_CODES, "leader": 1, "dealer": 1}
        self._seat_at = {name: be.asarray(off[name] + rel * w, i64) for name, w in widths.items()}
        # The hot blocks as one table per seat index (game * n + seat): flat indices (n,) of that seat's
        # entry in every observer's row of game b. One gather instead of two gathers and an add.
        game_rows = (np.arange(B)[:, None] * n + seats[None, :]) * D  # (B, o)
        self._entries = {name: be.asarray((game_rows[:, None, :] + off[name] + rel[None] * width)
                                          .reshape(B * n, n), i64) for name, width in (("played", NUM_CARDS),
                                                                                       ("voids", 4))}
        self._broken_at = be.asarray(game_rows + off["spades_broken"], i64)  # (B, o)
        # _trick_at[o, s]: offset of seat s's row of the trick block in observer o's observation.
        self._trick_at = be.asarray(off["trick"] + rel.T * NUM_CARDS, i64)
        self._rel = be.asarray(rel, i64)
        # (own side, other side) of each observer, to lay out the per-side blocks.
        self._side_perm = be.asarray([[o % 2, 1 - o % 2] for o in range(n)], i64)
        self._side_of = be.asarray(seats % 2, i64)
        # float32 values exactly as the reference rounds its doubles.
        self._tricks_value = be.asarray(np.arange(14) / 13, f32)
        self._stock_value = be.asarray((NUM_CARDS - np.arange(NUM_CARDS + 1)) / NUM_CARDS, f32)
        self._pile_value = be.asarray(np.arange(NUM_CARDS + 1) // 2 / 26, f32)
        self._suit_masks = be.asarray(SUIT_MASKS, i64)
        self._card_ids = be.arange(NUM_CARDS)
        self._seat_ids = be.arange(n)
        # Lookups instead of integer division on the hot path.
        self._suit_of = be.asarray(np.arange(NUM_CARDS) // 13, i64)
        self._next_seat = be.asarray((seats + 1) % n, i64)
        self._next_seats = be.asarray((seats[:, None] + np.arange(1, n)) % n, i64)  # [o]: the others, from the left
        # The legal mask by phase. Action ids 52..70 as bits of two int64 words: ids 52..63 above the 52
        # card bits of the first word, ids 64..70 in the second, so that one unpacking gives the whole
        # (B, 71) mask; and which cards are legal: 0 none, 1 the whole hand, 2 the legal plays.
        low = 0 if cfg.nil else 1
        other = {BID: range(A.BID_BASE + low, A.BID_BASE + A.MAX_BID + 1), BLIND: (A.BLIND_NIL, A.LOOK),
                 DRAW: (A.KEEP, A.DISCARD), REPLACE: (A.DONE,)}
        words = np.zeros((len(Phase), 2), np.uint64)
        for phase, ids in other.items():
            for i in ids:
                words[phase, i // 64] |= np.uint64(1 << (i % 64))
        self._other_actions = be.asarray(words.view(np.int64), i64)
        card_source = np.zeros(len(Phase), np.int64)
        card_source[[PASS, REPLACE]] = 1
        card_source[PLAY] = 2
        self._card_source = be.asarray(card_source, i64)

        # Game state. Per game: (B,); per seat: flat (B * n,) indexed by game * n + seat.
        # Every seat's observation, kept in two parts so that the hot data stays in cache: the 0/1
        # entries as uint8 in the observation's own layout (the other entries stay 0 there), and the
        # few fractional blocks (tricks / 13, scores, bags, target, stock, discard pile) as float32.
        # The blocks that change at nearly every step (phase, to_act, the current trick) stay 0 here:
        # they are written into the float32 observations when these are built, from the game state.
        self._flags = be.zeros((B * n, D), be.u8)  # row game * n + p: seat p's observation in game b
        self._flat = self._flags.reshape(-1)
        self._reals = be.zeros((B * n, self._num_reals), f32)
        self._rflat = self._reals.reshape(-1)
        self._final_flags = be.zeros((B * n, D), be.u8)  # the same, for the last finished game of each slot
        self._final_reals = be.zeros((B * n, self._num_reals), f32)
        self.hands = be.zeros(B * n, i64)  # 52-bit masks
        self.bids = be.full(B * n, -1, i64)  # -1: not yet bid
        self.blind = be.zeros(B * n, bool_)
        self.decided = be.zeros(B * n, bool_)  # the Blind Nil choice is made (or not offered)
        self.tricks = be.zeros(B * n, i64)
        self.trick_cards = be.full(B * n, -1, i64)  # card each seat put in the current trick
        self.trick_len = be.zeros(B, i64)
        self.led = be.zeros(B, i64)  # suit led in the current trick
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
        self._mask = be.zeros((B, A.NUM_ACTIONS), bool_)

    @property
    def game_seeds(self) -> np.ndarray:
        """Seed of the game now in each slot (``per_game_seeds`` only): it replays ``SpadesGame().reset(seed)``."""
        if not self._deals.per_game:
            raise AttributeError("game_seeds needs per_game_seeds=True")
        return self._deals.seeds.copy()

    # ------------------------------------------------------------------ reset

    def reset(self, seed: int | None = None, *, seeds=None, deals=None, dealers=None, scores=None,
              bags=None) -> VecStep:
        """Start a new game in every slot.

        ``seed`` reseeds the generator. ``seeds`` (B ints, ``per_game_seeds``
        only) fixes the first games' seeds: slot ``b`` then plays
        ``SpadesGame().reset(seeds[b])``'s deals. ``deals`` (per game: 4
        hands of 13 cards, or the 52-card stock order for two players; ids or
        text), ``dealers`` (B) and ``scores`` / ``bags`` (B x 2) fix the
        first hand, first dealer and starting totals as in ``SpadesGame.reset``.
        """
        B, n, be = self.num_envs, self.num_players, self._be
        if seed is not None:
            self._deals.master = np.random.default_rng(seed)
        if seeds is not None:
            seeds = np.asarray(seeds, np.int64)
            if seeds.shape != (B,):
                raise ValueError(f"seeds must give {B} integers, got shape {seeds.shape}")
        fixed = None if deals is None else self._check_deals(deals)
        if dealers is not None:
            dealers = np.asarray(dealers, np.int64)
            if dealers.shape != (B,) or dealers.min() < 0 or dealers.max() >= n:
                raise ValueError(f"dealers must give {B} seats in 0..{n - 1}")
        new_scores = 0 if scores is None else self._check_totals("scores", scores, None)
        new_bags = 0 if bags is None else self._check_totals("bags", bags, self.config.bag_limit - 1)
        self.scores[:] = new_scores
        self.bags[:] = new_bags
        self.hand_number[:] = 0
        slots = np.arange(B)
        first_dealers = self._deals.new_games(slots, seeds, dealers)
        self._start_hands(slots, first_dealers, self._deals.permutations(slots) if fixed is None else fixed)
        self._acting_seat = self._ar * n + self.current_player
        self._mask = self._legal_mask()
        zeros = be.zeros(B, be.bool)
        return VecStep(self._current_obs(), self._mask, be.copy(self.current_player),
                       be.zeros((B, n), be.f32), zeros, be.copy(zeros), be.copy(zeros))

    def _check_deals(self, deals) -> np.ndarray:
        """Fixed first deals as (B, 52) decks: seat p holds [13p, 13p + 13) (four players), or the stock."""
        B, n = self.num_envs, self.num_players
        if len(deals) != B:
            raise ValueError(f"deals must give one deal per game ({B}), got {len(deals)}")
        decks = np.zeros((B, NUM_CARDS), np.int64)
        for b, deal in enumerate(deals):
            cards = [to_card(c) for c in deal] if n == 2 else [to_card(c) for hand in deal for c in hand]
            if (n == 4 and (len(deal) != n or any(len(hand) != 13 for hand in deal))) or len(cards) != NUM_CARDS:
                raise ValueError(f"deal {b} must be {'the 52-card stock' if n == 2 else '4 hands of 13 cards'}")
            if len(set(cards)) != NUM_CARDS:
                raise ValueError(f"deal {b} repeats cards")
            decks[b] = cards
        return decks

    def _check_totals(self, name: str, value, high: int | None) -> Any:
        arr = np.asarray(value, np.int64)
        if arr.shape != (self.num_envs, 2) or (high is not None and (arr.min() < 0 or arr.max() > high)):
            raise ValueError(f"{name} must be {self.num_envs} pairs (one value per side)"
                             + (f" in 0..{high}" if high is not None else ""))
        return self._be.asarray(arr, self._be.i64)

    # ----------------------------------------------------------------- step

    def step(self, actions, check: bool = True) -> VecStep:
        """Apply ``actions[b]`` for the seat to act in every game ``b``.

        A game that ends on this step is flagged in ``terminated`` /
        ``truncated`` and its slot already holds a new game in the returned
        observation, mask and player. With ``check`` (default) an illegal
        action raises ``ValueError`` naming the game, the action and the
        phase, before anything changes.
        """
        be = self._be
        a = be.asarray(actions, be.i64)
        if check:
            self._check_actions(a)
        B, n = self.num_envs, self.num_players
        self._rewards = be.zeros((B, n), be.f32)
        self._terminated = be.zeros(B, be.bool)
        self._truncated = be.zeros(B, be.bool)
        self._hand_done = be.zeros(B, be.bool)
        # Games grouped by phase before any move (a handler may move a game to a later phase).
        counts = be.to_numpy(be.xp.bincount(self.phase, minlength=len(Phase))).tolist()
        handlers = ((PLAY, self._play), (BID, self._bid), (BLIND, self._blind), (PASS, self._pass),
                    (DRAW, self._draw_turn), (REPLACE, self._replace))
        groups = [(handler, self._ar if counts[phase] == B else be.nonzero(self.phase == phase))
                  for phase, handler in handlers if counts[phase]]
        for handler, games in groups:
            handler(games, a if len(games) == B else be.take(a, games))
        ended = be.nonzero(self.tricks_done == 13)
        if len(ended):
            self._end_hands(ended)
        self._acting_seat = self._ar * n + self.current_player
        self._mask = self._legal_mask()
        return VecStep(self._current_obs(), self._mask, be.copy(self.current_player), self._rewards,
                       self._terminated, self._truncated, self._hand_done)

    def _check_actions(self, a) -> None:
        if tuple(a.shape) != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {tuple(a.shape)}")
        in_range = (a >= 0) & (a < A.NUM_ACTIONS)
        legal = self._be.take(self._mask.reshape(-1), self._ar * A.NUM_ACTIONS + a * in_range) & in_range
        if bool(legal.all()):
            return
        b = int(self._be.nonzero(~legal)[0])
        action = int(a[b])
        legal_ids = np.flatnonzero(self._be.to_numpy(self._mask[b]))
        what = A.action_to_str(action) if 0 <= action < A.NUM_ACTIONS else "not an action id"
        names = ", ".join(f"{i} ({A.action_to_str(int(i))})" for i in legal_ids)
        raise ValueError(f"illegal action {action} ({what}) in game {b} for player {int(self.current_player[b])} "
                         f"in phase {Phase(int(self.phase[b])).name}; legal actions: {names}")

    # --------------------------------------------------------- transitions

    def _seat_entries(self, games, block: str, seat):
        """Flat indices (k, n): seat ``seat``'s entry of a per-seat block in every observer's row."""
        be = self._be
        return be.take(self._rows, games) + be.take(self._seat_at[block], seat)

    def _own_row(self, games, seat):
        """Flat index (k,) where seat ``seat``'s own observation row starts."""
        return (games * self.num_players + seat) * self._row_size

    def _show_hands(self, games, seat) -> None:
        """Write the hand block of seat ``seat``'s row from its hand (the player looks)."""
        be, seats = self._be, games * self.num_players + seat
        be.put_cols(self._flags, seats, self._off["hand"], be.astype(be.unpack(be.take(self.hands, seats)), be.u8))

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
        if n == 4:
            self._queue_exchanges(done)
        else:
            self._next_replacer(done, be.full(len(done), -1, be.i64))

    def _queue_exchanges(self, games) -> None:
        """Four players, after the bidding: each Blind Nil bidder whose partner did not bid Blind Nil
        exchanges cards with the partner, in bidding order (RULES.md, "the exchange")."""
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

    # ----------------------------------------------------- two-player draw

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
        rrows = be.take(self._rrows, games)
        be.put(self._rflat, rrows + self._roff["stock"], be.take(self._stock_value, pos)[:, None])
        be.put(self._rflat, rrows + self._roff["discard_pile"], be.take(self._pile_value, pos)[:, None])
        more = pos < NUM_CARDS
        going = be.compress(more, games)
        be.put(self.current_player, going, 1 - be.compress(more, player))
        ended = be.compress(~more, games)
        if len(ended):  # the stock is empty: both players look at their hands and the bidding starts
            both = ended[:, None] * n + self._seat_ids
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
        position = _first_true(be, order == after[:, None], -1)
        later = blind & (self._seat_ids[None, :] > position[:, None])
        more = later.any(axis=1)
        nxt = be.take(order.reshape(-1), be.arange(len(games)) * n + be.astype(later, be.i64).argmax(axis=1))
        going = be.compress(more, games)
        if len(going):
            be.put(self.phase, going, REPLACE)
            be.put(self.current_player, going, be.compress(more, nxt))
        self._start_play(be.compress(~more, games))

    # ----------------------------------------------------------------- play

    def _play(self, games, card) -> None:
        be, xp, flat, off, n = self._be, self._be.xp, self._flat, self._off, self.num_players
        player = be.take(self.current_player, games)
        seat = games * n + player
        be.put(self.hands, seat, be.take(self.hands, seat) ^ (1 << card))
        be.put(flat, seat * self._row_size + off["hand"] + card, 0)
        played = be.take(self._entries["played"], seat) + card[:, None]
        be.put(flat, played, 1)
        suit = be.take(self._suit_of, card)
        size = be.take(self.trick_len, games)
        led = xp.where(size == 0, suit, be.take(self.led, games))
        be.put(self.led, games, led)
        off_suit = suit != led
        shown_out = be.nonzero(off_suit)
        if len(shown_out):  # a void is shown; writing it again later is harmless
            voids = be.take(self._entries["voids"], be.take(seat, shown_out)) + be.take(led, shown_out)[:, None]
            be.put(flat, voids, 1)
        breaks = be.nonzero((suit == SPADES) & ~be.take(self.broken, games))  # led only when allowed
        if len(breaks):
            breaking = be.take(games, breaks)
            be.put(self.broken, breaking, True)
            be.put(flat, be.take(self._broken_at, breaking), 1)
        be.put(self.trick_cards, seat, card)
        size = size + 1
        be.put(self.trick_len, games, size)
        be.put(self.current_player, games, be.take(self._next_seat, player))
        complete = be.nonzero(size == n)
        if len(complete):
            self._finish_tricks(be.take(games, complete))

    def _finish_tricks(self, games) -> None:
        """Score the completed tricks: the highest card of the suit led wins, unless a spade was played."""
        be, xp, flat, n = self._be, self._be.xp, self._flat, self.num_players
        rows = be.take(self._rows, games)
        seats = games[:, None] * n + self._seat_ids
        cards = be.take(self.trick_cards, seats)  # (k, n) by seat
        suits = be.take(self._suit_of, cards)
        key = xp.where(suits == SPADES, cards + 100, xp.where(suits == be.take(self.led, games)[:, None], cards, -1))
        winner = key.argmax(axis=1)
        won = games * n + winner
        count = be.take(self.tricks, won) + 1
        be.put(self.tricks, won, count)
        be.put(self._rflat, be.take(self._rrows, games) + self._roff["tricks"] + be.take(self._rel, winner),
               be.take(self._tricks_value, count)[:, None])
        be.put(flat, rows + be.take(self._seat_at["leader"], be.take(self.leader, games)), 0)
        be.put(flat, rows + be.take(self._seat_at["leader"], winner), 1)
        be.put(self.leader, games, winner)
        be.put(self.current_player, games, winner)
        be.put(self.trick_len, games, 0)
        be.put(self.trick_cards, seats, -1)
        be.put(self.tricks_done, games, be.take(self.tricks_done, games) + 1)

    # ------------------------------------------------------------- scoring

    def _end_hands(self, games) -> None:
        """Score the hands that just ended (scoring.score_side, batched), decide the games, pay rewards,
        and start the next hand or, in slots whose game ended, a new game."""
        be, xp, cfg, n = self._be, self._be.xp, self.config, self.num_players
        k = len(games)
        seats = games[:, None] * n + self._seat_ids
        bids_by_seat, blind_by_seat = be.take(self.bids, seats), be.take(self.blind, seats)
        tricks_by_seat = be.take(self.tricks, seats)
        # (k, member, side): seat = member * 2 + side (partners 0 & 2 and 1 & 3; or one player per side).
        bids = bids_by_seat.reshape(k, n // 2, 2)
        blind = blind_by_seat.reshape(k, n // 2, 2)
        tricks = tricks_by_seat.reshape(k, n // 2, 2)
        numeric = bids > 0
        contract = xp.where(numeric, bids, 0).sum(axis=1)  # (k, side)
        counted = xp.where(numeric, tricks, 0).sum(axis=1)
        nil_tricks = xp.where(numeric, 0, tricks).sum(axis=1)
        made = counted >= contract
        contract_points = xp.where(made, 10, -10) * contract
        bags_taken = xp.where(made, counted - contract, 0) + nil_tricks
        bonus = xp.where(blind, BLIND_NIL_BONUS, NIL_BONUS)
        nil_points = xp.where(numeric, 0, xp.where(tricks == 0, bonus, -bonus)).sum(axis=1)
        scores_before, bags_before = be.take(self.scores, games), be.take(self.bags, games)
        carried = bags_before + bags_taken
        penalties, bags_after = carried // cfg.bag_limit, carried % cfg.bag_limit
        bag_points = -cfg.bag_penalty * penalties
        points = contract_points + bags_taken + nil_points + bag_points
        scores = scores_before + points
        be.put(self.scores, games, scores)
        be.put(self.bags, games, bags_after)
        hand_number = be.take(self.hand_number, games) + 1
        be.put(self.hand_number, games, hand_number)

        s0, s1 = scores[:, 0], scores[:, 1]
        decided = (s0 >= cfg.target_score) | (s1 >= cfg.target_score)
        if cfg.mercy_threshold is not None:
            decided |= (s0 <= cfg.mercy_threshold) | (s1 <= cfg.mercy_threshold)
        decided &= s0 != s1  # a tie at or over the target plays another hand
        winner = xp.where(decided, be.astype(s1 > s0, be.i64), -1)
        if cfg.single_hand:  # the side with more points in the hand wins; a tie has no winner
            p0, p1 = points[:, 0], points[:, 1]
            winner = xp.where(decided | (p0 == p1), winner, be.astype(p1 > p0, be.i64))
            terminated = be.full(k, True, be.bool)
        else:
            terminated = winner >= 0
        truncated = ~terminated & (hand_number >= cfg.max_hands)
        over = terminated | truncated

        side = self._side_of
        if self.reward_mode == "score":
            rewards = be.astype(points[:, side] - points[:, 1 - side], be.f64) / 100
        else:
            won = xp.where(winner[:, None] == side[None, :], 1.0, -1.0)
            rewards = xp.where((winner >= 0)[:, None], won, 0.0)
        be.put(self._rewards, games, be.astype(rewards, be.f32))
        be.put(self._hand_done, games, True)
        be.put(self._terminated, games, terminated)
        be.put(self._truncated, games, truncated)

        last = self._last
        for key, value in (("hand", hand_number), ("dealer", be.take(self.dealer, games)), ("bids", bids_by_seat),
                           ("blind_nil", blind_by_seat), ("tricks", tricks_by_seat),
                           ("scores_before", be.take(self.scores_before, games)),
                           ("bags_before", be.take(self.bags_before, games)),
                           ("sides", xp.stack([contract_points, bags_taken, nil_points, bag_points, contract, counted,
                                               be.astype(made, be.i64), bags_taken, bags_after], axis=2)),
                           ("scores", scores), ("bags", bags_after), ("game_over", over), ("winner", winner),
                           ("truncated", truncated)):
            be.put(last[key], games, value)

        ended = be.compress(over, games)
        if len(ended):
            self._store_final_observations(ended)
            be.put(self.scores, ended, 0)
            be.put(self.bags, ended, 0)
            be.put(self.hand_number, ended, 0)
            slots = be.to_numpy(ended)
            self._start_hands(slots, self._deals.new_games(slots, None, None), self._deals.permutations(slots))
        going_on = be.compress(~over, games)
        if len(going_on):
            slots = be.to_numpy(going_on)
            dealers = (be.to_numpy(be.take(self.dealer, going_on)) + 1) % n
            self._start_hands(slots, dealers, self._deals.permutations(slots))

    def _store_final_observations(self, games) -> None:
        """The game-over observations (final totals; phase GAME_OVER, nobody to act and no trick are written
        when they are read), kept before the slot starts a new game."""
        be = self._be
        self._write_totals(games)
        if len(games) == self.num_envs:  # every game ended together (single hands): swap, all rows are rebuilt
            self._flags, self._final_flags = self._final_flags, self._flags
            self._reals, self._final_reals = self._final_reals, self._reals
            self._flat, self._rflat = self._flags.reshape(-1), self._reals.reshape(-1)
            return
        seats = games[:, None] * self.num_players + self._seat_ids
        be.put(self._final_flags, seats, be.take(self._flags, seats))
        be.put(self._final_reals, seats, be.take(self._reals, seats))

    # ------------------------------------------------------------ new hands

    def _start_hands(self, slots: np.ndarray, dealers: np.ndarray, decks: np.ndarray) -> None:
        """Start a hand in ``slots`` (host indices) from shuffled ``decks`` (k, 52): four players get
        ``deck[13p:13p + 13]`` as in SpadesGame, two players draw from the deck as the stock. The rows
        of these games' observations are rebuilt from scratch."""
        be, xp, n, cfg, off, flat = self._be, self._be.xp, self.num_players, self.config, self._off, self._flat
        k = len(slots)
        games, dealer = be.asarray(slots, be.i64), be.asarray(dealers, be.i64)
        seats = games[:, None] * n + self._seat_ids
        if n == 4:
            hands = np.bitwise_or.reduce(np.left_shift(1, decks.reshape(k, n, 13)), axis=2)
            be.put(self.hands, seats, be.asarray(hands, be.i64))
            first = (dealer + 1) % n
        else:
            be.put(self.hands, seats, 0)
            be.put(self.stock, games[:, None] * NUM_CARDS + self._card_ids, be.asarray(decks, be.i64))
            first = dealer  # the first drawer
        for per_game in (self.stock_pos, self.pile, self.returned, self.replaced, self.trick_len, self.tricks_done,
                         self.num_passes, self.passes_done):
            be.put(per_game, games, 0)
        be.put(self.broken, games, False)
        be.put(self.exchanges, games[:, None] * 2 + be.arange(2), -1)
        be.put(self.dealer, games, dealer)
        be.put(self.leader, games, (dealer + 1) % n)
        be.put(self.current_player, games, first)
        scores = be.take(self.scores, games)
        be.put(self.scores_before, games, scores)
        be.put(self.bags_before, games, be.take(self.bags, games))
        be.put(self.bids, seats, -1)
        be.put(self.blind, seats, False)
        be.put(self.tricks, seats, 0)
        be.put(self.trick_cards, seats, -1)
        # A player may choose Blind Nil (and so starts with the hand hidden) when the options allow it.
        if not cfg.blind_nil:
            may_blind = be.zeros((k, n), be.bool)
        elif cfg.blind_nil_min_deficit is None:
            may_blind = be.full((k, n), True, be.bool)
        else:
            side = self._side_of
            may_blind = scores[:, 1 - side] - scores[:, side] >= cfg.blind_nil_min_deficit
        be.put(self.decided, seats, ~may_blind)  # and so sees the hand from the start
        first_decided = be.take(self.decided, games * n + first)
        phase = xp.where(first_decided, BID, BLIND) if n == 4 else xp.where(first_decided, DRAW, BLIND)
        be.put(self.phase, games, phase)

        rows = be.take(self._rows, games)
        be.put(self._flags, seats, 0)
        be.put(self._reals, seats, 0.0)
        be.put_cols(self._flags, seats, off["hand"],
                    be.astype(be.unpack(be.take(self.hands, seats)) & ~may_blind[:, :, None], be.u8))
        be.put(flat, rows[:, :, None] + self._seat_at["bids"][None], 1)  # code 0: nobody has bid
        be.put(flat, rows + be.take(self._seat_at["leader"], (dealer + 1) % n), 1)
        be.put(flat, rows + be.take(self._seat_at["dealer"], dealer), 1)
        rrows = be.take(self._rrows, games)
        be.put(self._rflat, rrows + self._roff["target"], min(cfg.target_score / 1000, SCORE_CLIP))
        if n == 2:
            be.put(self._rflat, rrows + self._roff["stock"], 1.0)
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
        seats = games[:, None] * self.num_players + self._seat_ids
        scores = be.xp.clip(scores, -SCORE_CLIP, SCORE_CLIP)
        be.put_cols(self._reals, seats, self._roff["scores"], be.astype(scores, be.f32))
        be.put_cols(self._reals, seats, self._roff["bags"], be.astype(bags, be.f32))

    # --------------------------------------------------------------- views

    def _legal_mask(self):
        """(B, 71) legal actions of the seat to act in every game (SpadesGame.legal_mask, batched)."""
        be, xp = self._be, self._be.xp
        hand = be.take(self.hands, self._acting_seat)
        led = be.take(self._suit_masks, self.led)
        # Cards allowed before the fallback to the whole hand: the suit led, else non-spades until broken.
        allowed = xp.where(self.trick_len > 0, led, xp.where(self.broken, FULL_DECK, FULL_DECK ^ SPADE_MASK))
        restricted = hand & allowed
        plays = xp.where(restricted != 0, restricted, hand)
        source = be.take(self._card_source, self.phase)
        cards = xp.where(source == 2, plays, xp.where(source == 1, hand, 0))
        words = be.take(self._other_actions, self.phase)
        words[:, 0] |= cards
        return be.unpack(words, A.NUM_ACTIONS)

    def _observations(self, games, observers, final: bool = False):
        """float32 observations (shape S + (observation_size,)) of seats ``observers`` in games ``games`` (both
        of shape S): the stored rows, plus the phase, to_act and trick blocks written from the game state
        (and the other hands for the oracle kind). ``games is self._ar`` (one observation per game, in
        order) takes views instead of gathers."""
        be, xp, off, n, D = self._be, self._be.xp, self._off, self.num_players, self.observation_size
        seats = games * n + observers
        flags, reals = (self._final_flags, self._final_reals) if final else (self._flags, self._reals)
        if self.observation_kind == "default":
            out = be.astype(be.take(flags, seats), be.f32)
        else:  # the other seats' hands, in seat order from the observer's left
            out = be.zeros((*seats.shape, D), be.f32)
            out[..., :self._row_size] = be.take(flags, seats)
            if not final:  # at the end of a game every hand is empty
                others = be.take(self.hands, games[..., None] * n + be.take(self._next_seats, observers))
                out[..., self._row_size:] = be.astype(be.unpack(others), be.f32).reshape(*seats.shape, -1)
        reals = be.take(reals, seats)
        for start, stop, rstart in self._real_spans:
            out[..., start:stop] = reals[..., rstart:rstart + stop - start]
        flat = out.reshape(-1)
        live = games is self._ar  # then observers are the seats to act
        rows = self._out_rows if live else be.arange(flat.shape[0] // D).reshape(seats.shape) * D
        if final:  # the game is over: nobody to act, no trick
            be.put(flat, rows + off["phase"] + GAME_OVER, 1.0)
            return out
        be.put(flat, rows + off["phase"] + (self.phase if live else be.take(self.phase, games)), 1.0)
        if live:
            out[:, off["to_act"]] = 1.0  # the seat to act sees itself (seat 0 of its frame) to act
        else:
            to_act = be.take(self._rel.reshape(-1), be.take(self.current_player, games) * n + observers)
            be.put(flat, rows + off["to_act"] + to_act, 1.0)
        cards = (self.trick_cards.reshape(-1, n) if live
                 else be.take(self.trick_cards, games[..., None] * n + self._seat_ids))  # (S, n) by seat, -1: none
        played = cards >= 0
        # Seat s's trick card in the observer's frame; a seat with no card writes 0 at the start of its own
        # (empty) row of the block.
        at = rows[..., None] + be.take(self._trick_at, observers) + xp.where(played, cards, 0)
        be.put(flat, at, be.astype(played, be.f32))
        return out

    def state(self):
        """(B, oracle size) float32: the global state for centralised critics, as ``spades_v0``'s
        ``state()``: seat 0's ``"oracle"`` observation with seat 0's own hand shown even before it looks.
        Needs ``observation="oracle"``."""
        if self.observation_kind != "oracle":
            raise ValueError("state() needs observation='oracle'")
        be = self._be
        out = self._observations(self._ar[:, None], be.zeros((self.num_envs, 1), be.i64))[:, 0]
        start = self._off["hand"]
        out[:, start:start + NUM_CARDS] = be.astype(be.unpack(be.take(self.hands, self._ar * self.num_players)),
                                                   be.f32)
        return out

    def _all_seats(self):
        return self._ar[:, None] + 0 * self._seat_ids, self._ar[:, None] * 0 + self._seat_ids

    @property
    def obs_buffer(self):
        """(B, n, D) float32: every seat's observation, row ``[b, p]`` relative to seat ``p`` (a copy)."""
        return self._observations(*self._all_seats())

    @property
    def final_observations(self):
        """(B, n, D) float32: every seat's last observation (phase GAME_OVER) of the last game that ended in
        each slot (a copy); read it for the slots flagged terminated / truncated by the step."""
        return self._observations(*self._all_seats(), final=True)

    def _current_obs(self):
        return self._observations(self._ar, self.current_player)

    def hand_record(self, game: int) -> dict:
        """The last hand scored in slot ``game``, with the fields of ``SpadesGame.hand_records`` it keeps
        (not the card-level lists: deals, passes, plays, actions)."""
        last = {key: self._be.to_numpy(value[game]).tolist() for key, value in self._last.items()}
        sides = [SideScore(**{f: (bool(v) if f == "made" else int(v)) for f, v in zip(SIDE_FIELDS, row)})
                 for row in last.pop("sides")]
        winner = last.pop("winner")
        return {**last, "num_players": self.num_players, "sides": [s.to_dict() for s in sides],
                "points": [s.total for s in sides], "winner": None if winner < 0 else winner}


def _first_true(be: _Backend, flags, default: int):
    """Per row, the index of the first true entry of ``flags`` (k, m), or ``default`` where none is."""
    first = be.astype(flags, be.i64).argmax(axis=1)
    return be.xp.where(flags.any(axis=1), first, default)


__all__ = ["VectorSpades", "VecStep", "REWARD_MODES"]
