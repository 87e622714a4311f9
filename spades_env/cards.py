"""Card ids, text notation and hand bitmasks.

Cards use OpenSpiel's numbering so that records and cross-checks line up:
``id = suit * 13 + rank`` with suits C, D, H, S = 0..3 and ranks 2..A = 0..12
(C2 = 0, CA = 12, D2 = 13, H2 = 26, S2 = 39, SA = 51).

A hand is a Python ``int`` used as a 52-bit set (bit ``id`` set when the card
is held): membership, follow-suit and spade tests are single bit operations,
which keeps the rules engine fast without numpy.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

SUITS = "CDHS"
RANKS = "23456789TJQKA"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = "♣♦♥♠"
NUM_CARDS = 52
TRICKS_PER_HAND = 13  # both variants: four hands of 13, or two hands of 13 drawn from the stock
SPADES = 3

FULL_SUIT = (1 << 13) - 1
SUIT_MASKS = tuple(FULL_SUIT << (13 * s) for s in range(4))
SPADE_MASK = SUIT_MASKS[SPADES]
FULL_DECK = (1 << NUM_CARDS) - 1


CARD_NAMES = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(NUM_CARDS))  # card id -> "AS"


RANKS_PER_SUIT = 13
JACK, QUEEN, KING, ACE = (RANKS.index(r) for r in "JQKA")  # rank indices, for rules of thumb about honours


def suit_of(card: int) -> int:
    return card // RANKS_PER_SUIT


def rank_of(card: int) -> int:
    return card % RANKS_PER_SUIT


def card_id(suit: int, rank: int) -> int:
    """The id of the card of ``rank`` (0 = 2 .. 12 = A) in ``suit`` (0 = C .. 3 = S)."""
    return suit * RANKS_PER_SUIT + rank


# The same as lookup tables (card id -> value), built once: an index is cheaper than a call in the
# engine's and the agents' inner loops, and numpy code takes them as arrays (``np.asarray(SUIT_OF)``).
SUIT_OF = tuple(suit_of(c) for c in range(NUM_CARDS))
RANK_OF = tuple(rank_of(c) for c in range(NUM_CARDS))
SUIT_MASK_OF = tuple(SUIT_MASKS[suit_of(c)] for c in range(NUM_CARDS))  # the cards of the card's suit


def card_to_str(card: int) -> str:
    """``51 -> "AS"``: rank letter then suit letter."""
    if not 0 <= card < NUM_CARDS:
        raise ValueError(f"card id {card!r} is not in 0..51")
    return CARD_NAMES[card]


def str_to_card(text: str) -> int:
    """Parse ``"AS"``, ``"as"``, ``"10h"``, ``"Td"``, ``"SA"`` or ``"A♠"`` into a card id."""
    t = text.strip().upper().replace("10", "T")
    for sym, letter in zip(SUIT_SYMBOLS, SUITS):
        t = t.replace(sym, letter)
    if len(t) == 2 and t[0] in SUITS and t[1] in RANKS:  # accept suit-first "SA"
        t = t[1] + t[0]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"cannot read {text!r} as a card: expected a rank (2-9, T/10, J, Q, K, A) "
                         "and a suit (C, D, H, S), e.g. 'AS' or '10h'")
    return card_id(SUITS.index(t[1]), RANKS.index(t[0]))


def to_card(value: int | str) -> int:
    """A card given as an id or as text, validated."""
    if isinstance(value, str):
        return str_to_card(value)
    card = int(value)
    if card != value or not 0 <= card < NUM_CARDS:
        raise ValueError(f"card id {value!r} is not in 0..51")
    return card


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def _suit_chunks(first: int) -> tuple[tuple[int, ...], ...]:
    """``[bits]``: the ids ``first + i`` of the set bits ``i`` of a 13-bit chunk, ascending (built by doubling:
    the chunks with bit ``i`` set are those below it plus ``i``)."""
    table: list[tuple[int, ...]] = [()]
    for i in range(RANKS_PER_SUIT):
        table += [t + (first + i,) for t in table]
    return tuple(table)


_SUIT_CHUNKS = tuple(_suit_chunks(RANKS_PER_SUIT * s) for s in range(4))  # 4 x 8192 tuples, 3 MB, 8 ms


def cards_of(mask: int) -> list[int]:
    """The ids of the set bits of ``mask``, ascending: a hand's cards, or an action set's ids (up to 70).

    Each suit's 13 bits are one table lookup: a hand costs a fifth of a bit-by-bit loop, and this runs
    in every hand record, legal-action list and agent.
    """
    t0, t1, t2, t3 = _SUIT_CHUNKS
    out = [*t0[mask & FULL_SUIT], *t1[mask >> 13 & FULL_SUIT], *t2[mask >> 26 & FULL_SUIT],
           *t3[mask >> 39 & FULL_SUIT]]
    high = mask >> NUM_CARDS  # the action ids above the cards (bids, Blind Nil, draws)
    while high:
        low = high & -high
        out.append(low.bit_length() - 1 + NUM_CARDS)
        high ^= low
    return out


def masks_to_rows(masks) -> np.ndarray:
    """52-bit card masks (a sequence or an int64 array) as a ``(len(masks), 52)`` 0/1 uint8 array, bit i in
    column i: many hands at once, unpacked byte-wise."""
    raw = np.asarray(masks).astype("<u8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(raw, axis=1, count=NUM_CARDS, bitorder="little")


def bits_to_array(mask: int, size: int = NUM_CARDS, dtype=np.uint8) -> np.ndarray:
    """A bitmask as a 0/1 array of ``size`` entries (bit i -> index i): a hand or a pile in an observation.

    A few bits are quickest set one by one, more (a full hand) unpacked byte-wise. (The action mask
    every decision hands out has its own, quicker builder: :func:`spades_env.actions.mask_array`.)
    """
    if mask.bit_count() > 8:
        raw = np.frombuffer(mask.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
        return np.unpackbits(raw, count=size, bitorder="little").astype(dtype, copy=False)
    out = np.zeros(size, dtype)
    while mask:
        low = mask & -mask
        out[low.bit_length() - 1] = 1
        mask ^= low
    return out


def hand_to_str(mask: int) -> str:
    """Cards grouped by suit, high to low, spades first: ``"S: A K 4  H: Q  D: -  C: 9 2"``."""
    parts = []
    for s in reversed(range(4)):
        ranks = [RANKS[rank_of(c)] for c in reversed(cards_of(mask & SUIT_MASKS[s]))]
        parts.append(f"{SUITS[s]}: {' '.join(ranks) if ranks else '-'}")
    return "  ".join(parts)


# ------------------------------------------------------------------- tricks

# TRICK_POWER[led suit, card]: how strongly ``card`` contends for a trick whose first card is of suit
# ``led``. Spades are trump (14..26 by rank), then the suit led (1..13); any other card has 0 and cannot
# win. The card of highest power takes the trick, and the cards that can win have distinct powers.
# The one home of the trick rule: SpadesGame (through trick_winner), the batched engine (a gather and an
# argmax) and the PPO card features (a matmul with the led suit) all read this table.
TRICK_POWER = np.array([[(14 if SUIT_OF[c] == SPADES else 1) + RANK_OF[c] if SUIT_OF[c] in (SPADES, led) else 0
                         for c in range(NUM_CARDS)] for led in range(4)], np.int64)
TRICK_POWER.flags.writeable = False
_POWER_BY_LED = tuple(tuple(row) for row in TRICK_POWER.tolist())  # Python ints for the scalar engine


def trick_winner(trick: Sequence[tuple[int, int]]) -> int:
    """The player whose card takes ``trick`` (``(player, card)`` pairs in play order): the highest spade
    played, else the highest card of the suit led."""
    power = _POWER_BY_LED[SUIT_OF[trick[0][1]]]
    best_player, best = trick[0][0], 0
    for player, card in trick:
        if power[card] > best:
            best_player, best = player, power[card]
    return best_player
