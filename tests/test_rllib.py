"""RLlib's PettingZooEnv with an action-masking RLModule per side, and saved modules in a tournament (extra
``[rllib]``); the example's training runs in tests/test_examples.py."""

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="extra [rllib] not installed: pip install -e '.[rllib]'")

from rl_guard import assert_plays_legally, tournament_summary  # noqa: E402

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


def test_saved_modules_play_a_tournament(tmp_path, monkeypatch, capfd):
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    env = RLlibSpadesEnv({})
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule, observation_space=env.observation_spaces["player_0"],
                          action_space=env.action_spaces["player_0"], model_config={"head_fcnet_hiddens": [16]})
    untrained = MultiRLModuleSpec(rl_module_specs={"team_0": module, "team_1": module}).build()
    untrained.save_to_path(tmp_path / "modules")  # the library's own save (no Ray needed)
    monkeypatch.chdir(tmp_path)
    spec = "rllib:modules"  # a relative path, as typed on the command line (RLlib itself wants absolute ones)
    assert_plays_legally(spec)
    capfd.readouterr()
    tournament_summary(spec, tmp_path / "tournament")
    err = capfd.readouterr().err  # the worker processes' too: Ray's module logs no deprecation in any of them
    assert "DeprecationWarning" not in err, err
