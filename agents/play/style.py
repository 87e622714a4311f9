"""How cards look in the terminal: suit symbols and red hearts and diamonds where the terminal shows them,
the plain letters of the records (``AS``, ``TH``) elsewhere.

:func:`detect` decides once per program from the output stream and the environment: symbols and colour
on a terminal (a tty whose ``TERM`` is not ``dumb``) that takes UTF-8, plain letters when the output goes
to a pipe or a file, when ``NO_COLOR`` is set (https://no-color.org), or when the encoding cannot write
``♠``. ``redraw``: the table is redrawn in place (see :class:`~.terminal.LiveScreen`) on any terminal.
Input is the same either way (``AS``, ``10h``; ``A♠`` too).
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TextIO

from spades_env.cards import CARD_NAMES, RANKS, SUIT_MASKS, SUIT_SYMBOLS, SUITS, cards_of, rank_of, suit_of

RED, RESET = "\x1b[31m", "\x1b[0m"
RED_SUITS = (1, 2)  # diamonds, hearts


@dataclass(frozen=True)
class Style:
    symbols: bool = False
    colour: bool = False
    redraw: bool = False

    def suit(self, suit: int, text: str | None = None) -> str:
        """``text`` (default the suit's letter or symbol) in the suit's colour."""
        text = text if text is not None else (SUIT_SYMBOLS[suit] if self.symbols else SUITS[suit])
        return f"{RED}{text}{RESET}" if self.colour and suit in RED_SUITS else text

    def card(self, card: int) -> str:
        """``"A♠"`` / ``"AS"``: the rank letter and the suit."""
        if not self.symbols and not self.colour:
            return CARD_NAMES[card]
        return self.suit(suit_of(card), RANKS[rank_of(card)] + (SUIT_SYMBOLS if self.symbols else SUITS)[suit_of(card)])

    def cards(self, cards: Iterable[int]) -> str:
        """Cards high to low, spades first, as the hand is shown."""
        return " ".join(self.card(c) for c in sorted(cards, reverse=True))

    def hand(self, mask: int) -> str:
        """A hand grouped by suit: ``"♠: A K 4  ♥: Q  ♦: -  ♣: 9 2"`` (``S: A K 4 ...`` plainly)."""
        parts = []
        for s in reversed(range(4)):
            ranks = " ".join(RANKS[rank_of(c)] for c in reversed(cards_of(mask & SUIT_MASKS[s]))) or "-"
            parts.append(self.suit(s, f"{SUIT_SYMBOLS[s] if self.symbols else SUITS[s]}: {ranks}"))
        return "  ".join(parts)


PLAIN = Style()


def detect(stream: TextIO, environ: Mapping[str, str] | None = None) -> Style:
    """The style for writing to ``stream`` (see the module docstring)."""
    env = os.environ if environ is None else environ
    terminal = bool(getattr(stream, "isatty", lambda: False)()) and env.get("TERM", "") != "dumb"
    if not terminal:
        return PLAIN
    if env.get("NO_COLOR"):
        return Style(redraw=True)
    try:
        utf8 = codecs.lookup(getattr(stream, "encoding", None) or "ascii").name == "utf-8"
    except LookupError:
        utf8 = False
    return Style(symbols=utf8, colour=True, redraw=True)


_current = PLAIN


def use(style: Style) -> None:
    """Write cards in ``style`` from now on (``spades play`` sets it once, for its terminal)."""
    global _current
    _current = style


def current() -> Style:
    return _current


def card_text(card: int) -> str:
    """``card`` in the current style."""
    return _current.card(card)


def hand_text(mask: int) -> str:
    """The hand ``mask`` in the current style."""
    return _current.hand(mask)
