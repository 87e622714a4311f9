"""``spades replay``: recorded games (records / tournaments), ``spades play`` saves and hand records, shown
hand by hand and trick by trick; the printed hands, tricks and scores are checked against the records."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from spades_env.agents import make_agent
from spades_env.agents.match import play_game
from spades_env.agents.play import main as play_main
from spades_env.agents.replay import load_games, main
from spades_env.cards import hand_to_str, str_to_card
from spades_env.game import SpadesConfig
from spades_env.records import game_record, write_games

ROOT = Path(__file__).resolve().parents[1]


def recorded_game(seed: int, **rules) -> dict:
    config = SpadesConfig(**rules)
    agents = [make_agent("random") for _ in range(config.num_players)]
    game = play_game(agents, seed=seed, config=config, agent_seeds=list(range(config.num_players)))
    return game_record(game, seed)


class Screen:
    def __init__(self, answers: list[str] | None = None) -> None:
        self.out: list[str] = []
        self.answers = list(answers or [])
        self.prompts = 0

    def write(self, text: str) -> None:
        self.out.append(text)

    def read(self, prompt: str) -> str:
        self.prompts += 1
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    @property
    def text(self) -> str:
        return "\n".join(self.out)


def check_hand_shown(text: str, record: dict) -> None:
    """Every dealt hand, every trick's plays and winner, the last cards held, and the score breakdown."""
    n = record["num_players"]
    names = ("North", "East", "South", "West") if n == 4 else ("South", "North")
    block = text[text.index(f"=== Hand {record['hand']} ·"):]
    block = block[:block.index(f"Hand {record['hand']} scored:")]
    for cards in record["hands"]:
        assert hand_to_str(sum(1 << str_to_card(c) for c in cards)) in block
    plays = record["plays"]
    for t, winner in enumerate(record["trick_winners"]):
        trick = ", ".join(f"{names[p]} {c}" for p, c in plays[t * n:(t + 1) * n])
        assert f"  {trick}  -> {names[winner]} wins" in block
    last = block[block.index("Trick 13 of 13"):]
    for p, card in plays[-n:]:  # before the last trick each seat holds exactly the card it then plays
        assert re.search(rf"  {names[p]}\b.*  {re.escape(hand_to_str(1 << str_to_card(card)))}\n", last)
    side = record["sides"][0]
    assert (f"  side 0: bid {side['bid']}, counted tricks {side['counted_tricks']}, contract {side['contract']:+d}"
            in text)


def test_records_file_game_chosen_and_shown_in_full(tmp_path):
    games = [recorded_game(1, single_hand=True), recorded_game(2, target_score=150)]
    path = tmp_path / "games.jsonl"
    write_games(path, games)
    screen = Screen()
    assert main([str(path), "--game", "2", "--no-pause"], screen.read, screen.write) == 0
    assert screen.prompts == 0
    text = screen.text
    record = games[1]
    assert "holds 2 games; this is game 2" in text
    assert text.count("Trick 1 of 13") == len(record["hands"]) > 1
    assert text.count("Trick 13 of 13") == len(record["hands"])
    for hand in record["hands"]:
        check_hand_shown(text, hand)
    a, b = record["scores"]
    assert f"{a} to {b}." in text.splitlines()[-1]


def test_pausing_enter_next_hand_and_quit(tmp_path):
    path = tmp_path / "games.jsonl"
    write_games(path, [recorded_game(5, target_score=150)])
    screen = Screen(["", "", "q"])
    assert main([str(path)], screen.read, screen.write) == 0
    assert screen.prompts == 3 and screen.text.count("Trick ") == 2  # intro, trick 1, trick 2, then quit
    screen = Screen(["", "n", "", "q"])
    main([str(path)], screen.read, screen.write)
    text = screen.text
    assert "Hand 1 scored:" in text and "Trick 13 of 13" in text  # "n" ran to the end of hand 1
    assert "=== Hand 2 ·" in text and "Hand 2 scored:" not in text and screen.prompts == 4
    screen = Screen([])  # the input ends at once: everything is shown
    main([str(path)], screen.read, screen.write)
    assert screen.text.count("Trick 13 of 13") == len(load_games(str(path))[0].hands)


def test_two_player_record_with_replacements(tmp_path):
    for seed in range(200):  # a deal where a random player bids Blind Nil and replaces cards
        record = recorded_game(seed, num_players=2, single_hand=True)
        if record["hands"][0]["replacements"]:
            break
    else:
        raise AssertionError("no two-player game with a Blind Nil replacement in 200 seeds")
    path = tmp_path / "two.jsonl"
    write_games(path, [record])
    screen = Screen()
    assert main([str(path), "--no-pause"], screen.read, screen.write) == 0
    hand = record["hands"][0]
    assert "Drawn:" in screen.text and "saw and discarded" in screen.text
    for p, back, drawn in hand["replacements"]:
        name = ("South", "North")[p]
        assert f"Blind Nil replacement: {name} puts back {back} and draws {drawn}" in screen.text
    check_hand_shown(screen.text, hand)


def test_a_spades_play_save_is_replayed(tmp_path):
    save = tmp_path / "play.jsonl"
    out: list[str] = []
    after_hand = []

    def person(prompt: str) -> str:
        """Plays the lowest listed card, bids 2; stops at its second prompt after hand 1 is scored."""
        if any("Hand 1 scored:" in line for line in out):
            after_hand.append(prompt)
            if len(after_hand) > 1:
                raise EOFError
        if "[blind/look]" in prompt:
            return "look"
        if "Your bid" in prompt:
            return "2"
        return re.findall(r"You can (?:play|pass): (.*)", "\n".join(out))[-1].split()[-1]

    play_main(["--partner", "random", "--opponents", "random", "--seed", "9", "--save", str(save)], person, out.append)
    games = load_games(str(save))
    assert len(games) == 1 and len(games[0].hands) == 1 and games[0].pending_actions > 0
    screen = Screen()
    assert main([str(save), "--no-pause"], screen.read, screen.write) == 0
    assert "North (human)" in screen.text and "East (random)" in screen.text
    check_hand_shown(screen.text, games[0].hands[0])
    assert "the save stops in the middle of hand 2" in screen.text
    saved = [json.loads(line) for line in save.read_text().splitlines()]
    assert saved[0]["type"] == "header"


def test_hand_records_and_bad_files(tmp_path, capsys):
    record = recorded_game(3, single_hand=True)
    hands = tmp_path / "hands.jsonl"
    hands.write_text("".join(json.dumps(h) + "\n" for h in record["hands"]))
    screen = Screen()
    assert main([str(hands), "--no-pause"], screen.read, screen.write) == 0
    assert "Replaying hand records: 1 hand(s)." in screen.text
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"foo": 1}\n')
    assert main([str(bad)]) == 2
    assert "record 1 is not a game record" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.jsonl")]) == 2
    assert main([str(hands), "--game", "2"]) == 2
    assert "--game must be in 1..1" in capsys.readouterr().err


def test_the_command_pauses_on_piped_input(tmp_path):
    path = tmp_path / "games.jsonl"
    write_games(path, [recorded_game(4, single_hand=True)])
    proc = subprocess.run([sys.executable, "-m", "spades_env.agents.cli", "replay", str(path)], input=b"\nq\n",
                          capture_output=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout.decode()
    assert out.count("Trick ") == 1 and out.count("q quit > ") == 2
