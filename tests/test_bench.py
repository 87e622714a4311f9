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
    assert bench_env.main(["--hands", "1", "--rounds", "1", "--rows", "uint8 obs, B=1024", "--json", str(out)]) == 0
    rows = set(json.loads(out.read_text())["rows"])
    assert rows == {"OpenSpiel spades (pyspiel)", "vector engine, uint8 obs, B=1024"}
