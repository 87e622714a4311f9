"""The benchmark script runs end to end (its figures are measured by hand, never asserted on)."""

import json

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


def test_batch_chooser_picks_a_legal_id_uniformly():
    """The batched rows' random agent: always a legal id, each of a game's legal ids about equally often."""
    import numpy as np

    from spades_env.vector import VectorSpades

    vec = VectorSpades(4, seed=0)
    choose = bench_env._batch_chooser(vec, seed=1)
    mask = np.zeros((3, vec.num_actions), bool)
    mask[0, [3, 40, 70]] = True
    mask[1, 52:66] = True
    mask[2, 7] = True
    counts = np.zeros((3, vec.num_actions), int)
    for _ in range(3000):
        picked = choose(mask)
        assert mask[np.arange(3), picked].all()
        counts[np.arange(3), picked] += 1
    assert counts[2, 7] == 3000
    for row, legal in ((0, [3, 40, 70]), (1, list(range(52, 66)))):
        expected = 3000 / len(legal)
        chi2 = ((counts[row, legal] - expected) ** 2 / expected).sum()
        assert chi2 < {3: 13.8, 14: 34.5}[len(legal)]  # p = 0.001 for 2 and 13 degrees of freedom


def test_bench_env_in_fresh_processes_reports_each_rows_median(tmp_path):
    out = tmp_path / "bench.json"
    assert bench_env.main(["--hands", "1", "--rounds", "1", "--processes", "3", "--rows", "AEC env, 2",
                           "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["processes"] == 3 and len(report["runs"]) == 3
    for name, row in report["rows"].items():
        rates = sorted(run[name]["decisions_per_second"] for run in report["runs"])
        assert row["decisions_per_second"] == rates[1]  # the median of three
