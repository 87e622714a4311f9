"""The per-player information set: what a human at that seat knows, never more.

Heuristic and search agents read a :class:`PlayerView`; neural agents read
the observation vector. Both are views of the same :class:`SpadesGame`.
Search also needs the seat's :class:`InformationState`: the view bound to
the game, to draw the hidden cards (OpenSpiel's ``resample_from_infostate``).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .cards import NUM_CARDS, cards_of
from .determinize import Resampler, Where, hidden_card_probabilities, information_state_key
from .game import CompletedTrick, Phase, SpadesConfig, SpadesGame

__all__ = ["CompletedTrick", "InformationState", "PlayerView", "player_view"]


class InformationState:
    """What one seat knows of a game, bound to a copy of that game (OpenSpiel's information state).

    The copy holds the hidden cards too: :meth:`resample` needs the position, and it returns only
    games the seat cannot tell from this one. An agent reads the view and resamples; reading the
    copy's hidden cards would be cheating (in-process agents are trusted, as OpenSpiel's bots are).
    """

    __slots__ = ("seat", "_game", "_resampler")

    def __init__(self, game: SpadesGame, seat: int) -> None:
        self.seat = seat
        self._game = game.clone()
        self._resampler: Resampler | None = None  # made at the first draw (the copy never changes)

    @property
    def view(self) -> PlayerView:
        return player_view(self._game, self.seat)

    @property
    def key(self) -> str:
        """Equal for exactly the states the seat cannot tell apart (:func:`~.determinize.information_state_key`)."""
        return information_state_key(self._game, self.seat)

    def resample(self, rng: np.random.Generator | int | None = None,
                 hands: Mapping[int, int] | None = None) -> SpadesGame:
        """A full game the seat cannot tell from this one, the hidden cards dealt uniformly among the
        consistent deals, or given those ``hands`` (:func:`~.determinize.resample`)."""
        if self._resampler is None:
            self._resampler = Resampler(self._game, self.seat)
        return self._resampler(rng, hands)

    def hidden_card_probabilities(self) -> dict[int, dict[Where, Fraction]]:
        """Each hidden card's exact probability of each place (:func:`~.determinize.hidden_card_probabilities`)."""
        return hidden_card_probabilities(self._game, self.seat)


@dataclass(frozen=True)
class PlayerView:
    seat: int
    num_players: int
    config: SpadesConfig
    phase: Phase
    to_act: int | None  # seat to act, None when the game is over
    legal_actions: tuple[int, ...]  # legal ids when this seat is to act, else ()
    looked: bool  # False while the hand is hidden (Blind Nil decision pending)
    hand: tuple[int, ...]  # my cards (empty until looked)
    dealer: int  # dealer (four players) or first drawer (two players)
    bids: tuple[int | None, ...]  # per seat; 0 = Nil
    blind: tuple[bool, ...]  # per seat: the bid was Blind Nil
    tricks_won: tuple[int, ...]  # tricks taken this hand, per seat
    trick: tuple[tuple[int, int], ...]  # current trick: (seat, card) in play order
    leader: int  # seat that leads (led) the current trick
    plays: tuple[tuple[int, int], ...]  # every card played this hand, (seat, card) in order
    completed_tricks: tuple[CompletedTrick, ...]  # the finished tricks of this hand, in order
    voids: tuple[frozenset[int], ...]  # suits each seat has shown out of
    spades_broken: bool
    passed: tuple[int, ...]  # cards I passed to my partner
    received: tuple[int, ...]  # cards my partner passed to me
    side: int  # my side (partnership 0/1, or my seat in the two-player game)
    partner: int | None
    scores: tuple[int, int]  # running scores per side
    bags: tuple[int, int]  # bags carried per side
    hand_number: int  # hands completed before this one
    # Two-player draw: the card offered to me now, discarded cards I have seen or put back, my
    # Blind Nil replacements as (card put back, card drawn), and what is left in the stock.
    offered: int | None = None
    discarded: tuple[int, ...] = ()
    replacements: tuple[tuple[int, int], ...] = ()
    stock_left: int = 0
    discard_pile_size: int = 0
    # Bound only for agents that ask for it (needs_infostate); not part of what the view compares.
    infostate: InformationState | None = field(default=None, compare=False, repr=False)

    @property
    def tricks(self) -> tuple[int, ...]:
        """Deprecated name of :attr:`tricks_won` (it read as "the tricks played")."""
        warnings.warn("PlayerView.tricks is deprecated: use tricks_won (or completed_tricks for the tricks "
                      "themselves)", DeprecationWarning, stacklevel=2)
        return self.tricks_won


# [mask]: the suits of a 4-bit void mask, as the view gives them.
_SUITS_OF_MASK = tuple(frozenset(s for s in range(4) if mask >> s & 1) for mask in range(16))


def _new_view(fields: dict) -> PlayerView:
    """A :class:`PlayerView` from a value for every field, without the dataclass ``__init__``: its 30-odd
    keyword arguments, each set through the frozen ``object.__setattr__``, cost a third of a view, and
    a view is built at every decision of every agent that reads one. The result is the same frozen
    dataclass (equality, hash and repr come from the fields); ``tests/test_view.py`` checks that the
    fields given are exactly the dataclass's."""
    view = object.__new__(PlayerView)
    view.__dict__.update(fields)
    return view


def player_view(game: SpadesGame, seat: int, infostate: bool = False) -> PlayerView:
    """What ``seat`` knows of ``game`` now; ``infostate=True`` binds its :class:`InformationState`."""
    over = game.phase == Phase.GAME_OVER
    looked = game.looked[seat]
    n = game.num_players
    return _new_view(dict(
        seat=seat,
        num_players=n,
        config=game.config,
        phase=game.phase,
        to_act=None if over else game.current_player,
        legal_actions=tuple(game.legal_actions()) if not over and game.current_player == seat else (),
        looked=looked,
        hand=tuple(cards_of(game.hands[seat])) if looked else (),
        dealer=game.dealer,
        bids=tuple(game.bids),
        blind=tuple(game.blind),
        tricks_won=tuple(game.tricks),
        trick=tuple(game.trick),
        leader=game.leader,
        plays=tuple(game.plays),
        completed_tricks=game.completed_tricks,
        voids=tuple(_SUITS_OF_MASK[mask] for mask in game.voids),
        spades_broken=game.spades_broken,
        passed=tuple(c for g, _, c in game.passes if g == seat),
        received=tuple(c for _, r, c in game.passes if r == seat),
        side=game.side_of[seat],
        partner=game.partner(seat),
        scores=(game.scores[0], game.scores[1]),
        bags=(game.bags[0], game.bags[1]),
        hand_number=game.hand_number,
        offered=game.offered if game.current_player == seat else None,
        discarded=tuple(cards_of(game.discards[seat])),
        replacements=tuple((c, d) for p, c, d in game.replacements if p == seat),
        stock_left=NUM_CARDS - game.stock_pos,
        discard_pile_size=game.discard_pile.bit_count(),
        infostate=InformationState(game, seat) if infostate else None,
    ))
