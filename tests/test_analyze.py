"""``spades analyze``: double-dummy analysis of a tiny recorded tournament."""

from __future__ import annotations

import json

import pytest

from spades_env.agents.analyze import analyze_games, main, summary
from spades_env.agents.replay import load_games
from spades_env.agents.tournament import main as tournament_main
from spades_env.solver import warm_up


@pytest.fixture(scope="module", autouse=True)
def compiled():
    warm_up()


@pytest.fixture(scope="module")
def two_player_games(tmp_path_factory):
    """Two-player single hands (their 13-trick deals solve in milliseconds): every position is analysed."""
    out = tmp_path_factory.mktemp("t2")
    assert tournament_main(["--agents", "heuristic", "random", "--games", "4", "--single-hand", "--num-players", "2",
                            "--seed", "3", "--out", str(out), "--workers", "1", "--no-progress", "--no-plot"]) == 0
    return out / "games.jsonl"


def test_values_chain_from_par_to_the_result(two_player_games):
    """With every position solved, the hand's result is the par minus each side's losses plus the other's."""
    analyses = analyze_games(load_games(str(two_player_games)))
    assert len(analyses) == 4
    for a in analyses:
        assert sum(a.analyzed) == 26 and a.par_value is not None
        lost = a.lost_by_side()
        assert a.points[0] - a.points[1] == a.par_value - lost[0] + lost[1]
        assert a.par_points[0] - a.par_points[1] == a.par_value
        assert sum(a.par_tricks) == 13 and all(e.loss > 0 and e.card not in e.best for e in a.errors)
    rows = {r["agent"]: r for r in summary(analyses)}
    assert rows.keys() == {"heuristic", "random"}
    assert rows["random"]["lost_per_hand"] > rows["heuristic"]["lost_per_hand"]  # random play errs more


def test_command_prints_a_table_and_json(two_player_games, capsys):
    assert main([str(two_player_games), "--last-tricks", "3"]) == 0
    text = capsys.readouterr().out
    assert "lost/hand" in text and "heuristic" in text
    assert main([str(two_player_games), "--json", "--games", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["hands"]) == 2 and {"par_value", "errors", "lost", "analyzed"} <= data["hands"][0].keys()


def test_four_player_hands_with_a_node_limit(tmp_path):
    out = tmp_path / "t4"
    assert tournament_main(["--agents", "heuristic", "--include-self", "--games", "2", "--single-hand", "--seed", "5",
                            "--out", str(out), "--workers", "1", "--no-progress", "--no-plot"]) == 0
    analyses = analyze_games(load_games(str(out / "games.jsonl")), max_nodes=20_000, last_tricks=5)
    assert len(analyses) == 2
    for a in analyses:
        assert a.par_value is None  # the first card was not analysed
        assert 0 < sum(a.analyzed) <= 20 and all(e.trick >= 9 for e in a.errors)


def test_bad_file_is_one_line_on_stderr(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"nothing": 1}\n')
    assert main([str(bad)]) == 2
    assert "spades analyze" in capsys.readouterr().err


def test_the_text_names_each_agents_costliest_card_plays(two_player_games, capsys):
    analyses = analyze_games(load_games(str(two_player_games)))
    assert main([str(two_player_games)]) == 0
    text = capsys.readouterr().out.split("The costliest card plays, up to 3 per agent", 1)[1]
    worst = max((e for a in analyses for e in a.errors if (a.seats or [])[e.seat] == "random"), key=lambda e: e.loss)
    random_part = text.split("random:\n", 1)[1]
    first = random_part.splitlines()[0]
    assert f"played {worst.card}, best {' '.join(worst.best)}, lost {worst.loss}" in first
    assert len([line for line in random_part.splitlines() if line.startswith("  game ")]) == 3


def test_the_html_page_carries_the_analysis_and_marks_the_costly_cards(two_player_games, tmp_path, capsys):
    from spades_env.agents.replay import main as replay_main

    page = tmp_path / "game2.html"
    assert main([str(two_player_games), "--html", str(page), "--game", "2"]) == 0
    data = json.loads(page.read_text().split('id="game-data">', 1)[1].split("</script>", 1)[0])
    (hand,) = data["hands"]
    errors = hand["analysis"]["errors"]
    assert errors and hand["costly"] == {str(e["play"]): {"loss": e["loss"], "best": e["best"]} for e in errors}
    for error in errors:  # each mark is on the card that was played there
        assert hand["plays"][error["play"]] == [error["seat"], error["card"]]
    replayed = tmp_path / "replayed.html"
    assert replay_main([str(two_player_games), "--game", "2", "--html", str(replayed), "--analyze"],
                       write=lambda text: None) == 0
    assert replayed.read_text() == page.read_text()  # the same page either way
    assert replay_main([str(two_player_games), "--analyze"], write=lambda text: None) == 2
    assert "--analyze marks the costly cards on the web page: give --html" in capsys.readouterr().err
    assert main([str(two_player_games), "--html", str(page), "--game", "9"]) == 2
