"""``spades play`` on a terminal: suit symbols and red hearts and diamonds where the terminal takes them, plain
letters otherwise (a pipe, ``NO_COLOR``, ``TERM=dumb``), and the table redrawn in place."""

from __future__ import annotations

import io
import os
import select
import sys
import time
from pathlib import Path

import pytest

from spades_env.agents.play.style import PLAIN, Style, detect
from spades_env.agents.play.terminal import CLEAR, LiveScreen
from spades_env.cards import str_to_card

ROOT = Path(__file__).resolve().parents[1]


class FakeTerminal(io.StringIO):
    def __init__(self, encoding: str = "utf-8") -> None:
        super().__init__()
        self._encoding = encoding

    @property
    def encoding(self) -> str:
        return self._encoding

    def isatty(self) -> bool:
        return True


def test_detect_by_terminal_encoding_and_environment():
    assert detect(FakeTerminal(), {"TERM": "xterm-256color"}) == Style(symbols=True, colour=True, redraw=True)
    assert detect(FakeTerminal(), {"TERM": "xterm", "NO_COLOR": "1"}) == Style(redraw=True)  # letters, no colour
    assert detect(FakeTerminal("ascii"), {"TERM": "xterm"}) == Style(colour=True, redraw=True)  # no ♠ to write
    assert detect(FakeTerminal(), {"TERM": "dumb"}) == PLAIN
    assert detect(io.StringIO(), {"TERM": "xterm"}) == PLAIN  # a pipe or a file


def test_cards_and_hands_in_each_style():
    ace_spades, king_hearts = str_to_card("AS"), str_to_card("KH")
    fancy = Style(symbols=True, colour=True)
    assert fancy.card(ace_spades) == "A♠" and fancy.card(king_hearts) == "\x1b[31mK♥\x1b[0m"
    assert PLAIN.card(king_hearts) == "KH" and Style(colour=True).card(king_hearts) == "\x1b[31mKH\x1b[0m"
    hand = (1 << ace_spades) | (1 << king_hearts)
    assert PLAIN.hand(hand) == "S: A  H: K  D: -  C: -"
    assert fancy.hand(hand) == "♠: A  \x1b[31m♥: K\x1b[0m  \x1b[31m♦: -\x1b[0m  ♣: -"
    assert PLAIN.cards([king_hearts, ace_spades]) == "AS KH"


def test_the_live_screen_redraws_one_table_in_place():
    out: list[str] = []
    live = LiveScreen(out.append, header="You are South.", keep=2)
    live.event("West plays 2C.")
    live.event("North plays 3C.\n  -> North wins trick 1")
    assert out == ["West plays 2C.", "North plays 3C.\n  -> North wins trick 1"]  # shown as they come
    live.show("--- Hand 1, trick 2 ---")
    assert out[-1] == CLEAR + "You are South.\n\nNorth plays 3C.\n  -> North wins trick 1\n\n--- Hand 1, trick 2 ---"
    live.show("--- Hand 1, trick 2 ---")
    assert out[-1].startswith(CLEAR) and out[-1].count("--- Hand") == 1


def run_in_a_terminal(tmp_path: Path, env: dict[str, str]) -> str:
    """``spades play`` with random bots in a pseudo-terminal, to its second prompt; what it printed."""
    import pty

    args = [sys.executable, "-m", "spades_env.agents.cli", "play", "--seed", "6", "--partner", "random",
            "--opponents", "random", "--save", str(tmp_path / "g.jsonl")]
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execve(sys.executable, args, {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8", **env})
    data, deadline = b"", time.monotonic() + 60
    try:
        for answer in (b"look\r", b"quit\r"):  # the first prompt is Blind Nil or look: look at the cards
            while data.count(b"> ") < (2 if answer == b"quit\r" else 1) and time.monotonic() < deadline:
                if select.select([fd], [], [], 1)[0]:
                    try:
                        data += os.read(fd, 65536)
                    except OSError:  # EIO: the program ended
                        return data.decode()
            os.write(fd, answer)
        os.waitpid(pid, 0)
    finally:
        os.close(fd)
    return data.decode()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a POSIX pseudo-terminal")
def test_in_a_terminal_symbols_colour_and_redraw(tmp_path):
    fancy = run_in_a_terminal(tmp_path, {"TERM": "xterm-256color"})
    assert CLEAR in fancy and "♠: " in fancy.split("Hand:")[-1] and "\x1b[31m" in fancy
    assert "You are North" in fancy.split(CLEAR)[-1]  # the legend stays on the redrawn screen
    (tmp_path / "plain").mkdir()
    plain = run_in_a_terminal(tmp_path / "plain", {"TERM": "xterm-256color", "NO_COLOR": "1"})
    assert "\x1b[31m" not in plain and "♠" not in plain and "S: " in plain.split("Hand:")[-1]
