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
