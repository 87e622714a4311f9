"""VectorCollector (PPO experience on the batched engine) against the per-game reference.

Every hand a VectorCollector plays with ``per_game_seeds=True`` is replayed on
a ``SpadesGame`` + ``ObservationTracker`` from its recorded seed, starting
scores and bags and actions: the stored observations, masks and actions must be exactly
the reference's at the recorded seats' non-forced decisions, the hand's
scoring must agree, and each trajectory's last return must be the hand's
points difference / 100.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from spades_env.actions import NUM_ACTIONS
from spades_env.agents.ppo.buffer import RolloutBuffer
from spades_env.agents.ppo.collect import Collector
from spades_env.agents.ppo.model import ActorCritic
from spades_env.agents.ppo.plans import LEARNER, Plan, is_network_plan
from spades_env.agents.ppo.rollout import GameCollector
from spades_env.agents.ppo.score_context import GAME_START, random_start
from spades_env.agents.ppo.vector_rollout import VectorCollector
from spades_env.cards import bits_to_array
from spades_env.game import SpadesConfig, SpadesGame
from spades_env.observations import ObservationTracker, observation_size

POOL = ("pool", 0)
SHARED_KEYS = ("hand", "dealer", "bids", "blind_nil", "tricks", "scores_before", "bags_before", "sides", "points",
               "scores", "bags", "num_players")


def nets(n: int, kind: str) -> tuple[ActorCritic, list[ActorCritic]]:
    """Small networks (speed); distinct weights for the learner and the pool snapshot."""
    torch.manual_seed(0)
    critic = observation_size(n, "oracle") if kind == "oracle" else None
    make = lambda: ActorCritic(observation_size(n), (32,), critic).eval()  # noqa: E731
    return make(), [make()]


def network_plans(n: int, count: int) -> list[Plan]:
    """Self-play hands and learner-vs-pool hands (the learner on either side), every other one dealt at a random
    game state."""
    config = SpadesConfig(num_players=n)
    sides = SpadesGame(config).side_of
    rng = np.random.default_rng(count)
    plans = []
    for i in range(count):
        seats = [LEARNER] * n if i % 3 == 0 else [LEARNER if side == i % 2 else POOL for side in sides]
        plans.append(Plan(tuple(seats), random_start(rng, config) if i % 2 else GAME_START))
    return plans


def replay(hand, n: int, kind: str, record: set) -> tuple[dict, dict[int, list]]:
    """The reference engine's hand record and, per recorded seat, its (obs, mask, action) at real decisions."""
    game = SpadesGame(SpadesConfig(num_players=n, single_hand=True))
    game.reset(hand.record["seed"], scores=hand.record["scores_before"], bags=hand.record["bags_before"])
    tracker = ObservationTracker(game, kind)
    tracker.rebuild()
    decisions: dict[int, list] = {seat: [] for seat in range(n) if hand.plan.seats[seat] in record}
    for seat, action in hand.record["actions"]:
        assert seat == game.current_player
        legal = game.legal_mask()
        if legal & (legal - 1) and seat in decisions:
            decisions[seat].append((tracker.vectors[seat].copy(), bits_to_array(legal, NUM_ACTIONS).astype(bool),
                                    action))
        phase = game.phase
        game.apply(action)
        tracker.update(seat, action, phase)
    assert game.game_over
    return game.hand_records[-1], decisions


@pytest.mark.parametrize("n, kind", [(4, "oracle"), (4, "default"), (2, "oracle")])
def test_vector_collector_replays_on_the_reference_engine(n: int, kind: str) -> None:
    model, pool = nets(n, kind)
    plans = network_plans(n, 9)
    record = {LEARNER, POOL} if kind == "default" else {LEARNER}
    collector = VectorCollector(n, 9, observation_kind=kind, per_game_seeds=True)
    buffer = RolloutBuffer(gamma=1.0, lam=0.95)
    stats = collector.run(plans, np.random.default_rng(3), model, pool, torch.Generator().manual_seed(3), buffer,
                          record)

    assert sorted(h.slot for h in stats.hands) == list(range(len(plans)))
    assert stats.decisions == sum(len(h.record["actions"]) for h in stats.hands)
    assert stats.recorded == len(buffer) > 0
    expected_obs, expected_masks, expected_actions, last_rows, rewards = [], [], [], [], []
    for hand in sorted(stats.hands, key=lambda h: h.slot):  # the buffer holds trajectories by slot, then seat
        assert hand.plan == plans[hand.slot]
        assert tuple(hand.record["scores_before"]) == hand.plan.start.scores
        reference, decisions = replay(hand, n, kind, record)
        for key in SHARED_KEYS + (("hands",) if n == 4 else ()):
            assert hand.record[key] == reference[key], key
        if not hand.plan.start.in_game:
            points = hand.record["points"]
            sides = SpadesGame(SpadesConfig(num_players=n)).side_of
            assert hand.rewards == [(points[s] - points[1 - s]) / 100 for s in sides]
        for seat, steps in decisions.items():
            if not steps:
                continue
            expected_obs += [obs for obs, _, _ in steps]
            expected_masks += [mask for _, mask, _ in steps]
            expected_actions += [action for _, _, action in steps]
            last_rows.append(len(expected_actions) - 1)
            rewards.append(hand.rewards[seat])

    batch = buffer.batch()
    masks = batch.masks.numpy()
    actions = batch.actions.numpy()
    assert masks[np.arange(len(actions)), actions].all(), "an illegal action was stored"
    assert (masks.sum(axis=1) > 1).all(), "a forced move was stored"
    assert np.isfinite(batch.log_probs.numpy()).all()
    np.testing.assert_array_equal(actions, expected_actions)
    np.testing.assert_array_equal(masks, np.stack(expected_masks))
    # float16 storage holds the observations' one-hots, counts and ratios to within its precision
    np.testing.assert_allclose(batch.obs.float().numpy(), np.stack(expected_obs), rtol=1e-3, atol=0)
    # gamma = 1 and a value of 0 after the hand: the last step's return is the hand's reward.
    np.testing.assert_allclose(batch.returns.numpy()[last_rows], rewards, rtol=0, atol=1e-6)


@pytest.mark.parametrize("n", [4, 2])
def test_buffer_shapes_match_collector(n: int) -> None:
    model, pool = nets(n, "oracle")
    plans = network_plans(n, 6)
    batches = []
    for collector in (GameCollector(n, 6, observation_kind="oracle"), VectorCollector(n, 6, observation_kind="oracle")):
        buffer = RolloutBuffer(gamma=1.0, lam=0.95)
        stats = collector.run(plans, np.random.default_rng(0), model, pool, torch.Generator().manual_seed(0), buffer)
        assert stats.recorded == len(buffer) and len(stats.hands) == len(plans)
        batches.append(buffer.batch())
    for field in ("obs", "masks", "actions", "log_probs", "values", "advantages", "returns"):
        engine, vector = (getattr(b, field) for b in batches)
        assert engine.shape[1:] == vector.shape[1:] and engine.dtype == vector.dtype, field


def test_vector_collector_refuses_registry_agents() -> None:
    model, pool = nets(4, "default")
    with pytest.raises(ValueError, match="collect.Collector"):
        VectorCollector(4, 2).run([Plan((LEARNER, ("agent", "random")) * 2)], np.random.default_rng(0), model, pool,
                                  torch.Generator(), RolloutBuffer(1.0, 0.95))


@pytest.mark.parametrize("min_vector_hands", [1, 100])
def test_collect_merges_both_engines(min_vector_hands: int) -> None:
    n = 4
    model, pool = nets(n, "oracle")
    mixed = [Plan((LEARNER, ("agent", "random")) * 2), Plan((("agent", "heuristic"), LEARNER) * 2)]
    plans = network_plans(n, 5)
    plans[1:1] = mixed[:1]
    plans.append(mixed[1])
    collector = Collector(n, 3, observation_kind="oracle", min_vector_hands=min_vector_hands)  # 3 at a time
    buffer = RolloutBuffer(gamma=1.0, lam=0.95)
    stats = collector.collect(plans, np.random.default_rng(1), model, pool, torch.Generator().manual_seed(1), buffer)

    assert [h.slot for h in stats.hands] == list(range(len(plans)))
    assert all(h.plan == plans[h.slot] for h in stats.hands)
    assert stats.decisions == sum(len(h.record["actions"]) for h in stats.hands)
    assert stats.recorded == len(buffer)
    learner_rows = sum(len([1 for seat, _ in h.record["actions"] if h.plan.seats[seat] == LEARNER])
                       for h in stats.hands)
    assert 0 < stats.recorded < learner_rows  # forced moves are not stored
    batch = buffer.batch()
    assert batch.masks.numpy()[np.arange(len(batch)), batch.actions.numpy()].all()
    # The batched engine's records lack the card-level lists ("plays"): they show which engine played a hand.
    on_vector = [h.slot for h in stats.hands if "plays" not in h.record]
    expected = [i for i, plan in enumerate(plans) if is_network_plan(plan)] if min_vector_hands == 1 else []
    assert on_vector == expected


def test_bench_ppo_runs(tmp_path) -> None:
    """The throughput script runs end to end, the earlier trainer read from git included, and writes its figures
    (measured by hand, never asserted on)."""
    from spades_env.experiments import bench_ppo

    out = tmp_path / "bench.json"
    assert bench_ppo.main(["--num-envs", "4", "--rounds", "1", "--hidden-sizes", "16", "--collection-envs", "4",
                           "--ways", "before", "now-no-worker", "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert list(report["iteration"]) == ["before", "now-no-worker"]
    assert all(row["decisions"] > 0 for row in report["iteration"].values())
    assert report["configs"]["before"]["num_envs"] == 4 and [r["num_envs"] for r in report["collection"]] == [4]


def test_the_worker_process_changes_nothing_but_speed() -> None:
    """Agent hands shared with a worker process give the same rollout as played here: each share has its own
    seed drawn from the caller's generator, and the worker is sent the weights of the moment."""
    n = 4
    model, pool = nets(n, "oracle")
    plans = network_plans(n, 6) + [Plan((LEARNER, ("agent", "random")) * 2)] * 5
    results = []
    for workers in (0, 1):
        collector = Collector(n, 4, observation_kind="oracle", teacher="random", workers=workers,
                              min_vector_hands=1)
        buffer = RolloutBuffer(1.0, 0.95)
        stats = collector.collect(plans, np.random.default_rng(5), model, pool, torch.Generator().manual_seed(5),
                                  buffer)
        collector.close()
        results.append((stats, buffer.batch(model)))
    (a, batch_a), (b, batch_b) = results
    assert [h.record for h in a.hands] == [h.record for h in b.hands] and a.decisions == b.decisions
    for field in ("obs", "masks", "actions", "log_probs", "values", "advantages", "teacher_actions"):
        assert torch.equal(getattr(batch_a, field), getattr(batch_b, field)), field
    assert (batch_a.teacher_actions >= 0).any()
