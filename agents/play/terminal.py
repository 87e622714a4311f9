"""Lines in and out of the terminal, for ``spades play`` and ``spades replay``.

Both programs take a ``read`` and a ``write`` function instead of calling ``input`` and ``print``, so
that tests and the transcript generator drive them with scripted input in the same process.
"""

from __future__ import annotations

import sys
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
