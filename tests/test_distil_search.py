"""experiments/distil_search.py: labels in resumable chunks, a fit that writes a playable policy, the rows with a Nil
standing."""

from __future__ import annotations

import json

import numpy as np
import torch

from spades_env import actions as A
from spades_env.agents.match import play_game
from spades_env.agents.registry import make_agent
from spades_env.experiments import distil_search
from spades_env.game import Phase, SpadesConfig, SpadesGame
from spades_env.observations import encode


def test_collect_resumes_at_the_first_missing_chunk_and_fit_writes_a_policy(tmp_path):
    base = ["--out", str(tmp_path), "--teacher", "heuristic", "--chunk-hands", "2"]
    distil_search.main([*base, "--chunks", "1"])
    first = tmp_path / "labels" / "chunk-00000.pt"
    before = first.stat().st_mtime_ns
    chunk = torch.load(first)
    assert len(chunk["actions"]) > 0 and (chunk["teacher_actions"] >= 0).all()
    assert chunk["masks"][torch.arange(len(chunk["actions"])), chunk["teacher_actions"]].all()  # labels are legal
    distil_search.main([*base, "--chunks", "2"])  # as after a kill: chunk 0 is kept, chunk 1 is added
    assert first.stat().st_mtime_ns == before
    assert (tmp_path / "labels" / "chunk-00001.pt").exists()

    distil_search.main(["--out", str(tmp_path), "--fit", "--epochs", "1"])
    fit = json.loads((tmp_path / "fit.json").read_text())
    assert [h["epoch"] for h in fit["history"]] == [0, 1]
    agent = make_agent(f"ppo:{tmp_path / 'policy.pt'}")
    shipped_stages = make_agent("ppo").meta["provenance"]["stages"]
    stages = agent.meta["provenance"]["stages"]  # the shipped network's history, then the fit
    assert stages[:-1] == shipped_stages and "distil_search" in stages[-1] and "--fit" in stages[-1]
    game = play_game([agent, make_agent("heuristic")] * 2, seed=3, config=SpadesConfig(single_hand=True))
    assert game.game_over


def test_two_players_keep_only_the_labels_of_bids_and_card_plays(tmp_path):
    distil_search.main(["--out", str(tmp_path), "--num-players", "2", "--teacher", "heuristic", "--chunk-hands", "2",
                        "--chunks", "1", "--bids-and-cards"])
    chunk = torch.load(tmp_path / "labels" / "chunk-00000.pt")
    masks = chunk["masks"]
    assert len(masks) > 0 and not masks[:, 66:].any()  # no draw, Blind Nil or replacement decision
    assert masks[:, :52].any(1).any() and masks[:, 52:66].any(1).any()  # card plays and bids
    distil_search.main(["--out", str(tmp_path), "--num-players", "2", "--fit", "--epochs", "1"])
    agent = make_agent(f"ppo:{tmp_path / 'policy.pt'}")
    game = play_game([agent, make_agent("heuristic")], seed=3, config=SpadesConfig(num_players=2, single_hand=True))
    assert game.game_over


def test_nil_standing_reads_from_the_observation_what_the_engine_knows():
    """A seat bid Nil or Blind Nil and has taken no trick, in every seat's observation of every card play."""
    game, rng = SpadesGame(num_players=4, single_hand=True), np.random.default_rng(0)
    rows, truth, mine = [], [], []
    for seed in range(40):
        game.reset(seed=seed)
        while not game.terminated:
            if game.phase == Phase.PLAY:
                standing = [bid == 0 and won == 0 for bid, won in zip(game.bids, game.tricks)]
                rows += [encode(game, seat) for seat in range(4)]
                truth += [any(standing)] * 4
                mine += [standing[seat] or standing[(seat + 2) % 4] for seat in range(4)]
            legal = game.legal_actions()
            nil = game.phase == Phase.BID and A.BID_BASE in legal and rng.random() < 0.3  # Nils, often
            game.apply(A.BID_BASE if nil else legal[rng.integers(len(legal))])
    obs = torch.from_numpy(np.stack(rows)).float()
    assert 0 < sum(mine) < sum(truth) < len(truth)
    assert distil_search.nil_standing(obs).tolist() == truth
    assert distil_search.nil_standing(obs, seats=(0, 2)).tolist() == mine  # my side's: mine or my partner's
