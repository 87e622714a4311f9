"""The ``spades`` command line: your own bot in a tournament from its folder, every rule option as a flag, input
errors as one line with exit status 2 and nothing written, ``--help`` and ``--version``."""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spades_env.agents import cli
from spades_env.game import SpadesConfig

BOT = '''
"""A user's bot: bids ``bid``, then plays its lowest legal card (keeps ``style`` to show arguments arrive)."""
from spades_env.actions import bid_action


class LowestCard:
    needs_observation = False
    supported_players = (4,)

    def __init__(self, bid=3, style="plain"):
        assert (bid, style) == (2, "safe"), (bid, style)  # the constructor arguments of the spec
        self.bid = bid

    def reset(self, seat, seed, config):
        assert config.target_score == 300 and not config.nil

    def act(self, observation, action_mask, view):
        legal = action_mask.nonzero()[0]
        return bid_action(self.bid) if bid_action(self.bid) in legal else int(legal[0])
'''


def test_your_own_bot_from_its_folder_with_arguments_and_no_pythonpath(tmp_path):
    """The whole path a new user takes: a bot file, ``spades tournament`` run from its folder, the summary."""
    spades = Path(sys.executable).with_name("spades")
    if not spades.exists():
        pytest.skip("the spades console script is not installed next to this Python")
    (tmp_path / "mybot.py").write_text(BOT)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([str(spades), "tournament", "--agents", "mybot:LowestCard:bid=2,style=safe,name=lowest",
                          "heuristic", "--games", "4", "--single-hand", "--target-score", "300", "--no-nil",
                          "--workers", "2", "--no-progress", "--no-plot", "--out", "out"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "lowest vs heuristic: 4 games" in run.stdout
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["spec"]["labels"] == ["lowest", "heuristic"] and summary["games_played"] == 4
    assert summary["pairings"][0]["a"] == "lowest"
    assert summary["spec"]["config"]["target_score"] == 300 and summary["spec"]["config"]["nil"] is False
    summary_md = (tmp_path / "out" / "summary.md").read_text()
    assert "Rules: default rules + target score 300, nil off." in summary_md
    assert "Every rule option: num_players 4, target_score 300" in summary_md


# ------------------------------------------------------------------ rule options


def test_every_rule_option_is_a_flag_recorded_in_config_and_summary(tmp_path):
    from spades_env.agents.tournament import main

    out = tmp_path / "out"
    assert main(["--agents", "heuristic", "random", "--games", "2", "--single-hand", "--target-score", "300",
                 "--bag-limit", "5", "--bag-penalty", "50", "--no-nil", "--no-blind-nil",
                 "--blind-nil-min-deficit", "100", "--mercy-threshold", "-200", "--max-hands", "20",
                 "--workers", "1", "--no-progress", "--no-plot", "--out", str(out)]) == 0
    expected = SpadesConfig(target_score=300, bag_limit=5, bag_penalty=50, nil=False, blind_nil=False,
                            blind_nil_min_deficit=100, mercy_threshold=-200, max_hands=20, single_hand=True)
    config = json.loads((out / "config.json").read_text())
    assert config["config"] == expected.to_dict()
    assert json.loads((out / "summary.json").read_text())["spec"]["config"] == expected.to_dict()
    record = json.loads((out / "games.jsonl").read_text().splitlines()[0])
    assert record["config"] == expected.to_dict()  # the games were played under these rules
    parser = importlib.import_module("spades_env.agents.tournament.cli").build_parser()
    flags = {s for a in parser._actions for s in a.option_strings}
    assert {"--" + f.name.replace("_", "-") for f in dataclasses.fields(SpadesConfig)} <= flags


def test_a_rule_preset_with_overrides_is_recorded_in_config_records_and_summary(tmp_path, capsys):
    out = tmp_path / "out"
    assert spades([*TOURNAMENT, "--agents", "random", "--rules", "house", "--bag-limit", "5", "--out", str(out)],
                  capsys)[0] == 0
    expected = SpadesConfig.from_preset("house", bag_limit=5, single_hand=True).to_dict()
    config = json.loads((out / "config.json").read_text())
    assert (config["preset"], config["rules"], config["config"]) == ("house", {"bag_limit": 5}, expected)
    assert json.loads((out / "games.jsonl").read_text().splitlines()[0])["config"] == expected
    house = "house rules (Blind Nil only to a side 100 or more behind) + bag limit 5"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["spec"]["rules_described"] == house
    printed = io.StringIO()
    importlib.import_module("spades_env.agents.tournament.reports").print_summary(summary, printed)
    assert printed.getvalue().startswith(f"rules: {house}\n")
    assert f"Rules: {house}." in (out / "summary.md").read_text()
    assert "Rules: house rules" in (out / "summary.html").read_text()
    # an option given overrides the preset, "none" included; the same rules spelled otherwise resume the folder
    assert spades([*TOURNAMENT, "--agents", "random", "--bag-limit", "5", "--blind-nil-min-deficit", "100",
                   "--out", str(out)], capsys)[0] == 0
    tournament = importlib.import_module("spades_env.agents.tournament.cli")
    args = tournament.build_parser().parse_args(["--agents", "x", "--rules", "house",
                                                 "--blind-nil-min-deficit", "none"])
    assert tournament.spec_from_args(args).config() == SpadesConfig()


def test_play_takes_a_rule_preset():
    play = importlib.import_module("spades_env.agents.play.cli")
    setup = play.new_setup(play.build_parser().parse_args(["--rules", "house", "--seed", "1"]))
    assert setup.config == SpadesConfig.from_preset("house").to_dict()
    assert play.new_setup(play.build_parser().parse_args(["--seed", "1"])).config == SpadesConfig().to_dict()


# ------------------------------------------------------------------ input errors


def spades(argv: list[str], capsys) -> tuple[int, str]:
    """Run ``spades ARGV`` in this process: the exit status and everything written to stderr."""
    try:
        code = cli.main(argv)
    except SystemExit as exc:
        code = exc.code
    return code, capsys.readouterr().err


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    for fragment in fragments:
        assert fragment in err, err


TOURNAMENT = ["tournament", "--games", "2", "--single-hand", "--workers", "1", "--no-progress", "--no-plot"]


@pytest.mark.parametrize("args, fragments", [
    (["--agents", "nosuch"], ["unknown agent 'nosuch': registered names are", "MODULE:CLASS or ./FILE.py:CLASS"]),
    (["--agents", "heuristic", "--games", "0"], ["argument --games: must be at least 1, got 0"]),
    (["--agents", "split"], ["expected 'split:BIDDER+PLAYER' (e.g. split:ppo-gen1+heuristic), got 'split'"]),
    (["--agents", "heuristic:MyAgent"], ["the registered 'heuristic' takes keyword arguments only"]),
    (["--agents", "heuristic:sed=1"], ["keyword argument 'sed'", "heuristic_v2 takes (seed, bid_shift_4p, "]),
    (["--agents", "ppo", "--num-players", "2"], ["ppo-4p-v3.pt is a 4-player network", "cannot play 2 players; use "
                                                                                      "ppo-2p"]),
    (["--agents", "ppo:missing.pt"], ["agent 'ppo:missing.pt': no PPO checkpoint at missing.pt"]),
    (["--agents", "heuristic", "--mercy-threshold", "600"], ["--mercy-threshold must be <= 499, got 600"]),
    (["--agents", "heuristic", "--seed", "-1"], ["argument --seed: must be at least 0, got -1"]),
    (["--agents", "heuristic", "--num-players", "3"], ["argument --num-players: invalid choice: 3"]),
    (["--agents-file", "missing.json"], ["cannot read the agents file missing.json"]),
    (["--agents-file", "bad.json"], ["bad.json: agent 'x': expected a spec string or"]),
    (["--agents", "heuristic", "--out", "a_file"], ["--out a_file: a_file is a file, not a folder"]),
    (["--agents", "heuristic", "--out", "a_file/under"], ["a_file is a file, not a folder"]),
    (["--agents", "heuristic", "--backend", "dask"], ["argument --backend: invalid choice: 'dask'"]),
    (["--agents", "heuristic", "--rules", "casual"], ["argument --rules: invalid choice: 'casual'", "'house'"]),
    (["--agents", "heuristic", "--blind-nil-min-deficit", "x"], ["expected an integer or none, got 'x'"]),
])
def test_tournament_input_errors_are_one_line_and_write_nothing(tmp_path, monkeypatch, capsys, args, fragments):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a_file").write_text("x")
    (tmp_path / "bad.json").write_text(json.dumps({"x": {"spec": "heuristic", "args": {"seed": 1}}}))
    before = sorted(p.name for p in tmp_path.iterdir())
    out = [] if "--out" in args else ["--out", "out"]
    assert_one_line_error(*spades([*TOURNAMENT, *out, *args], capsys), *fragments)
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no half-written folder


def test_a_refused_variant_leaves_the_folder_free_for_the_corrected_run(tmp_path, capsys):
    out = str(tmp_path / "out")
    assert_one_line_error(*spades([*TOURNAMENT, "--agents", "ppo", "random", "--num-players", "2", "--out", out],
                                  capsys), "4-player network")
    assert not (tmp_path / "out").exists()
    assert spades([*TOURNAMENT, "--agents", "ppo-2p", "random", "--num-players", "2", "--out", out], capsys)[0] == 0
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["games_played"] == 2


def test_a_folder_with_a_config_but_no_game_is_not_a_different_tournament(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "config.json").write_text(json.dumps({"agents": ["ppo"], "num_players": 2}))  # a run stopped at once
    assert spades([*TOURNAMENT, "--agents", "random", "--out", str(out)], capsys)[0] == 0


@pytest.mark.parametrize("case", ["unknown key", "bad file", "resume without checkpoint", "resume of nothing"])
def test_train_input_errors_are_one_line(tmp_path, monkeypatch, capsys, case):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.json").write_text(json.dumps({"learning_rat": 0.1}))
    (tmp_path / "broken.json").write_text("{")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "config.json").write_text("{}")
    args, fragment = {
        "unknown key": (["--config", "bad.json"], "learning_rat"),
        "bad file": (["--config", "broken.json"], "broken.json"),
        "resume without checkpoint": (["--resume", "run"], "--resume run: no checkpoint.pt"),
        "resume of nothing": (["--resume", "nothing"], "--resume nothing: no checkpoint.pt"),
    }[case]
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    assert_one_line_error(*spades(["train", *args], capsys), fragment)
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


def test_unknown_command_version_and_help(capsys):
    assert_one_line_error(*spades(["tournamnet"], capsys), "unknown command 'tournamnet'", "spades --help")
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"spades {cli.version()}" and cli.version()[0].isdigit()
    assert cli.main(["--help"]) == 0
    text = capsys.readouterr().out
    assert "spades <command> --help" in text and all(name in text for name in cli.COMMANDS)
    assert cli.main([]) == 2


# ------------------------------------------------------------------ help


def command_parser(command: str) -> argparse.ArgumentParser:
    """A subcommand's parser: ``build_parser`` of the module its ``main`` lives in."""
    module, _, func = cli.COMMANDS[command][0].partition(":")
    main = getattr(importlib.import_module(module), func)
    return sys.modules[main.__module__].build_parser()


@pytest.mark.parametrize("command", list(cli.COMMANDS))
def test_every_flag_has_one_line_of_help_and_its_default_once(command):
    parser = command_parser(command)
    formatter = cli.HelpFormatter(prog=parser.prog)
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        assert action.help and "\n" not in action.help, f"spades {command} {action.option_strings}: no help"
        shown = formatter._expand_help(action) if action.help else ""
        assert shown.lower().count("default") <= 1, f"spades {command} {action.option_strings}: {shown}"


def test_the_formatter_shows_a_default_only_when_the_help_does_not():
    parser = cli.ArgumentParser(prog="x")
    parser.add_argument("--a", type=int, default=3, help="alpha")
    parser.add_argument("--b", type=int, default=4, help="beta (default 4)")
    parser.add_argument("--c", default=None, help="gamma")
    parser.add_argument("--d", action="store_true", help="delta")
    parser.add_argument("--e", type=int, default=0, help="epsilon")
    text = " ".join(parser.format_help().split())
    assert "alpha (default: 3)" in text and "beta (default 4) " in text and "(default: 4)" not in text
    assert "gamma --d" in text and "delta --e" in text and "epsilon (default: 0)" in text
