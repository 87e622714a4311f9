"""The one action-id table shared by every phase of both variants.

======  ==================================================================
id      meaning
======  ==================================================================
0..51   a card (play it, pass it to the partner, or pick it for replacement)
52..65  bid 0..13 (52 = Nil)
66      Blind Nil (decided before looking at the hand)
67      look at my cards (decline Blind Nil)
68      two-player draw: keep the top card (the next one is seen and discarded)
69      two-player draw: discard the top card (the next one must be kept)
70      two-player Blind Nil replacement: done replacing
======  ==================================================================

All phases share one ``Discrete(NUM_ACTIONS)`` space; the action mask says
which ids are legal now.
"""

from __future__ import annotations

import threading

import numpy as np

from .cards import NUM_CARDS, card_to_str, str_to_card

BID_BASE = NUM_CARDS  # 52 = bid 0 (Nil)
MAX_BID = 13
BLIND_NIL = BID_BASE + MAX_BID + 1  # 66
LOOK = BLIND_NIL + 1  # 67
KEEP = LOOK + 1  # 68
DISCARD = KEEP + 1  # 69
DONE = DISCARD + 1  # 70
NUM_ACTIONS = DONE + 1  # 71

_NAMED = {BLIND_NIL: "blind nil", LOOK: "look", KEEP: "keep", DISCARD: "discard", DONE: "done"}
_ALIASES = {"blind": BLIND_NIL, "blindnil": BLIND_NIL, "blind nil": BLIND_NIL, "double nil": BLIND_NIL,
            "look": LOOK, "keep": KEEP, "discard": DISCARD, "done": DONE, "nil": BID_BASE}


# [bits]: the 13-entry 0/1 bytes of 13 bits, lowest first; the same for the 6 ids above 64.
_BYTES_13 = tuple(bytes((bits >> i) & 1 for i in range(13)) for bits in range(1 << 13))
_BYTES_6 = tuple(b[:NUM_ACTIONS - 65] for b in _BYTES_13[:1 << (NUM_ACTIONS - 65)])


_scratch = threading.local()  # per thread: an (NUM_ACTIONS,) int8 array and a byte view of it
_CARD_BITS = (1 << NUM_CARDS) - 1
_WITHOUT_CARDS: dict[int, np.ndarray] = {}  # the few sets of the decisions without cards (bids, draws, ...)


def mask_array(legal: int) -> np.ndarray:
    """The legal set ``legal`` (bit i: action id i) as the new writable ``(NUM_ACTIONS,)`` int8 0/1 array
    that ``observe()`` and ``act()`` hand out.

    It is built at every decision: five 13-bit and one 6-bit chunk of the set are looked up as bytes and
    joined into the thread's scratch array through a byte view, then copied out: one numpy call. Setting
    the entries one by one costs a numpy call each; ``np.frombuffer`` and a copy, or ``np.unpackbits``,
    cost more. The sets without cards (bids, Blind Nil, draws) are few and asked for again and again:
    their arrays are kept and copied.
    """
    cardless = not legal & _CARD_BITS
    if cardless:
        kept = _WITHOUT_CARDS.get(legal)
        if kept is not None:
            return kept.copy()
    try:
        array, view = _scratch.buffers
    except AttributeError:
        array = np.zeros(NUM_ACTIONS, np.int8)
        view = memoryview(array).cast("B")
        _scratch.buffers = array, view
    t = _BYTES_13
    view[:] = b"".join((t[legal & 8191], t[legal >> 13 & 8191], t[legal >> 26 & 8191], t[legal >> 39 & 8191],
                        t[legal >> 52 & 8191], _BYTES_6[legal >> 65]))
    if cardless and len(_WITHOUT_CARDS) < 64:
        _WITHOUT_CARDS[legal] = array.copy()
    return array.copy()


def bid_action(tricks: int) -> int:
    if not 0 <= tricks <= MAX_BID:
        raise ValueError(f"bid {tricks!r} is not in 0..13")
    return BID_BASE + tricks


def is_card(action: int) -> bool:
    return 0 <= action < NUM_CARDS


def is_bid(action: int) -> bool:
    return BID_BASE <= action <= BID_BASE + MAX_BID


def action_to_str(action: int) -> str:
    """``51 -> "AS"``, ``52 -> "bid 0"`` (Nil), ``66 -> "blind nil"``."""
    if is_card(action):
        return card_to_str(action)
    if is_bid(action):
        return f"bid {action - BID_BASE}"
    if action in _NAMED:
        return _NAMED[action]
    raise ValueError(f"action id {action!r} is not in 0..{NUM_ACTIONS - 1}")


def str_to_action(text: str) -> int:
    """Inverse of :func:`action_to_str`; also accepts ``"4"``, ``"nil"``, ``"blind"``, ``"10h"``."""
    t = " ".join(text.strip().lower().split())
    if t in _ALIASES:
        return _ALIASES[t]
    if t.startswith("bid "):
        t = t[4:].strip()
        if t in _ALIASES:
            return _ALIASES[t]
    if t.isdigit():
        return bid_action(int(t))
    return str_to_card(text)
