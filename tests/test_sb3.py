"""sb3-contrib's MaskablePPO trains on the single-agent wrapper; its saved model plays tournaments (extra ``[sb3]``)."""

import math

import pytest

pytest.importorskip("sb3_contrib", reason="extra [sb3] not installed: pip install -e '.[sb3]'")

from rl_guard import assert_plays_legally, engine_actions, example, one_torch_thread, tournament_summary  # noqa: E402

from spades_env.agents.random_agent import RandomAgent  # noqa: E402
from spades_env.wrappers import SpadesGymEnv  # noqa: E402


def test_maskable_ppo_trains_without_illegal_actions_and_reports_every_update():
    train = example("sb3_maskable_ppo")["train"]
    with one_torch_thread(), engine_actions() as counts:
        model, rows = train(timesteps=1024, seed=0, single_hand=True, illegal_action="raise")
    assert model.num_timesteps == 1024
    assert counts["illegal"] == 0 and counts["actions"] > 1024  # the learner's actions and the opponents'
    assert sum(model.get_env().get_attr("illegal_actions")) == 0
    assert len(rows) == 2  # two rollouts of 512, two updates: the last one's losses included
    assert all(math.isfinite(row["train/loss"]) for row in rows)


def test_saved_model_plays_a_tournament(tmp_path):
    from sb3_contrib import MaskablePPO

    model = MaskablePPO("MlpPolicy", SpadesGymEnv(opponents=RandomAgent(), single_hand=True), seed=0)  # untrained
    model.save(tmp_path / "policy.zip")  # the library's own save
    spec = f"sb3:{tmp_path / 'policy.zip'}"
    assert_plays_legally(spec)
    tournament_summary(spec, tmp_path / "tournament")
