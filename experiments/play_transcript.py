"""Writes ``docs/play_transcript.md``: a ``spades play`` session, its resume and its replay, as the program prints them.

``python -m spades_env.experiments.play_transcript`` (from the repository root) plays one hand of a
fixed seed against the heuristic bots, through :func:`spades_env.agents.play.main` with a scripted
person who reads each screen and answers as a player would (three inputs are wrong on purpose), then
quits at the first prompt of the second hand; resumes the save with no input; and replays it with
``spades replay``. Everything between the code fences is the programs' output, byte for byte as
``printf '<the typed lines>' | spades play ...`` prints it (the page gives that command), apart from the
tricks marked as cut. ``tests/test_play.py`` regenerates the page and compares it with the checked-in
file, so the page cannot drift from the program: after a change to what ``spades play`` prints (or
to how the bots play), run this again. ``--check`` only compares.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

from spades_env.agents.play import main as play_main
from spades_env.agents.replay import main as replay_main
from spades_env.cards import RANKS, SPADES, rank_of, str_to_card, suit_of

SEED = 2024
SAVE = "game.jsonl"
PLAY_ARGS = ["--seed", str(SEED), "--save", SAVE]
OUT = Path("docs/play_transcript.md")
KEEP_TRICKS = (5, 12)  # the session shows tricks 1..5 and 12..13 (the replay tricks 1 and 2)
CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS])\b")


class Console:
    """The text a terminal shows for a program driven through a pipe, which has nothing to type.

    The program echoes each typed line after its prompt when the input is not a terminal
    (:func:`spades_env.agents.play.terminal.read_line`), so the text reads as the session did.
    """

    def __init__(self) -> None:
        self.chunks: list[str] = []

    def write(self, text: str) -> None:
        self.chunks.append(text + "\n")

    def read(self, prompt: str) -> str:
        self.chunks.append(prompt)
        raise EOFError  # the end of the input

    @property
    def text(self) -> str:
        return "".join(self.chunks)


class Person(Console):
    """Answers each prompt from the screen printed before it, as a player would; quits at ``quit_at``.

    Three inputs are wrong on purpose, each at its first chance: a bid of 15, a card not held, and
    (when following suit) a held card of another suit.
    """

    def __init__(self, quit_at: str) -> None:
        super().__init__()
        self.quit_at = quit_at  # quit at the first prompt once this was printed
        self.typed: list[str] = []
        self.screen = ""  # the last full screen: the table and the choices
        self.mistakes_made: set[str] = set()
        self._since = 0

    def read(self, prompt: str) -> str:
        printed = "".join(self.chunks[self._since:])
        if "\nHand:" in printed:
            self.screen = printed
        answer = self.answer(prompt)
        self.chunks += [prompt, answer + "\n"]
        self.typed.append(answer)
        self._since = len(self.chunks)
        return answer

    def answer(self, prompt: str) -> str:
        if self.quit_at in self.text:
            return "quit"
        if "[blind/look]" in prompt:
            return "look"
        held = held_cards(self.screen)
        if "Your bid" in prompt:
            return "15" if self._first("bid") else str(bid_for(held))
        if "to pass" in prompt:  # my partner bid Blind Nil: give it my lowest cards
            return typed_form(min(held, key=lambda c: (c[1] == "S", RANKS.index(c[0]))))
        legal = re.findall(r"You can play: (.*)", self.screen)[-1].split()
        trick = CARD.findall(re.findall(r"Trick: +(.*)\(", self.screen + "Trick: (")[0])
        off_suit = [c for c in held if c not in legal] if trick else []
        if off_suit and self._first("follow"):
            return off_suit[-1].lower()
        if self._first("not held"):
            return typed_form(missing_card(held))
        return typed_form(card_to_play(legal, trick))

    def _first(self, mistake: str) -> bool:
        """True the first time only: make this mistake now."""
        first = mistake not in self.mistakes_made
        self.mistakes_made.add(mistake)
        return first


def held_cards(screen: str) -> list[str]:
    """The cards of the last 'Hand:' line (``S: A K  H: -  D: 9  C: T 2``), high to low, spades first."""
    line = re.findall(r"Hand: +(S: .*)", screen)[-1]
    return [rank + suit for suit, ranks in re.findall(r"([SHDC]): ([^:]*?)(?=\s+[SHDC]:|$)", line)
            for rank in ranks.split() if rank != "-"]


def bid_for(hand: list[str]) -> int:
    """A rough count of tricks: aces and kings, and spades beyond three."""
    honours = sum(c[0] in "AK" for c in hand)
    spades = sum(c[1] == "S" for c in hand)
    return max(1, honours + max(0, spades - 3))


def missing_card(hand: list[str]) -> str:
    return next(r + s for s in "HDCS" for r in reversed(RANKS) if r + s not in hand)


def typed_form(card: str) -> str:
    """How a person might type a card: ``ah`` for ``AH``, ``10h`` for ``TH``."""
    return card.lower().replace("t", "10")


def card_to_play(legal: list[str], trick: list[str]) -> str:
    """Lead the highest card; follow with the cheapest card that wins the trick so far, else the lowest."""
    if not trick:
        return legal[0]
    ids = [str_to_card(c) for c in trick]
    led = suit_of(ids[0])
    spades_in = [c for c in ids if suit_of(c) == SPADES]
    best = max(spades_in) if spades_in else max(c for c in ids if suit_of(c) == led)
    winners = [c for c in legal if suit_of(str_to_card(c)) == suit_of(best) and rank_of(str_to_card(c)) > rank_of(best)]
    return winners[-1] if winners else legal[-1]


@contextlib.contextmanager
def working_directory(path: str) -> Iterator[None]:
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def run_session() -> tuple[Person, Console, Console]:
    """The played session, the resume with no input, and the replay; run in a scratch directory."""
    with tempfile.TemporaryDirectory() as scratch, working_directory(scratch):
        person = Person(quit_at="\n=== Hand 2:")
        play_main(PLAY_ARGS, person.read, person.write)
        resumed = Console()
        play_main(["--resume", SAVE], resumed.read, resumed.write)
        replay = Console()
        replay_main([SAVE, "--no-pause"], replay.read, replay.write)
    return person, resumed, replay


def cut(text: str, start: str, stop: str, after: bool, label: str) -> str:
    """``text`` without its lines from the first matching ``start`` (from the next one if ``after``) up to
    the next matching ``stop`` (through it if ``after``), and a line saying so."""
    lines = text.split("\n")
    i = next(k for k, line in enumerate(lines) if re.search(start, line)) + after
    j = next(k for k, line in enumerate(lines) if k >= i and re.search(stop, line)) + after
    return "\n".join([*lines[:i], f"[... {label} cut: {j - i} lines ...]", *lines[j:]])


def refusals(text: str) -> list[tuple[str, str]]:
    """Each refused input and the reason printed for it."""
    return re.findall(r"> (.*)\n  ! (.*)", text)


def forced_play(text: str) -> tuple[int, str] | None:
    """A card the person played without a prompt (the only legal one) and its trick: the first one
    before the last trick if there is one, else the last trick's."""
    trick, previous, forced = 1, "", []
    for line in text.split("\n"):
        if won := re.search(r"trick (\d+): ", line):
            trick = int(won.group(1)) + 1
        if line.startswith("You play ") and not previous.startswith("Your card > "):
            forced.append((trick, line))
        previous = line
    return min(forced, key=lambda f: (f[0] == 13, f[0]), default=None)


def page() -> str:
    """The whole markdown page."""
    person, resumed, replay = run_session()
    first, last = KEEP_TRICKS[0] + 1, KEEP_TRICKS[1] - 1
    played = cut(person.text, rf"trick {first - 1}: ", rf"trick {last}: ", True, f"tricks {first} to {last}")
    replayed = cut(replay.text, r"^Trick 3 of 13", r"^\w+ bid .*, took", False, "tricks 3 to 13")
    wrong = ", ".join(f"`{typed}` ({reason.split(':')[0]})" for typed, reason in refusals(person.text))
    forced = forced_play(person.text)
    forced_text = f"Forced moves are played without asking (trick {forced[0]}: `{forced[1]}`). " if forced else ""
    typed = "".join(line + "\\n" for line in person.typed)
    command = " ".join(["spades play", *PLAY_ARGS])
    return "\n\n".join([
        "# `spades play`: a session",
        prose(f"A game against the heuristic bots (partner and both opponents), seed {SEED}, seat North. The "
              "person's inputs came through a pipe, one prompt at a time, so the program echoes each typed line "
              "after its prompt (in a terminal the terminal echoes it: the same text). Three inputs were wrong on "
              f"purpose, {wrong}: each got a one-line reason and the prompt again. Tricks {first} to {last} are "
              "cut out (marked); nothing else is edited. This page is written by "
              "`python -m spades_env.experiments.play_transcript`, and `tests/test_play.py` checks that it is "
              "what the program prints today. To reproduce:"),
        fenced(f"printf '{typed}' | {command}"),
        fenced(f"$ {command}", played),
        prose(f"{forced_text}Every action of every seat was appended to `{SAVE}` as it happened; the game "
              "continues from exactly that state:"),
        fenced(f"$ spades play --resume {SAVE}", resumed.text),
        prose("(The prompt ends there because stdin was empty: the end of the input saves and stops, as Ctrl-D "
              "does.)"),
        "## Watching it again: `spades replay`",
        fenced(f"$ spades replay {SAVE} --no-pause", replayed),
        prose("Without `--no-pause` the viewer waits after each trick: Enter for the next trick, `n` to run to "
              "the end of the hand, `c` to the end, `q` to quit. It reads tournament and `spades_env.records` "
              "game files (`--game K` picks one), `spades play` saves and files of hand records."),
    ]) + "\n"


def prose(text: str) -> str:
    return textwrap.fill(text, width=104, break_on_hyphens=False, break_long_words=False)


def fenced(*parts: str) -> str:
    body = "\n".join(part.rstrip("\n") for part in parts)
    return f"```\n{body}\n```"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m spades_env.experiments.play_transcript",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"the page to write (default {OUT})")
    parser.add_argument("--check", action="store_true", help="only compare with --out; exit 1 when it differs")
    args = parser.parse_args(argv)
    text = page()
    if args.check:
        same = args.out.exists() and args.out.read_text(encoding="utf-8") == text
        print(f"{args.out} {'matches' if same else 'differs from'} the program")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
