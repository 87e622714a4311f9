"""A card-play position inside a hand, and the hand's points for every way the remaining tricks can fall.

:class:`Position` holds exactly what the double-dummy value depends on, read
from a :class:`~spades_env.game.SpadesGame`'s public attributes (or built by
hand in tests). :func:`side_tables` turns the scoring rules
(:func:`spades_env.scoring.score_sides`, the one home of the scoring) into
the table both solvers score leaves with: a side's hand points for every
split of the remaining tricks between its members.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..cards import NUM_CARDS, SPADE_MASK, SUIT_MASK_OF
from ..game import Phase, SpadesGame
from ..rules import check_engine
from ..scoring import BLIND_NIL_BONUS, NIL_BONUS, score_sides

TRICKS_PER_HAND = 13


@dataclass(frozen=True)
class Position:
    """Everything the rest of a hand depends on, with every hand visible.

    ``hands`` are 52-bit masks per seat (the cards still held), ``trick``
    the cards of the current trick as ``(seat, card)`` in play order,
    ``leader`` the seat that leads (led) it. ``tricks``, ``bids`` and
    ``blind`` are per seat (a bid of 0 is Nil, Blind Nil when ``blind``);
    ``bags`` are the bags each side carried into the hand. ``bag_cost``
    (0: the hand's points alone) counts each bag a side carries out of the
    hand that many points against it (:meth:`~spades_env.scoring.SideScore.priced`):
    a game that goes on, where a searcher may prefer to give a trick away.
    """

    num_players: int
    hands: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    leader: int
    spades_broken: bool
    tricks: tuple[int, ...]
    bids: tuple[int, ...]
    blind: tuple[bool, ...]
    bags: tuple[int, int]
    bag_limit: int = 10
    bag_penalty: int = 100
    bag_cost: int = 0

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.num_players

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the current one included."""
        return TRICKS_PER_HAND - sum(self.tricks)

    def members(self, side: int) -> tuple[int, ...]:
        """The seats of ``side``: partners sit opposite (0 and 2, 1 and 3); two players are one seat each."""
        return tuple(range(side, self.num_players, 2))

    def legal_moves(self) -> int:
        """The cards the player to move may play, as a mask (docs/rules.md: follow suit; spades led once broken)."""
        return legal_plays(self.hands[self.to_move], self.trick, self.spades_broken)


def legal_plays(hand: int, trick: tuple[tuple[int, int], ...], spades_broken: bool) -> int:
    """The playable cards of ``hand``: the engine's rule (``SpadesGame._legal_plays``), on explicit state.

    tests/test_solver.py checks it against ``SpadesGame.legal_mask`` along random hands.
    """
    if trick:
        follow = hand & SUIT_MASK_OF[trick[0][1]]
        return follow or hand
    if spades_broken:
        return hand
    return (hand & ~SPADE_MASK) or hand


def position_of(game: SpadesGame, bag_cost: int = 0) -> Position:
    """The position of ``game``, which must be in its card-play phase (``bag_cost``: see :class:`Position`)."""
    if game.phase != Phase.PLAY:
        raise ValueError(f"the solver needs a game in the card-play phase, not {game.phase.name}")
    cfg = game.config
    check_engine(cfg, "solver")
    return Position(
        num_players=game.num_players,
        hands=tuple(game.hands),
        trick=tuple((int(s), int(c)) for s, c in game.trick),
        leader=game.trick[0][0] if game.trick else game.current_player,
        spades_broken=bool(game.spades_broken),
        tricks=tuple(game.tricks),
        bids=tuple(int(b) for b in game.bids),
        blind=tuple(bool(b) for b in game.blind),
        bags=(int(game.bags[0]), int(game.bags[1])),
        bag_limit=cfg.bag_limit,
        bag_penalty=cfg.bag_penalty,
        bag_cost=bag_cost,
    )


def check_position(pos: Position) -> None:
    """Raise ValueError unless ``pos`` is a reachable shape of a card-play position."""
    n = pos.num_players
    if n not in (2, 4) or len(pos.hands) != n or len(pos.tricks) != n or len(pos.bids) != n:
        raise ValueError(f"a position has 2 or 4 seats with a hand, a trick count and a bid each: {pos!r}")
    if pos.bag_cost < 0:
        raise ValueError(f"bag_cost is the points a carried bag costs, 0 or more: {pos.bag_cost!r}")
    if len(pos.trick) >= n or not 0 <= pos.leader < n:
        raise ValueError(f"the current trick holds fewer cards than seats and a leader in 0..{n - 1}: {pos!r}")
    seats = [(pos.leader + k) % n for k in range(len(pos.trick))]
    if [s for s, _ in pos.trick] != seats:
        raise ValueError(f"the current trick must be played in turn from the leader: {pos.trick!r}")
    left = pos.tricks_left
    sizes = [h.bit_count() + (1 if s in seats else 0) for s, h in enumerate(pos.hands)]
    if left < 1 or sizes != [left] * n:
        raise ValueError(f"every seat holds one card per trick left ({left}); got {sizes}")
    held = 0
    for h in pos.hands:
        if h & held or h >> NUM_CARDS:
            raise ValueError("hands overlap or hold a card id outside 0..51")
        held |= h
    if any(held >> c & 1 for _, c in pos.trick):
        raise ValueError("a card of the current trick is still in a hand")


@functools.lru_cache(maxsize=4096)
def _side_table(bids: tuple[int, ...], blind: tuple[bool, ...], tricks: tuple[int, ...], bags: int,
                bag_limit: int, bag_penalty: int, bag_cost: int, left: int) -> np.ndarray:
    extra = np.arange(left + 1)
    if len(bids) == 1:
        more = extra[:, None]
    else:
        more = np.stack(np.broadcast_arrays(extra[:, None], extra[None, :]), axis=-1)
    score = score_sides(np.asarray(bids), np.asarray(blind), np.asarray(tricks) + more, np.asarray(bags),
                        bag_limit, bag_penalty)
    total = score.priced(bag_cost).astype(np.int32)
    table = total if len(bids) == 2 else np.pad(total[:, None], ((0, 0), (0, left)))
    table.setflags(write=False)
    return table


def side_tables(pos: Position) -> np.ndarray:
    """``table[side, a, b]``: the hand points of ``side`` when its members take ``a`` and ``b`` more tricks (its
    carried bags priced at ``pos.bag_cost`` each).

    Entries with ``a + b`` above the tricks left are never read. In the
    two-player game a side is one seat and ``b`` is always 0.
    """
    left = pos.tricks_left
    out = np.zeros((2, TRICKS_PER_HAND + 1, TRICKS_PER_HAND + 1), np.int32)
    for side in (0, 1):
        seats = pos.members(side)
        table = _side_table(tuple(pos.bids[s] for s in seats), tuple(pos.blind[s] for s in seats),
                            tuple(pos.tricks[s] for s in seats), pos.bags[side], pos.bag_limit, pos.bag_penalty,
                            pos.bag_cost, left)
        out[side, :left + 1, :left + 1] = table
    return out


def interchangeable_members(pos: Position) -> np.ndarray:
    """Per side, 1 when its members' tricks count alike (no Nil bidder), so only their sum matters."""
    return np.array([int(all(pos.bids[s] > 0 for s in pos.members(side))) for side in (0, 1)], np.int64)


def standing_nils(pos: Position) -> list[int]:
    """The seats that bid Nil (or Blind Nil) and have taken no trick yet."""
    return [seat for seat in range(pos.num_players) if pos.bids[seat] == 0 and pos.tricks[seat] == 0]


def nil_stake_tables(pos: Position, seats: list[int]) -> np.ndarray:
    """Tables like :func:`side_tables` for the game whose only stakes are the standing Nils of ``seats``: each is
    worth its bonus in hundreds (Nil 1, Blind Nil 2) to its side when made and as much to the other side when set,
    tricks and bags nothing.

    It is what a defender or a partner playing only for the Nil maximises, and the solver searches it far faster
    than the hand's points: trick counts do not matter, only whether the Nil bidder takes one.
    """
    out = np.zeros((2, TRICKS_PER_HAND + 1, TRICKS_PER_HAND + 1), np.int32)
    for seat in seats:
        if not (pos.bids[seat] == 0 and pos.tricks[seat] == 0):
            raise ValueError(f"seat {seat} has no standing Nil: bids {pos.bids}, tricks {pos.tricks}")
        stake = (BLIND_NIL_BONUS if pos.blind[seat] else NIL_BONUS) // NIL_BONUS
        side, member = seat % 2, seat // 2
        made = np.full((TRICKS_PER_HAND + 1,) * 2, -stake, np.int32)
        if member == 0:
            made[0, :] = stake
        else:
            made[:, 0] = stake
        out[side] += made
    return out
