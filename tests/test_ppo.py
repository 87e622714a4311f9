"""PPO pipeline: masking, GAE, checkpoints, exact resume, and a short training run."""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest
import torch

from spades_env import spades_v0
from spades_env.actions import NUM_ACTIONS
from spades_env.agents import make_agent
from spades_env.agents.ppo.buffer import RolloutBuffer, compute_gae
from spades_env.agents.ppo.cloning import teacher_fit
from spades_env.agents.ppo.config import PPOConfig
from spades_env.agents.ppo.model import (
    ActorCritic,
    PPOAgent,
    load_policy,
    masked_entropy,
    masked_log_probs,
    sample_actions,
    save_policy,
)
from spades_env.agents.ppo.rollout import LEARNER, Collector
from spades_env.agents.ppo.train import main as train_main
from spades_env.agents.ppo.train import make_plans, ppo_update
from spades_env.game import Phase
from spades_env.observations import layout, observation_size

# Tiny runs: the random agent stands in for the heuristic (it is the same code path, only faster).
TINY = ["--num-envs", "8", "--bc-hands", "0", "--hidden-sizes", "32", "--p-heuristic", "0.2", "--p-random", "0.2",
        "--heuristic-agent", "random", "--snapshot-every", "1", "--save-every", "1", "--eval-every", "2",
        "--eval-deals", "4", "--no-progress"]


def test_all_but_one_mask_always_yields_that_action():
    torch.manual_seed(0)
    logits = torch.randn(NUM_ACTIONS, NUM_ACTIONS) * 5
    mask = torch.eye(NUM_ACTIONS, dtype=torch.bool)  # row i: only action i legal
    log_probs = masked_log_probs(logits, mask)
    generator = torch.Generator().manual_seed(0)
    for _ in range(20):
        assert torch.equal(sample_actions(log_probs, generator), torch.arange(NUM_ACTIONS))
    assert torch.equal(log_probs.argmax(1), torch.arange(NUM_ACTIONS))
    assert torch.allclose(masked_entropy(log_probs, mask), torch.zeros(NUM_ACTIONS))


def test_sampling_never_picks_an_illegal_action_and_gradients_stay_finite():
    torch.manual_seed(1)
    logits = torch.randn(512, NUM_ACTIONS, requires_grad=True)
    mask = torch.rand(512, NUM_ACTIONS) < 0.1
    mask[:, 0] |= ~mask.any(1)
    log_probs = masked_log_probs(logits * 10, mask)
    actions = sample_actions(log_probs, torch.Generator().manual_seed(2))
    assert mask[torch.arange(512), actions].all()
    loss = -log_probs.gather(1, actions.unsqueeze(1)).mean() - masked_entropy(log_probs, mask).mean()
    loss.backward()
    assert torch.isfinite(loss) and torch.isfinite(logits.grad).all()
    assert (logits.grad[~mask] == 0).all()  # illegal logits get no gradient


def test_ppo_agent_obeys_a_single_legal_action(tmp_path):
    model = ActorCritic(observation_size(4), [16])
    save_policy(model, tmp_path / "p.pt", 4)
    agent = PPOAgent(tmp_path / "p.pt", greedy=False)
    obs = np.random.default_rng(0).random(observation_size(4)).astype(np.float32)
    for action in (0, 17, 51, 52, 65, 66, 67):
        mask = np.zeros(NUM_ACTIONS, np.int8)
        mask[action] = 1
        assert agent.act(obs, mask, None) == action


def test_gae_matches_a_hand_computation():
    rewards, values, gamma, lam = [0.0, 0.0, 1.0], [0.5, 0.2, 0.8], 0.9, 0.8
    # deltas: r_t + gamma * V_{t+1} - V_t, with V_3 = 0
    d2 = 1.0 + 0.9 * 0.0 - 0.8  # 0.2
    d1 = 0.0 + 0.9 * 0.8 - 0.2  # 0.52
    d0 = 0.0 + 0.9 * 0.2 - 0.5  # -0.32
    a2 = d2
    a1 = d1 + 0.9 * 0.8 * a2  # 0.664
    a0 = d0 + 0.9 * 0.8 * a1  # 0.15808
    adv, ret = compute_gae(np.array(rewards), np.array(values), gamma, lam)
    np.testing.assert_allclose(adv, [a0, a1, a2], rtol=1e-6)
    np.testing.assert_allclose(ret, [a0 + 0.5, a1 + 0.2, a2 + 0.8], rtol=1e-6)
    # gamma = lambda = 1 with zero values: every step's return is the final reward (Monte-Carlo).
    adv, ret = compute_gae(np.array([0, 0, 2.5]), np.zeros(3), 1.0, 1.0)
    np.testing.assert_allclose(ret, [2.5, 2.5, 2.5])


def test_policy_checkpoint_round_trip(tmp_path):
    torch.manual_seed(3)
    model = ActorCritic(observation_size(4), [64, 32])
    save_policy(model, tmp_path / "policy.pt", 4, {"note": "test"})
    assert not list(tmp_path.glob("*.tmp"))  # the temporary file was renamed away
    loaded, data = load_policy(tmp_path / "policy.pt")
    assert data["meta"] == {"note": "test"} and data["num_players"] == 4 and loaded.hidden_sizes == [64, 32]
    x = torch.randn(5, observation_size(4))
    for a, b in zip(model(x), loaded(x)):
        assert torch.equal(a, b)
    assert (tmp_path / "policy.pt").stat().st_size < 5_000_000


def test_ppo_agent_plays_the_pettingzoo_env(tmp_path):
    save_policy(ActorCritic(observation_size(4), [32]), tmp_path / "p.pt", 4)
    agent = make_agent(f"ppo:{tmp_path / 'p.pt'}")
    env = spades_v0.env(single_hand=True)
    env.reset(seed=5)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else agent.act(obs["observation"], obs["action_mask"], None))
    assert env.unwrapped.game.hand_number == 1
    with pytest.raises(ValueError, match="2-player|4-player|inputs"):
        PPOAgent(tmp_path / "p.pt").act(np.zeros(observation_size(2), np.float32), np.ones(NUM_ACTIONS), None)


def _metrics(run_dir) -> list[dict]:
    with open(run_dir / "metrics.csv") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:  # timings differ between runs; everything else must not
        del r["wall_s"], r["steps_per_s"]
    return rows


def test_resume_gives_the_same_result_as_an_uninterrupted_run(tmp_path):
    straight, split = tmp_path / "straight", tmp_path / "split"
    assert train_main(TINY + ["--total-updates", "4", "--run-dir", str(straight)]) == 0
    assert train_main(TINY + ["--total-updates", "2", "--run-dir", str(split)]) == 0
    assert train_main(["--resume", str(split), "--total-updates", "4", "--no-progress"]) == 0
    a = torch.load(straight / "checkpoint.pt", weights_only=False)
    b = torch.load(split / "checkpoint.pt", weights_only=False)
    assert a["state"]["update"] == b["state"]["update"] == 4
    for key, value in a["policy"]["state_dict"].items():
        assert torch.equal(value, b["policy"]["state_dict"][key]), key
    assert len(a["pool"]) == len(b["pool"]) == 4
    assert _metrics(straight) == _metrics(split)
    info = json.loads((split / "run.json").read_text())
    assert info["seed"] == 1 and info["git_commit"] and info["resumed"][0]["at_update"] == 2
    assert (split / "learning_curve.png").stat().st_size > 0
    assert list(split.glob("events.out.tfevents.*"))


@pytest.mark.parametrize("num_players", [4, 2])
def test_short_training_run_has_finite_losses_and_only_legal_actions(tmp_path, num_players):
    run = tmp_path / "run"
    argv = TINY + ["--num-players", str(num_players), "--num-envs", "24", "--total-updates", "3",
                   "--hidden-sizes", "64", "--run-dir", str(run), "--eval-every", "0"]
    assert train_main(argv) == 0
    rows = list(csv.DictReader(open(run / "metrics.csv")))
    assert int(rows[-1]["decisions"]) >= 1000 * (num_players // 2)
    for row in rows:
        for key in ("policy_loss", "value_loss", "entropy", "approx_kl"):
            assert math.isfinite(float(row[key])), (key, row)
    evals = list(csv.DictReader(open(run / "eval.csv")))
    assert [int(e["update"]) for e in evals] == [0, 3] and int(evals[-1]["deals"]) == 4
    # The trained policy, sampling, against itself: every recorded action lies in its mask.
    model, _ = load_policy(run / "policy.pt")
    cfg = PPOConfig(num_players=num_players, num_envs=16, p_heuristic=0, p_random=0)
    assert model.critic_obs_size == observation_size(num_players, "oracle")  # the default privileged critic
    collector = Collector(num_players, cfg.num_envs, observation_kind="oracle")
    buffer = RolloutBuffer(1.0, 0.95)
    rng = np.random.default_rng(0)
    plans, _ = make_plans(cfg, rng, 0, collector.games[0].side_of)
    assert all(p == [LEARNER] * num_players for p in plans)
    stats = collector.run(plans, rng, model, [], torch.Generator().manual_seed(0), buffer)
    batch = buffer.batch()
    assert len(stats.hands) == 16 and len(batch) == stats.recorded > 0
    assert batch.masks[torch.arange(len(batch)), batch.actions].all()
    assert torch.isfinite(batch.log_probs).all()


def test_behaviour_cloning_learns_the_demonstrator(tmp_path):
    run = tmp_path / "bc"
    # The "demonstrator" here is the random agent: after cloning, the policy is close to uniform over legal moves.
    argv = TINY + ["--total-updates", "1", "--bc-hands", "24", "--bc-epochs", "2", "--run-dir", str(run)]
    assert train_main(argv) == 0
    bc = json.loads((run / "run.json").read_text())["behaviour_cloning"]
    assert bc["bc_samples"] > 500 and math.isfinite(bc["bc_heldout_nll"]) and 0 <= bc["bc_heldout_accuracy"] <= 1


def test_config_file_and_flags(tmp_path):
    from spades_env.agents.ppo.config import add_config_arguments, config_from_args, load_config_file

    (tmp_path / "c.yaml").write_text("learning_rate: 0.001\nhidden_sizes: [128, 64]\nnum_players: 2\n")
    (tmp_path / "c.json").write_text(json.dumps({"ent_coef": 0.02}))
    import argparse

    parser = argparse.ArgumentParser()
    add_config_arguments(parser)
    args = parser.parse_args(["--learning-rate", "0.002", "--anneal-lr", "true"])
    cfg = config_from_args(args, load_config_file(tmp_path / "c.yaml"))
    assert (cfg.learning_rate, cfg.hidden_sizes, cfg.num_players, cfg.anneal_lr) == (0.002, [128, 64], 2, True)
    assert config_from_args(parser.parse_args([]), load_config_file(tmp_path / "c.json")).ent_coef == 0.02
    with pytest.raises(ValueError, match="unknown config keys"):
        PPOConfig.from_dict({"learning_rat": 1})


def test_init_policy_starts_from_given_weights(tmp_path):
    start = ActorCritic(observation_size(4), [32], observation_size(4, "oracle"))
    save_policy(start, tmp_path / "start.pt", 4)
    argv = TINY + ["--total-updates", "0", "--init-policy", str(tmp_path / "start.pt"),
                   "--run-dir", str(tmp_path / "r")]
    assert train_main(argv) == 0
    assert json.loads((tmp_path / "r" / "run.json").read_text())["init_policy"] == str(tmp_path / "start.pt")
    loaded, _ = load_policy(tmp_path / "r" / "policy.pt")
    for key, value in start.state_dict().items():
        assert torch.equal(value, loaded.state_dict()[key]), key


@pytest.mark.parametrize("name,num_players", [("ppo", 4), ("ppo-2p", 2)])
def test_shipped_checkpoints_load_by_name_and_play_legally(name, num_players):
    from spades_env.agents.match import play_game
    from spades_env.agents.ppo.model import SHIPPED
    from spades_env.game import SpadesConfig

    assert SHIPPED[num_players].stat().st_size < 5_000_000
    agent = make_agent(name)
    assert agent.num_players == num_players
    game = play_game([agent, make_agent("random")] * (num_players // 2), seed=3,
                     config=SpadesConfig(num_players=num_players, single_hand=True), ask_forced=True)
    assert game.hand_number == 1  # the engine raised on no illegal action


def test_teacher_labels_the_learners_card_plays_and_the_update_moves_toward_them():
    torch.manual_seed(0)
    model = ActorCritic(observation_size(4), [32])
    collector = Collector(4, 12, random_start_bags=False, teacher="heuristic")
    plans = [[LEARNER, ("agent", "heuristic")] * 2 for _ in range(12)]
    buffer = RolloutBuffer(1.0, 0.95)
    collector.run(plans, np.random.default_rng(0), model, [], torch.Generator().manual_seed(0), buffer)
    batch = buffer.batch()
    labelled = batch.teacher_actions >= 0
    # Exactly the card plays have labels (not bids, nor Blind Nil passes), and every label is legal there.
    phase = layout(4)["phase"]
    playing = batch.obs[:, phase.start + Phase.PLAY] == 1
    assert torch.equal(labelled, playing) and labelled.sum() > 100
    assert batch.masks[labelled.nonzero().squeeze(1), batch.teacher_actions[labelled]].all()

    before = teacher_fit(model, batch)
    cfg = PPOConfig(teacher_coef=5.0, update_epochs=4, num_minibatches=2)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    after = ppo_update(model, optimizer, batch, cfg, torch.Generator().manual_seed(0))
    assert after["teacher_nll"] < before["teacher_nll"] - 0.1
    assert after["teacher_agreement"] > before["teacher_agreement"]

    everything = RolloutBuffer(1.0, 0.95)
    Collector(4, 4, random_start_bags=False, teacher="heuristic", teacher_phases="all").run(
        plans[:4], np.random.default_rng(1), model, [], torch.Generator().manual_seed(0), everything)
    labels = everything.batch().teacher_actions
    assert (labels >= 0).all() and everything.batch().masks[torch.arange(len(labels)), labels].all()

    unlabelled = RolloutBuffer(1.0, 0.95)
    Collector(4, 2, random_start_bags=False).run(plans[:2], np.random.default_rng(0), model, [],
                                                 torch.Generator().manual_seed(0), unlabelled)
    assert (unlabelled.batch().teacher_actions == -1).all()
