"""Game records (four players): JSON Lines writing and reading, resuming, and replay through the
engine that catches any record the engine disagrees with."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from spades_env import SpadesGame, spades_v0
from spades_env import actions as A
from spades_env.game import Phase
from spades_env.records import (
    FORMAT,
    LEGACY_FORMATS,
    GameWriter,
    RecordMismatchError,
    game_record,
    read_games,
    replay_game,
    replay_hand,
    write_games,
)

CONFIGS = [{"max_hands": 4}, {"single_hand": True}, {"target_score": 150, "bag_limit": 4, "bag_penalty": 30},
           {"mercy_threshold": -150, "blind_nil_min_deficit": 30, "nil": False}, {"blind_nil": False, "max_hands": 3}]


def play_game(seed: int, config: dict, options: dict | None = None) -> dict:
    """A random game (Blind Nil bid often, so records hold exchanges) and its game record."""
    game = SpadesGame(**config)
    game.reset(seed, **(options or {}))
    rng = random.Random(seed)
    while not game.game_over:
        if game.phase == Phase.BLIND:
            game.apply(A.BLIND_NIL if rng.random() < 0.3 else A.LOOK)
        else:
            game.apply(rng.choice(game.legal_actions()))
    return game_record(game, seed)


@pytest.fixture(scope="module")
def games() -> list[dict]:
    out = [play_game(seed, CONFIGS[seed % len(CONFIGS)]) for seed in range(25)]
    out.append(play_game(99, {"max_hands": 3}, {"dealer": 2, "scores": [120, -80], "bags": [7, 2],
                                                "deal": [[s * 13 + r for r in range(13)] for s in range(4)]}))
    return out


# ------------------------------------------------------------------- content


def test_game_record_content(games):
    record = games[0]
    assert record["format"] == FORMAT and record["seed"] == 0
    assert record["config"] == SpadesGame(**CONFIGS[0]).config.to_dict()
    assert record["first_dealer"] == record["hands"][0]["dealer"]
    last = record["hands"][-1]
    assert (record["scores"], record["winner"], record["truncated"]) == (last["scores"], last["winner"],
                                                                         last["truncated"])
    assert json.loads(json.dumps(record)) == record  # JSON-ready as it is
    assert any(h["passes"] for g in games for h in g["hands"])  # the sample exercises the exchange
    assert any(g["winner"] is not None for g in games) and any(g["truncated"] for g in games)


def test_hand_record_fields_rules_section_3(games):
    hand = games[0]["hands"][0]
    for key in ("dealer", "hands", "bids", "blind_nil", "passes", "plays", "trick_winners", "tricks", "sides",
                "points", "scores", "bags", "scores_before", "bags_before", "actions"):
        assert key in hand
    for side in hand["sides"]:
        assert {"contract", "bags_taken", "nil", "bag_penalty", "bags_after", "total"} <= set(side)
        assert "overtricks" not in side  # spades-game/1's copy of bags_taken is no longer written


def test_env_records_match_the_engine_and_make_a_game_record():
    env = spades_v0.env(max_hands=2)
    env.reset(seed=3)
    rng = random.Random(3)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else rng.choice([i for i, m in enumerate(obs["action_mask"]) if m]))
    record = game_record(env.unwrapped.game, seed=3)
    assert record["hands"] == env.unwrapped.hand_records and len(record["hands"]) == 2
    replay_game(record)


# --------------------------------------------------------------- JSON Lines


def test_write_and_read_back(tmp_path, games):
    path = tmp_path / "games.jsonl"
    assert write_games(path, games) == len(games)
    assert list(read_games(path)) == games
    lines = path.read_text().splitlines()
    assert len(lines) == len(games) and all(json.loads(line)["format"] == FORMAT for line in lines)


def test_writer_flushes_each_game_and_appends_on_resume(tmp_path, games):
    path = tmp_path / "t.jsonl"
    with GameWriter(path) as writer:
        writer.write(games[0])
        assert list(read_games(path)) == games[:1]  # on disk before the writer is closed
        writer.write(games[1])
        assert list(read_games(path)) == games[:2]
    with GameWriter(path) as writer:  # a resumed tournament appends
        writer.write(games[2])
    assert list(read_games(path)) == games[:3]


def test_an_interrupted_write_is_dropped_on_read_and_on_resume(tmp_path, games):
    path = tmp_path / "crash.jsonl"
    write_games(path, games[:2])
    with open(path, "a") as f:
        f.write(json.dumps(games[2])[:200])  # the process died mid-line
    with pytest.warns(UserWarning, match="incomplete last line"):
        assert list(read_games(path)) == games[:2]
    with pytest.warns(UserWarning, match="incomplete last line"):
        writer = GameWriter(path)
    writer.write(games[3])
    writer.close()
    assert list(read_games(path)) == games[:2] + games[3:4]


def test_a_corrupt_line_in_the_middle_is_an_error(tmp_path, games):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(games[0]) + "\n{not json\n" + json.dumps(games[1]) + "\n")
    with pytest.raises(ValueError, match=r"bad.jsonl:2: not a JSON game record"):
        list(read_games(path))
    path.write_text("[1, 2]\n")
    with pytest.raises(ValueError, match="expected a JSON object"):
        list(read_games(path))


def test_blank_lines_are_skipped(tmp_path, games):
    path = tmp_path / "blank.jsonl"
    path.write_text("\n" + json.dumps(games[0]) + "\n\n")
    assert list(read_games(path)) == games[:1]


# --------------------------------------------------------------------- replay


def test_every_game_replays(tmp_path, games):
    path = tmp_path / "all.jsonl"
    write_games(path, games)
    for record in read_games(path):
        fresh = replay_game(record)
        assert fresh == record["hands"]


def test_replay_hand_returns_the_engines_record(games):
    for game in games[:5]:
        for hand in game["hands"]:
            assert replay_hand(hand, game["config"]) == hand


def tampered(games, mutate):
    """A copy of the first game with several hands and a Blind Nil exchange, changed by ``mutate``."""
    game = next(g for g in games if len(g["hands"]) >= 2 and any(h["passes"] for h in g["hands"][:1]))
    game = copy.deepcopy(game)
    mutate(game)
    return game


def swap_two_plays(g):
    actions = g["hands"][0]["actions"]
    i = len(actions) - 8
    actions[i], actions[i + 1] = actions[i + 1], actions[i]


@pytest.mark.parametrize("mutate, message", [
    (lambda g: g["hands"][0]["points"].__setitem__(0, g["hands"][0]["points"][0] + 10), "points"),
    (lambda g: g["hands"][0]["sides"][1].__setitem__("bags_taken", 99), "sides"),
    (lambda g: g["hands"][0]["sides"][1].__setitem__("overtricks", 99), "overtricks 99 but bags_taken"),
    (lambda g: g["hands"][0]["scores"].__setitem__(1, g["hands"][0]["scores"][1] + 1), "scores"),
    (lambda g: g["hands"][0]["bags"].__setitem__(0, g["hands"][0]["bags"][0] + 1), "bags"),
    (lambda g: g["hands"][0]["tricks"].__setitem__(0, g["hands"][0]["tricks"][0] + 1), "tricks"),
    (lambda g: g["hands"][0]["trick_winners"].__setitem__(0, (g["hands"][0]["trick_winners"][0] + 1) % 4),
     "trick_winners"),
    (lambda g: g["hands"][0]["bids"].__setitem__(0, (g["hands"][0]["bids"][0] + 1) % 14), "bids"),
    (lambda g: g["hands"][0]["passes"].pop(), "passes"),
    (lambda g: g["hands"][0]["plays"].reverse(), "plays"),
    (swap_two_plays, "is to act"),
    (lambda g: g["hands"][0]["actions"].pop(), "not over"),
    (lambda g: g["hands"][0]["actions"].append([0, 0]), "over after"),
    (lambda g: g["hands"][0]["actions"].__setitem__(0, [(g["hands"][0]["actions"][0][0] + 1) % 4,
                                                        g["hands"][0]["actions"][0][1]]), "player"),
    (lambda g: g["hands"][0]["actions"].__setitem__(0, [g["hands"][0]["actions"][0][0], 999]), "illegal action"),
    (lambda g: g["hands"][0]["hands"][0].__setitem__(0, g["hands"][0]["hands"][1][0]), "repeats cards"),
    (lambda g: g["hands"][0].pop("dealer"), "dealer"),
])
def test_replay_catches_a_changed_hand(games, mutate, message):
    game = tampered(games, mutate)
    with pytest.raises(RecordMismatchError, match=message):
        replay_game(game)
    with pytest.raises(RecordMismatchError, match=message):
        replay_hand(game["hands"][0], game["config"])


@pytest.mark.parametrize("mutate, message", [
    (lambda g: g["hands"][1]["scores_before"].__setitem__(0, g["hands"][1]["scores_before"][0] + 1),
     "does not continue"),
    (lambda g: g["hands"][1]["bags_before"].__setitem__(1, (g["hands"][1]["bags_before"][1] + 1) % 4),
     "does not continue"),
    (lambda g: g.__setitem__("first_dealer", (g["first_dealer"] + 1) % 4), "passes to the left"),
    (lambda g: g["hands"].pop(), "not over"),
    (lambda g: g["hands"].pop(0), "numbered"),
    (lambda g: g.__setitem__("scores", [0, 0]), "game scores"),
    (lambda g: g.__setitem__("winner", 1 - (g["winner"] or 0)), "game winner"),
    (lambda g: g.__setitem__("truncated", not g["truncated"]), "game truncated"),
    (lambda g: g.__setitem__("hands", []), "no hands"),
    (lambda g: g.__setitem__("format", "spades-game/3"), "unknown record format"),
])
def test_replay_game_checks_the_chain_of_hands(games, mutate, message):
    with pytest.raises(RecordMismatchError, match=message):
        replay_game(tampered(games, mutate))


def test_replay_uses_the_recorded_config(games):
    """The same actions scored under another bag limit disagree with the record."""
    game = next(g for g in games if g["config"]["bag_limit"] == 4 and any(
        h["sides"][s]["bag_penalty"] for h in g["hands"] for s in (0, 1)))
    replay_game(game)
    hand = next(h for h in game["hands"] if any(s["bag_penalty"] for s in h["sides"]))
    with pytest.raises(RecordMismatchError, match="bag"):
        replay_hand(hand, {**game["config"], "bag_limit": 10})


# ------------------------------------------------------------ older formats

LEGACY_FILE = Path(__file__).parent / "data" / "records_v1.jsonl"  # written by the code of commit c31d672


def without_overtricks(hand: dict) -> dict:
    return {**hand, "sides": [{k: v for k, v in side.items() if k != "overtricks"} for side in hand["sides"]]}


def test_spades_game_1_records_still_replay():
    """Games written before SideScore lost its copy of bags_taken (four players with a Blind Nil exchange,
    a won game with bag penalties, two players with replacements, a single hand) replay, and the engine's
    fresh hands are the recorded ones without the copy."""
    legacy = list(read_games(LEGACY_FILE))
    assert {g["format"] for g in legacy} == set(LEGACY_FORMATS)
    assert {g["config"]["num_players"] for g in legacy} == {2, 4} and any(g["winner"] is not None for g in legacy)
    assert all("overtricks" in side for g in legacy for h in g["hands"] for side in h["sides"])
    for game in legacy:
        assert replay_game(game) == [without_overtricks(h) for h in game["hands"]]


@pytest.mark.parametrize("field", ["overtricks", "bags_taken"])
def test_spades_game_1_records_are_checked_as_strictly(field):
    game = copy.deepcopy(next(read_games(LEGACY_FILE)))
    game["hands"][0]["sides"][0][field] += 1
    with pytest.raises(RecordMismatchError, match="sides"):
        replay_game(game)
