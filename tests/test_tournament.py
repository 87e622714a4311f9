"""Duplicate tournaments: the schedule, hand-checked statistics, resume after kill -9, parallel and Ray backends."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spades_env.agents.tournament import TournamentSpec, evaluate, main, play_index, run_tournament
from spades_env.agents.tournament.reports import csv_report, markdown_report
from spades_env.agents.tournament.schedule import SCHEDULE_VERSION
from spades_env.agents.tournament.stats import board_value, mean_ci, openskill_ratings, pairing_stats
from spades_env.records import read_games, replay_game
from spades_env.scoring import score_side

ROOT = Path(__file__).resolve().parents[1]


# ----------------------------------------------------------------- schedule


def test_each_board_is_played_twice_with_the_sides_swapped():
    spec = TournamentSpec(agents=("heuristic", "random"), games=4, seed=7)
    for board in range(spec.boards):
        first, second = play_index(spec, 2 * board), play_index(spec, 2 * board + 1)
        assert first["board"] == second["board"] == board
        assert first["seed"] == second["seed"]
        assert first["sides"] == ["heuristic", "random"] and second["sides"] == ["random", "heuristic"]
        assert first["seats"] == ["heuristic", "random"] * 2 and second["seats"] == ["random", "heuristic"] * 2
        # Same cards at the same seats and the same dealer, hand after hand, while both games last.
        for h1, h2 in zip(first["hands"], second["hands"]):
            assert h1["hands"] == h2["hands"] and h1["dealer"] == h2["dealer"]
        assert len(first["hands"]) > 1  # games to 500: later hands come from the seeded deal sequence


def test_every_pairing_plays_the_same_boards_and_more_games_extend_the_schedule():
    small = TournamentSpec(agents=("random", "heuristic", "random"), games=4, seed=3)
    assert small.labels == ("random", "heuristic", "random#2")
    assert small.pairings == [(0, 1), (0, 2), (1, 2)]
    plans = [small.plan(i) for i in range(small.total_games)]
    for board in range(small.boards):
        assert len({p.deal_seed for p in plans if p.board == board}) == 1
    assert len({p.deal_seed for p in plans}) == small.boards
    larger = TournamentSpec(agents=small.agents, games=10, seed=3)
    assert [larger.plan(i) for i in range(small.total_games)] == plans


def test_agent_seeds_are_mirrored_by_seat_so_a_mirror_match_replays_each_board():
    spec = TournamentSpec(agents=("heuristic",), games=12, seed=1)
    assert spec.pairings == [(0, 0)]
    plans = [spec.plan(i) for i in range(spec.total_games)]
    for first, second in zip(plans[::2], plans[1::2]):
        assert first.deal_seed == second.deal_seed and first.agent_seeds == second.agent_seeds
        assert len(set(first.agent_seeds)) == spec.num_players  # each seat its own luck
    assert len({p.agent_seeds for p in plans}) == spec.boards
    records = [play_index(spec, i) for i in range(spec.total_games)]
    for first, second in zip(records[::2], records[1::2]):
        assert first["hands"] == second["hands"]  # the same game twice: seats, cards, bids and plays
    ci = pairing_stats(records, "heuristic", "heuristic")["points_per_deal_diff"]
    assert (ci["mean"], ci["low"], ci["high"]) == (0.0, 0.0, 0.0)


def test_a_folder_planned_by_an_older_schedule_is_not_resumed(tmp_path, capsys):
    args = ["--agents", "random", "--games", "2", "--single-hand", "--out", str(tmp_path), "--workers", "1",
            "--no-progress", "--no-plot"]
    assert main(args) == 0
    config = json.loads((tmp_path / "config.json").read_text())
    assert config["schedule"] == SCHEDULE_VERSION
    del config["schedule"]  # what a folder written before the version was recorded holds
    (tmp_path / "config.json").write_text(json.dumps(config))
    assert main(args) == 2
    assert "(schedule differ)" in capsys.readouterr().err


def test_a_folder_written_before_the_presets_or_a_newer_option_resumes(tmp_path, capsys):
    """Its config.json has no preset and no entry for an option added since (it played at its default): the
    same rules, so a rerun resumes; rules that differ in effect do not."""
    args = ["--agents", "random", "--games", "4", "--single-hand", "--out", str(tmp_path), "--workers", "1",
            "--no-progress", "--no-plot", "--blind-nil-min-deficit", "100"]
    assert main([*args[:3], "2", *args[4:]]) == 0
    config = json.loads((tmp_path / "config.json").read_text())
    for key in ("preset", "rules_described"):
        del config[key]
    del config["config"]["blind_nil_exchange"]
    (tmp_path / "config.json").write_text(json.dumps(config))
    assert main([*args, "--rules", "house"]) == 0  # the same rules spelled as a preset: resumed, 2 more games
    assert json.loads((tmp_path / "summary.json").read_text())["games_played"] == 4
    assert main([*args, "--no-blind-nil-exchange"]) == 2
    assert "(config differ)" in capsys.readouterr().err


# --------------------------------------------------------------- statistics


def hand(bids, tricks, blind=(False,) * 4) -> dict:
    """A hand record with the fields the statistics read, scored by the engine's scoring function."""
    sides = []
    for side in (0, 1):
        seats = [side, side + 2]
        result = score_side([bids[p] for p in seats], [blind[p] for p in seats], [tricks[p] for p in seats], 0)
        sides.append(result.to_dict())
    return {"num_players": 4, "bids": list(bids), "blind_nil": list(blind), "tricks": list(tricks),
            "sides": sides, "points": [s["total"] for s in sides]}


def game(index, board, swap, winner, hands) -> dict:
    sides = ["A", "B"] if swap == 0 else ["B", "A"]
    return {"index": index, "board": board, "pairing": 0, "swap": swap, "sides": sides, "winner": winner,
            "truncated": winner is None, "hands": hands}


def test_pairing_statistics_on_a_hand_checked_example():
    g0 = game(0, 0, 0, 0, [hand((3, 4, 2, 5), (3, 3, 2, 5))])
    g1 = game(1, 0, 1, 0, [hand((0, 4, 3, 5), (0, 5, 3, 5))])
    g2 = game(2, 1, 0, 0, [hand((2, 2, 2, 2), (4, 2, 4, 3))])
    g3 = game(3, 1, 1, None, [hand((2, 2, 2, 2), (3, 3, 3, 4)),
                              hand((0, 3, 3, 0), (1, 6, 3, 3), blind=(False, False, False, True))])
    # The points, worked out by hand from docs/rules.md.
    assert [h["points"] for g in (g0, g1, g2, g3) for h in g["hands"]] == [
        [50, -90], [130, 91], [44, 41], [42, 43], [-69, -164]]
    stats = pairing_stats([g0, g1, g2, g3], "A", "B")
    assert (stats["games"], stats["boards"], stats["wins_a"], stats["wins_b"], stats["draws"]) == (4, 2, 2, 1, 1)
    assert stats["win_rate_a"] == pytest.approx(2.5 / 4)
    # Board 0: A's side minus B's per hand: (140 + -39) / 2 hands; board 1: (3 + 1 - 95) / 3 hands.
    boards = [101 / 2, -91 / 3]
    ci = stats["points_per_deal_diff"]
    assert ci["mean"] == pytest.approx(sum(boards) / 2)
    half = 1.959963984540054 * abs(boards[0] - boards[1]) / 2**0.5 / 2**0.5
    assert (ci["low"], ci["high"]) == (pytest.approx(ci["mean"] - half), pytest.approx(ci["mean"] + half))
    a, b = stats["agent_a"], stats["agent_b"]
    assert (a["hands"], b["hands"]) == (5, 5)
    assert (a["set_rate"], b["set_rate"]) == (0.0, pytest.approx(1 / 5))
    assert (a["nil_attempts"], a["nil_success"], a["blind_nil_attempts"], a["blind_nil_success"]) == (0, None, 1, 0.0)
    assert (b["nil_attempts"], b["nil_success"], b["blind_nil_attempts"]) == (2, 0.5, 0)
    assert (a["bags_per_hand"], b["bags_per_hand"]) == (pytest.approx(14 / 5), pytest.approx(4 / 5))
    assert (a["mean_bid"], a["mean_tricks"]) == (pytest.approx(25 / 5), pytest.approx(39 / 5))
    assert (b["mean_bid"], b["mean_tricks"]) == (pytest.approx(23 / 5), pytest.approx(26 / 5))
    assert a["points_per_hand"] == pytest.approx((50 + 91 + 44 + 43 - 164) / 5)


def test_a_board_is_one_ratio_over_both_games_hands():
    assert board_value([(10, 3), (-4, 5)]) == 6 / 8  # a longer game weighs by its hands
    assert board_value([(10, 3)]) is None  # the mirrored game is missing
    assert board_value([(0, 0), (0, 0)]) is None


def test_mean_ci_and_ratings():
    assert mean_ci([]) == {"n": 0, "mean": None, "low": None, "high": None, "sd": None}
    assert mean_ci([4.0])["low"] is None
    ci = mean_ci([1.0, 3.0])
    assert ci["mean"] == 2.0 and ci["sd"] == pytest.approx(2**0.5)
    records = [{"sides": ["A", "B"], "winner": 0}] * 5 + [{"sides": ["B", "A"], "winner": 1}] * 5
    records += [{"sides": ["A", "A"], "winner": 0}] * 5  # mirror games carry no rating information
    ratings = openskill_ratings(records, ["A", "B"])
    assert ratings["A"]["mu"] > 25 > ratings["B"]["mu"]
    assert ratings["A"]["sigma"] < 25 / 3


# ---------------------------------------------------------- runs and resume


def read_summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text())


def records_by_index(out: Path) -> list[dict]:
    return sorted(read_games(out / "games.jsonl"), key=lambda r: r["index"])


ARGS = ["--agents", "heuristic", "random", "--games", "40", "--seed", "5", "--no-progress"]


def test_kill_9_then_rerun_gives_the_uninterrupted_results(tmp_path):
    """kill -9 the CLI mid-run, leave a half-written line, rerun: same records and summary as one clean run."""
    killed = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "spades_env.agents.tournament", *ARGS, "--out", str(killed),
                             "--workers", "1", "--no-plot"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    path = killed / "games.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= 6:
            break
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = path.read_bytes().count(b"\n")
    assert 6 <= done < 40, "the run must be killed in the middle"
    assert not (killed / "summary.json").exists()
    with open(path, "ab") as f:
        f.write(b'{"format":"spades-game/1","config":{"num_play')  # what a kill inside a write leaves
    with pytest.warns(UserWarning, match="incomplete last line"):
        assert main([*ARGS, "--out", str(killed), "--workers", "1"]) == 0

    clean = tmp_path / "clean"
    assert main([*ARGS, "--out", str(clean), "--workers", "2"]) == 0  # in parallel, in another order
    assert records_by_index(killed) == records_by_index(clean)
    assert [r["index"] for r in records_by_index(killed)] == list(range(40))
    assert read_summary(killed) == read_summary(clean)
    for name in ("summary.md", "pairings.csv", "pairwise.png", "config.json"):
        assert (killed / name).stat().st_size > 0
    summary = read_summary(clean)
    (pairing,) = summary["pairings"]
    assert pairing["games"] == 40 and pairing["boards"] == 20
    assert pairing["win_rate_a"] > 0.9 and pairing["points_per_deal_diff"]["low"] > 0
    for record in records_by_index(clean)[:4]:
        replay_game(record)  # the records are the project's replayable game records


def test_rerun_with_other_settings_is_refused(tmp_path, capsys):
    assert main(["--agents", "random", "--games", "2", "--single-hand", "--out", str(tmp_path), "--workers", "1",
                 "--no-progress", "--no-plot"]) == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert main(["--agents", "random", "--games", "2", "--out", str(tmp_path), "--workers", "1", "--no-progress"]) == 2
    assert "holds a different tournament (single_hand, config differ)" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # nothing touched


def test_two_player_single_hand_tournament(tmp_path):
    spec = TournamentSpec(agents=("heuristic", "random"), games=6, seed=2, num_players=2, single_hand=True)
    summary = run_tournament(spec, tmp_path, workers=1, progress=False, plot=False)
    (pairing,) = summary["pairings"]
    assert pairing["games"] == 6 and all(len(r["hands"]) == 1 for r in records_by_index(tmp_path))
    assert records_by_index(tmp_path)[0]["seats"] == ["heuristic", "random"]
    # The reports are a function of summary.json alone: a folder can be re-reported without its records.
    saved = read_summary(tmp_path)
    assert markdown_report(saved) == (tmp_path / "summary.md").read_text()
    assert csv_report(saved) == (tmp_path / "pairings.csv").read_bytes().decode()


def test_evaluate_in_memory_matches_the_tournament(tmp_path):
    stats = evaluate("heuristic", "random", games=6, seed=4, single_hand=True)
    spec = TournamentSpec(agents=("heuristic", "random"), games=6, seed=4, single_hand=True)
    summary = run_tournament(spec, tmp_path, workers=1, progress=False, plot=False)
    assert stats["points_per_deal_diff"] == summary["pairings"][0]["points_per_deal_diff"]
    assert stats["win_rate_a"] == summary["pairings"][0]["win_rate_a"]


def test_game_context_splits_each_sides_hands_by_the_score_it_stood_at(tmp_path):
    """Under the house rule a side bids Blind Nil only 100 or more behind, so its Blind Nil hands are among
    those; each split partitions the side's hands."""
    from spades_env.experiments.game_context import contexts

    spec = TournamentSpec(agents=("heuristic-v2", "random"), games=4, seed=3, preset="house", target_score=300)
    run_tournament(spec, tmp_path, workers=1, progress=False, plot=False)
    rows = contexts(str(tmp_path / "games.jsonl"))
    for agent in ("heuristic-v2", "random"):
        hands = rows[(agent, "all")][0]
        assert hands > 8
        for split in (("100 or more behind", "not that far behind"), ("bid Blind Nil", "no Blind Nil"),
                      ("7+ bags carried", "under 7 bags carried")):
            assert sum(rows[(agent, label)][0] for label in split) == hands
        assert sum(rows[(agent, label)][1] for label in ("bid Blind Nil", "no Blind Nil")) == rows[(agent, "all")][1]
    # The two sides' differences over the same hands cancel.
    assert rows[("heuristic-v2", "all")][2] == pytest.approx(-rows[("random", "all")][2])
    blind = [a for a in ("heuristic-v2", "random") if rows[(a, "bid Blind Nil")][0]]
    assert blind and all(rows[(a, "bid Blind Nil")][0] <= rows[(a, "100 or more behind")][0] for a in blind)


@pytest.mark.slow
def test_ray_backend_on_a_local_ray_instance(tmp_path):
    """The optional Ray backend (pip install -e '.[ray]') gives the local backend's results."""
    pytest.importorskip("ray")
    # 10 tasks of two games: more than the tasks kept in flight on a 2-CPU machine, so refilling is tested too.
    spec = TournamentSpec(agents=("heuristic", "random"), games=20, seed=9, single_hand=True)
    ray_summary = run_tournament(spec, tmp_path / "ray", backend="ray", progress=False, plot=False)
    local_summary = run_tournament(spec, tmp_path / "local", workers=1, progress=False, plot=False)
    assert ray_summary == local_summary
    assert records_by_index(tmp_path / "ray") == records_by_index(tmp_path / "local")


# ------------------------------------------------------------- A/A study


def test_aa_study_appends_one_line_per_tournament_and_resumes(tmp_path, capsys):
    from spades_env.experiments import aa_study

    results = tmp_path / "aa"
    assert aa_study.main(["--format", "single", "--boards", "4", "--tournaments", "2", "--results", str(results)]) == 0
    path = results / "single-4.jsonl"
    lines = aa_study.read_lines(path)
    assert sorted(line["tournament"] for line in lines) == [0, 1]
    assert all(len(line["games"]) == 4 and line["schedule"] == SCHEDULE_VERSION for line in lines)
    with path.open("a") as f:
        f.write('{"format": "single", "boa')  # what a kill inside a write leaves
    assert aa_study.main(["--format", "single", "--boards", "4", "--tournaments", "3", "--results", str(results)]) == 0
    assert "2 done, 1 to play" in capsys.readouterr().out
    again = aa_study.read_lines(path)
    assert len(again) == 3 and again[:2] == lines and path.read_text().endswith("}\n")
    # Tournament t is the tournament the CLI plays with the study's seed: the same boards.
    spec = TournamentSpec(agents=aa_study.AGENTS, games=8, seed=aa_study.study_seed("single", 4, 2),
                          single_hand=True)
    ci = evaluate(*spec.agents, games=8, seed=spec.seed, single_hand=True)["points_per_deal_diff"]
    assert ci["mean"] == pytest.approx(sum(aa_study.values(again[2])) / 4)
    assert (results.parent / "aa_study.md").read_text().count("| single | 4 | 3 (tournament) | 3/3") == 1


def test_aa_study_partner_has_its_own_luck():
    from spades_env.agents.heuristic.agent import HeuristicAgent
    from spades_env.experiments.aa_study import OtherLuckHeuristic

    plain, other = HeuristicAgent(), OtherLuckHeuristic()
    plain.reset(0, 123)
    other.reset(0, 123)
    assert plain.rng.random() != other.rng.random()


def test_aa_study_coverage_and_pooling():
    from spades_env.experiments.aa_study import coverage_row, coverage_rows, wilson

    row = coverage_row("single", "tournament", [[1.0, -1.0, 2.0, -2.0], [5.0, 5.1, 4.9, 5.0]])
    assert (row["covered"], row["tournaments"], row["boards"]) == (1, 2, 4)
    exact = coverage_row("game", "tournament", [[0.0, 0.0]] * 3)  # two copies on the same seeds
    assert (exact["coverage"], exact["mean"], exact["p"], exact["width_ratio"]) == (1.0, 0.0, 1.0, None)
    low, high = wilson(190, 200)
    assert low < 0.95 < high and high - low == pytest.approx(0.061, abs=0.002)
    lines = [{"format": "game", "boards": 100, "tournament": t, "games": [[t % 3 - 1, 5, 1, 5]] * 100}
             for t in range(50)]
    kinds = [(r["kind"], r["boards"], r["tournaments"]) for r in coverage_rows(lines)]
    assert kinds == [("tournament", 100, 50), ("first half of each", 50, 50), ("10 tournaments pooled", 1000, 5)]
