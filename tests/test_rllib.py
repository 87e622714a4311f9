"""RLlib's PettingZooEnv with an action-masking RLModule per side: one PPO iteration (extra ``[rllib]``)."""

import math

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="extra [rllib] not installed: pip install -e '.[rllib]'")

import ray  # noqa: E402
from rl_guard import engine_actions, example, one_torch_thread  # noqa: E402

from spades_env.wrappers.rllib import RLlibSpadesEnv, team_of  # noqa: E402


def test_env_keys_and_rewards():
    env = RLlibSpadesEnv({"single_hand": True})
    obs, _ = env.reset(seed=1)
    (agent, o), = obs.items()
    assert set(o) == {"observations", "action_mask"}
    assert env.observation_space[agent].contains(o)
    assert team_of("player_2") == "team_0" and team_of("player_3") == "team_1"
    text_env = RLlibSpadesEnv({"render_mode": "ansi"})
    text_env.reset(seed=1)
    assert "player_0" in text_env.render()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        obs, rewards, terminateds, truncateds, _ = env.step({agent: rng.choice(np.flatnonzero(o["action_mask"]))})
        for a, r in rewards.items():
            totals[a] += r
        done = terminateds["__all__"] or truncateds["__all__"]
        if not done:
            (agent, o), = obs.items()
    game = env.env.unwrapped.game
    diff = (game.scores[0] - game.scores[1]) / 100
    assert totals["player_0"] == pytest.approx(diff) and totals["player_1"] == pytest.approx(-diff)


def test_ppo_iteration():
    train = example("rllib_ppo")["train"]
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        with one_torch_thread(), engine_actions() as counts:
            (learners,) = train(iterations=1, batch_size=400, single_hand=True)
    finally:
        ray.shutdown()
    assert counts["illegal"] == 0 and counts["actions"] >= 400
    for team in ("team_0", "team_1"):
        assert math.isfinite(float(learners[team]["total_loss"]))
