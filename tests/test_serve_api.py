"""``spades serve``'s HTTP API through Starlette's test client: whole games by API calls (saved as they go
and replayed through the engine), every kind of bad request refused with a 4xx and a one-line reason with
the game and its save unchanged, two tabs, several games at once with a slow agent, a restart and resume
from the save folder, and the dataset of the person's decisions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; the lowest Starlette we take needs httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from spades_env import actions as A  # noqa: E402
from spades_env.agent import forced_action  # noqa: E402
from spades_env.agents.play.save import read_save, restore  # noqa: E402
from spades_env.agents.replay_records import load_games  # noqa: E402
from spades_env.agents.serve import read_human_games  # noqa: E402
from spades_env.agents.serve.app import MAX_BODY, create_app  # noqa: E402
from spades_env.observations import encode  # noqa: E402
from spades_env.records import replay_hand  # noqa: E402

AGENTS = ["random", "heuristic"]
SLOW_BOT = '''
import time


class Slow:
    """Thinks for a while, then plays the first legal action."""

    def act(self, observation, action_mask, view):
        time.sleep(SECONDS)
        return int(action_mask.nonzero()[0][0])
'''


def client(folder: Path, agents: list[str] = AGENTS) -> TestClient:
    return TestClient(create_app(agents, folder, pace_ms=0, analysis_nodes=20_000))


class Tab:
    """One browser tab's calls for the person's seat of a game."""

    def __init__(self, http: TestClient, created: dict) -> None:
        self.http, self.id, self.token = http, created["game"]["id"], created["token"]
        self.seat, self.last = created["game"]["seat"], created["frames"][-1]

    def get(self, since: int = -1, wait: int = 0) -> dict:
        answer = self.http.get(f"/api/games/{self.id}?since={since}&wait={wait}", headers={"x-seat-token": self.token})
        assert answer.status_code == 200, answer.text
        data = answer.json()
        if data["frames"]:
            self.last = data["frames"][-1]
        return data

    def my_turn(self, timeout: float = 30) -> dict | None:
        """The frame at which the person is to act (None once the game is over)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            data = self.get(self.last["seq"], wait=5)
            if data["error"]:
                raise AssertionError(data["error"])
            if data["over"] and not data["running"]:
                return None
            if not data["running"] and self.last["to_act"] == self.seat and data["seq"] == self.last["seq"]:
                return self.last
        raise AssertionError("the person's turn did not come")

    def act(self, action: int, seq: int | None = None, token: str | None = None):
        body = {"token": self.token if token is None else token, "seq": self.last["seq"] if seq is None else seq,
                "action": action}
        return self.http.post(f"/api/games/{self.id}/act", json=body)


def choose(frame: dict, blind: bool = True) -> int:
    """Blind Nil when offered (so the exchange or the replacements come) and ``blind``, else look; bid 3; else
    the first legal action."""
    if A.BLIND_NIL in frame["legal"]:
        return A.BLIND_NIL if blind else A.LOOK
    return A.BID_BASE + 3 if A.BID_BASE + 3 in frame["legal"] else frame["legal"][0]


def new_game(http: TestClient, **body) -> Tab:
    answer = http.post("/api/games", json={"partner": "heuristic", "opponents": "random", **body})
    assert answer.status_code == 201, answer.text
    return Tab(http, answer.json())


def play_out(tab: Tab, path: Path, stop_after: int | None = None, blind: bool = True) -> int:
    """The person's moves until the end (or ``stop_after`` of them); after each answer the save holds it."""
    moves = 0
    while (frame := tab.my_turn()) is not None and moves != stop_after:
        action = choose(frame, blind)
        answer = tab.act(action)
        assert answer.status_code == 200, answer.text
        moves += 1
        assert read_save(str(path))[1][frame["seq"]] == (tab.seat, action)  # written before the answer
    return moves


def check_save_replays(path: Path) -> list[dict]:
    """The save rebuilds the finished game, and every hand record in it replays through the engine."""
    setup, moves = read_save(str(path))
    game = restore(setup, moves)
    assert game.game_over
    hands = load_games(str(path))[0].hands
    assert hands == game.hand_records
    for record in hands:
        replay_hand(record, setup.spades_config())
    return hands


@pytest.mark.parametrize("num_players", [4, 2])
def test_a_whole_single_hand_by_api_calls(tmp_path, num_players):
    with client(tmp_path) as http:
        options = http.get("/api/options").json()
        assert [a["label"] for a in options["agents"]] == AGENTS and {"default", "house"} <= \
            {p["name"] for p in options["presets"]}
        body = {"num_players": num_players, "seat": 0, "mode": "hand", "seed": 3, "opponents": "random"}
        if num_players == 4:
            body["partner"] = "random"  # random-v1 (frozen) looks at its cards at this seed: the exchange comes
        answer = http.post("/api/games", json=body)
        assert answer.status_code == 201, answer.text
        tab = Tab(http, answer.json())
        meta = answer.json()["game"]
        assert meta["seats"][1]["version"] == "random-v1" and meta["rules"].startswith("default rules")
        path = tmp_path / f"{tab.id}.jsonl"
        assert play_out(tab, path) > 0
        assert "Game over after 1 hand" in tab.last["result"]
        (record,) = check_save_replays(path)
        assert record["blind_nil"][0]  # the person bid Blind Nil ...
        exchanged = record["passes"] if num_players == 4 else record["replacements"]
        assert any(move[0] == 0 for move in exchanged)  # ... and passed (four) or put back (two) cards
        header = json.loads(path.read_text().splitlines()[0])
        assert header["agents"][0] == "human" and header["versions"][1] == "random-v1"

        for _ in range(200):  # the hand's double-dummy analysis, computed off the request
            analysis = http.get(f"/api/games/{tab.id}/analysis/1")
            if analysis.status_code == 200:
                break
            assert analysis.status_code == 202
            time.sleep(0.1)
        result = analysis.json()
        assert result["hand"] == 1 and result["points"] == record["points"] and result["analyzed"] > 0
        assert all(error["cost"] > 0 for error in result["errors"])
        page = http.get(f"/games/{tab.id}/replay")
        assert page.status_code == 200 and 'id="game-data"' in page.text and "costly plays" in page.text
        assert http.get(f"/games/{tab.id}/save").content == path.read_bytes()
        (listed,) = http.get("/api/games").json()["games"]
        assert listed["id"] == tab.id and listed["over"] and listed["hands"] == 1


def test_a_game_to_the_target_score(tmp_path):
    with client(tmp_path) as http:
        tab = new_game(http, mode="game", rules={"max_hands": 3}, seed=3)
        path = tmp_path / f"{tab.id}.jsonl"
        play_out(tab, path, blind=False)
        hands = check_save_replays(path)
        assert 1 < len(hands) <= 3 and hands[-1]["game_over"]  # to 500, or stopped after 3 hands


# ------------------------------------------------------------------ bad requests


def snapshot(tab: Tab, folder: Path) -> tuple:
    data = tab.http.get(f"/api/games/{tab.id}").json()
    return data["frames"], data["seq"], sorted(p.name for p in folder.iterdir()), \
        (folder / f"{tab.id}.jsonl").read_bytes()


def refused(answer, status: int, words: str) -> None:
    assert answer.status_code == status, (answer.status_code, answer.text)
    reason = answer.json()["error"]
    assert words in reason and "\n" not in reason, reason


def test_every_bad_request_is_refused_and_changes_nothing(tmp_path):
    with client(tmp_path) as http:
        tab = new_game(http, seed=5)
        frame = tab.my_turn()
        before = snapshot(tab, tmp_path)
        url = f"/api/games/{tab.id}/act"
        post = lambda content, **headers: http.post(url, content=content, headers=headers)  # noqa: E731
        refused(post(b"{not json"), 400, "not JSON")
        refused(post(b"\xff\xfe"), 400, "not JSON")
        refused(post(json.dumps([1, 2])), 400, "JSON object")
        refused(http.post(url, json={"token": tab.token, "seq": frame["seq"]}), 400, "JSON object")
        refused(http.post(url, json={"token": tab.token, "seq": frame["seq"], "action": 1, "x": 1}), 400,
                "JSON object")
        refused(tab.act("AS"), 400, "whole numbers")
        refused(tab.act(1.0), 400, "whole numbers")
        refused(tab.act(True), 400, "whole numbers")
        refused(tab.act(frame["legal"][0], seq=str(frame["seq"])), 400, "whole numbers")
        refused(tab.act(frame["legal"][0], token="forged"), 403, "does not hold the seat")
        refused(tab.act(frame["legal"][0], token=""), 403, "does not hold the seat")
        refused(tab.act(frame["legal"][0], token="\u00fc\u2660"), 403, "does not hold the seat")
        refused(tab.act(frame["legal"][0], token=["x"]), 403, "does not hold the seat")
        refused(tab.act(frame["legal"][0], seq=frame["seq"] - 1), 409, "stale or replayed")
        refused(tab.act(frame["legal"][0], seq=frame["seq"] + 1), 409, "stale or replayed")
        illegal = next(a for a in range(A.NUM_ACTIONS) if a not in frame["legal"])
        refused(tab.act(illegal), 422, "")
        refused(tab.act(999), 422, "no action has the id 999")
        refused(tab.act(-1), 422, "no action has the id -1")
        refused(post(b'{"token": "' + b"x" * MAX_BODY + b'"}'), 413, "larger than")
        refused(post(b"{}", **{"content-length": "99999999"}), 413, "larger than")
        refused(http.get(f"/api/games/{tab.id}?since=abc"), 400, "since must be")
        refused(http.get(f"/api/games/{tab.id}?wait=100000"), 400, "wait must be")
        refused(http.get(f"/api/games/{tab.id}/analysis/1"), 404, "not over")
        refused(http.get(f"/api/games/{tab.id}/analysis/x"), 404, "must be a number")
        refused(http.get("/api/games/20990101-000000-abcdef"), 404, "no game")
        refused(http.get("/api/games/..%2F..%2Fetc%2Fpasswd"), 404, "no ")
        refused(http.post("/api/games/not-an-id/act", json={}), 404, "no game")
        refused(http.delete(url), 405, "not allowed")
        refused(http.get("/nowhere"), 404, "no page")
        refused(http.get("/static/../app.py"), 404, "")
        assert snapshot(tab, tmp_path) == before

        # A legal action sent twice: the first plays, the replay is refused and changes nothing more.
        assert tab.act(frame["legal"][0]).status_code == 200
        tab.my_turn()  # the bots have played on
        after = snapshot(tab, tmp_path)
        refused(tab.act(frame["legal"][0], seq=frame["seq"]), 409, "stale or replayed")
        assert snapshot(tab, tmp_path) == after


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"opponents": "mybot:Bot"}, 400, "unknown agent 'mybot:Bot'"),  # a spec is never taken from a request
    ({"opponents": "./evil.py:Bot"}, 400, "unknown agent"),
    ({"opponents": {"spec": "heuristic"}}, 400, "unknown agent"),
    ({"partner": "heuristic:seed=3"}, 400, "unknown agent"),
    ({"opponents": ["random"]}, 400, "one per opponent seat"),
    ({"num_players": 3}, 400, "num_players must be 4 or 2"),
    ({"num_players": "4"}, 400, "num_players must be 4 or 2"),
    ({"seat": 4}, 400, "seat must be"),
    ({"seat": True}, 400, "seat must be"),
    ({"num_players": 2, "partner": "random"}, 400, "no partners"),
    ({"mode": "forever"}, 400, "mode must be"),
    ({"seed": -1}, 400, "seed must be"),
    ({"rules": {"agent": "x"}}, 400, "unknown option 'agent'"),
    ({"rules": {"bag_limit": "5"}}, 400, "bag_limit must be a whole number"),
    ({"rules": {"nil": 1}}, 400, "nil must be true or false"),
    ({"rules": {"preset": "casino"}}, 400, "unknown preset"),
    ({"rules": {"bag_limit": 0}}, 422, "bag_limit"),
    ({"rules": "house"}, 400, "rules must be an object"),
    ({"spec": "heuristic"}, 400, "unknown field 'spec'"),
])
def test_bad_new_games_are_refused_and_save_nothing(tmp_path, body, status, words):
    with client(tmp_path) as http:
        refused(http.post("/api/games", json={"partner": "random", "opponents": "random", **body}), status, words)
        assert not list(tmp_path.iterdir())


def test_two_tabs_cannot_both_act_for_the_seat(tmp_path):
    with client(tmp_path) as http:
        first = new_game(http, seed=8)
        frame = first.my_turn()
        claimed = http.post(f"/api/games/{first.id}/claim").json()
        second = Tab(http, {"game": {"id": first.id, "seat": first.seat}, "token": claimed["token"],
                            "frames": claimed["frames"]})
        assert first.get()["holder"] == "other" and second.get()["holder"] == "you"
        refused(first.act(frame["legal"][0]), 403, "does not hold the seat")
        assert second.act(frame["legal"][0]).status_code == 200


# ------------------------------------------------------------------ several games, a slow agent, a restart


def test_games_do_not_interfere_and_a_slow_agent_blocks_no_other_game(tmp_path):
    (tmp_path / "slowbot.py").write_text(SLOW_BOT.replace("SECONDS", "3"))
    games = tmp_path / "games"
    with client(games, [*AGENTS, f"{tmp_path / 'slowbot.py'}:Slow:name=slow"]) as http:
        seed = next(s for s in range(100) if first_drawer(s) == 0)
        answer = http.post("/api/games", json={"num_players": 2, "seat": 1, "opponents": "slow", "seed": seed})
        assert answer.status_code == 201, answer.text
        slow = Tab(http, answer.json())
        fast = new_game(http, seed=4)
        started = time.monotonic()
        state = slow.get()
        assert state["running"] and slow.last["to_act"] == 0  # the slow bot thinks: it draws first
        refused(slow.act(A.LOOK), 409, "not your turn")
        longest = 0.0
        while (frame := fast.my_turn()) is not None and time.monotonic() - started < 1.5:
            sent = time.monotonic()
            assert fast.act(choose(frame)).status_code == 200
            longest = max(longest, time.monotonic() - sent)
        assert longest < 1.0 and fast.last["seq"] > 10  # the fast game went on while the slow bot slept 3 s
        assert slow.get()["seq"] == 0 and slow.get()["running"]
    saves = {p.stem: read_save(str(p))[0] for p in games.glob("*.jsonl")}
    assert saves[slow.id].agents[0].endswith(":Slow:name=slow") and saves[fast.id].agents[1] == "random"


def first_drawer(seed: int) -> int:
    from spades_env.game import SpadesGame

    game = SpadesGame(num_players=2)
    game.reset(seed)
    return game.dealer


def test_restart_mid_hand_resumes_from_the_save_folder(tmp_path):
    with client(tmp_path) as http:
        tab = new_game(http, seed=21, mode="game")
        path = tmp_path / f"{tab.id}.jsonl"
        play_out(tab, path, stop_after=8)
        before = tab.get()["frames"][-1]
    with client(tmp_path) as http:  # a new server on the same folder
        listed = http.get("/api/games").json()["games"]
        assert [row["id"] for row in listed] == [tab.id] and not listed[0]["over"]
        state = http.get(f"/api/games/{tab.id}").json()
        assert state["frames"][-1] == before and state["holder"] is None
        refused(http.post(f"/api/games/{tab.id}/act", json={"token": tab.token, "seq": before["seq"],
                                                            "action": before["legal"][0]}), 403, "take the seat")
        claimed = http.post(f"/api/games/{tab.id}/claim").json()
        tab = Tab(http, {"game": {"id": tab.id, "seat": tab.seat}, "token": claimed["token"],
                         "frames": claimed["frames"]})
        play_out(tab, path, stop_after=4)
    with client(tmp_path, ["random"]) as http:  # a server without the partner's agent cannot open it
        refused(http.get(f"/api/games/{tab.id}"), 409, "which this server was not started with")
        assert http.get("/api/games").json()["games"][0]["missing"] == ["heuristic"]


@pytest.mark.filterwarnings("ignore:.*incomplete last line")
def test_a_server_killed_mid_hand_loses_nothing(tmp_path):
    with client(tmp_path) as http:
        tab = new_game(http, seed=33)
        path = tmp_path / f"{tab.id}.jsonl"
        play_out(tab, path, stop_after=5)
        seq = tab.get()["seq"]
        saved = path.read_bytes()
    # What a kill leaves: the lines flushed so far, and maybe half a line being written.
    path.write_bytes(saved + b'{"type": "action", "pla')
    with client(tmp_path) as http:
        state = http.get(f"/api/games/{tab.id}").json()
        assert state["seq"] == seq and state["error"] is None


# ------------------------------------------------------------------ the dataset


def test_the_dataset_of_the_persons_decisions(tmp_path):
    with client(tmp_path) as http:
        for seed in (1, 2):
            tab = new_game(http, seed=seed, seat=seed)
            play_out(tab, tmp_path / f"{tab.id}.jsonl")
        answer = http.post("/api/games", json={"num_players": 2, "opponents": "random", "seed": 3})
        two = Tab(http, answer.json())
        play_out(two, tmp_path / f"{two.id}.jsonl", stop_after=6)  # unfinished: its decisions count too
    (tmp_path / "notes.jsonl").write_text('{"not": "a save"}\n')

    data = read_human_games(tmp_path)
    assert len(data.files) == 2 and len(data) > 20
    assert data.observations.shape == (len(data), encode_size(4)) and data.masks.shape == (len(data), A.NUM_ACTIONS)
    expected_rows = []
    for index, file in enumerate(data.files):
        setup, moves = read_save(file)
        game = setup.new_game()
        for player, action in moves:
            if player == setup.seat and forced_action(game.legal_mask()) is None:
                expected_rows.append((encode(game, player), action, index))
            game.apply(action)
    assert len(expected_rows) == len(data)
    for row, (observation, action, index) in enumerate(expected_rows):
        assert np.array_equal(data.observations[row], observation)
        assert data.actions[row] == action and data.games[row] == index and data.masks[row][action] == 1
    assert len(read_human_games(tmp_path, include_forced=True)) > len(data)
    assert len(read_human_games(tmp_path, num_players=2)) > 0


def encode_size(num_players: int) -> int:
    from spades_env.observations import observation_size

    return observation_size(num_players)


# ------------------------------------------------------------------ the command


def test_spades_serve_binds_localhost_and_says_where_to_point_the_browser(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "spades_env.agents.cli", "serve", "--agents", "random",
                                "--port", "0", "--games-dir", str(tmp_path / "games")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONWARNINGS": "ignore"})
    try:
        line = process.stdout.readline()
        assert line.startswith("spades serve: open http://127.0.0.1:"), line + process.stderr.read()
        url = line.split()[3]
        with urllib.request.urlopen(url, timeout=10) as page:
            html = page.read().decode()
        assert "<title>Spades</title>" in html and "http" not in html.replace("http://www.w3.org/2000/svg", "")
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_spades_serve_refuses_an_unknown_agent_in_one_line(capsys):
    from spades_env.agents.serve.cli import main

    assert main(["--agents", "nosuchbot", "--games-dir", "/nonexistent/never"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spades serve: unknown agent 'nosuchbot'") and err.count("\n") == 1


@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_spades_serve_refuses_a_port_outside_0_to_65535_in_one_line(capsys, port):
    from spades_env.agents.serve.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["--port", port])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "argument --port:" in err and "Traceback" not in err
