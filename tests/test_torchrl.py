"""TorchRL's PettingZooWrapper with a team group map: masks, a saved policy in a tournament (extra
``[torchrl]``); the example's training runs in tests/test_examples.py."""

import pytest
import torch

pytest.importorskip("torchrl", reason="extra [torchrl] not installed: pip install -e '.[torchrl]'")

from rl_guard import assert_plays_legally, tournament_summary  # noqa: E402

from spades_env.actions import NUM_ACTIONS  # noqa: E402
from spades_env.observations import observation_size  # noqa: E402
from spades_env.wrappers.torchrl import (  # noqa: E402
    load_policy,
    make_torchrl_env,
    masked_actor,
    save_policy,
    team_group_map,
)


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


def test_saved_policy_plays_a_tournament(tmp_path):
    groups = team_group_map(4)
    obs_dim = observation_size(4)
    actors = {group: masked_actor(group, obs_dim, NUM_ACTIONS, hidden=16) for group in groups}  # untrained
    path = save_policy(tmp_path / "policy.ckpt", actors, groups, obs_dim=obs_dim, num_actions=NUM_ACTIONS, hidden=16)
    assert path.is_file()  # one archive
    loaded, group_map, _ = load_policy(path)
    assert group_map == groups
    for group, actor in actors.items():
        assert all(torch.equal(a, b) for a, b in zip(actor.parameters(), loaded[group].parameters(), strict=True))
    spec = f"torchrl:{path}"
    assert_plays_legally(spec)
    tournament_summary(spec, tmp_path / "tournament")


def test_a_checkpoint_of_something_else_is_refused(tmp_path):
    from torchrl.checkpoint import Checkpoint

    Checkpoint(policy=torch.nn.Linear(2, 1)).save(tmp_path / "other.ckpt", format="archive")
    with pytest.raises(ValueError, match="not a policy written by"):
        load_policy(tmp_path / "other.ckpt")
