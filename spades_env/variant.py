"""What differs between the two variants, stated once: the engines, encoders and renderers read a
:class:`Variant` instead of branching on the number of players.

* Four players (partnership Spades): two sides of two partners sitting opposite, 13 cards dealt to
  each, the seat after the dealer bids first; a Blind Nil bidder and the partner exchange three cards
  each way after the bidding.
* Two players: one player a side, the hands drawn from a stock (the first drawer draws first, the
  other seat bids first); a Blind Nil bidder draws unseen and may then replace up to three cards
  with the stock.

Either way the seat after the dealer (the first drawer) bids first and leads the first trick
(``docs/rules.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Variant:
    num_players: int
    sides: tuple[tuple[int, ...], ...]  # the seats of each side (side s holds the seats p with p % 2 == s)
    seat_names: tuple[str, ...]  # as the table and the records print them
    relative_seats: str  # the order of the per-seat observation blocks, relative to the observer
    drawn: bool  # the hands are drawn from a stock, one card at a time (else dealt, 13 each)
    starter: str  # what the seat that starts a hand is called: "dealer" or "first drawer"
    blind_nil_exchange: Literal["pass", "replace"]  # partners exchange cards, or the bidder swaps with the stock
    blind_nil_cards: int  # the cards exchanged each way, or at most replaced

    @property
    def partner(self) -> tuple[int | None, ...]:
        """Each seat's partner (``None`` where a side is one player)."""
        return tuple(next((m for m in self.sides[p % 2] if m != p), None) for p in range(self.num_players))

    @property
    def side_of(self) -> tuple[int, ...]:
        return tuple(p % 2 for p in range(self.num_players))

    @property
    def partnership(self) -> bool:
        return any(len(side) > 1 for side in self.sides)

    @property
    def dealt_word(self) -> str:
        """``"Dealt"`` or ``"Drawn"``: how a hand's cards reached it, for the hand's header."""
        return "Drawn" if self.drawn else "Dealt"


VARIANTS: dict[int, Variant] = {
    4: Variant(4, sides=((0, 2), (1, 3)), seat_names=("North", "East", "South", "West"),
               relative_seats="(self, left, partner, right)", drawn=False, starter="dealer",
               blind_nil_exchange="pass", blind_nil_cards=3),
    2: Variant(2, sides=((0,), (1,)), seat_names=("South", "North"), relative_seats="(self, opponent)",
               drawn=True, starter="first drawer", blind_nil_exchange="replace", blind_nil_cards=3),
}


def variant_of(num_players: int) -> Variant:
    """The variant of ``num_players`` players; a ``ValueError`` naming the choices for any other count."""
    try:
        return VARIANTS[num_players]
    except (KeyError, TypeError):
        raise ValueError(f"num_players must be one of {sorted(VARIANTS)}, got {num_players!r}") from None
