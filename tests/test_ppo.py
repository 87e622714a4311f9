"""PPO pipeline: masking, GAE, checkpoints, exact resume in every phase, the time budget, short runs."""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import re

import numpy as np
import pytest
import torch

from spades_env import spades_v0
from spades_env.actions import NUM_ACTIONS
from spades_env.agents import make_agent
from spades_env.agents.ppo.buffer import RolloutBuffer, compute_gae
from spades_env.agents.ppo.cloning import teacher_fit
from spades_env.agents.ppo.collect import Collector
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
from spades_env.agents.ppo.plans import LEARNER, Plan, plan_hands
from spades_env.agents.ppo.rollout import GameCollector
from spades_env.agents.ppo.train import main as train_main
from spades_env.agents.ppo.train import ppo_update
from spades_env.game import Phase
from spades_env.observations import layout, observation_size
from spades_env.rules import FORMAT_OPTIONS, OPTIONS, SpadesConfig, flag_of

# Tiny runs: the random agent stands in for the heuristic and the teacher (the same code paths, only faster).
TINY = ["--num-envs", "8", "--bc-hands", "0", "--hidden-sizes", "32", "--p-heuristic", "0.2", "--p-random", "0.2",
        "--heuristic-agent", "random", "--teacher", "random", "--snapshot-every", "1", "--save-every", "1",
        "--eval-every", "2", "--eval-deals", "4", "--max-minutes", "0", "--workers", "0", "--no-progress"]


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


def _kill_at_call(monkeypatch, module, name: str, call: int) -> None:
    """Make ``module.name`` raise KeyboardInterrupt at its ``call``-th call, as a kill would (nothing saved)."""
    original, calls = getattr(module, name), []

    def dies(*args, **kwargs):
        calls.append(1)
        if len(calls) == call:
            raise KeyboardInterrupt
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, dies)


def _straight_and_killed(tmp_path, monkeypatch, argv: list[str], module, name: str, call: int):
    """Run ``argv`` straight, and again killed at the ``call``-th call of ``module.name``; returns both folders
    and the killed run's checkpoint (the resume is the caller's)."""
    straight, killed = tmp_path / "straight", tmp_path / "killed"
    assert train_main(argv + ["--run-dir", str(straight)]) == 0
    with monkeypatch.context() as patch:
        _kill_at_call(patch, module, name, call)
        with pytest.raises(KeyboardInterrupt):
            train_main(argv + ["--run-dir", str(killed)])
    return straight, killed, torch.load(killed / "checkpoint.pt", weights_only=False)


def _same_runs(a_dir, b_dir) -> None:
    a = torch.load(a_dir / "checkpoint.pt", weights_only=False)
    b = torch.load(b_dir / "checkpoint.pt", weights_only=False)
    assert a["state"]["update"] == b["state"]["update"] and a["phase"] == b["phase"] == "ppo"
    for key, value in a["policy"]["state_dict"].items():
        assert torch.equal(value, b["policy"]["state_dict"][key]), key
    assert a["rng"] == b["rng"] and len(a["pool"]) == len(b["pool"])
    assert _metrics(a_dir) == _metrics(b_dir)


def test_resume_gives_the_same_result_as_an_uninterrupted_run(tmp_path, monkeypatch):
    from spades_env.agents.ppo import train as train_module

    argv = TINY + ["--total-updates", "4"]  # the learning rate anneals over the 4 updates
    straight, killed, ckpt = _straight_and_killed(tmp_path, monkeypatch, argv, train_module, "ppo_update", 3)
    assert ckpt["state"]["update"] == 2
    assert train_main(["--resume", str(killed), "--no-progress"]) == 0
    _same_runs(straight, killed)
    assert len(torch.load(killed / "checkpoint.pt", weights_only=False)["pool"]) == 4
    info = json.loads((killed / "run.json").read_text())
    assert info["seed"] == 1 and info["git_commit"] and info["resumed"][0]["at_update"] == 2
    assert (killed / "learning_curve.png").stat().st_size > 0
    assert list(killed.glob("events.out.tfevents.*"))


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
    collector = GameCollector(num_players, cfg.num_envs, observation_kind="oracle")
    buffer = RolloutBuffer(1.0, 0.95)
    rng = np.random.default_rng(0)
    plans = plan_hands(cfg, rng, 0)
    assert all(p.seats == (LEARNER,) * num_players for p in plans)
    assert any(p.start.in_game for p in plans) and not all(p.start.in_game for p in plans)  # score_context 0.5
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
    ckpt = torch.load(run / "checkpoint.pt", weights_only=False)
    assert ckpt["phase"] == "ppo" and ckpt["clone"] == {}


def test_a_run_killed_while_cloning_resumes_as_if_uninterrupted(tmp_path, monkeypatch):
    from spades_env.agents.ppo import cloning

    argv = TINY + ["--total-updates", "2", "--bc-hands", "24", "--bc-epochs", "3"]
    straight, killed, ckpt = _straight_and_killed(tmp_path, monkeypatch, argv, cloning, "fit_epoch", 2)
    assert ckpt["phase"] == "clone" and ckpt["clone"]["epochs_done"] == 1
    assert train_main(["--resume", str(killed), "--no-progress"]) == 0
    _same_runs(straight, killed)
    bc = [json.loads((run / "run.json").read_text())["behaviour_cloning"] for run in (straight, killed)]
    assert {k: v for k, v in bc[0].items() if k != "bc_wall_s"} == {k: v for k, v in bc[1].items() if k != "bc_wall_s"}


def test_max_minutes_bounds_the_whole_run_and_it_resumes(tmp_path):
    import time

    run = tmp_path / "run"
    budget_s = 6.0
    argv = TINY + ["--max-minutes", str(budget_s / 60), "--total-updates", "100000", "--bc-hands", "16",
                   "--bc-epochs", "1", "--run-dir", str(run)]
    began = time.perf_counter()
    assert train_main(argv) == 0
    elapsed = time.perf_counter() - began
    ckpt = torch.load(run / "checkpoint.pt", weights_only=False)
    assert 0 < ckpt["state"]["update"] < 100000 and ckpt["phase"] == "ppo"
    # The run's own clock (cloning included) stops inside the budget; the call adds only start-up (imports).
    assert ckpt["state"]["wall_s"] <= budget_s + 2.0, ckpt["state"]["wall_s"]
    assert elapsed <= budget_s + 15.0, elapsed
    evals = list(csv.DictReader(open(run / "eval.csv")))
    # Evaluations that would not fit in the budget are left out (under load the closing one may be): every
    # evaluation written is of a policy the run reached, and the budget bound above holds regardless.
    assert evals and int(evals[-1]["update"]) <= ckpt["state"]["update"]
    # A larger budget continues the same run.
    assert train_main(["--resume", str(run), "--max-minutes", str(2 * budget_s / 60), "--no-progress"]) == 0
    assert torch.load(run / "checkpoint.pt", weights_only=False)["state"]["update"] > ckpt["state"]["update"]


def test_help_shows_each_flag_once_with_its_help_and_default(capsys):
    with pytest.raises(SystemExit):
        train_main(["--help"])
    text = " ".join(capsys.readouterr().out.split()).split("options:", 1)[1]  # past the usage line
    for f in __import__("dataclasses").fields(PPOConfig):
        if f.name == "rule_options":  # set by the rule flags, one per option but the variant and format
            assert all(len(re.findall(flag_of(o) + "[ ,]", text)) == 1 for o in OPTIONS if o not in FORMAT_OPTIONS)
            continue
        flag = "--" + f.name.replace("_", "-")
        assert text.count(flag + " ") == 1, flag
        assert f.metadata["help"] in text, f.name
    assert f"(default: {PPOConfig().num_envs})" in text and text.count("default: None") == 0
    assert "hands and opponents:" in text and "cloning and teacher:" in text


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
    argv = TINY + ["--total-updates", "0", "--card-features", "false", "--init-policy", str(tmp_path / "start.pt"),
                   "--run-dir", str(tmp_path / "r")]
    assert train_main(argv) == 0
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
    collector = Collector(4, 12, teacher="heuristic")
    plans = [Plan((LEARNER, ("agent", "heuristic")) * 2) for _ in range(12)]
    buffer = RolloutBuffer(1.0, 0.95)
    collector.collect(plans, np.random.default_rng(0), model, [], torch.Generator().manual_seed(0), buffer)
    batch = buffer.batch()
    labelled = batch.teacher_actions >= 0
    # Exactly the card plays have labels (not bids, nor Blind Nil passes), and every label is legal there.
    phase = layout(4)["phase"]
    playing = batch.obs[:, phase.start + Phase.PLAY].float() == 1
    assert torch.equal(labelled, playing) and labelled.sum() > 100
    assert batch.masks[labelled.nonzero().squeeze(1), batch.teacher_actions[labelled]].all()

    before = teacher_fit(model, batch)
    cfg = PPOConfig(teacher_coef=5.0, update_epochs=4, num_minibatches=2, torch_threads=1)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    after = ppo_update(model, optimizer, batch, cfg, torch.Generator().manual_seed(0))
    assert after["teacher_nll"] < 0.95 * before["teacher_nll"]
    assert after["teacher_agreement"] > before["teacher_agreement"]

    everything = RolloutBuffer(1.0, 0.95)
    Collector(4, 4, teacher="heuristic", teacher_phases="all").collect(
        plans[:4], np.random.default_rng(1), model, [], torch.Generator().manual_seed(0), everything)
    labels = everything.batch().teacher_actions
    assert (labels >= 0).all() and everything.batch().masks[torch.arange(len(labels)), labels].all()

    half = RolloutBuffer(1.0, 0.95)
    Collector(4, 12, teacher="heuristic", teacher_share=0.5).collect(
        plans, np.random.default_rng(0), model, [], torch.Generator().manual_seed(0), half)
    share = half.batch()
    plays = share.obs[:, phase.start + Phase.PLAY].float() == 1
    assert not (share.teacher_actions[~plays] >= 0).any()
    assert 0.35 < (share.teacher_actions[plays] >= 0).float().mean() < 0.65  # a random half of the card plays

    unlabelled = RolloutBuffer(1.0, 0.95)
    Collector(4, 2).collect(plans[:2], np.random.default_rng(0), model, [], torch.Generator().manual_seed(0),
                            unlabelled)
    assert (unlabelled.batch().teacher_actions == -1).all()


def test_score_context_rewards_depend_on_the_score():
    from spades_env.agents.ppo.score_context import GAME_START, Start, game_value_scale, hand_rewards, win_chance
    from spades_env.game import SpadesConfig

    cfg, sides = SpadesConfig(num_players=4), (0, 1, 0, 1)
    # From 0-0 (single-hand deals, a game's first hand): the points difference / 100, each seat its side's.
    assert hand_rewards({"points": [120, -40], "scores": [120, -40], "bags": [2, 0]}, GAME_START, sides,
                        cfg) == [1.6, -1.6, 1.6, -1.6]
    # The modelled chance to win: the two sides' add up to 1, it grows with the lead, carried bags cost.
    assert win_chance((300, 200), (0, 0), 0, cfg) + win_chance((300, 200), (0, 0), 1, cfg) == pytest.approx(1)
    assert win_chance((300, 200), (0, 0), 0, cfg) > win_chance((250, 200), (0, 0), 0, cfg) > 0.5
    assert win_chance((300, 300), (9, 0), 0, cfg) < 0.5
    # Near 0-0 a point in a game is worth what it is in a single hand.
    near = hand_rewards({"points": [10, 0], "scores": [20, 0], "bags": [0, 0]}, Start((10, 0)), sides, cfg)
    assert near[0] == pytest.approx(0.1, rel=0.05) and near[1] == pytest.approx(-near[0])
    # The same +200 / +40 hand (a Blind Nil made) is worth more when far behind near the end, less when ahead.
    swing = (200 - 40) / 100
    behind = hand_rewards({"points": [200, 40], "scores": [450, 460], "bags": [0, 0]}, Start((250, 420)), sides, cfg)
    ahead = hand_rewards({"points": [200, 40], "scores": [620, 290], "bags": [0, 0]}, Start((420, 250)), sides, cfg)
    assert behind[0] > 1.5 * swing and ahead[0] < 0.6 * swing
    # The hand that wins the game earns the rest of the chance, however few points it made.
    won = hand_rewards({"points": [30, 0], "scores": [510, 450], "bags": [0, 0]}, Start((480, 450)), sides, cfg)
    assert won[0] == pytest.approx(game_value_scale(cfg) * (1 - win_chance((480, 450), (0, 0), 0, cfg)))


def test_win_chance_counts_the_blind_nil_only_the_side_far_behind_may_bid():
    from spades_env.agents.ppo.score_context import BLIND_NIL_CATCH_UP, blind_nil_catch_up, win_chance
    from spades_env.game import SpadesConfig

    house, default = SpadesConfig.from_preset("house"), SpadesConfig.from_preset("default")
    catch_up = BLIND_NIL_CATCH_UP[4]
    assert [blind_nil_catch_up((s, 200), 0, house) for s in (100, 101, 200, 299, 300)] == [catch_up, 0, 0, 0,
                                                                                           -catch_up]
    # Under the house rule a lead of 100 (the other side may bid Blind Nil) is worth less than one of 90,
    # and being 100 behind more than being 90 behind; Blind Nil at any score (or none) moves nothing.
    assert win_chance((300, 200), (0, 0), 0, house) < win_chance((290, 200), (0, 0), 0, house) < 1
    assert win_chance((200, 300), (0, 0), 0, house) > win_chance((200, 290), (0, 0), 0, house)
    assert win_chance((300, 200), (0, 0), 0, house) + win_chance((300, 200), (0, 0), 1, house) == pytest.approx(1)
    no_blind = SpadesConfig.from_preset("house", blind_nil=False)
    assert blind_nil_catch_up((300, 200), 0, default) == blind_nil_catch_up((300, 200), 0, no_blind) == 0
    assert blind_nil_catch_up((300, 200), 0, SpadesConfig.from_preset("house", nil=False)) == 0  # no Nil, no Blind Nil
    assert win_chance((300, 200), (0, 0), 0, default) > win_chance((290, 200), (0, 0), 0, default)


@pytest.mark.parametrize("num_players", [4, 2])
def test_collectors_deal_at_the_planned_scores(num_players):
    from spades_env.agents.ppo.score_context import hand_rewards, random_start
    from spades_env.game import SpadesConfig

    config = SpadesConfig(num_players=num_players, single_hand=True)
    rng = np.random.default_rng(0)
    starts = [random_start(rng, config) for _ in range(20)]
    assert len({s.scores for s in starts}) > 10 and all(-100 <= min(s.scores) <= max(s.scores) < 500 for s in starts)
    model = ActorCritic(observation_size(num_players), [16])
    plans = [Plan((LEARNER,) * num_players, s) for s in starts]
    plans[::2] = [Plan((LEARNER, ("agent", "random")) * (num_players // 2), s) for s in starts[::2]]
    stats = Collector(num_players, 20, min_vector_hands=1).collect(plans, rng, model, [], torch.Generator(),
                                                                  RolloutBuffer(1.0, 0.95))
    side_of = (0, 1) * (num_players // 2)
    for hand in stats.hands:
        start = plans[hand.slot].start
        assert tuple(hand.record["scores_before"]) == start.scores and tuple(hand.record["bags_before"]) == start.bags
        assert hand.rewards == hand_rewards(hand.record, start, side_of, config)
    assert {"plays" in h.record for h in stats.hands} == {True, False}  # both engines played


@pytest.mark.parametrize("workers", [0, 1])
def test_training_rules_reach_both_engines_and_the_worker(workers):
    """``blind_nil_min_deficit``: Blind Nil is offered only to a side that far behind, on either engine."""
    from spades_env.actions import BLIND_NIL, LOOK
    from spades_env.agents.ppo.score_context import Start

    model = ActorCritic(observation_size(4), [16])
    behind, level = Start((0, 200)), Start((100, 100))
    plans = [Plan((LEARNER,) * 4, start) for start in (behind, level) * 4]
    plans += [Plan((LEARNER, ("agent", "random")) * 2, start) for start in (behind, level) * 4]
    offered = {}
    for rules in ({}, {"blind_nil_min_deficit": 100}):
        buffer = RolloutBuffer(1.0, 0.95)
        stats = Collector(4, 16, min_vector_hands=1, workers=workers, rules=rules).collect(
            plans, np.random.default_rng(0), model, [], torch.Generator().manual_seed(0), buffer)
        blind_rows = buffer.rows()["masks"][:, [BLIND_NIL, LOOK]].any(1)
        offered[bool(rules)] = blind_rows.sum()
        if rules:  # only side 0 is behind at (0, 200): the hands dealt level never offer it
            assert all(not any(h.record["blind_nil"][s] for s in (1, 3)) for h in stats.hands)
            assert {"plays" in h.record for h in stats.hands} == {True, False}
    assert 0 < offered[True] < offered[False]


def test_training_config_takes_a_rule_preset_and_overrides():
    """``--rules`` (house by default) and the rule flags reach the hands' config, the YAML file and the run's
    config.json; a run saved with the former ``blind_nil_min_deficit`` key resumes under the same rules."""
    import argparse

    from spades_env.agents.ppo.config import add_config_arguments, config_from_args

    assert PPOConfig().game_config() == SpadesConfig.from_preset("house", single_hand=True)
    assert PPOConfig(rules="default").game_options()["blind_nil_min_deficit"] is None
    parser = argparse.ArgumentParser()
    add_config_arguments(parser)
    cfg = config_from_args(parser.parse_args(["--rules", "default", "--bag-limit", "5", "--num-players", "2"]),
                           {"rule_options": {"bag_penalty": 50}})  # as a YAML file gives it
    assert cfg.game_config() == SpadesConfig(num_players=2, single_hand=True, bag_limit=5, bag_penalty=50)
    saved = cfg.to_dict()
    assert saved["rules_described"] == "default rules + bag limit 5, bag penalty 50"
    assert PPOConfig.from_dict(saved) == cfg
    legacy = {k: v for k, v in PPOConfig().to_dict().items() if k not in ("rules", "rule_options", "rules_described")}
    assert PPOConfig.from_dict({**legacy, "blind_nil_min_deficit": 100}).game_config() == PPOConfig().game_config()
    assert PPOConfig.from_dict({**legacy, "blind_nil_min_deficit": 0}).rules == "default"
    for bad, message in (({"rules": "casual"}, "unknown rules preset 'casual'"),
                         ({"rule_options": {"bag_limt": 5}}, "unknown rule option"),
                         ({"rule_options": {"single_hand": False}}, "rule_options must be")):
        with pytest.raises(ValueError, match=message):
            PPOConfig(**bad)


def test_bfloat16_passes_see_few_row_counts():
    """Every update minibatch has a row count that is a multiple of MINIBATCH_BUCKET and every critic chunk one
    of ROW_BUCKET: oneDNN keeps a kernel per shape, and varying counts grew the training process without bound."""
    from spades_env.agents.ppo.model import MINIBATCH_BUCKET, ROW_BUCKET

    torch.manual_seed(0)
    size = observation_size(4, "oracle")
    model = ActorCritic(observation_size(4), [32], size)
    minibatches, chunks = [], []
    forward = model.forward_rows
    model.forward_rows = lambda rows: (minibatches.append(len(rows)), forward(rows))[1]
    values = model.values_rows
    model.values_rows = lambda rows: (chunks.append(len(rows)), values(rows))[1]
    for rows in (700, 1500):
        buffer = RolloutBuffer(1.0, 0.95)
        mask = np.zeros((rows, NUM_ACTIONS), bool)
        mask[:, :13] = True
        buffer.add_trajectories(np.random.default_rng(rows).random((rows, size), np.float32), mask,
                                np.zeros(rows, np.int64), np.full(rows, -np.log(13), np.float32), [rows], [1.0])
        batch = buffer.batch(model, bf16=True)
        assert len(batch) == rows and torch.isfinite(batch.values).all()
        cfg = PPOConfig(num_minibatches=4, update_epochs=2)
        losses = ppo_update(model, torch.optim.Adam(model.parameters()), batch, cfg, torch.Generator().manual_seed(0))
        assert math.isfinite(losses["policy_loss"])
    assert all(count % MINIBATCH_BUCKET == 0 for count in minibatches)
    assert all(count % ROW_BUCKET == 0 for count in chunks)
    assert set(minibatches) == {256, 384}  # 175 and 375 rows, each padded with repeated rows
    assert set(chunks) == {1024, 1536}  # 700 and 1,500 rows, padded with zero rows


@pytest.mark.parametrize("privileged", [True, False])
def test_sparse_rows_give_the_dense_networks_outputs_and_gradients(privileged):
    """The update's passes read only the inputs' non-zero entries (sparse.py): the same logits, values and
    weight gradients as the dense network, on real observations (their values in float16, as stored) and on
    random ones with every entry set; the actor's rows never carry the other hands."""
    torch.manual_seed(0)
    env = spades_v0.env(num_players=4, observation="oracle" if privileged else "default")
    env.reset(seed=5)
    real = []
    for _agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        real.append(obs["observation"])
        env.step(None if termination or truncation else int(np.flatnonzero(obs["action_mask"])[0]))
    own = observation_size(4)
    real = torch.from_numpy(np.array(real, np.float32)).half()
    dense = torch.rand(300, real.shape[1]).half()
    model = ActorCritic(own, [64, 32], real.shape[1] if privileged else None, card_features=True)
    for x in (real, dense):
        rows = model.rows(x)
        assert rows.actor.width == own + model.features.size
        assert len(rows) == len(x) and len(rows.padded(len(x) + 7)) == len(x) + 7
        logits, values = model(x.float())
        (logits.sum() + values.sum()).backward()
        expected = [p.grad.clone() for p in model.parameters()]
        model.zero_grad()
        sparse_logits, sparse_values = model.forward_rows(rows)
        (sparse_logits.sum() + sparse_values.sum()).backward()
        assert torch.allclose(logits, sparse_logits, atol=1e-5) and torch.allclose(values, sparse_values, atol=1e-5)
        assert torch.allclose(model.values_rows(rows), values, atol=1e-5)
        for want, got in zip(expected, (p.grad for p in model.parameters())):
            assert torch.allclose(want, got, rtol=1e-4, atol=1e-4)
        model.zero_grad()
    actor, seen = model.rows(real).actor, model.rows(real[:, :own]).actor  # the other hands left out
    assert torch.equal(actor.index, seen.index) and torch.equal(actor.value, seen.value)


def test_mixed_rules_play_each_hand_under_the_rule_set_its_plan_names():
    """``mixed_rules``: a second preset, a ``mixed_share`` of the hands drawn to it; each hand is played under its
    plan's rule set and the results come back in plan order."""
    from spades_env.agents.ppo.score_context import Start
    from spades_env.agents.ppo.train import make_collector

    cfg = PPOConfig(rules="house", mixed_rules="default", num_envs=400, workers=0)
    assert [r["blind_nil_min_deficit"] for r in cfg.rule_sets()] == [100, None]
    shares = np.mean([plan.rules for plan in plan_hands(cfg, np.random.default_rng(0), 0)])
    assert 0.4 < shares < 0.6
    assert {p.rules for p in plan_hands(PPOConfig(num_envs=50), np.random.default_rng(0), 0)} == {0}
    with pytest.raises(ValueError, match="unknown rules preset"):
        PPOConfig(mixed_rules="houses")

    heuristic = ("agent", "heuristic")  # bids Blind Nil whenever it is offered at level scores
    plans = [Plan((heuristic,) * 4, Start((100, 100)), "teacher", rules=i % 3 % 2) for i in range(9)]
    collector = make_collector(dataclasses.replace(cfg, num_envs=8))
    try:
        stats = collector.collect(plans, np.random.default_rng(0), None, [], torch.Generator(),
                                  RolloutBuffer(1.0, 1.0), record=frozenset({heuristic}))
    finally:
        collector.close()
    assert [hand.slot for hand in stats.hands] == list(range(9))
    assert [any(hand.record["blind_nil"]) for hand in stats.hands] == [plan.rules == 1 for plan in plans]


@pytest.mark.parametrize("critic_obs", [True, False])
def test_critic_warmup_moves_the_value_and_holds_the_actor(critic_obs):
    torch.manual_seed(0)
    model = ActorCritic(observation_size(4), [32], observation_size(4, "oracle") if critic_obs else None)
    plans = [Plan((LEARNER, ("agent", "heuristic")) * 2) for _ in range(6)]
    buffer = RolloutBuffer(1.0, 0.95)
    Collector(4, 6, "oracle" if critic_obs else "default").collect(
        plans, np.random.default_rng(0), model, [], torch.Generator().manual_seed(0), buffer)
    batch = buffer.batch(model)
    actor = {id(p) for p in model.actor_parameters()}
    before = {name: p.detach().clone() for name, p in model.named_parameters()}
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    ppo_update(model, optimizer, batch, PPOConfig(torch_threads=1, bf16=False), torch.Generator().manual_seed(0),
               actor=False)
    for name, p in model.named_parameters():
        assert torch.equal(p, before[name]) == (id(p) in actor), name
    assert not any(name.startswith("value") for name, p in model.named_parameters() if id(p) in actor)
