"""What one seat can infer about the unseen cards from its :class:`~spades_env.view.PlayerView`.

Card counting for the heuristic: which cards are still out, who may hold
them (a seat that showed out of a suit holds none of it; cards I passed to my
partner are known to be there), and, from that, rough probabilities that a
seat holds a card, can beat a card, or is void. Unknown cards are spread over
the seats that may hold them in proportion to how many unknown cards each
holds — the usual "vacant places" estimate, with cards treated as
independent. In the two-player game the undisclosed part of the discard pile
takes a place like a seat that never plays.

Only the view is read, never the engine: this is exactly what a player at
the table knows.
"""

from __future__ import annotations

from spades_env.cards import FULL_DECK, SPADES, SUIT_MASK_OF, SUIT_MASKS, SUIT_OF, card_id, mask_of, trick_winner
from spades_env.view import PlayerView

PILE = -1  # the undisclosed discard pile (two players), a holder that never plays
_OTHERS = {n: tuple(tuple((me + k) % n for k in range(1, n)) for me in range(n)) for n in (2, 4)}  # [n][me]
_VOID_MASK = {frozenset(s for s in range(4) if m >> s & 1): sum(SUIT_MASKS[s] for s in range(4) if m >> s & 1)
              for m in range(16)}  # a view's void suits as a card mask


def higher_mask(card: int) -> int:
    """Cards of the same suit ranked above ``card``."""
    return SUIT_MASK_OF[card] & ~((1 << (card + 1)) - 1)


def lower_mask(card: int) -> int:
    """Cards of the same suit ranked below ``card``."""
    return SUIT_MASK_OF[card] & ((1 << card) - 1)


class Knowledge:
    """Card counting from one seat's view; built once per decision."""

    def __init__(self, view: PlayerView, hand: int | None = None) -> None:
        self.view = view
        self.n = n = view.num_players
        self.me = me = view.seat
        self.hand = mask_of(view.hand) if hand is None else hand
        played_by = [0] * n  # the cards each seat has played (one pass over the plays: this runs every decision)
        for p, c in view.plays:
            played_by[p] |= 1 << c
        self.played = played = sum(played_by)  # disjoint masks: their sum is their union
        self.others = others = _OTHERS[n][me]
        out = played | self.hand
        known = dict.fromkeys(others, 0)
        if view.partner is not None:
            known[view.partner] = mask_of(view.passed) & ~played_by[view.partner]
        if n == 2:
            # Cards I saw go to the discard pile are out of play (an opponent's Blind Nil replacement
            # could draw one back: too rare to track).
            out |= mask_of(view.discarded)
        self.known = known
        self.unseen = unseen = FULL_DECK & ~out  # cards held by another seat or lying unseen in the pile
        known_all = sum(known.values())  # disjoint as well
        self.slots: dict[int, int] = {}
        self.possible: dict[int, int] = {}
        voids = view.voids
        for p in others:
            self.possible[p] = (unseen & ~_VOID_MASK[voids[p]] & ~known_all) | known[p]
            self.slots[p] = max(0, 13 - played_by[p].bit_count() - known[p].bit_count())
        if n == 2:
            pile_unknown = view.discard_pile_size - (mask_of(view.discarded)).bit_count()
            if view.looked and view.phase.name not in ("BLIND", "DRAW"):
                self.slots[PILE] = max(0, pile_unknown)
                self.possible[PILE] = self.unseen & ~known_all
        self._weights: list[dict[int, float] | None] = [None] * 4  # per suit, worked out when first asked

    def _suit_weights(self, suit: int) -> dict[int, float]:
        """Each holder's share of the unknown cards of ``suit``: its free places, among those who may hold one."""
        mask, known = SUIT_MASKS[suit], self.known
        row = {p: (w if self.possible[p] & mask & ~known.get(p, 0) else 0) for p, w in self.slots.items()}
        total = sum(row.values())
        self._weights[suit] = weights = {p: (w / total if total else 0.0) for p, w in row.items()}
        return weights

    # ----------------------------------------------------------- probabilities

    def share(self, p: int, suit: int) -> float:
        """Probability that one given unknown card of ``suit`` lies with ``p``."""
        return (self._weights[suit] or self._suit_weights(suit)).get(p, 0.0)

    def p_has_any(self, p: int, cards: int) -> float:
        """Probability that ``p`` holds at least one of the cards in mask ``cards``."""
        cards &= self.possible.get(p, 0)
        if not cards:
            return 0.0
        if cards & self.known.get(p, 0):
            return 1.0
        none = 1.0
        for s in range(4):
            k = (cards & SUIT_MASKS[s]).bit_count()
            if k:
                none *= (1.0 - self.share(p, s)) ** k
        return 1.0 - none

    def p_void(self, p: int, suit: int) -> float:
        """Probability that ``p`` holds no card of ``suit``."""
        return 1.0 - self.p_has_any(p, SUIT_MASKS[suit])

    def opponents_out(self, suit: int) -> int:
        """Cards of ``suit`` the opponents may hold."""
        mask = 0
        for p in self.opponents:
            mask |= self.possible[p]
        return mask & SUIT_MASKS[suit]

    @property
    def opponents(self) -> list[int]:
        side = self.me % 2
        return [p for p in self.others if p % 2 != side]

    def p_beats(self, p: int, best: int, led: int) -> float:
        """Probability that ``p``, playing after ``best`` currently wins a trick led in suit ``led``, can beat it."""
        if SUIT_OF[best] == led:
            higher = self.p_has_any(p, higher_mask(best))
            if led == SPADES:
                return higher
            ruff = self.p_void(p, led) * self.p_has_any(p, SUIT_MASKS[SPADES])
            return min(1.0, higher + ruff)
        # best is a trump on a side-suit lead: p must be void in the led suit and hold a higher spade
        return self.p_void(p, led) * self.p_has_any(p, higher_mask(best))

    def p_survives(self, card: int, trick: list[tuple[int, int]], players_after: list[int]) -> float:
        """Probability that ``card``, played into ``trick``, is not beaten by the opponents in ``players_after``."""
        led = SUIT_OF[trick[0][1] if trick else card]
        best = card
        if trick:
            winner = trick_winner(list(trick) + [(self.me, card)])
            if winner != self.me:
                return 0.0
        prob = 1.0
        for p in players_after:
            if p % 2 != self.me % 2:
                prob *= 1.0 - self.p_beats(p, best, led)
        return prob

    def is_boss(self, card: int) -> bool:
        """No card above ``card`` in its suit is held by another seat."""
        return not (higher_mask(card) & self.unseen)


def equivalent_low(card: int, hand: int, unseen: int) -> int:
    """The lowest card of ``hand`` equivalent to ``card``: no unseen card of the suit between them."""
    best = card
    c = card - 1
    floor = card_id(SUIT_OF[card], 0)
    while c >= floor:
        if hand >> c & 1:
            best = c
        elif unseen >> c & 1:
            break
        c -= 1
    return best
