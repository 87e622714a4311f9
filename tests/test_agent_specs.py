"""Agent specs and the agent API: constructor arguments, modules and files of the user's own, the one rule for
``NAME:WORD``, agents files and display names; the config at reset, declared variants, the end-of-run hook,
and the view's tricks."""

from __future__ import annotations

import json
import os
import random

import pytest

from spades_env import SpadesConfig
from spades_env.agent import UnsupportedConfigError, check_config, reset_agent
from spades_env.agents import AgentSpec, AgentSpecError, load_agents_file, make_agent
from spades_env.agents.heuristic import HeuristicAgent
from spades_env.agents.match import play_game
from spades_env.agents.random_agent import RandomAgent
from spades_env.agents.tournament import TournamentSpec, run_tournament
from spades_env.game import SpadesGame
from spades_env.view import player_view

BOT = '''
"""A user's bot: bids ``bid``, then plays its lowest legal card."""
from spades_env.actions import bid_action


class LowestCard:
    needs_observation = False
    needs_view = False

    def __init__(self, bid=3, style="plain", weights=None):
        self.bid, self.style, self.weights = bid, style, weights

    def act(self, observation, action_mask, view):
        legal = action_mask.nonzero()[0]
        return bid_action(self.bid) if bid_action(self.bid) in legal else int(legal[0])
'''


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A temporary current directory holding ``mybot.py``."""
    (tmp_path / "mybot.py").write_text(BOT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ------------------------------------------------------------------ parsing


@pytest.mark.parametrize("text, head, part, kwargs, name", [
    ("heuristic", "heuristic", None, {}, None),
    ("heuristic:seed=3", "heuristic", None, {"seed": 3}, None),
    ("mybot:Bot:depth=3,style=safe", "mybot", "Bot", {"depth": 3, "style": "safe"}, None),
    ("ppo:runs/x.pt:greedy=false", "ppo", "runs/x.pt", {"greedy": False}, None),
    ("./bots/mybot.py:Bot:name=deep", "./bots/mybot.py", "Bot", {}, "deep"),
    ("split:ppo:x.pt+heuristic", "split", "ppo:x.pt+heuristic", {}, None),
    ('m:C:w=[1,2.5],s="a,b:c",t=none,r=0.5,n=-2,x=nan', "m", "C",
     {"w": [1, 2.5], "s": "a,b:c", "t": None, "r": 0.5, "n": -2, "x": "nan"}, None),
])
def test_specs_parse_and_write_back(text, head, part, kwargs, name):
    spec = AgentSpec.parse(text)
    assert (spec.head, spec.part, dict(spec.kwargs), spec.name) == (head, part, kwargs, name)
    assert AgentSpec.parse(str(spec)) == spec
    assert spec.label == (name or str(spec))


def test_string_values_that_look_like_numbers_survive_the_round_trip():
    spec = AgentSpec("m", "C", {"code": "007", "flag": "true", "empty": ""})
    assert dict(AgentSpec.parse(str(spec)).kwargs) == {"code": "007", "flag": "true", "empty": ""}


# ------------------------------------------------------------------ building


def test_registered_agents_take_keyword_arguments():
    agent = make_agent("heuristic:seed=3")
    assert agent.rng.random() == random.Random(3).random()
    assert make_agent("random:seed=5").rng.random() == RandomAgent(5).rng.random()
    with pytest.raises(AgentSpecError, match=r"keyword argument 'sed'; heuristic_v2 takes \(seed, bid_shift_4p, "):
        make_agent("heuristic:sed=3")


def test_a_word_after_a_registered_name_is_never_a_silent_seed():
    with pytest.raises(AgentSpecError, match="takes keyword arguments only .* no heuristic.py|there is none"):
        make_agent("heuristic:MyAgent")


@pytest.mark.parametrize("name", ["heuristic", "random", "ppo", "split"])
def test_a_user_module_named_like_a_registered_agent(here, name):
    (here / f"{name}.py").write_text(BOT.replace("LowestCard", "MyAgent"))
    agent = make_agent(f"{name}:MyAgent:bid=2")
    assert type(agent).__name__ == "MyAgent" and agent.bid == 2
    if name in ("heuristic", "random"):  # the bare name is still the registry's
        assert type(make_agent(name)).__module__.startswith("spades_env.agents.")


def test_both_readings_possible_is_an_error_saying_how_to_write_each(here):
    (here / "ppo.py").write_text(BOT.replace("LowestCard", "policy"))
    (here / "policy").write_text("not a policy")
    with pytest.raises(AgentSpecError, match=r"ambiguous.*ppo:\./policy or ppo\.py:policy"):
        make_agent("ppo:policy")


def test_modules_of_the_current_directory_and_files_by_path(here):
    agent = make_agent("mybot:LowestCard:bid=2,style=safe,weights=[1,2]")
    assert (agent.bid, agent.style, agent.weights) == (2, "safe", [1, 2])
    (here / "bots").mkdir()
    (here / "bots" / "other.py").write_text(BOT)
    assert make_agent("./bots/other.py:LowestCard:bid=4").bid == 4
    assert make_agent(f"{here / 'bots' / 'other.py'}:LowestCard").bid == 3


@pytest.mark.parametrize("spec, message", [
    ("mybot", r"mybot.py is in the current directory: name its class, mybot:CLASS"),
    ("mybot:Lowest", r"has no class or function 'Lowest'; its classes: LowestCard"),
    ("nobot:Bot", r"no module 'nobot' is in the current directory .* path/to/nobot.py:Bot"),
    ("./nobot.py:Bot", r"no file nobot.py"),
    ("./mybot.py", r"name the class in the file, ./mybot.py:CLASS"),
    ("mybot:LowestCard:depth=3", r"unexpected keyword argument 'depth'.*takes \(bid, style, weights\)"),
    ("broken:Bot", r"loading broken.py failed: SyntaxError: .*\(broken.py:2\)"),
    ("raises:Bot", r"loading raises.py failed: ZeroDivisionError: division by zero \(raises.py:1\)"),
    ("random:Random", r"made a Random, which has no act"),
    ("mybot:LowestCard:style=a,b", r"keyword arguments 'style=a,b' have 'b', which is not key=value; .* key=\"a,b\""),
    ("mybot:LowestCard:bid=4,", r"have an empty item \(a stray comma\)"),
])
def test_spec_errors_are_one_line_and_say_what_would_work(here, spec, message):
    (here / "broken.py").write_text("class Bot:\n    def act(self\n")
    (here / "raises.py").write_text("1 / 0\n")
    with pytest.raises(AgentSpecError, match=message) as info:
        make_agent(spec)
    assert "\n" not in str(info.value)


def test_agents_file_json_and_yaml(here):
    entries = {"low": "mybot:LowestCard:bid=2", "safe": {"spec": "mybot:LowestCard", "kwargs": {"style": "a, b"}},
               "h3": "heuristic:seed=3"}
    (here / "agents.json").write_text(json.dumps(entries))
    specs = load_agents_file("agents.json")
    assert [AgentSpec.parse(s).label for s in specs] == ["low", "safe", "h3"]
    assert make_agent(specs[1]).style == "a, b" and make_agent(specs[0]).bid == 2
    assert TournamentSpec(agents=tuple(specs), games=2).labels == ("low", "safe", "h3")
    pytest.importorskip("yaml")
    (here / "agents.yaml").write_text("low: mybot:LowestCard:bid=2\nsafe:\n  spec: mybot:LowestCard\n"
                                      "  kwargs: {style: 'a, b'}\nh3: heuristic:seed=3\n")
    assert load_agents_file("agents.yaml") == specs
    (here / "bad.json").write_text(json.dumps({"x": {"spec": "heuristic", "kwarg": {}}}))
    with pytest.raises(AgentSpecError, match=r"bad.json: agent 'x': expected a spec string or"):
        load_agents_file("bad.json")


# ------------------------------------------------------------------ the protocol


class Recorder:
    """Remembers the config it was reset with; plays randomly; four players only."""

    needs_observation = False
    supported_players = (4,)

    def __init__(self) -> None:
        self.random = RandomAgent(0)
        self.configs: list = []

    def reset(self, seat, seed, config):
        self.configs.append(config)

    def act(self, observation, action_mask, view):
        return self.random.act(observation, action_mask, view)


def test_reset_gets_the_config_and_two_argument_resets_still_work():
    config = SpadesConfig(single_hand=True, nil=False, bag_limit=5)
    recorder = Recorder()
    play_game([recorder, HeuristicAgent(), RandomAgent(), HeuristicAgent()], seed=1, config=config,
              agent_seeds=[1, 2, 3, 4])
    assert recorder.configs == [config]
    calls = []
    reset_agent(type("Old", (), {"reset": lambda self, seat, seed: calls.append((seat, seed))})(), 2, 9, config)
    assert calls == [(2, 9)]


def test_a_declared_variant_is_checked_before_the_first_deal():
    config = SpadesConfig(num_players=2)
    with pytest.raises(UnsupportedConfigError, match="Recorder plays the 4-player game only, not 2 players"):
        play_game([Recorder(), RandomAgent()], seed=0, config=config)

    class NoNil(RandomAgent):
        def check_config(self, config):
            if config.nil:
                raise ValueError("needs --no-nil")

    check_config(NoNil(), SpadesConfig(nil=False))
    with pytest.raises(UnsupportedConfigError, match="mine: needs --no-nil"):
        check_config(NoNil(), SpadesConfig(), "mine")


def test_the_network_refuses_the_other_variant_naming_its_own():
    agent = make_agent("ppo")
    with pytest.raises(UnsupportedConfigError, match=r"ppo-4p-v3.pt is a 4-player network \(\d+ inputs\) and cannot "
                                                     r"play 2 players; use ppo-2p"):
        check_config(agent, SpadesConfig(num_players=2), "ppo")
    check_config(make_agent("split:ppo+heuristic"), SpadesConfig())
    with pytest.raises(UnsupportedConfigError, match="the bidder: ppo-4p-v3.pt is a 4-player network"):
        check_config(make_agent("split:ppo+heuristic"), SpadesConfig(num_players=2))


COUNTER = '''
import os


class Counter:
    """Counts its games and writes the count out when the run ends (close)."""

    needs_observation = False
    needs_view = False

    def __init__(self, log):
        self.log, self.games = log, 0

    def reset(self, seat, seed, config):
        self.games += 1

    def act(self, observation, action_mask, view):
        return int(action_mask.nonzero()[0][-1])

    def close(self):
        with open(self.log, "a") as f:
            f.write(f"{os.getpid()} {self.games}\\n")
'''


@pytest.mark.parametrize("workers", [1, 2])
def test_close_is_called_in_every_worker_so_no_counter_is_lost(tmp_path, monkeypatch, workers):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "counter.py").write_text(COUNTER)
    log = tmp_path / "closed.txt"
    spec = TournamentSpec(agents=(f"counter:Counter:log={log}", "random"), games=6, seed=1, single_hand=True)
    run_tournament(spec, tmp_path / "out", workers=workers, progress=False, plot=False)
    lines = [line.split() for line in log.read_text().splitlines()]
    assert sum(int(games) for _, games in lines) == 6 * 2  # 6 games, two seats each: every reset counted
    pids = {int(pid) for pid, games in lines if int(games)}
    assert (pids == {os.getpid()}) if workers == 1 else (os.getpid() not in pids)


# ------------------------------------------------------------------ the view


def test_the_view_has_completed_tricks_with_leaders_and_winners():
    game = SpadesGame(single_hand=True, blind_nil=False)
    game.reset(3)
    rng = random.Random(0)
    while len(game.trick_winners) < 5 or game.trick:
        game.apply(rng.choice(game.legal_actions()))
    game.apply(game.legal_actions()[0])  # one card into the sixth trick
    view = player_view(game, 0)
    assert len(view.completed_tricks) == 5 and len(view.trick) == 1
    for k, trick in enumerate(view.completed_tricks):
        assert trick.plays == view.plays[4 * k:4 * k + 4] and trick.leader == trick.plays[0][0]
        assert trick.winner == SpadesGame.trick_winner(list(trick.plays)) == game.trick_winners[k]
        if k:
            assert trick.leader == view.completed_tricks[k - 1].winner
    assert view.tricks_won == tuple(game.tricks) and sum(view.tricks_won) == 5
    with pytest.warns(DeprecationWarning, match="tricks_won"):
        assert view.tricks == view.tricks_won
