"""TorchRL's PettingZooWrapper with a team group map: collection and PPO losses (extra ``[torchrl]``)."""

import math

import pytest

pytest.importorskip("torchrl", reason="extra [torchrl] not installed: pip install -e '.[torchrl]'")

from rl_guard import engine_actions, example, one_torch_thread  # noqa: E402

from spades_env.wrappers.torchrl import make_torchrl_env, team_group_map  # noqa: E402


def test_team_groups_and_masks():
    assert team_group_map(4) == {"team_0": ["player_0", "player_2"], "team_1": ["player_1", "player_3"]}
    assert team_group_map(2) == {"team_0": ["player_0"], "team_1": ["player_1"]}
    env = make_torchrl_env(seed=3, single_hand=True)
    td = env.reset()
    acting = [(g, i) for g in env.group_map for i, m in enumerate(td[g, "mask"].tolist()) if m]
    assert len(acting) == 1  # one seat to act; its action mask is the engine's legal set
    group, index = acting[0]
    seat = int(env.group_map[group][index].split("_")[1])
    assert seat == env._env.unwrapped.game.current_player
    legal = set(env._env.unwrapped.game.legal_actions())
    assert set(td[group, "action_mask"][index].nonzero().flatten().tolist()) == legal


def test_ppo_collection_and_loss():
    train = example("torchrl_ppo")["train"]
    with one_torch_thread(), engine_actions() as counts:
        rows = train(iterations=2, frames_per_batch=256, seed=0, single_hand=True)
    assert counts["illegal"] == 0 and counts["actions"] == 512  # one frame is one seat's action
    assert len(rows) == 2
    assert all(math.isfinite(v) for row in rows for v in row.values())
