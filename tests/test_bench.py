"""The benchmark script runs end to end (its figures are measured by hand, never asserted on)."""

import json

import pytest

from spades_env.experiments import bench_env


def test_bench_env_writes_figures(tmp_path):
    out = tmp_path / "bench.json"
    assert bench_env.main(["--hands", "2", "--rounds", "1", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert {"spades_v0 AEC env", "OpenSpiel spades (pyspiel)", "SpadesGame engine only"} <= set(rows)
    assert all(row["decisions"] > 0 and row["decisions_per_second"] > 0 for row in rows.values())


def test_bench_env_rows_keeps_the_rows_asked_for_and_the_reference(tmp_path):
    out = tmp_path / "bench.json"
    assert bench_env.main(["--hands", "1", "--rounds", "1", "--rows", "uint8 obs, B=512", "--json", str(out)]) == 0
    rows = set(json.loads(out.read_text())["rows"])
    assert rows == {"OpenSpiel spades (pyspiel)", "vector engine, uint8 obs, B=512"}


@pytest.mark.parametrize("device", [None, "cpu"])
def test_batch_chooser_picks_a_legal_id_uniformly(device):
    """The batched rows' random agent (VectorSpades.random_actions, compiled on numpy, multinomial on torch):
    always a legal id, and each of a game's legal ids about equally often, at a bid (14 ids) and at a
    card play, drawn 3,000 times from one position."""
    import numpy as np

    from spades_env.vector import VectorSpades

    if device is not None:
        pytest.importorskip("torch")
    vec = VectorSpades(6, seed=0, device=device, blind_nil=False)
    choose = bench_env._batch_chooser(vec, seed=1)
    out = vec.reset()
    for steps in (0, 6):  # at the first bid; then at the second card of the first trick
        for _ in range(steps):
            out = vec.step(choose(out.mask))
        mask = np.asarray(out.mask)
        counts = np.zeros(mask.shape, int)
        for _ in range(3000):
            picked = np.asarray(choose(out.mask))
            assert mask[np.arange(len(mask)), picked].all()
            counts[np.arange(len(mask)), picked] += 1
        for row, legal in zip(counts, mask):
            df, expected = legal.sum() - 1, 3000 / legal.sum()
            chi2 = ((row[legal] - expected) ** 2 / expected).sum()
            # p = 1e-5 (24 rows are tested) by the Wilson-Hilferty approximation (above the exact bound for
            # few degrees of freedom); a sampler that skipped or doubled one id would be far above it
            assert df == 0 and chi2 == 0 or chi2 < df * (1 - 2 / (9 * df) + 4.26 * (2 / (9 * df)) ** 0.5) ** 3


def test_bench_env_in_fresh_processes_reports_each_rows_median(tmp_path):
    out = tmp_path / "bench.json"
    assert bench_env.main(["--hands", "1", "--rounds", "1", "--processes", "3", "--rows", "AEC env, 2",
                           "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["processes"] == 3 and len(report["runs"]) == 3
    for name, row in report["rows"].items():
        rates = sorted(run[name]["decisions_per_second"] for run in report["runs"])
        assert row["decisions_per_second"] == rates[1]  # the median of three


@pytest.mark.parametrize("num_players", [4, 2])
def test_time_agent_times_only_the_agents_own_decisions(num_players):
    from spades_env.experiments import time_agent

    seats = num_players // 2  # the agent's seats: the heuristic's decisions are not counted
    decisions, ms = time_agent.time_agent("random", num_players, games=2, seed=0)
    again, _ = time_agent.time_agent("random", num_players, games=2, seed=0)
    assert again == decisions  # the agents are seeded: the same games, the same decisions
    # 13 cards, Blind Nil and a bid, the 3-card exchange (two players: the draw's 13 choices and the replacements);
    # forced moves are not asked, and every seat's decisions together would be about twice as many
    most = 18 if num_players == 4 else 32
    assert 2 * seats * 5 <= decisions <= 2 * seats * most and ms >= 0
    decisions, _ = time_agent.time_agent("ppo" if num_players == 4 else "ppo-2p", num_players, games=2, seed=0)
    assert decisions >= 2 * seats * 5  # a network agent's own reset and observation kind reach it through the timer


def test_time_agent_splits_the_time_by_phase_and_tricks_left(capsys):
    from spades_env.experiments import time_agent

    phases: dict = {}
    decisions, _ = time_agent.time_agent("heuristic", 4, games=2, seed=0, phases=phases)
    assert sum(count for count, _ in phases.values()) == decisions
    assert {"bid", "blind"} <= set(phases) and "card, 13 tricks left" in phases  # four players: Blind Nil, then a bid
    house: dict = {}
    time_agent.time_agent("heuristic", 4, games=2, seed=0, phases=house, rules="house")
    assert "blind" not in house  # the house rule offers Blind Nil only 100 behind: single hands start level
    time_agent.main(["random", "--games", "1", "--phases"])
    assert "| any (no view) |" in capsys.readouterr().out  # random reads no view: its time in one row


def test_time_agent_times_several_agents_side_by_side(capsys):
    from spades_env.experiments import time_agent

    time_agent.main(["random", "heuristic", "--games", "1", "--rounds", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["random", "heuristic"]
    assert all("median of 2 rounds" in line for line in lines)
    assert "1.00x the first" in lines[0] and "x the first" in lines[1]
    with pytest.raises(SystemExit):
        time_agent.main(["random", "--rounds", "0"])


@pytest.mark.parametrize("script, args, says", [
    ("time_agent", ["random", "nosuch", "--games", "1"], "unknown agent 'nosuch'"),
    ("time_agent", ["endgame:ppo-v3:tricks=0"], "1 <= tricks <= 13"),
    ("bench_act", ["--agents", "ppo:/no/such.pt"], "no PPO checkpoint at /no/such.pt"),
    ("distil_search", ["--out", "unused", "--teacher", "search-v1:wrld=3"], "'wrld'"),
])
def test_a_wrong_agent_spec_is_one_line_before_any_work(capsys, script, args, says):
    import importlib

    with pytest.raises(SystemExit) as exit_:
        importlib.import_module(f"spades_env.experiments.{script}").main(args)
    err = capsys.readouterr()
    assert exit_.value.code == 2 and says in err.err and "Traceback" not in err.err and not err.out


def test_time_agent_times_games_to_500(capsys):
    from spades_env.experiments import time_agent

    single, _ = time_agent.time_agent("random", 4, games=2, seed=0)
    whole, _ = time_agent.time_agent("random", 4, games=2, seed=0, single_hand=False)
    assert whole > 2 * single  # a game to 500 is several hands
    time_agent.main(["random", "--games", "1", "--to-500"])
    assert "games to 500" in capsys.readouterr().out


def test_bench_solver_prices_the_bags_when_asked(capsys):
    from spades_env.experiments import bench_solver

    bench_solver.main(["--positions", "2", "--tricks", "3", "--players", "4", "--no-nil", "--bag-cost", "10"])
    out = capsys.readouterr().out
    assert "no Nil bids; bags priced at 10" in out and "     4p      3    2" in out
