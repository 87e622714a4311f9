"""Versioned agent names, heuristic-v1 frozen, and heuristic-v2's Blind Nil decision."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

import pytest

from spades_env import actions as A
from spades_env.agents import make_agent, versioned_name
from spades_env.agents.heuristic.bidding import blind_nil_gain, want_blind_nil
from spades_env.agents.heuristic.params import V1, V2
from spades_env.agents.match import play_game
from spades_env.game import Phase, SpadesConfig, SpadesGame
from spades_env.view import PlayerView, player_view


def _actions_digest(spec: str, num_players: int, single_hand: bool, seeds: range) -> str:
    digest = hashlib.sha256()
    for seed in seeds:
        actions: list[tuple[int, int]] = []
        play_game([make_agent(spec, seed=seed + i) for i in range(num_players)], seed=seed,
                  config=SpadesConfig(num_players=num_players, single_hand=single_hand),
                  on_step=lambda game, player, action, log=actions: log.append((player, action)))
        digest.update(json.dumps(actions).encode())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize(("num_players", "single_hand", "seeds", "expected"), [
    (4, True, range(20), "6149093824dbcc31"),
    (4, False, range(2), "6cef0b3c4ab9ac5b"),
    (2, True, range(20), "2b6c5e44a7f875fe"),
    (2, False, range(2), "4dc686f1dedcc9af"),
])
def test_heuristic_v1_plays_exactly_as_it_always_has(num_players, single_hand, seeds, expected):
    # The digests of the first heuristic's games as it was before heuristic-v2 existed (commit a4949ed): any
    # change to v1's decisions, however small, changes them, and published figures against v1 would drift.
    assert _actions_digest("heuristic-v1", num_players, single_hand, seeds) == expected


def test_versioned_names_resolve_and_the_bare_name_is_the_latest():
    assert versioned_name("heuristic") == "heuristic-v2"
    assert versioned_name("heuristic:seed=3") == "heuristic-v2:seed=3"
    assert versioned_name("heuristic-v1") == "heuristic-v1"
    assert [versioned_name(n) for n in ("random", "search", "ppo", "ppo-2p")] == [
        "random-v1", "search-v6", "ppo-v3", "ppo-2p-v1"]
    assert versioned_name("ppo:my.pt") == "ppo:my.pt"  # a file of one's own is not the shipped network
    assert versioned_name("mybot:Bot:depth=3") == "mybot:Bot:depth=3"
    assert make_agent("heuristic").params == V2 and make_agent("heuristic-v1").params == V1


def test_a_spec_changes_the_heuristics_parameters_and_names_the_ones_it_has():
    assert make_agent("heuristic-v2:attack_slack=1.5,seed=3").params == replace(V2, attack_slack=1.5)
    assert make_agent("heuristic-v1:safe=0.9").params == replace(V1, safe=0.9)
    with pytest.raises(ValueError, match=r"unexpected keyword argument 'atack_slack'.* attack_slack, "):
        make_agent("heuristic-v2:atack_slack=1")


def _blind_view(num_players: int = 4, scores=(0, 0), **rules) -> PlayerView:
    game = SpadesGame(SpadesConfig(num_players=num_players, **rules))
    game.reset(0, scores=scores)
    while game.phase != Phase.BLIND:
        game.apply(A.LOOK if game.phase == Phase.BLIND else int(game.legal_actions()[0]))
    return player_view(game, game.current_player)


def test_v2_bids_blind_nil_by_its_value_where_v1_waits_to_be_100_behind():
    view = _blind_view()
    assert blind_nil_gain(view, V2) > 0
    assert want_blind_nil(view, V2) and not want_blind_nil(view, V1)
    assert not want_blind_nil(_blind_view(num_players=2), V2)  # the two-player blind draw is made about 1 in 10
    # without the exchange a four-player Blind Nil is made about 30% of the time: not worth it
    assert not want_blind_nil(_blind_view(blind_nil_exchange=False), V2)


def test_v2_does_not_risk_a_blind_nil_whose_set_loses_the_game_at_the_mercy_threshold():
    safe = _blind_view(scores=(-100, 0), mercy_threshold=-400)
    doomed = _blind_view(scores=(-250, 0), mercy_threshold=-400)
    assert blind_nil_gain(doomed, V2) < blind_nil_gain(safe, V2)


def test_a_tournament_records_the_versioned_names_that_played(tmp_path, capsys):
    from spades_env.agents.tournament.cli import main

    out = tmp_path / "t"
    assert main(["--agents", "heuristic", "random-v1", "--games", "2", "--single-hand", "--workers", "1",
                 "--out", str(out), "--no-progress", "--no-plot"]) == 0
    assert json.loads((out / "config.json").read_text())["versions"] == ["heuristic-v2", "random-v1"]
    assert "Agents: heuristic = heuristic-v2." in (out / "summary.md").read_text()
    assert "agents: heuristic = heuristic-v2" in capsys.readouterr().out
