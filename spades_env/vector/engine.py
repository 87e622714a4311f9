"""The class :class:`VectorSpades` and what it returns, :class:`VecStep` (see :mod:`spades_env.vector`)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import actions as A
from ..cards import FULL_DECK, NUM_CARDS, SPADE_MASK, SUIT_MASKS, SUIT_OF, TRICK_POWER
from ..game import Phase
from ..observations import observation_size
from ..rules import SpadesConfig, check_engine
from ..scoring import SideScore
from .backend import Backend
from .bidding import Bidding
from .deals import DealSource, check_deals
from .draw import TwoPlayerDraw
from .hands import HandCycle
from .observe import ObservationWriter
from .play import TrickPlay
from .state import BID, BLIND, DRAW, PASS, PLAY, REPLACE, SIDE_FIELDS, GameState

REWARD_MODES = ("score", "win")
OBSERVATION_KINDS = ("default", "oracle")
OBSERVATION_DTYPES = ("float32", "uint8")
# The transition of each phase with a decision, in the order the groups of a mixed step are applied.
PHASE_HANDLERS = {PLAY: "_play", BID: "_bid", BLIND: "_blind", PASS: "_pass", DRAW: "_draw_turn", REPLACE: "_replace"}


class VecStep(NamedTuple):
    """What :meth:`VectorSpades.reset` and :meth:`VectorSpades.step` return (arrays of the env's backend).

    ``obs`` (B, obs_size) float32 (or uint8, see ``observation_dtype``): observation of the seat to act.
    ``mask`` (B, 71) bool: its legal actions.
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


class VectorSpades(Bidding, TwoPlayerDraw, TrickPlay, HandCycle, ObservationWriter, GameState):
    """``num_envs`` games of Spades stepped together (see the module docstring).

    ``num_players`` (4 or 2), ``observation`` (``"default"``, or ``"oracle"``: the default plus the other
    seats' hands, for privileged critics), ``observation_dtype`` (``"float32"``: the env's observation,
    exactly; ``"uint8"``: a quarter of the bytes, the 0/1 entries as they are and the fractional blocks as
    :func:`spades_env.observations.to_uint8` codes), ``reward`` (``"score"`` or ``"win"``), ``device``
    (``None``/``"numpy"``: numpy arrays; ``"cpu"``, ``"cuda"``, ``"torch"``: torch tensors, ``"torch"``
    picking cuda when available), ``seed`` (the deal generator, or with ``per_game_seeds`` the generator of each new
    game's seed), ``per_game_seeds``, ``threads`` (numpy only: card play and the observations split over this
    many threads, the same results; numba's default threading layer, ``workqueue``, must not be entered from
    two Python threads at once, so keep ``threads=1`` for engines stepped in parallel threads, or install
    ``tbb``), ``rules`` (a rule preset of :data:`spades_env.rules.PRESETS`) and every rule option of
    :class:`SpadesConfig`, overriding the preset's; an option this engine does not implement is refused
    (:func:`spades_env.rules.check_engine`).
    """

    def __init__(self, num_envs: int, num_players: int = 4, reward: str = "score", device: Any = None,
                 seed: int | None = None, per_game_seeds: bool = False, observation: str = "default",
                 observation_dtype: str = "float32", threads: int = 1, rules: str = "default", **options) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, got {reward!r}")
        if observation not in OBSERVATION_KINDS:
            raise ValueError(f"observation must be one of {OBSERVATION_KINDS}, got {observation!r}")
        if observation_dtype not in OBSERVATION_DTYPES:
            raise ValueError(f"observation_dtype must be one of {OBSERVATION_DTYPES}, got {observation_dtype!r}")
        self.config = SpadesConfig.from_preset(rules, num_players=num_players, **options)
        check_engine(self.config, "vector")
        self.num_envs = num_envs
        self.num_players = num_players
        self.reward_mode = reward
        # The stored rows have the default layout; the oracle kind appends the other hands when built.
        self.observation_kind = observation
        self.observation_size = observation_size(num_players, observation)
        self.num_actions = A.NUM_ACTIONS
        self._be = Backend(device)
        self._compiled = not self._be.is_torch  # numpy: card play and the live view by spades_env.vector.kernels
        if self._compiled:  # imported here: numba loads in a fraction of a second, not at `import spades_env`
            from . import kernels

            self.threads = kernels.check_threads(threads)
            self._kernels = kernels.SERIAL if self.threads == 1 else kernels.PARALLEL
        elif threads != 1:
            raise ValueError(f"threads={threads!r} needs the numpy backend (device=None); torch has its own threads")
        else:
            self.threads = 1
        self.device = self._be.device if self._be.is_torch else "numpy"
        self.observation_dtype = observation_dtype
        self._obs_dtype = self._be.u8 if observation_dtype == "uint8" else self._be.f32
        self._deals = DealSource(num_envs, num_players, per_game_seeds, seed)
        self._init_lookups()
        self._init_observation_tables()
        self._init_state()
        self._mask = self._be.zeros((num_envs, A.NUM_ACTIONS), self._be.bool)

    def _init_lookups(self) -> None:
        """Tables read on the hot path instead of integer division, modulo and branches."""
        be, n, i64 = self._be, self.num_players, self._be.i64
        seats = np.arange(n)
        self._ar = be.arange(self.num_envs)
        self._mask_rows = self._ar * A.NUM_ACTIONS  # where game b's row starts in the flat (B, 71) mask
        self._side_of = be.asarray(seats % 2, i64)
        # [led]: the cards that may be played if held: the suit led, else (NO_TRICK + broken) non-spades until
        # spades are broken, then any.
        self._allowed = be.asarray([*SUIT_MASKS, FULL_DECK ^ SPADE_MASK, FULL_DECK], i64)
        self._card_ids = be.arange(NUM_CARDS)
        self._card_bits = be.asarray(1 << np.arange(NUM_CARDS), i64)  # [card]: its bit in a hand mask
        self._seat_ids = be.arange(n)
        self._suit_of = be.asarray(SUIT_OF, i64)
        self._trick_power = be.asarray(TRICK_POWER.flatten(), i64)  # [led suit * 52 + card] (a writable copy)
        self._next_seat = be.asarray((seats + 1) % n, i64)
        self._next_seats = be.asarray((seats[:, None] + np.arange(1, n)) % n, i64)  # [o]: the others, from the left
        # The legal mask by phase. Action ids 52..70 as bits of two int64 words: ids 52..63 above the 52
        # card bits of the first word, ids 64..70 in the second, so that one unpacking gives the whole
        # (B, 71) mask; and which cards are legal: 0 none, 1 the whole hand, 2 the legal plays.
        low = 0 if self.config.nil else 1
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
        fixed = None if deals is None else check_deals(deals, B, n)
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
        obs = self._live_view()
        zeros = be.zeros(B, be.bool)
        return VecStep(obs, self._mask, be.copy(self.current_player), be.zeros((B, n), be.f32), zeros, be.copy(zeros),
                       be.copy(zeros))

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
        phase, before anything changes. ``check=False`` skips that, for
        actions drawn under the mask: an illegal id then corrupts the games
        (and an id outside 0..70 is read out of bounds by the compiled path).
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
        # Games grouped by phase before any move (a handler may move a game to a later phase); most steps
        # find every game in one phase (_phase_now, noted when the last step or reset ended).
        if self._phase_now is not None:
            getattr(self, PHASE_HANDLERS[self._phase_now])(self._ar, a)
        else:
            counts = be.to_numpy(be.xp.bincount(self.phase, minlength=len(Phase))).tolist()
            groups = [(getattr(self, handler), be.nonzero(self.phase == phase))
                      for phase, handler in PHASE_HANDLERS.items() if counts[phase]]
            for handler, games in groups:
                handler(games, be.take(a, games))
        ended = be.nonzero(self.tricks_done == 13)
        if len(ended):
            self._end_hands(ended)
        obs = self._live_view()
        return VecStep(obs, self._mask, be.copy(self.current_player), self._rewards, self._terminated,
                       self._truncated, self._hand_done)

    def _check_actions(self, a) -> None:
        if tuple(a.shape) != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {tuple(a.shape)}")
        if self._compiled:
            b = self._kernels.first_illegal(self._mask, a)
            if b < 0:
                return
        else:
            if 0 <= int(a.min()) and int(a.max()) < A.NUM_ACTIONS:
                legal = self._be.take(self._mask.reshape(-1), self._mask_rows + a)
                if bool(legal.all()):
                    return
            else:
                legal = (a >= 0) & (a < A.NUM_ACTIONS)
            b = int(self._be.nonzero(~legal)[0])
        action = int(a[b])
        legal_ids = np.flatnonzero(self._be.to_numpy(self._mask[b]))
        what = A.action_to_str(action) if 0 <= action < A.NUM_ACTIONS else "not an action id"
        names = ", ".join(f"{i} ({A.action_to_str(int(i))})" for i in legal_ids)
        raise ValueError(f"illegal action {action} ({what}) in game {b} for player {int(self.current_player[b])} "
                         f"in phase {Phase(int(self.phase[b])).name}; legal actions: {names}")

    # --------------------------------------------------------------- views

    def _note_phase(self) -> None:
        """``_phase_now``: the phase of every game when they are all in one (most steps), else None."""
        low = int(self.phase.min())
        self._phase_now = low if low == int(self.phase.max()) else None

    def _live_view(self):
        """After a reset or step: the phase of every game if one (``_phase_now``), the seats to act
        (``_acting_seat``), their legal masks (``_mask``) and observations (returned)."""
        self._acting_seat = self._ar * self.num_players + self.current_player
        if self._compiled:
            obs = np.empty((self.num_envs, self.observation_size), self._obs_dtype)
            self._mask = np.empty((self.num_envs, A.NUM_ACTIONS), np.bool_)
            self._legal_words = np.empty((self.num_envs, 2), np.int64)
            off = self._off
            self._kernels.threads(self.threads)
            common = self._kernels.live_view(
                self.num_players, self.phase, self.current_player, self.hands, self.led, self.trick_cards,
                self._flags, self._reals, self._live_spans, off["phase"], off["to_act"], off["trick"], self._rel,
                self._allowed, self._card_source, self._other_actions,
                self.num_players - 1 if self.observation_kind == "oracle" else 0, obs, self._mask, self._legal_words)
            self._phase_now = None if common < 0 else common
            return obs
        self._note_phase()
        self._mask = self._legal_mask()
        return self._current_obs()

    def _legal_mask(self):
        """(B, 71) legal actions of the seat to act in every game (SpadesGame.legal_mask, batched)."""
        be, xp = self._be, self._be.xp
        hand = be.take(self.hands, self._acting_seat)
        if self._phase_now == PLAY:  # card play everywhere: the legal plays alone
            return be.unpack_word(self._legal_plays(hand), A.NUM_ACTIONS)
        source = be.take(self._card_source, self.phase)
        cards = xp.where(source == 2, self._legal_plays(hand), xp.where(source == 1, hand, 0))
        words = be.take(self._other_actions, self.phase)
        words[:, 0] |= cards
        return be.unpack(words, A.NUM_ACTIONS)

    def _legal_plays(self, hand):
        """The cards of ``hand`` (B,) that may be played now: of the suit led, else non-spades until spades
        are broken, else (none of these held) the whole hand."""
        restricted = hand & self._be.take(self._allowed, self.led)
        return self._be.xp.where(restricted != 0, restricted, hand)

    def random_actions(self, rng):
        """A uniform legal action for the seat to act in every game (the batched random agent), from the
        legal masks of the last ``reset`` or ``step``.

        ``rng``: a ``numpy.random.Generator`` on the numpy backend (one ``random(B)`` draw per call, so a
        seed gives the same actions with any ``threads``), a ``torch.Generator`` on torch (or ``None``
        for torch's default). On numpy one compiled pass over the masks' bits (kept by the live view), on
        one thread; on torch ``multinomial``.
        """
        if self._compiled:
            out = np.empty(self.num_envs, np.int64)
            self._kernels.sample_legal(self._legal_words, rng.random(self.num_envs), out)
            return out
        return self._be.xp.multinomial(self._mask.float(), 1, generator=rng).squeeze(1)

    def hand_record(self, game: int) -> dict:
        """The last hand scored in slot ``game``, with the fields of ``SpadesGame.hand_records`` it keeps
        (not the card-level lists: deals, passes, plays, actions)."""
        last = {key: self._be.to_numpy(value[game]).tolist() for key, value in self._last.items()}
        sides = [SideScore(**{f: (bool(v) if f == "made" else int(v)) for f, v in zip(SIDE_FIELDS, row)})
                 for row in last.pop("sides")]
        winner = last.pop("winner")
        return {**last, "num_players": self.num_players, "sides": [s.to_dict() for s in sides],
                "points": [s.total for s in sides], "winner": None if winner < 0 else winner}
