"""Lines in and out of the terminal, for ``spades play`` and ``spades replay``.

Both programs take a ``read`` and a ``write`` function instead of calling ``input`` and ``print``, so
that tests and the transcript generator drive them with scripted input in the same process.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable

Reader = Callable[[str], str]  # prompt -> the line typed (raises EOFError at the end of the input)
Writer = Callable[[str], None]


def read_line(prompt: str) -> str:
    """``input(prompt)``, echoing piped input so that a transcript reads like the session."""
    text = input(prompt)
    if not sys.stdin.isatty():
        print(text)
    return text


def print_line(text: str) -> None:
    print(text, flush=True)


CLEAR = "\x1b[H\x1b[2J"  # cursor home, erase the screen


class LiveScreen:
    """The table redrawn in place on a terminal, instead of reprinted below the last one.

    What the narration says passes through :meth:`event` as it happens (so the bots' plays show as they
    come) and is kept; :meth:`show` then clears the screen and draws the latest events above the table,
    so the screen always holds one table, with the prompt under it.
    """

    def __init__(self, write: Writer, header: str = "", keep: int = 12) -> None:
        self.write, self.header = write, header  # the header (who plays where) stays on top
        self.events: deque[str] = deque(maxlen=keep)

    def event(self, text: str) -> None:
        self.events.extend(line for line in text.split("\n") if line)
        self.write(text)

    def show(self, table: str) -> None:
        parts = [self.header, "\n".join(self.events), table]
        self.write(CLEAR + "\n\n".join(part for part in parts if part))
