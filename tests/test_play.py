"""``spades play``: typed input through piped stdin (a real subprocess), refusals, saving, kill and resume.

The subprocess tests read the screen up to each prompt and answer from what it shows (the
"You can play:" line), as a person would; the in-process tests check the refusal reasons and the
two-player game on fixed states.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spades_env import actions as A
from spades_env.agent import Agent
from spades_env.agents import make_agent
from spades_env.agents.match import play_game
from spades_env.agents.play import HUMAN, Human, Setup, main, parse_input, read_save, restore
from spades_env.agents.play.table import table
from spades_env.cards import hand_to_str
from spades_env.experiments import play_transcript
from spades_env.experiments.play_transcript import held_cards
from spades_env.game import SpadesConfig, SpadesGame
from spades_env.view import player_view

ROOT = Path(__file__).resolve().parents[1]
BOTS = ["--partner", "random", "--opponents", "random"]
CARD = r"(?:[2-9TJQKA][CDHS])"


# ------------------------------------------------------------------ driving a real process


class Terminal:
    """``spades play`` in a subprocess with piped stdin/stdout, read prompt by prompt."""

    def __init__(self, *args: str, cwd: Path) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "spades_env.agents.cli", "play", *args], cwd=cwd,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.transcript = ""

    def screen(self, timeout: float = 20) -> str:
        """Everything printed up to the next prompt (a line ending in '> '), or to the end of the output."""
        chunk, fd, deadline = b"", self.proc.stdout.fileno(), time.monotonic() + timeout
        while not chunk.endswith(b"> "):
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise AssertionError(f"no prompt within {timeout} s; output so far:\n{self.transcript}{chunk.decode()}")
            data = os.read(fd, 65536)
            if not data:
                break
            chunk += data
        text = chunk.decode()
        self.transcript += text
        return text

    def send(self, line: str) -> None:
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def finish(self, timeout: float = 20) -> tuple[int, str, str]:
        """Close stdin (Ctrl-D) and wait for the end."""
        out, err = self.proc.communicate(timeout=timeout)
        self.transcript += out.decode()
        return self.proc.returncode, self.transcript, err.decode()


def choose(screen: str) -> str:
    """A legal answer to the prompt that ends ``screen``, read from the screen itself."""
    prompt = screen.rstrip().splitlines()[-1]
    if "[blind/look]" in prompt:
        return "look"
    if "Your bid" in prompt:
        return "3"
    if "[keep/discard]" in prompt:
        return "keep"
    if "put back" in prompt:
        return "done"
    choices = re.findall(r"You can (?:play|pass): (.*)", screen)
    assert choices, f"no choices on the screen:\n{screen}"
    return choices[-1].split()[-1]  # the lowest card listed


def play_until(term: Terminal, screen: str, done: str, stop_at: str | None = None) -> str:
    """Answer prompts from ``screen`` on until ``done`` is printed (or a screen shows ``stop_at``); the last screen."""
    while not (done in screen or (stop_at and stop_at in screen) or not screen.endswith("> ")):
        term.send(choose(screen))
        screen = term.screen()
    return screen


# ------------------------------------------------------------------ subprocess tests


def test_a_whole_hand_typed_with_refused_inputs(tmp_path):
    save = tmp_path / "game.jsonl"
    term = Terminal("--seed", "11", "--seat", "1", *BOTS, "--save", str(save), cwd=tmp_path)
    screen = term.screen()
    assert "You are East (player_1)" in screen

    # Refusals before the first play: unparseable text, a card not held, then (if possible) a held card
    # that breaks follow-suit; each gets a one-line reason and the same prompt again.
    screen = play_until(term, screen, "Hand 1 is over", stop_at="Your card >")
    assert "Your card >" in screen
    term.send("zz")
    again = term.screen()
    assert "! cannot read 'zz'" in again and again.rstrip().endswith("Your card >")
    playable = set(re.findall(r"You can play: (.*)", screen)[-1].split())
    hand = set(held_cards(screen))
    missing = next(c + s for s in "SHDC" for c in "23456789TJQKA" if c + s not in hand)
    term.send(missing)
    assert f"! you don't hold {missing}" in term.screen()
    assert hand - playable, "with this seed the person leads first and may not lead a spade yet"
    term.send(sorted(hand - playable)[0].lower())
    assert "! spades are not broken yet: lead another suit" in term.screen()
    term.send(choose(screen))
    play_until(term, term.screen(), "Hand 1 is over")
    code, transcript, err = term.finish()
    assert code == 0, err
    assert "Traceback" not in err
    assert transcript.count("You play ") == 13
    assert "Hand 1 scored:" in transcript and "Stopped. The game is saved in" in transcript

    setup, moves = read_save(str(save))
    game = restore(setup, moves)
    assert game.hand_number >= 1 and len(game.hand_records) >= 1
    record = game.hand_records[0]
    assert sum(1 for p, _ in record["plays"] if p == 1) == 13
    typed = [line.split("You play ")[1].rstrip(".") for line in transcript.splitlines() if "You play " in line]
    assert [c for p, c in record["plays"] if p == 1] == typed
    lines = [json.loads(x) for x in save.read_text().splitlines()]
    assert [x for x in lines if x["type"] == "hand"][0]["record"] == record


def test_killed_mid_hand_then_resumed_from_the_same_state(tmp_path):
    save = tmp_path / "game.jsonl"
    term = Terminal("--seed", "4", *BOTS, "--save", str(save), cwd=tmp_path)
    screen = play_until(term, term.screen(), "Hand 1 is over", stop_at="trick 5 of 13")
    assert "trick 5 of 13" in screen
    before = screen[screen.rindex("--- Hand"):]  # the table as the person saw it when the process died
    term.proc.kill()
    term.proc.wait(timeout=10)

    setup, moves = read_save(str(save))
    game = restore(setup, moves)
    assert game.current_player == setup.seat and len(game.trick_winners) == 4
    resumed = Terminal("--resume", str(save), cwd=tmp_path)
    screen = resumed.screen()
    assert f"Resuming {save}: {len(moves)} saved actions; hand 1, trick 5." in screen
    assert screen[screen.rindex("--- Hand"):] == before
    assert f"Hand:   {hand_to_str(game.hands[setup.seat])}" in screen

    play_until(resumed, screen, "Hand 1 is over")
    code, transcript, err = resumed.finish()
    assert code == 0, err
    assert transcript.count("You play ") == 9  # tricks 5..13
    setup2, moves2 = read_save(str(save))
    assert setup2 == setup and moves2[:len(moves)] == moves
    assert len(restore(setup2, moves2).hand_records) >= 1
    assert save.read_text().count('"type":"header"') == 1


def test_ctrl_c_saves_and_exits_cleanly(tmp_path):
    save = tmp_path / "game.jsonl"
    term = Terminal("--seed", "2", *BOTS, "--save", str(save), cwd=tmp_path)
    screen = term.screen()
    term.send(choose(screen))
    term.screen()
    time.sleep(0.5)  # let it reach its read (see the terminal test below)
    term.proc.send_signal(signal.SIGINT)
    code, transcript, err = term.finish()
    assert code == 130
    assert "Traceback" not in err
    assert f"continue it with:\n  spades play --resume {save}" in transcript
    setup, moves = read_save(str(save))
    assert moves and restore(setup, moves).current_player == setup.seat


# ------------------------------------------------------------------ in-process tests


class Scripted:
    """A reader answering each prompt from what was written to the screen since the last prompt."""

    def __init__(self, answers: list[str] | None = None, limit: int = 2000) -> None:
        self.out: list[str] = []
        self.answers, self.limit = list(answers or []), limit
        self._since = 0

    def write(self, text: str) -> None:
        self.out.append(text)

    def read(self, prompt: str) -> str:
        self.limit -= 1
        if self.limit < 0:
            raise EOFError
        screen = "\n".join(self.out[self._since:]) + "\n" + prompt
        self._since = len(self.out)
        answer = self.answers.pop(0) if self.answers else choose(screen)
        self.out.append(prompt + answer)
        return answer

    @property
    def text(self) -> str:
        return "\n".join(self.out)


DEAL = [
    ["AS", "KS", "QS", "JS", "AH", "KH", "QH", "JH", "AD", "KD", "QD", "AC", "KC"],
    ["TS", "9S", "8S", "TH", "9H", "8H", "7H", "JD", "TD", "9D", "QC", "JC", "TC"],
    ["7S", "6S", "5S", "6H", "5H", "4H", "8D", "7D", "6D", "5D", "9C", "8C", "7C"],
    ["4S", "3S", "2S", "3H", "2H", "4D", "3D", "2D", "6C", "5C", "4C", "3C", "2C"],
]


def test_refusal_reasons_are_one_line_and_specific():
    game = SpadesGame()
    game.reset(0, deal=DEAL, dealer=3)  # seat 0 bids first and leads
    view = player_view(game, 0)
    assert parse_input(view, "3") == (None, "your cards are face down: type 'look' to see them before you bid, "
                                            "or 'blind' for Blind Nil")
    assert parse_input(view, "look") == (A.LOOK, "")
    game.apply(A.LOOK)
    view = player_view(game, 0)
    assert parse_input(view, "14")[1].startswith("bid 14 is not in 0..13")
    assert "Blind Nil is bid before looking" in parse_input(view, "blind")[1]
    assert parse_input(view, "AS")[1].startswith("AS is not possible now: type a bid")
    assert parse_input(view, "nil") == (A.BID_BASE, "")
    for _ in range(4):
        if game.phase.name == "BLIND":
            game.apply(A.LOOK)
        game.apply(A.bid_action(3))
    view = player_view(game, 0)
    assert parse_input(view, "2C") == (None, "you don't hold 2C")
    assert parse_input(view, "as") == (None, "spades are not broken yet: lead another suit")
    assert parse_input(view, "zz")[1] == "cannot read 'zz': type a card of your hand, e.g. AS, 10h or td"
    assert parse_input(view, "4")[1].startswith("bid 4 is not possible now")
    assert parse_input(view, "10d") == (None, "you don't hold TD")
    assert parse_input(view, "kd") == (A.str_to_action("KD"), "")
    game.apply(A.str_to_action("KD"))
    view = player_view(game, 1)
    assert parse_input(view, "QC") == (None, "you must follow suit (diamonds): you can play JD TD 9D")
    for text in ("", "   ", "AS AS", "bid", "blind nil please"):
        action, reason = parse_input(view, text)
        assert action is None and reason and "\n" not in reason


def test_fixed_deal_file_and_the_hand_shown(tmp_path):
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps({"deal": DEAL, "dealer": 3}))
    io = Scripted(answers=["look", "13"], limit=2)
    code = main(["--deal", str(deal), *BOTS, "--seed", "1", "--save", str(tmp_path / "s.jsonl")], io.read, io.write)
    assert code == 0
    assert "Hand:   S: A K Q J  H: A K Q J  D: A K Q  C: A K" in io.text
    setup, moves = read_save(str(tmp_path / "s.jsonl"))
    assert setup.deal == DEAL and setup.dealer == 3 and moves[:2] == [(0, A.LOOK), (0, A.bid_action(13))]
    io2 = Scripted(answers=["look"], limit=1)
    main(["--deal", str(deal), "--seat", "2", *BOTS, "--save", str(tmp_path / "t.jsonl")], io2.read, io2.write)
    assert "Hand:   S: 7 6 5  H: 6 5 4  D: 8 7 6 5  C: 9 8 7" in io2.text


def test_two_player_hand_typed(tmp_path):
    save = tmp_path / "two.jsonl"
    io = Scripted(limit=60)
    code = main(["--num-players", "2", "--opponents", "random", "--seed", "3", "--save", str(save)], io.read, io.write)
    assert code == 0
    assert "You are South (player_0)" in io.text
    assert io.text.count("You keep ") + io.text.count("You discard ") >= 13
    assert "The draw is over" in io.text and "Hand 1 scored:" in io.text
    setup, moves = read_save(str(save))
    game = restore(setup, moves)
    assert game.num_players == 2 and game.hand_records[0]["num_players"] == 2


def test_bad_options_and_existing_save_are_refused(tmp_path, capsys):
    save = tmp_path / "s.jsonl"
    save.write_text("")
    assert main([*BOTS, "--save", str(save)]) == 2
    assert "exists: continue it with --resume" in capsys.readouterr().err
    assert main(["--seat", "4", *BOTS]) == 2
    assert main(["--num-players", "2", "--partner", "random"]) == 2
    assert main(["--partner", "no_such_agent", "--save", str(tmp_path / "x.jsonl")]) == 2
    assert "unknown agent 'no_such_agent'" in capsys.readouterr().err
    assert not (tmp_path / "x.jsonl").exists()
    io = Scripted(limit=3)
    main([*BOTS, "--seed", "1", "--save", str(tmp_path / "g.jsonl")], io.read, io.write)
    assert main(["--resume", str(tmp_path / "g.jsonl"), "--seed", "2"]) == 2
    assert "keeps the options it was saved with" in capsys.readouterr().err
    assert main(["--resume", str(save)]) == 2


def test_resume_into_another_file_copies_the_game(tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    io = Scripted(limit=6)
    main([*BOTS, "--seed", "8", "--save", str(first)], io.read, io.write)
    setup, moves = read_save(str(first))
    with open(first, "a") as f:
        f.write('{"type":"action","player":')  # a write cut short by a kill
    io2 = Scripted(limit=0)
    with pytest.warns(UserWarning, match="incomplete last line"):
        assert main(["--resume", str(first), "--save", str(second)], io2.read, io2.write) == 0
    setup2, moves2 = read_save(str(second))
    assert setup2 == setup and moves2 == moves


def test_resuming_a_finished_game_shows_its_result(tmp_path):
    config = SpadesConfig(single_hand=True)
    setup = Setup(seat=0, agents=[HUMAN, "random", "random", "random"], seed=5, config=config.to_dict())
    game = play_game([make_agent("random") for _ in range(4)], seed=5, config=config)
    save = tmp_path / "over.jsonl"
    lines = [setup.header()] + [{"type": "action", "player": p, "action": a}
                                for hand in game.hand_records for p, a in hand["actions"]]
    save.write_text("".join(json.dumps(line) + "\n" for line in lines))
    io = Scripted(limit=0)
    assert main(["--resume", str(save)], io.read, io.write) == 0
    assert "Hand 1 scored:" in io.text and f"(the game saved in {save} is over)" in io.text
    assert f"{game.scores[0]} to {game.scores[1]}." in io.text


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a POSIX pseudo-terminal")
def test_in_a_terminal_typed_input_then_ctrl_c(tmp_path):
    """In a real (pseudo-)terminal: the terminal echoes the typing, and Ctrl-C (the ^C character) stops cleanly."""
    import pty

    save = tmp_path / "tty.jsonl"
    args = [sys.executable, "-m", "spades_env.agents.cli", "play", "--seed", "6", *BOTS, "--save", str(save)]
    pid, fd = pty.fork()
    if pid == 0:  # the child: the pty is its controlling terminal
        os.chdir(ROOT)
        os.execve(sys.executable, args, dict(os.environ, PYTHONUNBUFFERED="1"))

    def until(marker: bytes, timeout: float = 20) -> str:
        data, deadline = b"", time.monotonic() + timeout
        while marker not in data:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, f"no {marker!r} within {timeout} s:\n{data.decode()}"
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            data += chunk
        return data.decode()

    try:
        first = until(b"> ")
        answer = choose(first.replace("\r\n", "\n"))
        os.write(fd, answer.encode() + b"\r")
        second = until(b"> ")
        assert second.startswith(answer)  # the terminal's echo of the typing
        # Ctrl-C, once the process waits in its read: a signal that lands between the prompt and the read
        # is only acted on at the next input (CPython's input() on a terminal), a window no person hits.
        time.sleep(0.5)
        os.write(fd, b"\x03")
        rest = until(b"spades play --resume")
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 130
    assert "Interrupted. The game is saved in" in rest and "Traceback" not in rest
    setup, moves = read_save(str(save))
    assert (setup.seat, A.str_to_action(answer)) in moves


def test_two_player_blind_nil_replacement_survives_a_resume(tmp_path):
    """Replacement cards are drawn at random by the engine; the resumed game must hold the same ones."""
    save = tmp_path / "blind.jsonl"
    args = ["--num-players", "2", "--opponents", "random", "--seed", "12", "--save", str(save)]
    io = Scripted(answers=["blind"], limit=1)
    main(args, io.read, io.write)
    put_back = re.findall(r"You can put back: (\S+)", io.text)[-1]
    io = Scripted(answers=[put_back, "done"], limit=2)
    main(["--resume", str(save)], io.read, io.write)
    assert f"You put back {put_back} and draw " in io.text
    hand_then = re.findall(r"Hand: +(S: .*)", io.text)[-1]
    io = Scripted(limit=0)
    main(["--resume", str(save)], io.read, io.write)
    assert re.findall(r"Hand: +(S: .*)", io.text)[-1] == hand_then
    setup, moves = read_save(str(save))
    hand = restore(setup, moves).hands[setup.seat]
    assert hand_to_str(hand) == hand_then and not hand >> A.str_to_action(put_back) & 1


def test_a_hand_record_replays_as_a_fixed_deal(tmp_path):
    """``--deal`` accepts a hand line of a save (or any hand record): the same cards, dealer and scores."""
    game = play_game([make_agent("random") for _ in range(4)], seed=21, config=SpadesConfig(target_score=150))
    record = game.hand_records[-1]
    deal = tmp_path / "hand.json"
    deal.write_text(json.dumps({"type": "hand", "record": record}))
    io = Scripted(answers=["look"], limit=1)
    main(["--deal", str(deal), "--seat", "1", *BOTS, "--save", str(tmp_path / "s.jsonl")], io.read, io.write)
    cards = sum(1 << A.str_to_action(c) for c in record["hands"][1])
    assert f"Hand:   {hand_to_str(cards)}" in io.text
    setup, _ = read_save(str(tmp_path / "s.jsonl"))
    assert setup.dealer == record["dealer"]
    assert (setup.scores, setup.bags) == (record["scores_before"], record["bags_before"])


def test_the_human_is_an_agent_at_a_plain_match():
    """The person's seat needs no session: the match driver of tournaments plays it like any bot."""
    io = Scripted()
    human = Human(table(4, 2), io.read, io.write)
    assert isinstance(human, Agent)
    bots = [make_agent("random") for _ in range(3)]
    game = play_game([bots[0], bots[1], human, bots[2]], seed=7, config=SpadesConfig(single_hand=True))
    assert game.game_over and "You are" not in io.text  # no legend: only the agent's screens
    assert io.text.count("Your card > ") >= 1 and "Hand:   " in io.text
    record = game.hand_records[0]
    assert record["bids"][2] == 3  # choose() bids 3 at every bid prompt


# ------------------------------------------------------------------ docs/play_transcript.md


@pytest.fixture(scope="module")
def transcript_page() -> str:
    return play_transcript.page()


def test_the_transcript_page_is_what_the_program_prints(transcript_page):
    checked_in = (ROOT / "docs" / "play_transcript.md").read_text(encoding="utf-8")
    assert checked_in == transcript_page, (
        "docs/play_transcript.md is not what spades play prints today: "
        "run python -m spades_env.experiments.play_transcript (and read the diff)")


def test_the_transcript_input_reproduces_it_through_a_pipe(transcript_page, tmp_path):
    """The page's printf command, run through a real pipe, prints the page's session (around the cut)."""
    typed = re.search(r"printf '(.*)' \| spades play (.*)\n", transcript_page)
    assert typed, "no 'to reproduce' command on the page"
    lines, args = typed.group(1).split("\\n"), typed.group(2).split()
    assert lines[-1] == "" and lines[-2] == "quit"
    proc = subprocess.run([sys.executable, "-m", "spades_env.agents.cli", "play", *args], cwd=tmp_path,
                          input="\n".join(lines).encode(), capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    session = transcript_page.split(f"$ spades play {typed.group(2)}\n")[1].split("```")[0]
    before, after = re.split(r"\[\.\.\. tricks \d+ to \d+ cut: \d+ lines \.\.\.\]\n", session)
    out = proc.stdout.decode()
    assert out.startswith(before) and out.endswith(after)
    assert out.count("\n") - session.count("\n") == int(re.search(r"cut: (\d+) lines", session).group(1)) - 1
