"""Tianshou's PettingZooEnv with a masked PPO for every seat: each seat's credit, its saved policy in a tournament
([tianshou]); the example's training runs in tests/test_examples.py."""

import numpy as np
import pytest

pytest.importorskip("tianshou", reason="extra [tianshou] not installed: pip install -e '.[tianshou]'")

import torch  # noqa: E402
from rl_guard import assert_plays_legally, example, one_torch_thread, tournament_summary  # noqa: E402
from tianshou.data import Collector, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402

from spades_env.wrappers.tianshou import TianshouSpadesEnv, credit_own_turns  # noqa: E402


def test_each_seat_gets_the_credit_of_its_own_turns():
    ex = example("tianshou_ppo")
    env = TianshouSpadesEnv(single_hand=True)
    algorithm = ex["make_algorithm"](env)
    envs = DummyVectorEnv([lambda: TianshouSpadesEnv(single_hand=True) for _ in range(2)])
    envs.seed(7)
    collector = Collector(algorithm, envs, VectorReplayBuffer(5000, 2))
    collector.reset()
    with one_torch_thread():
        collector.collect(n_episode=6)
    batch, indices = collector.buffer.sample(0)
    actors = np.array([env.agent_idx[a] for a in batch.obs.agent_id])
    totals = np.asarray(batch.rew).sum(axis=0)  # each seat's reward over all the games, on whoever's step
    assert np.count_nonzero(totals) > 0
    episodes_ended = int(np.sum(np.asarray(batch.terminated) | np.asarray(batch.truncated)))
    assert episodes_ended == 6

    credit_own_turns(batch, collector.buffer, indices, env.agent_idx)
    rew = np.asarray(batch.rew)
    for seat in range(4):
        own = actors == seat
        assert np.allclose(rew[own, seat].sum(), totals[seat])  # nothing lost, nothing counted twice
        assert np.count_nonzero(rew[~own, seat]) == 0
        assert np.count_nonzero(np.asarray(batch.terminated)[own]) == 6  # one last turn per seat and game
    continuing = ~np.asarray(batch.terminated)
    assert (batch.obs_next.agent_id[continuing] == batch.obs.agent_id[continuing]).all()


def test_saved_policy_plays_a_tournament(tmp_path):
    algorithm = example("tianshou_ppo")["make_algorithm"](TianshouSpadesEnv())  # untrained
    torch.save(algorithm.policy, tmp_path / "policy.pt")  # Tianshou's PolicyPersistence "policy" mode
    spec = f"tianshou:{tmp_path / 'policy.pt'}"
    assert_plays_legally(spec)
    tournament_summary(spec, tmp_path / "tournament")
