"""spades benchmark: the cells it plans, a tiny run end to end, the score card's content, resume, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spades_env.agents.benchmark import BENCHMARK_SEED, POOLS, SEED_OFFSETS, TIERS, main, plan_cells
from spades_env.agents.benchmark.pool import is_search
from spades_env.agents.cli import version
from spades_env.agents.tournament.stats import pairing_stats
from spades_env.records import read_games
from spades_env.rules import PRESETS

TINY = ["--deals", "3", "--games", "2", "--workers", "1", "--no-progress"]


def test_every_variant_preset_and_format_has_its_own_published_seed():
    assert {(n, p, f) for n in (4, 2) for p in PRESETS for f in ("single", "games")} == set(SEED_OFFSETS)
    assert len(set(SEED_OFFSETS.values())) == len(SEED_OFFSETS)
    cells = plan_cells("heuristic-v1", 4, TIERS["full"])
    assert {c.seed for c in cells} == {BENCHMARK_SEED + k for k in (1, 2, 3, 4)}
    private = plan_cells("heuristic-v1", 4, TIERS["full"], seed=7)
    assert {c.seed for c in private} == {8, 9, 10, 11}


def test_the_cells_cover_the_pool_in_both_formats_and_presets_at_the_tier_sizes():
    full = TIERS["full"]
    cells = plan_cells("ppo-v1", 4, full)
    opponents = [o for o in POOLS[4] if o != "ppo-v1"]  # no mirror match
    assert [(c.preset, c.format, c.opponent) for c in cells] == [
        (p, f, o) for p in ("default", "house") for f in ("single", "games") for o in opponents]
    for c in cells:  # the same deals for every opponent of a (preset, format)
        assert c.seed == BENCHMARK_SEED + SEED_OFFSETS[(4, c.preset, c.format)]
        slow = is_search(c.opponent)
        assert c.games == ({"single": 2 * (full.search_deals if slow else full.deals),
                            "games": full.search_games if slow else full.games}[c.format])
    assert all(c.games == {"single": 8, "games": 3}[c.format] for c in plan_cells("search", 2, full, deals=4, games=3))
    assert is_search("search") and is_search("search-v1:ms=10") and not is_search("heuristic")


def test_a_tiny_benchmark_end_to_end_writes_the_score_card_with_versions_and_machine(tmp_path, capsys):
    out = tmp_path / "card"
    assert main(["random", "--pool", "heuristic-v1", "--out", str(out), *TINY]) == 0
    printed = capsys.readouterr().out
    card = json.loads((out / "scorecard.json").read_text())
    bench = card["benchmark"]
    assert bench["agent_versioned"] == "random-v1" and bench["pool"] == ["heuristic-v1"]
    assert not bench["standard_pool"] and bench["published_seeds"]
    assert bench["seeds"] == {f"{p}/{f}": BENCHMARK_SEED + SEED_OFFSETS[(4, p, f)]
                              for p in ("default", "house") for f in ("games", "single")}
    assert card["software"]["spades_env"] == version() and card["software"]["commit"]
    assert card["machine"]["cores"] >= 1 and card["machine"]["cpu"] and card["machine"]["platform"]
    assert card["complete"] and len(card["cells"]) == 4
    for row in card["cells"]:
        folder = out / row["folder"]
        config = json.loads((folder / "config.json").read_text())
        assert config["agents"] == ["random-v1", "heuristic-v1"] and config["preset"] == row["rules"]
        assert config["seed"] == row["seed"] and config["single_hand"] == (row["format"] == "single")
        records = list(read_games(folder / "games.jsonl"))
        assert len(records) == row["games_played"] == (6 if row["format"] == "single" else 2)
        stats = pairing_stats(records, "random-v1", "heuristic-v1")  # the row is the tournament's statistics
        assert row["points_per_deal"]["mean"] == pytest.approx(stats["points_per_deal_diff"]["mean"])
        assert row["points_per_deal"]["mean"] < 0  # random loses to the heuristic on every board here
        assert row["win_rate"] == stats["win_rate_a"]
        hands = stats["agent_b"]["hands"]
        assert row["opponent_profile"]["mean_bid"] == stats["agent_b"]["mean_bid"]
        assert row["opponent_profile"]["nil_rate"] == stats["agent_b"]["nil_attempts"] / (2 * hands)
        assert row["opponent_profile"]["set_rate"] == stats["agent_b"]["set_rate"]
    markdown = (out / "scorecard.md").read_text()
    assert "Cite as: `spades benchmark random --num-players 4 --tier full --deals 3 --games 2 --pool heuristic-v1`" \
        in markdown
    assert markdown.count("| `heuristic-v1` |") == 4 and "(not the standard pool)" in markdown
    assert "random-v1, 4 players" in printed and "points/deal [95% CI]" in printed and "opponent" in printed


def test_a_rerun_resumes_cut_and_missing_cells_and_gives_the_same_card(tmp_path):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    args = ["heuristic-v1", "--pool", "random-v1", *TINY]
    assert main([*args, "--out", str(whole)]) == 0
    assert main([*args, "--out", str(cut)]) == 0
    records = cut / "default/single/random-v1/games.jsonl"
    lines = records.read_text().splitlines(keepends=True)
    records.write_text("".join(lines[:2]) + lines[2][:40])  # a kill in the middle of a line
    for path in (cut / "house/games/random-v1").iterdir():
        path.unlink()
    with pytest.warns(UserWarning, match="incomplete last line"):
        assert main([*args, "--out", str(cut)]) == 0
    cells = [json.loads((folder / "scorecard.json").read_text())["cells"] for folder in (whole, cut)]
    assert cells[0] == cells[1]
    assert main([*args[:3], "--deals", "4", "--games", "2", "--workers", "1", "--no-progress",
                 "--out", str(cut)]) == 0  # more deals add boards
    card = json.loads((cut / "scorecard.json").read_text())
    assert [r["games_played"] for r in card["cells"]] == [8, 2, 8, 2]


def test_a_cell_mirrored_from_the_other_side_is_the_game_for_game_same_as_playing_it(tmp_path):
    """Duplicate is symmetric: random-v1's card against heuristic-v1, seen from the other side, is
    heuristic-v1's card against random-v1 (every record equal), so --mirror copies instead of playing."""
    other, played, mirrored = tmp_path / "random", tmp_path / "played", tmp_path / "mirrored"
    assert main(["random", "--pool", "heuristic-v1", "--out", str(other), *TINY]) == 0
    assert main(["heuristic-v1", "--pool", "random", "--out", str(played), *TINY]) == 0
    assert main(["heuristic-v1", "--pool", "random", "--out", str(mirrored), "--mirror", str(other), *TINY]) == 0
    cards = [json.loads((folder / "scorecard.json").read_text())["cells"] for folder in (played, mirrored)]
    assert all(row["mirrored_from"] is None for row in cards[0])
    assert all(row.pop("mirrored_from") == str(other / row["folder"].replace("random-v1", "heuristic-v1"))
               for row in cards[1])
    assert [{k: v for k, v in row.items() if k != "mirrored_from"} for row in cards[0]] == cards[1]
    for row in cards[1]:
        games = [sorted(read_games(folder / row["folder"] / "games.jsonl"), key=lambda r: r["index"])
                 for folder in (played, mirrored)]
        assert games[0] == games[1] and len(games[0]) == row["games_played"]
    assert "Copied from the other side's card" in (mirrored / "scorecard.md").read_text()


@pytest.mark.parametrize("argv, message", [
    (["nosuchagent"], "unknown agent 'nosuchagent'"),
    (["heuristic-v1", "--pool", "nosuch"], "unknown agent 'nosuch'"),
    (["ppo", "--num-players", "2", "--pool", "heuristic-v1"], "cannot play 2 players"),
    (["heuristic", "--pool", "heuristic-v2"], "holds only the agent itself"),  # the alias is its version
    (["random", "--mirror", "no/such/folder"], "--mirror no/such/folder: not a benchmark folder"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, capsys, argv, message):
    out = tmp_path / "x"
    assert main([*argv, "--out", str(out), *TINY]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not out.exists()


def test_a_folder_of_another_benchmark_is_refused(tmp_path, capsys):
    out = tmp_path / "x"
    assert main(["random", "--pool", "heuristic-v1", "--out", str(out), *TINY]) == 0
    capsys.readouterr()
    before = {p: p.stat().st_mtime_ns for p in Path(out).rglob("*")}
    assert main(["heuristic-v1", "--pool", "random", "--out", str(out), *TINY]) == 2
    assert "holds a benchmark of other settings (agent, pool)" in capsys.readouterr().err
    assert {p: p.stat().st_mtime_ns for p in Path(out).rglob("*")} == before
