"""Determinization: sample full game states that one seat cannot tell from the real one.

Search over a game of hidden cards (perfect-information Monte Carlo, information-set MCTS) needs
three things from the engine, modelled on OpenSpiel's ``pyspiel.State`` API:

* :meth:`SpadesGame.clone() <spades_env.game.SpadesGame.clone>` (OpenSpiel ``State.clone``): an
  independent copy, cheap enough to take thousands per decision.
* :func:`resample` (``game.resample(seat, rng)``; OpenSpiel ``State.resample_from_infostate``):
  a complete, valid game state identical to the real one in everything ``seat`` knows, with the
  hidden cards dealt at random among the deals consistent with what the seat has seen. The result
  is an ordinary :class:`~spades_env.game.SpadesGame`: ``legal_actions()``, ``apply()``, playing
  to the end of the hand and scoring all work, and ``player_view(sample, seat) ==
  player_view(game, seat)``.
* :func:`information_state_key` (``game.information_state_key(seat)``; OpenSpiel
  ``State.information_state_string``): a string that is equal for two states exactly when the
  seat cannot tell them apart (it remembers everything it has seen; perfect recall). It is a key
  for tables and caches, not meant for reading.

What a seat knows (docs/rules.md): its own hand once it has looked; every bid, Blind Nil choice and
card played, and by whom (hence the suits each seat has shown out of, and that a seat leading a
spade before spades were broken held nothing else); the cards it passed to or
received from its partner in the four-player Blind Nil exchange (passed cards are seen by both
partners and by no one else); in the two-player draw, both cards of each of its own turns (the
card offered, its choice, the card kept or discarded), but of the opponent's turns only that they
happened; its own Blind Nil replacements (card put back, card drawn) and how many the opponent
made, not which (a replacement is seen to happen; ``PlayerView`` shows neither); scores, bags and
every earlier hand as it saw it.

How hidden cards are dealt. The engine's chance events are all uniform (the deal, the stock, the
replacement draws), and the hidden choices of other players are taken to carry no information
(the usual assumption of determinized search). Each hidden configuration is then weighted by the
number of hidden histories that lead to it, which is the same for every consistent deal except in
one case, so the sampler is **uniform over the deals consistent with the seat's information**:
each seat (or the two-player discard pile and stock) holds exactly as many hidden cards as it
publicly does, a seat holds no card of a suit it has shown out of, and every known card stays
where the seat knows it is. The one exception: in the two-player game, after an opponent's Blind
Nil replacements, cards I saw discarded may have been drawn back into the opponent's hand; the
sampler weighs "j of my discards are in the opponent's hand" by the probability the engine's
draw process gives it (uniform draws from the pile, put-backs uniform from the hand), which is
exact under the same assumption, rather than counting every such hand as one.

Sampling is exact: a fast path shuffles the hidden cards and rejects deals that break a void (a
bounded number of tries, taken only when a cheap estimate says they are likely to succeed), and
the exact sampler counts, by dynamic programming over groups of interchangeable cards (cards with
the same set of possible places, e.g. one suit), the deals of each group into the places that may
hold it (multinomial weights, exact Python integers), then draws group by group in proportion and
shuffles within the split. The tables are cached by the shape of the problem. Both paths are
uniform, so their mixture is too, and the path taken depends only on the position and the random
generator: the same position and seed always give the same sample.

The hidden past is rebuilt to fit the sampled deal, so that the hand record written at the end of
a resampled hand replays (:func:`spades_env.records.replay_hand`): the other seats' dealt hands,
the cards of a Blind Nil exchange the seat did not take part in, and in the two-player game the
whole stock order (the opponent's turns, the seat's own blind turns, the rest of the stock), the
opponent's keep/discard choices, the discards it saw, its hidden replacements and the discard
pile. These parts are *a* history consistent with the sample, not a uniformly drawn one (nothing
in the rules reads them once the hand is under way). Earlier hands' records are kept as they are.
The sample gets a fresh random generator drawn from ``rng``, so later deals (and replacement
draws) in it are independent of the real game's.

:func:`hidden_card_probabilities` gives the exact probability of each hidden card's whereabouts
under the same distribution (used by the tests; also a ready card-inference table for agents).
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from typing import TYPE_CHECKING

import numpy as np

from . import actions as A
from .cards import CARD_NAMES, FULL_DECK, NUM_CARDS, SPADES, SUIT_MASKS, SUIT_OF, cards_of
from .rules import check_engine

if TYPE_CHECKING:  # the game calls this module (SpadesGame.resample), so it is imported here for annotations only
    from .game import SpadesGame
    from .variant import Variant

PILE = "pile"  # the two-player discard pile
STOCK = "stock"  # the two-player stock
HAND_SIZE = NUM_CARDS // 4  # cards dealt to each of four players, or drawn by each of two
REJECTION_TRIES = 16  # shuffles tried before the exact sampler, when they look likely to succeed
MIN_ACCEPTANCE = 0.1  # below this estimated acceptance rate, go straight to the exact sampler
_CACHE_SIZE = 4096  # counting tables kept (by problem shape)
_ALL_BUT_SPADES = (1 << SPADES) - 1  # suits C, D, H as a void mask
_VOID_CARDS = tuple(sum(SUIT_MASKS[s] for s in range(4) if voids >> s & 1) for voids in range(16))
_CARD_IDS = {name: card for card, name in enumerate(CARD_NAMES)}

Where = int | str  # a seat, PILE or STOCK


# ============================================================ public API


def resample(game: SpadesGame, seat: int, rng: np.random.Generator | int | None = None,
             hands: Mapping[int, int] | None = None) -> SpadesGame:
    """A complete game state identical to ``game`` in everything ``seat`` knows, the hidden cards
    dealt at random among the consistent deals (see the module docstring). ``game`` is unchanged.
    A rule option the resampler does not honour is refused (:func:`spades_env.rules.check_engine`).

    ``hands`` ({seat: mask of the cards it holds now}) fixes those hands instead of drawing them, for
    an opponent model that draws them its own way; the other hidden cards are drawn given them. A hand
    that does not fit what ``seat`` knows raises :class:`NoConsistentDeal`. Not after a two-player
    opponent's Blind Nil replacements (where my discards may lie is then weighted, not counted)."""
    return Resampler(game, seat)(rng, hands)


class Resampler:
    """:func:`resample` for many draws from one position: what the seat knows is worked out once.

    Why: search draws a few dozen worlds per decision, and reading the seat's knowledge from the
    game (the cards played, shown voids, the hand sizes) cost as much as drawing the cards. ``game``
    must not change while the resampler is used (an information state's copy never does). A draw
    is exactly :func:`resample`'s with the same generator.
    """

    def __init__(self, game: SpadesGame, seat: int) -> None:
        check_engine(game.config, "resampler")
        self.game, self.seat = game, seat
        self._four = None if game.variant.drawn else (*_four_player_deal(game, seat), _pass_slots(game))

    def __call__(self, rng: np.random.Generator | int | None = None,
                 hands: Mapping[int, int] | None = None) -> SpadesGame:
        rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        new = self.game.clone()
        if self._four is None:
            _resample_two(self.game, new, self.seat, rng, hands or {})
        else:
            _resample_four(self.game, new, self.seat, rng, hands or {}, *self._four)
        new.seed_rng(int(rng.integers(2**63)))  # the future is hidden too
        return new


def information_state_key(game: SpadesGame, seat: int) -> str:
    """A key equal for two states exactly when ``seat`` cannot tell them apart (perfect recall).

    It lists the seat's observations: the rules, every earlier hand and the current one as the
    seat saw them (its dealt or drawn hand, each action with the hidden parts masked), and the
    card offered to it now in the two-player draw.
    """
    parts = [repr(game.config), f"seat {seat}"]
    for record in game.hand_records:
        parts.append(_record_observations(record, seat, game.variant))
    start_seen = game.stock_pos == NUM_CARDS if game.variant.drawn else game.looked[seat]
    parts.append(_hand_observations(
        seat, game.variant, game.dealer, game.start_hands[seat] if start_seen else None, game.actions,
        game.passes, game.stock, game.replacements))
    offered = game.offered if game.current_player == seat else None
    parts.append(f"hand {game.hand_number} scores {game.scores_before} bags {game.bags_before} "
                 f"{game.phase.name} to act {game.current_player} offered {offered}")
    return "|".join(parts)


def hidden_card_probabilities(game: SpadesGame, seat: int) -> dict[int, dict[Where, Fraction]]:
    """For each card whose place ``seat`` does not know: the exact probability of each place
    (a seat's hand, or PILE / STOCK in the two-player game) under :func:`resample`'s distribution."""
    check_engine(game.config, "resampler")
    deal = (_two_player_deal if game.variant.drawn else _four_player_deal)(game, seat)[0]
    return deal.probabilities()


# ============================================================ the exact sampler


NO_DEAL = "no deal of the hidden cards is consistent with what the seat has seen"


class NoConsistentDeal(ValueError):
    """No deal of the hidden cards fits what the seat knows (of one layout, or of every one)."""


@dataclass(frozen=True)
class Slot:
    """A place that holds ``size`` of the hidden cards, any of the cards in ``allowed``."""

    where: Where
    size: int
    allowed: int


@dataclass(frozen=True)
class HiddenDeal:
    """The hidden cards (a mask) and the places they may be: one or more slot layouts, each with
    a weight per consistent deal (one layout of weight 1 but for two-player replacements)."""

    unknown: int
    layouts: tuple[tuple[Fraction, tuple[Slot, ...]], ...]

    @cached_property
    def _problem(self) -> _Problem:
        """The one layout's problem, kept: search samples one deal many times (the cache hashes its key each time)."""
        return _Problem.of(self.unknown, self.layouts[0][1])

    def sample(self, rng: np.random.Generator) -> dict[Where, int]:
        """The hidden cards dealt into the places: place -> mask of its hidden cards."""
        if len(self.layouts) == 1:
            return self._problem.sample(rng)
        problems, weights = self._weighted()
        return problems[_choose(rng, _as_integers(weights))].sample(rng)

    def sample_given(self, hands: Mapping[Where, int], rng: np.random.Generator) -> dict[Where, int]:
        """As :meth:`sample`, with these places' hidden cards given (they must fit the places)."""
        if not hands:
            return self.sample(rng)
        if len(self.layouts) != 1:
            raise ValueError("hands cannot be given after the opponent's Blind Nil replacements")
        slots, given = self.layouts[0][1], 0
        missing = set(hands) - {slot.where for slot in slots}
        if missing:
            raise ValueError(f"no hidden cards to give at {sorted(map(str, missing))}")
        for slot in slots:
            cards = hands.get(slot.where, 0)
            fits = cards.bit_count() == slot.size and not cards & (given | ~(self.unknown & slot.allowed))
            if slot.where in hands and not fits:
                raise NoConsistentDeal(f"the {cards.bit_count()} cards given to {slot.where} do not fit the "
                                       f"{slot.size} hidden cards it holds")
            given |= cards
        rest = tuple(Slot(s.where, 0, s.allowed) if s.where in hands else s for s in slots)
        return {**_Problem.of(self.unknown & ~given, rest).sample(rng), **hands}

    def _weighted(self) -> tuple[list[_Problem], list[Fraction]]:
        """Each layout's problem and weight: its weight per deal times its consistent deals. A layout may
        have none (one that gives the opponent my discards when it may hold only spades, say): weight 0."""
        problems, weights = [], []
        for weight, slots in self.layouts:
            problems.append(_Problem.of(self.unknown, slots))
            try:
                weights.append(weight * problems[-1].ways().total)
            except NoConsistentDeal:
                weights.append(Fraction(0))
        if not any(weights):
            raise NoConsistentDeal(NO_DEAL)
        return problems, weights

    def probabilities(self) -> dict[int, dict[Where, Fraction]]:
        problems, weights = self._weighted()
        total = sum(weights)
        out: dict[int, dict[Where, Fraction]] = {c: defaultdict(Fraction) for c in cards_of(self.unknown)}
        for weight, problem in zip(weights, problems):
            if weight:
                for card, places in problem.probabilities().items():
                    for where, p in places.items():
                        out[card][where] += weight / total * p
        return {c: {where: p for where, p in places.items() if p} for c, places in out.items()}


@dataclass(frozen=True)
class _Problem:
    """Deal ``unknown`` into ``slots``: the slots that forbid some hidden card are *constrained*;
    the others are merged into one *free* slot (they are interchangeable) and split at the end."""

    cards: tuple[int, ...]  # the hidden cards, ascending
    slots: tuple[Slot, ...]  # every slot with room, in the given order
    constrained: tuple[int, ...]  # indexes into slots
    free: tuple[int, ...]
    groups: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]  # (cards, places): places index
    # constrained slots in order, then len(constrained) for the free slot
    shuffle_first: bool  # whether a few plain shuffles are likely to give a consistent deal

    @classmethod
    @lru_cache(maxsize=_CACHE_SIZE)  # search resamples one position many times
    def of(cls, unknown: int, slots: tuple[Slot, ...]) -> _Problem:
        slots = tuple(s for s in slots if s.size)
        if sum(s.size for s in slots) != unknown.bit_count():
            raise ValueError(f"{unknown.bit_count()} hidden cards for {sum(s.size for s in slots)} places")
        constrained = tuple(i for i, s in enumerate(slots) if unknown & ~s.allowed)
        free = tuple(i for i in range(len(slots)) if i not in constrained)
        by_places: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for card in cards_of(unknown):
            places = tuple(k for k, i in enumerate(constrained) if slots[i].allowed >> card & 1)
            places += (len(constrained),) if free else ()
            if not places:  # a card no place may hold (hands given that leave it to seats void in its suit)
                raise NoConsistentDeal(NO_DEAL)
            by_places[places].append(card)
        groups = tuple(sorted((tuple(cs), places) for places, cs in by_places.items()))
        return cls(tuple(cards_of(unknown)), slots, constrained, free, groups,
                   _likely_to_pass(unknown, [slots[i] for i in constrained]))

    def capacities(self) -> tuple[int, ...]:
        return tuple(self.slots[i].size for i in self.constrained) + \
            ((sum(self.slots[i].size for i in self.free),) if self.free else ())

    def ways(self) -> _Ways:
        return _ways(tuple((len(cs), places) for cs, places in self.groups), self.capacities())

    def sample(self, rng: np.random.Generator) -> dict[Where, int]:
        """A uniformly random consistent deal: place -> mask of its hidden cards."""
        if self.shuffle_first:
            forbidden = self._forbidden
            for _ in range(REJECTION_TRIES):
                dealt = self._deal_shuffled(rng)
                if not any(dealt[i] & cards for i, cards in forbidden):
                    return self._by_place(dealt)
        return self._by_place(self._deal_exactly(rng))

    # Search draws many worlds of one problem: what each draw reads is worked out once.
    @cached_property
    def _forbidden(self) -> tuple[tuple[int, int], ...]:
        """(slot index, the hidden cards it may not hold) of each constrained slot."""
        unknown = _mask(self.cards)
        return tuple((i, unknown & ~self.slots[i].allowed) for i in self.constrained)

    @cached_property
    def _bits(self) -> tuple[int, ...]:
        """Each hidden card's bit, in the order of ``cards``."""
        return tuple(1 << card for card in self.cards)

    @cached_property
    def _cuts(self) -> tuple[tuple[int, int], ...]:
        """Each slot's span of a shuffled deal, in slot order."""
        ends = tuple(itertools.accumulate(slot.size for slot in self.slots))
        return tuple(zip((0,) + ends, ends))

    @cached_property
    def _counts(self) -> _Ways:
        return self.ways()

    def _deal_shuffled(self, rng: np.random.Generator) -> list[int]:
        """The hidden cards shuffled and dealt in slot order, constraints unchecked."""
        order, bits = rng.permutation(len(self.cards)).tolist(), self._bits
        return [sum(map(bits.__getitem__, order[start:end])) for start, end in self._cuts]

    def _deal_exactly(self, rng: np.random.Generator) -> list[int]:
        """Draw how many cards of each group go to each place (by the counts), then which ones."""
        dealt = [0] * len(self.slots)
        free_cards: list[int] = []
        for (cards, places), split in zip(self.groups, self._counts.sample(rng)):
            order, start = _shuffled(cards, rng), 0
            for place, count in zip(places, split):
                chunk, start = order[start:start + count], start + count
                if place == len(self.constrained):
                    free_cards += chunk
                else:
                    dealt[self.constrained[place]] |= _mask(chunk)
        for i, mask in zip(self.free, self._split(_shuffled(free_cards, rng), self.free)):
            dealt[i] = mask
        return dealt

    def _split(self, cards: list[int], slots) -> list[int]:
        """``cards`` cut into consecutive hands for the slots listed, by their sizes."""
        out, start = [], 0
        for i in slots:
            out.append(_mask(cards[start:start + self.slots[i].size]))
            start += self.slots[i].size
        return out

    def _by_place(self, dealt: list[int]) -> dict[Where, int]:
        out: dict[Where, int] = {}
        for slot, mask in zip(self.slots, dealt):
            out[slot.where] = out.get(slot.where, 0) | mask
        return out

    def probabilities(self) -> dict[int, dict[Where, Fraction]]:
        """Exact probability of each hidden card in each place (slots of one place added)."""
        expected = self.ways().expected_counts()
        free_size = sum(self.slots[i].size for i in self.free)
        out: dict[int, dict[Where, Fraction]] = {}
        for (cards, places), counts in zip(self.groups, expected):
            share: dict[Where, Fraction] = defaultdict(Fraction)
            for place, count in zip(places, counts):
                p = count / len(cards)
                if place < len(self.constrained):
                    share[self.slots[self.constrained[place]].where] += p
                else:
                    for i in self.free:
                        share[self.slots[i].where] += p * Fraction(self.slots[i].size, free_size)
            for card in cards:
                out[card] = dict(share)
        return out


class _Ways:
    """Exact counts of the deals of groups of interchangeable cards into places.

    ``groups[g] = (n, places)``: ``n`` cards that may go to any of ``places``; ``count(g, caps)``
    is the number of ways to deal groups ``g, g+1, ...`` so that place ``i`` receives exactly
    ``caps[i]`` cards (memoized: the table is filled on demand and kept with the problem shape).
    """

    def __init__(self, groups: tuple[tuple[int, tuple[int, ...]], ...], caps: tuple[int, ...]) -> None:
        self.groups, self.caps = groups, caps
        # reach[g][i]: cards of groups g.. that may still go to place i (to prune dead ends)
        self.reach = [[sum(n for n, places in groups[g:] if i in places) for i in range(len(caps))]
                      for g in range(len(groups) + 1)]
        self._draws: dict[tuple[int, tuple[int, ...]], tuple[list, list, list[int]]] = {}
        self.total = self.count(0, caps)
        if not self.total:
            raise NoConsistentDeal(NO_DEAL)

    def count(self, g: int, caps: tuple[int, ...]) -> int:
        if g == len(self.groups):
            return 1
        cumulative = self.draws(g, caps)[2]
        return cumulative[-1] if cumulative else 0

    def splits(self, g: int, caps: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Each way to divide group ``g``'s cards among its places, with the capacities left after
        (skipping those that leave a place more room than the later groups can fill), in ascending order
        of the split."""
        n, places = self.groups[g]
        reach, rest, last = self.reach[g + 1], list(caps), len(places) - 1
        split, out = [0] * len(places), []

        def divide(k: int, left: int) -> None:
            place = places[k]
            room = rest[place]
            if k == last:
                if left <= room and room - left <= reach[place]:
                    split[k], rest[place] = left, room - left
                    out.append((tuple(split), tuple(rest)))
                    rest[place] = room
                return
            for x in range(max(0, room - reach[place]), min(left, room) + 1):
                split[k], rest[place] = x, room - x
                divide(k + 1, left - x)
            rest[place] = room

        divide(0, n)
        return out

    def sample(self, rng: np.random.Generator) -> list[tuple[int, ...]]:
        """A split for each group, drawn with probability proportional to the deals it allows."""
        caps, out = self.caps, []
        for g in range(len(self.groups)):
            splits, rests, cumulative = self.draws(g, caps)
            k = bisect.bisect_right(cumulative, _below(rng, cumulative[-1]))
            out.append(splits[k])
            caps = rests[k]
        return out

    def draws(self, g: int, caps: tuple[int, ...]) -> tuple[list, list, list[int]]:
        """Group ``g``'s splits from ``caps``, the capacities each leaves and the running sums of the deals they
        allow, the last the count of them all (memoized: the counts recurse through it, and a search draws many
        worlds of one problem, each the same walk)."""
        key = (g, caps)
        if key not in self._draws:
            n = self.groups[g][0]
            pairs = list(self.splits(g, caps))
            weights = (_multinomial(n, split) * self.count(g + 1, rest) for split, rest in pairs)
            self._draws[key] = [p[0] for p in pairs], [p[1] for p in pairs], list(itertools.accumulate(weights))
        return self._draws[key]

    def expected_counts(self) -> list[list[Fraction]]:
        """For each group, the expected number of its cards in each of its places."""
        forward = {self.caps: 1}  # deals of the groups before g reaching these capacities
        out = []
        for g, (n, places) in enumerate(self.groups):
            sums = [0] * len(places)
            ahead: dict[tuple[int, ...], int] = defaultdict(int)
            for caps, before in forward.items():
                for split, rest in self.splits(g, caps):
                    ways = before * _multinomial(n, split)
                    ahead[rest] += ways
                    after = ways * self.count(g + 1, rest)
                    for k, x in enumerate(split):
                        sums[k] += after * x
            out.append([Fraction(s, self.total) for s in sums])
            forward = ahead
        return out


def _likely_to_pass(unknown: int, constrained: list[Slot]) -> bool:
    """Whether a shuffle is likely to respect every constraint: the chance for each slot that a
    random hand of its size avoids the cards it may not hold, multiplied as if independent."""
    n, estimate = unknown.bit_count(), 1.0
    for slot in constrained:
        estimate *= math.comb((slot.allowed & unknown).bit_count(), slot.size) / math.comb(n, slot.size)
    return estimate >= MIN_ACCEPTANCE


@cache
def _factorial(n: int) -> int:
    return math.factorial(n)


def _multinomial(n: int, split: tuple[int, ...]) -> int:
    out = _factorial(n)
    for x in split:
        out //= _factorial(x)
    return out


_WAYS: dict[tuple, _Ways] = {}


def _ways(groups: tuple[tuple[int, tuple[int, ...]], ...], caps: tuple[int, ...]) -> _Ways:
    key = (groups, caps)
    ways = _WAYS.get(key)
    if ways is None:
        if len(_WAYS) >= _CACHE_SIZE:
            _WAYS.clear()
        ways = _WAYS[key] = _Ways(groups, caps)
    return ways


def _below(rng: np.random.Generator, n: int) -> int:
    """A uniform integer in ``[0, n)``, exact for integers of any size."""
    if n <= 1 << 62:
        return int(rng.integers(n))
    bits = n.bit_length()
    while True:
        x = int.from_bytes(rng.bytes((bits + 7) // 8), "little") & ((1 << bits) - 1)
        if x < n:
            return x


def _choose(rng: np.random.Generator, weights: list[int]) -> int:
    u = _below(rng, sum(weights))
    for i, w in enumerate(weights):
        if u < w:
            return i
        u -= w
    raise AssertionError("unreachable")


def _as_integers(weights: list[Fraction]) -> list[int]:
    scale = math.lcm(*(Fraction(w).denominator for w in weights))
    return [int(w * scale) for w in weights]


def _shuffled(cards, rng: np.random.Generator) -> list[int]:
    cards = list(cards)
    return [cards[i] for i in rng.permutation(len(cards)).tolist()]


def _mask(cards) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def _pick(mask: int, count: int, rng: np.random.Generator) -> int:
    """``count`` cards of ``mask`` chosen uniformly at random, as a mask."""
    return _mask(_shuffled(cards_of(mask), rng)[:count])


def _void_cards(voids: int) -> int:
    """The cards of the suits in a 4-bit void mask."""
    return _VOID_CARDS[voids]


def _shown_voids(game: SpadesGame) -> list[int]:
    """The suits each seat is known to lack (4-bit masks): those it failed to follow, and, for a
    seat that led a spade before spades were broken, every other suit (it held nothing else)."""
    voids, n, broken = list(game.voids), game.num_players, False
    for i, (player, card) in enumerate(game.plays):
        spade = SUIT_OF[card] == SPADES
        if i % n == 0 and spade and not broken:
            voids[player] |= _ALL_BUT_SPADES
        broken = broken or spade
    return voids


# ============================================================ four players


def _four_player_deal(game: SpadesGame, seat: int) -> tuple[HiddenDeal, list[int]]:
    """The hidden cards of a four-player position, and the cards the seat knows each hand holds
    (its own once looked; the cards it passed to its partner that are neither played nor back)."""
    played = game.played[0] | game.played[1] | game.played[2] | game.played[3]
    looked = game.looked[seat]
    known = [0] * 4
    known[seat] = game.hands[seat] if looked else 0
    passed = _mask(card for giver, _, card in game.passes if giver == seat)
    partner = game.partner(seat)
    known[partner] = passed & ~known[seat] & ~played
    unknown = FULL_DECK & ~played & ~known[seat] & ~known[partner]
    size, voids = _four_player_hand_sizes(game), _shown_voids(game)
    slots = tuple(Slot(p, size[p] - known[p].bit_count(), FULL_DECK & ~_void_cards(voids[p]))
                  for p in range(4) if p != seat or not looked)
    return HiddenDeal(unknown, ((Fraction(1), slots),)), known


def _four_player_hand_sizes(game: SpadesGame) -> list[int]:
    """How many cards each seat holds, from public facts only (cards played, cards passed)."""
    size = [HAND_SIZE - game.played[p].bit_count() for p in range(4)]
    for giver, receiver, _ in game.passes:
        size[giver] -= 1
        size[receiver] += 1
    return size


def _pass_slots(game: SpadesGame) -> tuple[int, ...]:
    """Where in ``game.actions`` the Blind Nil exchange's passes are: its first card actions, one per pass."""
    if not game.passes:  # most positions: no exchange, nothing to scan
        return ()
    cards = (i for i, (_, action) in enumerate(game.actions) if A.is_card(action))
    return tuple(itertools.islice(cards, len(game.passes)))


def _resample_four(game: SpadesGame, new: SpadesGame, seat: int, rng: np.random.Generator,
                   hands: Mapping[int, int], deal: HiddenDeal, known: list[int], pass_slots: tuple[int, ...]) -> None:
    if any(known[p] & ~hand for p, hand in hands.items()):
        raise NoConsistentDeal("a hand given lacks a card the seat knows it holds")
    dealt = deal.sample_given({p: hand & ~known[p] for p, hand in hands.items()}, rng)
    new.hands = [known[p] | dealt.get(p, 0) for p in range(4)]
    # Undo the Blind Nil exchange from the last pass back, to find the dealt hands; a pass the seat
    # did not see gets a card the receiver holds at that point (any such card explains the deal).
    held = [new.hands[p] | game.played[p] for p in range(4)]
    passes = list(game.passes)
    for i in range(len(passes) - 1, -1, -1):
        giver, receiver, card = passes[i]
        if seat not in (giver, receiver):
            options = cards_of(held[receiver])
            card = options[int(rng.integers(len(options)))]
            passes[i] = (giver, receiver, card)
        held[receiver] &= ~(1 << card)
        held[giver] |= 1 << card
    new.start_hands = tuple(held)
    if passes:
        new.passes = passes
        for (giver, _, card), i in zip(passes, pass_slots):
            new.actions[i] = (giver, card)


# ============================================================ two players


def _turns(game: SpadesGame, player: int) -> list[int]:
    """The draw turns ``player`` has taken this hand (turn t took stock cards 2t and 2t+1)."""
    return [t for t in range(game.stock_pos // 2) if (game.dealer + t) % 2 == player]


def _offered_to(game: SpadesGame, seat: int) -> int | None:
    return game.offered if game.current_player == seat else None


def _two_player_deal(game: SpadesGame, seat: int) -> tuple[HiddenDeal, int]:
    """The hidden cards of a two-player position, and how many replacements the opponent made."""
    opp = 1 - seat
    played = game.played[0] | game.played[1]
    mine = game.hands[seat] if game.looked[seat] else 0
    offered = _offered_to(game, seat)
    seen = game.discards[seat]  # cards I saw discarded, or put back myself
    unknown = FULL_DECK & ~(mine | played | seen | (0 if offered is None else 1 << offered))
    draw_over = game.stock_pos == NUM_CARDS
    hands = [Slot(opp, HAND_SIZE - game.played[opp].bit_count() if draw_over else len(_turns(game, opp)),
                  FULL_DECK & ~_void_cards(_shown_voids(game)[opp]))]
    if not game.looked[seat]:
        hands.append(Slot(seat, len(_turns(game, seat)), FULL_DECK))
    stock = Slot(STOCK, NUM_CARDS - game.stock_pos - (offered is not None), FULL_DECK)
    in_pile = seen & ~mine & ~played  # where I last saw them
    taken = sum(p == opp for p, _, _ in game.replacements)
    my_put_backs = _mask(card for p, card, _ in game.replacements if p == seat)
    maybe_taken = in_pile & ~my_put_backs if taken else 0  # my discards the opponent may have drawn
    hidden_pile = game.discard_pile.bit_count() - (in_pile & ~maybe_taken).bit_count()
    if not maybe_taken:
        return HiddenDeal(unknown, ((Fraction(1), (*hands, Slot(PILE, hidden_pile, FULL_DECK), stock)),)), taken
    taken_played = (game.played[opp] & seen).bit_count()
    n_maybe = maybe_taken.bit_count()
    odds = _draw_back_odds(taken, n_maybe + taken_played)
    layouts = tuple((odds[more + taken_played],
                     (*hands, Slot(PILE, n_maybe - more, maybe_taken),
                      Slot(PILE, hidden_pile - n_maybe + more, FULL_DECK & ~maybe_taken), stock))
                    for more in range(min(taken - taken_played, n_maybe, hands[0].size) + 1))
    return HiddenDeal(unknown | maybe_taken, layouts), taken


@cache
def _draw_back_odds(replacements: int, seen: int) -> tuple[Fraction, ...]:
    """The weight of one opponent hand holding ``j`` of my ``seen`` discards after its
    ``replacements`` Blind Nil replacements (j = 0, 1, ...): the chance that the engine's draws
    leave j of them in its hand, divided by the number of hands with j of them.

    The opponent drew its hand blind (13 cards of the 26 I never saw); each replacement puts back
    a card of its hand (uniformly, for want of knowing its choice) and draws uniformly from the
    discard pile less the cards put back (the engine's rule), which starts as my ``seen`` discards
    and its own.
    """
    hand, pool, unseen = HAND_SIZE, NUM_CARDS - 2 * HAND_SIZE, NUM_CARDS - HAND_SIZE - seen
    chance = {(0, 0): Fraction(1)}  # (my discards in its hand, my discards drawn so far) -> probability
    for step in range(replacements):
        after: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        for (held, drawn), p in chance.items():
            p_seen = Fraction(seen - drawn, pool - step)
            for back, p_back in ((1, Fraction(held, hand)), (0, Fraction(hand - held, hand))):
                for got, p_got in ((1, p_seen), (0, 1 - p_seen)):
                    if p_back and p_got:
                        after[held - back + got, drawn + got] += p * p_back * p_got
        chance = after
    by_count = [Fraction(0)] * (replacements + 1)
    for (held, _), p in chance.items():
        by_count[held] += p
    return tuple(p / (math.comb(seen, j) * math.comb(unseen, hand - j)) for j, p in enumerate(by_count))


def _resample_two(game: SpadesGame, new: SpadesGame, seat: int, rng: np.random.Generator,
                  hands: Mapping[int, int]) -> None:
    opp = 1 - seat
    deal, taken = _two_player_deal(game, seat)
    dealt = deal.sample_given(hands, rng)
    if not game.looked[seat]:
        new.hands[seat] = dealt.get(seat, 0)
    new.hands[opp] = dealt.get(opp, 0)
    # The opponent's replacements: it drew back the discards of mine it now holds, and cards of its
    # own hand otherwise; it put back hidden cards that are now in the pile.
    seen, final = game.discards[seat], new.hands[opp] | game.played[opp]
    back = final & seen
    drawn = _shuffled(cards_of(back | _pick(final & ~seen, taken - back.bit_count(), rng)), rng)
    put = _shuffled(cards_of(_pick(dealt.get(PILE, 0) & ~seen, taken, rng)), rng)
    opp_kept = final & ~_mask(drawn) | _mask(put)  # its hand when the stock ran out (or so far)
    my_kept = game.start_hands[seat] if game.stock_pos == NUM_CARDS else new.hands[seat]
    offered = _offered_to(game, seat)
    stock_rest = ([] if offered is None else [offered]) + _shuffled(cards_of(dealt.get(STOCK, 0)), rng)
    drops = FULL_DECK & ~my_kept & ~opp_kept & ~_mask(stock_rest)
    opp_drops = _rebuild_stock(game, new, seat, rng, opp_kept, my_kept, drops, stock_rest)
    pairs = iter(zip(put, drawn))
    new.replacements = [(p, *next(pairs)) if p == opp else (p, c, d) for p, c, d in game.replacements]
    pile, returned = drops, 0
    for _, put_back, drew in new.replacements:
        pile = pile & ~(1 << drew) | 1 << put_back
        returned |= 1 << put_back
    assert pile.bit_count() == game.discard_pile.bit_count(), "the rebuilt discard pile has the wrong size"
    new.discard_pile, new.returned = pile, returned
    new.discards[opp] = (0 if game.blind[opp] else _mask(opp_drops)) | _mask(put)
    if game.stock_pos == NUM_CARDS:
        new.start_hands = (my_kept, opp_kept) if seat == 0 else (opp_kept, my_kept)
    replaced = 0  # the first card actions of the hand are the replacements, in order
    for i, (player, action) in enumerate(game.actions):
        if A.is_card(action) and replaced < len(game.replacements):
            if player == opp:
                new.actions[i] = (player, new.replacements[replaced][1])
            replaced += 1


def _rebuild_stock(game: SpadesGame, new: SpadesGame, seat: int, rng: np.random.Generator,
                   opp_kept: int, my_kept: int, drops: int, stock_rest: list[int]) -> list[int]:
    """Lay out a stock that deals the sampled hands: the seat's own seen turns as they were, its
    blind turns and the opponent's turns from the sampled cards (the opponent's keep or discard
    choice at random, as it is hidden), then the rest of the stock. Returns the opponent's drops."""
    opp = 1 - seat
    opp_turns, my_turns = _turns(game, opp), _turns(game, seat)
    hidden_drops = _shuffled(cards_of(drops & ~(0 if game.blind[seat] else game.discards[seat])), rng)
    opp_drops, my_blind_drops = hidden_drops[:len(opp_turns)], hidden_drops[len(opp_turns):]
    stock = list(game.stock)
    if game.blind[seat]:
        assert len(my_blind_drops) == len(my_turns), "the seat's blind discards do not fit its turns"
        for t, kept, drop in zip(my_turns, _shuffled(cards_of(my_kept), rng), my_blind_drops):
            stock[2 * t], stock[2 * t + 1] = kept, drop
    keeps = [True] * len(opp_turns) if game.blind[opp] else (rng.integers(2, size=len(opp_turns)) == 1).tolist()
    for t, kept, drop, keep in zip(opp_turns, _shuffled(cards_of(opp_kept), rng), opp_drops, keeps):
        stock[2 * t], stock[2 * t + 1] = (kept, drop) if keep else (drop, kept)
    stock[game.stock_pos:] = stock_rest
    new.stock = stock
    choices = iter(A.KEEP if keep else A.DISCARD for keep in keeps)
    for i, (player, action) in enumerate(game.actions):
        if player == opp and action in (A.KEEP, A.DISCARD):
            new.actions[i] = (player, next(choices))
    return opp_drops


# ============================================================ information state


def _hand_observations(seat: int, variant: Variant, dealer: int, start: int | None, actions, passes, stock,
                       replacements) -> str:
    """One hand as ``seat`` saw it: its dealt (four players) or drawn (two) hand once it looked,
    and every action, with what it could not see masked."""
    out = [f"dealer {dealer} start {'?' if start is None else start}"]
    exchanged = variant.blind_nil_exchange == "pass"
    secret = passes if exchanged else replacements  # the first card actions of a hand are these
    cards = my_draws = 0
    for player, action in actions:
        if A.is_card(action) and cards < len(secret):
            if exchanged:
                giver, receiver, card = secret[cards]
                out.append(f"{giver}>{receiver}:{card if seat in (giver, receiver) else '?'}")
            else:
                _, put, drawn = secret[cards]
                out.append(f"{player}:{put}>{drawn}" if player == seat else f"{player}:replace")
            cards += 1
        elif action in (A.KEEP, A.DISCARD) and variant.drawn:
            if player == seat:
                t = 2 * my_draws + (seat - dealer) % 2
                out.append(f"{player}:{action}:{stock[2 * t]},{stock[2 * t + 1]}")
                my_draws += 1
            else:
                out.append(f"{player}:draw")
        else:
            out.append(f"{player}:{action}")
    return " ".join(out)


def _record_observations(record: dict, seat: int, variant: Variant) -> str:
    """An earlier hand, from its record, as ``seat`` saw it."""
    ids = _CARD_IDS
    return _hand_observations(
        seat, variant, record["dealer"], _mask(ids[c] for c in record["hands"][seat]), record["actions"],
        [(g, r, ids[c]) for g, r, c in record["passes"]], [ids[c] for c in record["stock"]],
        [(p, ids[c], ids[d]) for p, c, d in record["replacements"]]) + f" scores {record['scores']}"
