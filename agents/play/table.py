"""Who sits where, in words: seats and sides named from the person's seat, and the texts that
``spades play`` and ``spades replay`` both print (a hand's result, the game's result)."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from spades_env.game import SpadesGame
from spades_env.render import SEAT_NAMES, bid_text, render_hand_result

from .style import current


def cards_text(cards: Iterable[int]) -> str:
    """Cards as text (in the terminal's style, :mod:`.style`), spades first and high to low, as the hand is shown.

    Card ids run suit by suit (clubs to spades), low to high within a suit, so that order is the
    ids' descending order.
    """
    return current().cards(cards)


def plural(count: int, noun: str) -> str:
    """``"1 bag"``, ``"2 bags"``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


@dataclass(frozen=True)
class Table:
    """The seats and sides of a variant, named as the person at ``seat`` sees them.

    ``seat=None`` names them for an onlooker (``spades replay``): nobody is "you".
    """

    num_players: int
    seat: int | None
    members: tuple[tuple[int, ...], ...]  # the seats of each side
    side_of: tuple[int, ...]
    partner: int | None

    @property
    def names(self) -> tuple[str, ...]:
        return SEAT_NAMES[self.num_players]

    @property
    def labels(self) -> list[str]:
        """Each seat's name, with "(you)" and "(partner)" where they apply."""
        return [self.label(p) for p in range(self.num_players)]

    def label(self, p: int) -> str:
        if p == self.seat:
            return f"{self.names[p]} (you)"
        if p == self.partner:
            return f"{self.names[p]} (partner)"
        return self.names[p]

    def who(self, p: int) -> str:
        return "You" if p == self.seat else self.names[p]

    def verb(self, p: int, verb: str) -> str:
        """``"You play"`` / ``"East plays"``."""
        return f"{self.who(p)} {verb if p == self.seat else verb + 's'}"

    def side_label(self, side: int) -> str:
        """``"North+South (you)"``."""
        members = self.members[side]
        label = "+".join(self.names[m] for m in members)
        return label + (" (you)" if self.seat in members else "")

    def scores_text(self, scores, bags) -> str:
        """Each side's score and bags: ``"North+South (you): 121 pts, 1 bag | East+West: 82 pts, 2 bags"``."""
        return " | ".join(f"{self.side_label(s)}: {scores[s]} pts, {plural(bags[s], 'bag')}" for s in range(2))

    def tricks_text(self, tricks) -> str:
        """The tricks each side has taken, from the tricks per seat: ``"North+South (you) 2 · East+West 1"``."""
        return " · ".join(f"{self.side_label(s)} {sum(tricks[m] for m in self.members[s])}" for s in range(2))

    def opponents(self) -> list[int]:
        return [p for p in range(self.num_players) if self.side_of[p] != self.side_of[self.seat]]

    def hand_summary(self, record: dict) -> str:
        """What each seat bid and took, which seats make each side, and the score breakdown of a hand record."""
        n = record["num_players"]
        took = " · ".join(f"{self.names[p]} bid {bid_text(record['bids'][p], record['blind_nil'][p])}, "
                          f"took {record['tricks'][p]}" for p in range(n))
        sides = ", ".join(f"side {s} = {self.side_label(s)}" for s in range(2))
        return f"{took}.\n({sides})\n{render_hand_result(record)}"

    def result_text(self, hands: int, scores, winner: int | None, truncated: bool) -> str:
        """The end of the game in one line (after an empty one)."""
        after = f"after {plural(hands, 'hand')}"
        points = f"{scores[0]} to {scores[1]}"
        if winner is not None:
            return f"\nGame over {after}: {self.side_label(winner)} won the game, {points}."
        if truncated:
            return f"\nGame stopped {after} (max_hands) without a winner: {points}."
        return f"\nGame over {after}: a tie, {points}."


@functools.cache
def table(num_players: int, seat: int | None = None) -> Table:
    """The :class:`Table` of a variant, with the sides as the engine defines them."""
    game = SpadesGame(num_players=num_players)
    partner = None if seat is None else game.partner(seat)
    return Table(num_players, seat, game.members, game.side_of, partner)
