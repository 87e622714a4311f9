"""A batched Spades engine: ``B`` games held as arrays and advanced by one call.

Why: a per-game Python loop (``SpadesGame`` + the AEC env) costs tens of
microseconds per decision, which bounds RL training speed. Here every piece of
state is an array with a leading batch axis, and one :meth:`VectorSpades.step`
applies one action in each of the ``B`` games with a few dozen whole-array
operations, so the per-decision cost falls roughly as ``1 / B``.

What it returns is what an RL loop needs directly (see :class:`VecStep`): the
observation of the seat to act in each game (exactly the ``"default"``
encoding of ``spades_v0``, see :mod:`spades_env.observations`), its legal
action mask, the seat to act, the reward of every seat on this step
(``"score"``: the hand's points for your side minus the other side's / 100,
partners equal; ``"win"``: +1 / -1 when the game is won), and termination /
truncation flags. Finished games restart at once in the same slot
("same-step" auto-reset); their last observations stay readable in
:attr:`VectorSpades.final_observations`.

The rules are those of :class:`~spades_env.game.SpadesGame`, the single source
of truth: constants, the configuration and the observation layout are
imported from the reference modules, and ``tests/test_vector.py`` plays
thousands of games through both engines with the same deals and actions and
asserts identical masks, observations, rewards and hand records at every
step. What is re-expressed here is only the array form of each transition.

Deals are reproducible per game and match the reference exactly: the game in a
slot owns a ``numpy.random.default_rng(seed)`` and draws its first dealer and
every hand with the same calls as ``SpadesGame.reset(seed)``, so game ``b``
plays the deals of ``SpadesGame().reset(vec.game_seeds[b])`` whatever the
batch size. ``reset`` also takes fixed first deals, dealers and scores.

Arrays are numpy by default; ``device="cuda"`` (or ``"cpu"``, ``"torch"``)
runs the same code on torch tensors: the few calls whose spelling differs go
through :class:`_Backend`. Only the four-player game is batched so far; the
state is laid out by seat and side (side = seat % 2, member = seat // 2) so
that the two-player variant fits the same arrays.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from . import actions as A
from .cards import NUM_CARDS, SPADES, to_card
from .game import Phase, SpadesConfig
from .observations import BID_CODES, SCORE_CLIP, layout, observation_size
from .scoring import BLIND_NIL_BONUS, NIL_BONUS, SideScore

REWARD_MODES = ("score", "win")
PASSES_PER_EXCHANGE = 6  # partner gives 3 cards, then the Blind Nil bidder gives 3 back
# Phase ids as plain ints (array libraries take them as scalars).
BLIND, BID, PASS, PLAY, GAME_OVER = (int(p) for p in (Phase.BLIND, Phase.BID, Phase.PASS, Phase.PLAY, Phase.GAME_OVER))
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
    """The array calls whose spelling differs between numpy and torch; the rest of the code is shared."""

    def __init__(self, device: Any = None) -> None:
        self.is_torch = device not in (None, "numpy")
        if not self.is_torch:
            self.xp, self.device = np, None
            self.f32, self.f64, self.i64, self.bool = np.float32, np.float64, np.int64, np.bool_
            return
        import torch

        if device == "torch":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.xp, self.device = torch, torch.device(device)
        self.f32, self.f64, self.i64, self.bool = torch.float32, torch.float64, torch.int64, torch.bool

    def zeros(self, shape, dtype):
        if self.is_torch:
            return self.xp.zeros(shape, dtype=dtype, device=self.device)
        return np.zeros(shape, dtype)

    def arange(self, size: int):
        return self.xp.arange(size, device=self.device) if self.is_torch else np.arange(size)

    def full(self, shape, value, dtype):
        if self.is_torch:
            return self.xp.full(shape, value, dtype=dtype, device=self.device)
        return np.full(shape, value, dtype)

    def asarray(self, value, dtype):
        if self.is_torch:
            if isinstance(value, self.xp.Tensor):
                return value.to(device=self.device, dtype=dtype)
            return self.xp.as_tensor(np.asarray(value), dtype=dtype, device=self.device)
        return np.asarray(value, dtype)

    def nonzero(self, flags):
        """Indices where a 1-d boolean array is true."""
        return flags.nonzero().view(-1) if self.is_torch else np.flatnonzero(flags)

    def astype(self, x, dtype):
        return x.to(dtype) if self.is_torch else x.astype(dtype)

    def copy(self, x):
        return x.clone() if self.is_torch else x.copy()

    def to_numpy(self, x) -> np.ndarray:
        return x.cpu().numpy() if self.is_torch else np.asarray(x)


class VectorSpades:
    """``num_envs`` games of Spades stepped together (see the module docstring).

    ``num_players`` (4), ``reward`` (``"score"`` or ``"win"``), ``device``
    (``None``/``"numpy"``: numpy arrays; ``"cpu"``, ``"cuda"``, ``"torch"``:
    torch tensors, ``"torch"`` picking cuda when available), ``seed`` (the
    generator that draws each new game's seed) and every rules Option of
    :class:`SpadesConfig`.
    """

    def __init__(self, num_envs: int, num_players: int = 4, reward: str = "score", device: Any = None,
                 seed: int | None = None, **rules) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, got {reward!r}")
        self.config = SpadesConfig(num_players=num_players, **rules)
        if num_players != 4:
            raise NotImplementedError("the batched engine supports the four-player game only so far")
        self.num_envs = B = num_envs
        self.num_players = n = num_players
        self.reward_mode = reward
        self.observation_size = D = observation_size(n, "default")
        self.num_actions = A.NUM_ACTIONS
        be = self._be = _Backend(device)
        self.device = be.device if be.is_torch else "numpy"
        i64, bool_ = be.i64, be.bool
        self._seed_rng = np.random.default_rng(seed)
        self._rngs: list[np.random.Generator] = [np.random.default_rng(0)] * B
        self.game_seeds = np.zeros(B, np.int64)  # seed of the game now in each slot (host side)

        # Offsets of the observation blocks and precomputed index tables.
        self._off = {name: b.start for name, b in layout(n, "default").items()}
        self._ar = be.arange(B)
        seats = np.arange(n)
        # Flat offset of row (game b, observer o) in the observation buffer.
        self._rowbase = be.asarray((np.arange(B)[:, None] * n + seats[None, :]) * D, i64)
        # _rel[p, o]: where seat p sits in observer o's frame (self, left, partner, right).
        self._rel = be.asarray((seats[:, None] - seats[None, :]) % n, i64)
        # _side_perm[o]: (own side, other side) of observer o, to lay out per-side blocks.
        self._side_perm = be.asarray([[o % 2, 1 - o % 2] for o in range(n)], i64)
        self._tricks_value = be.asarray(np.arange(14) / 13, be.f32)  # float32(k / 13), as the reference rounds it
        suits = np.arange(NUM_CARDS) // 13
        self._suit_cards = be.asarray(suits[None, :] == np.arange(4)[:, None], bool_)  # (4, 52)
        self._non_spades = be.asarray(suits != SPADES, bool_)
        low = 0 if self.config.nil else 1
        self._bid_row = be.asarray(np.arange(A.MAX_BID + 1) >= low, bool_)

        # Game state, one entry (or row) per game.
        self.obs_buffer = be.zeros((B, n, D), be.f32)  # row [b, p]: seat p's observation in game b
        self._flat = self.obs_buffer.reshape(-1)
        self.final_observations = be.zeros((B, n, D), be.f32)
        self.hands = be.zeros((B, n, NUM_CARDS), bool_)
        self.looked = be.zeros((B, n), bool_)
        self.bids = be.full((B, n), -1, i64)  # -1: not yet bid
        self.blind = be.zeros((B, n), bool_)
        self.tricks = be.zeros((B, n), i64)
        self.trick_cards = be.full((B, n), -1, i64)  # card each seat put in the current trick
        self.trick_len = be.zeros(B, i64)
        self.led = be.zeros(B, i64)  # suit led in the current trick
        self.broken = be.zeros(B, bool_)
        self.tricks_done = be.zeros(B, i64)
        self.leader = be.zeros(B, i64)
        self.current_player = be.zeros(B, i64)
        self.dealer = be.zeros(B, i64)
        self.phase = be.zeros(B, i64)
        self.exchanges = be.full((B, 2), -1, i64)  # Blind Nil bidders whose exchange is due, in order
        self.num_passes = be.zeros(B, i64)  # passes due this hand (6 per exchange)
        self.passes_done = be.zeros(B, i64)
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

    # ------------------------------------------------------------------ reset

    def reset(self, seed: int | None = None, *, seeds=None, deals=None, dealers=None, scores=None,
              bags=None) -> VecStep:
        """Start a new game in every slot.

        ``seed`` reseeds the generator that draws each game's seed. ``seeds``
        (B ints) fixes the first games' seeds instead: slot ``b`` then plays
        ``SpadesGame().reset(seeds[b])``'s deals. ``deals`` (B x 4 x 13 card
        ids or texts), ``dealers`` (B), ``scores`` and ``bags`` (B x 2) fix the
        first hand, first dealer and starting totals as in ``SpadesGame.reset``.
        """
        B, n, be = self.num_envs, self.num_players, self._be
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        if seeds is None:
            seeds = self._seed_rng.integers(2**63, size=B)
        seeds = np.asarray(seeds, np.int64)
        if seeds.shape != (B,):
            raise ValueError(f"seeds must give {B} integers, got shape {seeds.shape}")
        deal_masks = None if deals is None else self._check_deals(deals)
        if dealers is not None:
            dealers = np.asarray(dealers, np.int64)
            if dealers.shape != (B,) or dealers.min() < 0 or dealers.max() >= n:
                raise ValueError(f"dealers must give {B} seats in 0..{n - 1}")
        self.scores[:] = 0 if scores is None else self._check_totals("scores", scores, None)
        self.bags[:] = 0 if bags is None else self._check_totals("bags", bags, self.config.bag_limit - 1)
        self.hand_number[:] = 0
        games = np.arange(B)
        self._start_games(games, seeds, dealers, deal_masks)
        self._mask = self._legal_mask()
        zeros = be.zeros(B, be.bool)
        return VecStep(self._current_obs(), self._mask, be.copy(self.current_player),
                       be.zeros((B, n), be.f32), zeros, be.copy(zeros), be.copy(zeros))

    def _check_deals(self, deals) -> np.ndarray:
        B, n = self.num_envs, self.num_players
        masks = np.zeros((B, n, NUM_CARDS), bool)
        if len(deals) != B:
            raise ValueError(f"deals must give one deal per game ({B}), got {len(deals)}")
        for b, deal in enumerate(deals):
            if len(deal) != n or any(len(hand) != 13 for hand in deal):
                raise ValueError(f"deal {b} must be {n} hands of 13 cards")
            for p, hand in enumerate(deal):
                masks[b, p, [to_card(c) for c in hand]] = True
            if masks[b].sum(axis=0).max() > 1:
                raise ValueError(f"deal {b} repeats cards")
        return masks

    def _check_totals(self, name: str, value, high: int | None) -> Any:
        arr = np.asarray(value, np.int64)
        if arr.shape != (self.num_envs, 2) or (high is not None and (arr.min() < 0 or arr.max() > high)):
            raise ValueError(f"{name} must be {self.num_envs} pairs (one value per side)"
                             + (f" in 0..{high}" if high is not None else ""))
        return self._be.asarray(arr, self._be.i64)

    # ----------------------------------------------------------------- step

    def step(self, actions, check: bool = True) -> VecStep:
        """Apply ``actions[b]`` for the seat to act in every game ``b``.

        With ``check`` (default) an illegal action raises ``ValueError``
        naming the game, the action and the phase, before anything changes.
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
        old_phase, old_player = be.copy(self.phase), be.copy(self.current_player)
        handlers = ((PLAY, self._play), (BID, self._bid), (BLIND, self._blind),
                    (PASS, self._pass))
        groups = [(handler, be.nonzero(old_phase == phase)) for phase, handler in handlers]
        for handler, games in groups:
            if len(games):
                handler(games, a[games])
        self._update_turn_blocks(old_phase, old_player)
        ended = be.nonzero(self.tricks_done == 13)
        if len(ended):
            self._end_hands(ended)
        self._mask = self._legal_mask()
        return VecStep(self._current_obs(), self._mask, be.copy(self.current_player), self._rewards,
                       self._terminated, self._truncated, self._hand_done)

    def _check_actions(self, a) -> None:
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {tuple(a.shape)}")
        in_range = (a >= 0) & (a < A.NUM_ACTIONS)
        legal = self._mask[self._ar, a * in_range] & in_range
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

    def _seat_index(self, games, block: str, seat, width: int = 1):
        """Flat indices (k, n) of seat ``seat``'s entry in block ``block`` of every observer's row."""
        return self._rowbase[games] + self._off[block] + self._rel[seat] * width

    def _bid(self, games, action) -> None:
        self._record_bid(games, self.current_player[games], action - A.BID_BASE, blind=False)

    def _blind(self, games, action) -> None:
        player = self.current_player[games]
        self.looked[games, player] = True
        self.obs_buffer[games, player, self._off["hand"]:self._off["hand"] + NUM_CARDS] = \
            self._be.astype(self.hands[games, player], self._be.f32)
        is_blind = action == A.BLIND_NIL
        blind_games = games[is_blind]
        if len(blind_games):
            self._record_bid(blind_games, player[is_blind], self._be.zeros(len(blind_games), self._be.i64),
                             blind=True)
        self.phase[games[~is_blind]] = BID  # looked: now bid 0..13

    def _record_bid(self, games, player, bid, blind: bool) -> None:
        self.bids[games, player] = bid
        self.blind[games, player] = blind
        code = BID_CODES - 1 if blind else bid[:, None] + 1
        at = self._seat_index(games, "bids", player, BID_CODES)
        self._flat[at] = 0
        self._flat[at + code] = 1
        self._next_bidder(games, player)

    def _next_bidder(self, games, player) -> None:
        n = self.num_players
        nxt = (player + 1) % n
        waiting = self.bids[games, nxt] < 0
        more = games[waiting]
        if len(more):
            nxt = nxt[waiting]
            self.current_player[more] = nxt
            self.phase[more] = self._be.xp.where(self.looked[more, nxt], BID, BLIND)
        done = games[~waiting]
        if len(done):
            self._queue_exchanges(done)

    def _queue_exchanges(self, games) -> None:
        """After the bidding: each Blind Nil bidder whose partner did not bid Blind Nil exchanges
        cards with the partner, in bidding order (RULES.md, "the exchange")."""
        xp, n = self._be.xp, self.num_players
        count = self._be.zeros(len(games), self._be.i64)
        exchanges = self._be.full((len(games), 2), -1, self._be.i64)
        for k in range(1, n + 1):
            bidder = (self.dealer[games] + k) % n
            due = self.blind[games, bidder] & ~self.blind[games, (bidder + 2) % n]
            for slot in range(2):
                exchanges[:, slot] = xp.where(due & (count == slot), bidder, exchanges[:, slot])
            count += due
        self.exchanges[games] = exchanges
        self.num_passes[games] = count * PASSES_PER_EXCHANGE
        self.passes_done[games] = 0
        passing = count > 0
        self._set_passer(games[passing])
        self._start_play(games[~passing])

    def _passer(self, games):
        """(giver, receiver) of the next pass in each game."""
        done = self.passes_done[games]
        bidder = self.exchanges[games, done // PASSES_PER_EXCHANGE]
        partner = (bidder + 2) % self.num_players
        to_bidder = done % PASSES_PER_EXCHANGE < PASSES_PER_EXCHANGE // 2
        xp = self._be.xp
        return xp.where(to_bidder, partner, bidder), xp.where(to_bidder, bidder, partner)

    def _set_passer(self, games) -> None:
        if len(games):
            self.phase[games] = PASS
            self.current_player[games] = self._passer(games)[0]

    def _start_play(self, games) -> None:
        if len(games):
            self.phase[games] = PLAY
            self.current_player[games] = self.leader[games]

    def _pass(self, games, card) -> None:
        giver, receiver = self._passer(games)
        self.hands[games, giver, card] = False
        self.hands[games, receiver, card] = True
        flat, off, D, n = self._flat, self._off, self.observation_size, self.num_players
        giver_row = (games * n + giver) * D
        receiver_row = (games * n + receiver) * D
        flat[giver_row + off["hand"] + card] = 0
        flat[receiver_row + off["hand"] + card] = 1
        flat[giver_row + off["passed"] + card] = 1
        flat[receiver_row + off["received"] + card] = 1
        self.passes_done[games] += 1
        finished = self.passes_done[games] == self.num_passes[games]
        self._start_play(games[finished])
        more = games[~finished]
        if len(more):
            self.current_player[more] = self._passer(more)[0]

    def _play(self, games, card) -> None:
        xp, flat, off = self._be.xp, self._flat, self._off
        n, D = self.num_players, self.observation_size
        player = self.current_player[games]
        self.hands[games, player, card] = False
        flat[(games * n + player) * D + off["hand"] + card] = 0
        played_at = self._seat_index(games, "played", player, NUM_CARDS) + card[:, None]
        flat[played_at] = 1
        flat[played_at + (off["trick"] - off["played"])] = 1  # cleared when the trick is complete
        suit = card // 13
        leading = self.trick_len[games] == 0
        led = xp.where(leading, suit, self.led[games])
        self.led[games] = led
        off_suit = (suit != led) & ~leading
        shown_out = games[off_suit]
        if len(shown_out):  # a void is shown; writing it again later is harmless
            flat[self._seat_index(shown_out, "voids", player[off_suit], 4) + led[off_suit, None]] = 1
        breaks = games[(leading | off_suit) & (suit == SPADES) & ~self.broken[games]]
        if len(breaks):
            self.broken[breaks] = True
            flat[self._rowbase[breaks] + off["spades_broken"]] = 1
        self.trick_cards[games, player] = card
        self.trick_len[games] += 1
        complete = self.trick_len[games] == n
        self.current_player[games] = (player + 1) % n
        done = games[complete]
        if len(done):
            self._finish_tricks(done)

    def _finish_tricks(self, games) -> None:
        """Score the completed tricks: the highest card of the suit led wins, unless a spade was played."""
        xp, flat, off = self._be.xp, self._flat, self._off
        cards = self.trick_cards[games]  # (k, n) by seat
        suits = cards // 13
        key = xp.where(suits == SPADES, cards + 100, xp.where(suits == self.led[games, None], cards, -1))
        winner = key.argmax(axis=1)
        # Clear the trick block: card of seat s in observer o's row.
        rows = self._rowbase[games][:, None, :]  # (k, 1, o)
        flat[rows + off["trick"] + self._rel[None] * NUM_CARDS + cards[:, :, None]] = 0
        self.tricks[games, winner] += 1
        flat[self._seat_index(games, "tricks", winner)] = self._tricks_value[self.tricks[games, winner]][:, None]
        flat[self._seat_index(games, "leader", self.leader[games])] = 0
        flat[self._seat_index(games, "leader", winner)] = 1
        self.leader[games] = winner
        self.current_player[games] = winner
        self.trick_len[games] = 0
        self.trick_cards[games] = -1
        self.tricks_done[games] += 1

    def _update_turn_blocks(self, old_phase, old_player) -> None:
        """Move the ``to_act`` and ``phase`` one-hots of every observer after a step."""
        flat, off, ar = self._flat, self._off, self._ar
        flat[self._seat_index(ar, "to_act", old_player)] = 0
        flat[self._seat_index(ar, "to_act", self.current_player)] = 1
        changed = self._be.nonzero(self.phase != old_phase)
        if len(changed):
            rows = self._rowbase[changed] + off["phase"]
            flat[rows + old_phase[changed, None]] = 0
            flat[rows + self.phase[changed, None]] = 1

    # ------------------------------------------------------------- scoring

    def _end_hands(self, games) -> None:
        """Score the hands that just ended (scoring.score_side, batched), decide the games, pay rewards,
        and start the next hand or, in slots whose game ended, a new game."""
        be, xp, cfg, n = self._be, self._be.xp, self.config, self.num_players
        k = len(games)
        members = n // 2
        # (k, member, side): seat = member * 2 + side.
        bids = self.bids[games].reshape(k, members, 2)
        blind = self.blind[games].reshape(k, members, 2)
        tricks = self.tricks[games].reshape(k, members, 2)
        numeric = bids > 0
        contract = xp.where(numeric, bids, 0).sum(axis=1)  # (k, side)
        counted = xp.where(numeric, tricks, 0).sum(axis=1)
        nil_tricks = xp.where(numeric, 0, tricks).sum(axis=1)
        made = counted >= contract
        contract_points = xp.where(made, 10, -10) * contract
        bags_taken = xp.where(made, counted - contract, 0) + nil_tricks
        bonus = xp.where(blind, BLIND_NIL_BONUS, NIL_BONUS)
        nil_points = xp.where(numeric, 0, xp.where(tricks == 0, bonus, -bonus)).sum(axis=1)
        carried = self.bags[games] + bags_taken
        penalties, bags_after = carried // cfg.bag_limit, carried % cfg.bag_limit
        bag_points = -cfg.bag_penalty * penalties
        points = contract_points + bags_taken + nil_points + bag_points
        scores = self.scores[games] + points
        self.scores[games] = scores
        self.bags[games] = bags_after
        self.hand_number[games] += 1

        s0, s1 = scores[:, 0], scores[:, 1]
        decided = (s0 >= cfg.target_score) | (s1 >= cfg.target_score)
        if cfg.mercy_threshold is not None:
            decided |= (s0 <= cfg.mercy_threshold) | (s1 <= cfg.mercy_threshold)
        decided &= s0 != s1  # a tie at or over the target plays another hand
        winner = xp.where(decided, be.astype(s1 > s0, be.i64), -1)
        if cfg.single_hand:
            p0, p1 = points[:, 0], points[:, 1]
            winner = xp.where(decided | (p0 == p1), winner, xp.where(p1 > p0, 1, 0))
            terminated = be.full(k, True, be.bool)
        else:
            terminated = winner >= 0
        truncated = ~terminated & (self.hand_number[games] >= cfg.max_hands)

        side = self._side_perm[:, 0]  # side of each seat
        if self.reward_mode == "score":
            diff = be.astype(points[:, side] - points[:, 1 - side], be.f64) / 100
            self._rewards[games] = be.astype(diff, be.f32)
        else:
            won = xp.where(winner[:, None] == side[None, :], 1.0, -1.0)
            self._rewards[games] = be.astype(xp.where((winner >= 0)[:, None], won, 0.0), be.f32)
        self._hand_done[games] = True
        over = terminated | truncated
        self._terminated[games] = terminated
        self._truncated[games] = truncated

        last = self._last
        last["hand"][games] = self.hand_number[games]
        last["dealer"][games] = self.dealer[games]
        last["bids"][games] = self.bids[games]
        last["blind_nil"][games] = self.blind[games]
        last["tricks"][games] = self.tricks[games]
        last["scores_before"][games] = self.scores_before[games]
        last["bags_before"][games] = self.bags_before[games]
        last["sides"][games] = xp.stack([contract_points, bags_taken, nil_points, bag_points, contract, counted,
                                         be.astype(made, be.i64), bags_taken, bags_after], axis=2)
        last["scores"][games] = scores
        last["bags"][games] = bags_after
        last["game_over"][games] = over
        last["winner"][games] = winner
        last["truncated"][games] = truncated

        ended = games[over]
        if len(ended):
            self._store_final_observations(ended)
            self.scores[ended] = 0
            self.bags[ended] = 0
            self.hand_number[ended] = 0
            self._start_games(be.to_numpy(ended), self._seed_rng.integers(2**63, size=len(ended)))
        going_on = games[~over]
        if len(going_on):
            idx = be.to_numpy(going_on)
            dealers = (be.to_numpy(self.dealer[going_on]) + 1) % n
            self._start_hands(idx, dealers, self._deal(idx))

    def _store_final_observations(self, games) -> None:
        """The game-over observation (phase GAME_OVER, nobody to act, final totals), kept before the reset."""
        flat, off = self._flat, self._off
        rows = self._rowbase[games]
        flat[rows + off["phase"] + PLAY] = 0
        flat[rows + off["phase"] + GAME_OVER] = 1
        flat[self._seat_index(games, "to_act", self.current_player[games])] = 0
        self._write_totals(games)
        self.final_observations[games] = self.obs_buffer[games]

    # ------------------------------------------------------------ new hands

    def _start_games(self, games: np.ndarray, seeds: np.ndarray, dealers: np.ndarray | None = None,
                     deals: np.ndarray | None = None) -> None:
        """New games in slots ``games`` (host indices): per-game generators drawn as SpadesGame.reset draws."""
        for b, s in zip(games.tolist(), seeds.tolist()):
            self._rngs[b] = np.random.default_rng(s)
            self.game_seeds[b] = s
        if dealers is None:
            dealers = np.array([self._rngs[b].integers(self.num_players) for b in games.tolist()], np.int64)
        else:
            dealers = dealers[games]
        self._start_hands(games, dealers, self._deal(games) if deals is None else deals[games])

    def _deal(self, games: np.ndarray) -> np.ndarray:
        """The next hand of each game: seat p gets ``permutation(52)[13p:13p+13]``, as in SpadesGame."""
        perms = np.array([self._rngs[b].permutation(NUM_CARDS) for b in games.tolist()]).reshape(len(games), -1)
        seat_of = np.empty_like(perms)
        np.put_along_axis(seat_of, perms, np.arange(NUM_CARDS)[None, :] // 13, axis=1)
        return seat_of[:, None, :] == np.arange(self.num_players)[None, :, None]

    def _start_hands(self, games_np: np.ndarray, dealers_np: np.ndarray, hands_np: np.ndarray) -> None:
        """Deal ``hands_np`` (k, n, 52) in slots ``games_np`` and rebuild their observations from scratch."""
        be, xp, n, cfg, off = self._be, self._be.xp, self.num_players, self.config, self._off
        games = be.asarray(games_np, be.i64)
        dealer = be.asarray(dealers_np, be.i64)
        self.hands[games] = be.asarray(hands_np, be.bool)
        self.dealer[games] = dealer
        first = (dealer + 1) % n
        self.leader[games] = first
        self.current_player[games] = first
        self.scores_before[games] = self.scores[games]
        self.bags_before[games] = self.bags[games]
        self.bids[games] = -1
        self.blind[games] = False
        self.tricks[games] = 0
        self.trick_cards[games] = -1
        self.trick_len[games] = 0
        self.broken[games] = False
        self.tricks_done[games] = 0
        self.num_passes[games] = 0
        self.passes_done[games] = 0
        self.exchanges[games] = -1
        # A player may choose Blind Nil (and so starts with the hand hidden) when the option allows it.
        if cfg.blind_nil:
            may_blind = be.full((len(games_np), n), True, be.bool)
            if cfg.blind_nil_min_deficit is not None:
                scores = self.scores[games]
                deficit = scores[:, 1 - self._side_perm[:, 0]] - scores[:, self._side_perm[:, 0]]
                may_blind = deficit >= cfg.blind_nil_min_deficit
        else:
            may_blind = be.zeros((len(games_np), n), be.bool)
        looked = ~may_blind
        self.looked[games] = looked
        phase = xp.where(looked[be.arange(len(games_np)), first], BID, BLIND)
        self.phase[games] = phase

        obs = self.obs_buffer
        obs[games] = 0
        hand_shown = self.hands[games] & looked[:, :, None]
        obs[games, :, off["hand"]:off["hand"] + NUM_CARDS] = be.astype(hand_shown, be.f32)
        obs[games, :, off["bids"]:off["bids"] + n * BID_CODES:BID_CODES] = 1  # nobody has bid
        flat, rows = self._flat, self._rowbase[games]
        flat[self._seat_index(games, "leader", first)] = 1
        flat[self._seat_index(games, "to_act", first)] = 1
        flat[self._seat_index(games, "dealer", dealer)] = 1
        flat[rows + off["phase"] + phase[:, None]] = 1
        obs[games, :, off["target"]] = min(cfg.target_score / 1000, SCORE_CLIP)
        self._write_totals(games)

    def _write_totals(self, games) -> None:
        """Scores (/ target, clipped) and bags (/ bag_limit) as (own side, other side) for every observer."""
        be, cfg, off = self._be, self.config, self._off
        scores = be.astype(self.scores[games][:, self._side_perm], be.f64) / cfg.target_score
        bags = be.astype(self.bags[games][:, self._side_perm], be.f64) / cfg.bag_limit
        self.obs_buffer[games, :, off["scores"]:off["scores"] + 2] = be.astype(
            be.xp.clip(scores, -SCORE_CLIP, SCORE_CLIP), be.f32)
        self.obs_buffer[games, :, off["bags"]:off["bags"] + 2] = be.astype(bags, be.f32)

    # --------------------------------------------------------------- views

    def _legal_mask(self):
        """(B, 71) legal actions of the seat to act in every game (SpadesGame.legal_mask, batched)."""
        be, xp = self._be, self._be.xp
        B = self.num_envs
        phase = self.phase
        hand = self.hands[self._ar, self.current_player]  # (B, 52)
        in_trick = (self.trick_len > 0)[:, None]
        # Cards allowed before the fallback to the whole hand: the suit led, else non-spades until broken.
        allowed = xp.where(in_trick, self._suit_cards[self.led], self._non_spades[None, :] | self.broken[:, None])
        restricted = hand & allowed
        plays = xp.where(restricted.any(axis=1)[:, None], restricted, hand)
        cards = xp.where((phase == PASS)[:, None], hand, plays & (phase == PLAY)[:, None])
        mask = be.zeros((B, A.NUM_ACTIONS), be.bool)
        mask[:, :NUM_CARDS] = cards
        mask[:, A.BID_BASE:A.BID_BASE + A.MAX_BID + 1] = self._bid_row[None, :] & (phase == BID)[:, None]
        blind = phase == BLIND
        mask[:, A.BLIND_NIL] = blind
        mask[:, A.LOOK] = blind
        return mask

    def _current_obs(self):
        return self.obs_buffer[self._ar, self.current_player]

    def hand_record(self, game: int) -> dict:
        """The last hand scored in slot ``game``, with the fields of ``SpadesGame.hand_records`` it keeps
        (not the card-level lists: deals, passes, plays, actions)."""
        last = {key: self._be.to_numpy(value[game]).tolist() for key, value in self._last.items()}
        sides = [SideScore(**{f: (bool(v) if f == "made" else int(v)) for f, v in zip(SIDE_FIELDS, row)})
                 for row in last.pop("sides")]
        winner = last.pop("winner")
        return {**last, "num_players": self.num_players, "sides": [s.to_dict() for s in sides],
                "points": [s.total for s in sides], "winner": None if winner < 0 else winner}


__all__ = ["VectorSpades", "VecStep", "REWARD_MODES"]
