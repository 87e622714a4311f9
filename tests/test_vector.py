"""Differential tests: the batched engine against the reference ``spades_v0`` env, step by step.

Each slot of a :class:`VectorSpades` is shadowed by a ``raw_env`` (SpadesGame +
ObservationTracker) playing the same deals (same per-game seed, or the same
fixed first deal) and the same actions. After every step the legal masks, the
observations of every seat, the seat to act, the rewards, the done flags and
the hand records must be identical. The action policy is random but leans
towards Blind Nil, Nil and small bids so that exchanges, failed Nils, bags and
made contracts all happen often.
"""

from __future__ import annotations

import os

import numba
import numpy as np
import pytest

from spades_env import actions as A
from spades_env.cards import cards_of
from spades_env.env import raw_env
from spades_env.observations import to_uint8
from spades_env.rules import PRESETS
from spades_env.vector import VectorSpades

RECORD_KEYS = ("hand", "dealer", "bids", "blind_nil", "tricks", "scores_before", "bags_before", "sides", "points",
               "scores", "bags", "game_over", "winner", "truncated", "num_players")

_WEIGHTS = np.ones(A.NUM_ACTIONS)
_WEIGHTS[A.BLIND_NIL] = 0.2
_WEIGHTS[A.BID_BASE] = 0.4  # Nil
_WEIGHTS[A.BID_BASE + 1:A.BID_BASE + 5] = 3.0  # bids 1..4: contracts are often made, bags pile up
_WEIGHTS[A.BID_BASE + 8:A.BID_BASE + 14] = 0.1


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One legal action per row of ``mask``, drawn with probability proportional to ``_WEIGHTS``."""
    keys = -np.log(rng.random(mask.shape)) / _WEIGHTS
    return np.where(mask, keys, np.inf).argmin(axis=1)


class Shadow:
    """The reference env of one slot, restarted with the slot's seed whenever the slot starts a game."""

    def __init__(self, reward: str, rules: dict, observation: str = "default") -> None:
        self.env = raw_env(reward=reward, observation=observation, **rules)

    def reset(self, seed: int, options: dict | None = None) -> None:
        self.env.reset(seed=seed, options=options)

    def player(self) -> int:
        return self.env.game.current_player

    def observations(self) -> np.ndarray:
        """Every seat's observation; the env's tracker holds them (what ``observe`` copies, without the copies)."""
        return self.env._tracker.vectors

    def mask(self) -> np.ndarray:
        return self.env.observe(self.env.agent_selection)["action_mask"].astype(bool)


def current_deal(vec: VectorSpades, b: int) -> dict:
    """The deal now in slot ``b`` as reset options for the reference (the hand must not have started)."""
    n = vec.num_players
    if n == 2:
        deal = vec.stock[b * 52:(b + 1) * 52].tolist()
    else:
        deal = [cards_of(int(vec.hands[b * n + p])) for p in range(n)]
    return {"deal": deal, "dealer": int(vec.dealer[b])}


def play_differential(num_envs: int, games: int, *, reward: str = "score", seed: int = 0, start_scores=None,
                      fixed_deals: bool = False, num_players: int = 4, per_game_seeds: bool = True,
                      observation: str = "default", **rules) -> int:
    """Play until ``games`` games have finished in the batched engine, checking every step; returns decisions.

    With ``per_game_seeds`` the reference replays each slot's seed; otherwise (single hands only, since
    the reference cannot be handed later deals) each new game's deal is read from the engine."""
    rng = np.random.default_rng(seed)
    rules = {**rules, "num_players": num_players}
    vec = VectorSpades(num_envs, reward=reward, seed=seed, per_game_seeds=per_game_seeds, observation=observation,
                       **rules)
    shadows = [Shadow(reward, rules, observation) for _ in range(num_envs)]
    seeds = rng.integers(2**31, size=num_envs) if per_game_seeds else None
    options = [{} for _ in range(num_envs)]
    kwargs = {}
    if start_scores is not None:  # (low, high) for each side, or one value for both
        scores = rng.integers(*start_scores, size=(num_envs, 2)) if len(start_scores) == 2 else \
            np.full((num_envs, 2), start_scores[0])
        bags = rng.integers(0, vec.config.bag_limit, size=(num_envs, 2))
        kwargs.update(scores=scores, bags=bags)
        for b in range(num_envs):
            options[b].update(scores=scores[b].tolist(), bags=bags[b].tolist())
    if fixed_deals:
        deals = np.array([rng.permutation(52) if num_players == 2 else rng.permutation(52).reshape(4, 13)
                          for _ in range(num_envs)])
        dealers = rng.integers(num_players, size=num_envs)
        kwargs.update(deals=deals, dealers=dealers)
        for b in range(num_envs):
            options[b].update(deal=deals[b].tolist(), dealer=int(dealers[b]))
    out = vec.reset(seeds=seeds, **kwargs)
    for b, shadow in enumerate(shadows):
        if per_game_seeds:
            shadow.reset(int(seeds[b]), options[b])
        else:
            shadow.reset(0, {**options[b], **current_deal(vec, b)})

    finished = decisions = 0
    while finished < games:
        check_same_state(vec, out, shadows)
        actions = random_actions(out.mask, rng)
        out = vec.step(actions)
        decisions += num_envs
        for b, shadow in enumerate(shadows):
            env = shadow.env
            hands_before = env.game.hand_number
            env.step(int(actions[b]))
            rewards = [env.rewards[agent] for agent in env.possible_agents]
            assert np.array_equal(out.rewards[b], np.float32(rewards)), (b, out.rewards[b], rewards)
            hand_done = env.game.hand_number != hands_before or env.game.game_over
            assert out.hand_done[b] == hand_done
            if hand_done:
                expected = env.game.hand_records[-1]
                record = vec.hand_record(b)
                assert record == {k: expected[k] for k in RECORD_KEYS}, (b, record, expected)
            assert out.terminated[b] == env.game.terminated
            assert out.truncated[b] == env.game.truncated
            if env.game.game_over:
                assert np.array_equal(vec.final_observations[b], shadow.observations())
                shadow.reset(*((int(vec.game_seeds[b]), None) if per_game_seeds else (0, current_deal(vec, b))))
                finished += 1
    check_same_state(vec, out, shadows)
    return decisions


def check_same_state(vec: VectorSpades, out, shadows: list[Shadow]) -> None:
    players = np.array([s.player() for s in shadows])
    assert np.array_equal(out.player, players)
    assert np.array_equal(out.mask, np.stack([s.mask() for s in shadows]))
    expected = np.stack([s.observations() for s in shadows])
    assert np.array_equal(vec.obs_buffer, expected)
    assert np.array_equal(out.obs, expected[np.arange(len(shadows)), players])
    if vec.observation_kind == "oracle":
        assert np.array_equal(vec.state(), np.stack([s.env.state() for s in shadows]))


def test_single_hand_games_match_reference():
    assert play_differential(64, 1000, single_hand=True, seed=1) > 50_000


def test_multi_hand_games_with_sandbagging_mercy_and_truncation_match_reference():
    play_differential(48, 200, seed=2, start_scores=(-120, 180), target_score=200, bag_limit=3, bag_penalty=40,
                      max_hands=5, mercy_threshold=-150)


def test_fixed_deals_blind_nil_deficit_and_win_rewards_match_reference():
    play_differential(48, 150, seed=3, reward="win", fixed_deals=True, start_scores=(-100, 250), target_score=300,
                      blind_nil_min_deficit=60, max_hands=4)


def test_ties_at_the_target_play_another_hand_as_in_reference():
    # Both sides start level under the target; with bag_limit 1 and bag_penalty 1 an overtrick is worth 0,
    # so two made contracts of the same size tie often.
    play_differential(64, 100, seed=7, start_scores=(490,), target_score=500, bag_limit=1, bag_penalty=1,
                      max_hands=6)


def test_oracle_observations_and_state_match_reference():
    play_differential(32, 40, seed=14, observation="oracle", max_hands=2)
    play_differential(16, 30, seed=15, observation="oracle", num_players=2, max_hands=2)


def test_no_nil_options_match_reference():
    play_differential(32, 100, seed=4, nil=False, blind_nil=False, max_hands=3)


def test_no_nil_removes_blind_nil_as_in_reference():
    """``nil=False`` with ``blind_nil`` left on: Blind Nil is a Nil bid, so neither engine offers it."""
    play_differential(16, 32, seed=21, nil=False, single_hand=True)
    play_differential(8, 16, seed=22, nil=False, single_hand=True, num_players=2)


@pytest.mark.parametrize("num_players", [4, 2])
def test_no_blind_nil_exchange_matches_reference(num_players):
    play_differential(24, 48, seed=25, single_hand=True, num_players=num_players, blind_nil_exchange=False)
    play_differential(8, 8, seed=26, max_hands=4, num_players=num_players, blind_nil_exchange=False)


@pytest.mark.parametrize("num_players", [4, 2])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_each_preset_matches_reference(preset, num_players):
    """The presets reach both engines alike: hands dealt at scores either side of the house rule's deficit."""
    play_differential(24, 48, seed=23, start_scores=(-150, 150), single_hand=True, num_players=num_players,
                      rules=preset)
    play_differential(8, 8, seed=24, start_scores=(-150, 150), max_hands=4, num_players=num_players, rules=preset)


def test_default_rules_match_reference():
    play_differential(16, 16, seed=5, max_hands=12)


def test_two_player_games_match_reference():
    play_differential(32, 60, seed=8, num_players=2, max_hands=4)


def test_two_player_options_match_reference():
    play_differential(32, 60, seed=9, num_players=2, fixed_deals=True, start_scores=(-150, 250), target_score=300,
                      blind_nil_min_deficit=50, bag_limit=3, max_hands=3, reward="win")
    play_differential(16, 60, seed=10, num_players=2, single_hand=True, nil=False, blind_nil=False)


def test_batch_deals_match_reference_on_single_hands():
    play_differential(64, 400, seed=11, per_game_seeds=False, single_hand=True)
    # Without Blind Nil every hand has the same length: all games end on the same step.
    play_differential(32, 100, seed=12, per_game_seeds=False, single_hand=True, num_players=2, blind_nil=False)
    play_differential(32, 96, seed=16, per_game_seeds=False, single_hand=True, blind_nil=False)


def test_batch_deals_are_reproducible_and_complete():
    runs = []
    for _ in range(2):
        vec = VectorSpades(8, num_players=4, seed=13)
        vec.reset()
        hands = vec.hands.reshape(8, 4)
        assert all(int(np.bitwise_or.reduce(row)) == (1 << 52) - 1 for row in hands)
        assert all(bin(int(h)).count("1") == 13 for h in hands.ravel())
        runs.append(vec.obs_buffer.copy())
    assert np.array_equal(*runs)


def test_same_seed_same_deals_whatever_the_batch_size():
    small, large = VectorSpades(2, per_game_seeds=True), VectorSpades(5, per_game_seeds=True)
    a = small.reset(seeds=[7, 8])
    b = large.reset(seeds=[1, 7, 2, 8, 3])
    assert np.array_equal(small.obs_buffer, large.obs_buffer[[1, 3]])
    assert np.array_equal(a.mask, b.mask[[1, 3]])


def test_reset_mid_game_starts_afresh():
    fresh, used = VectorSpades(8, seed=3), VectorSpades(8, seed=3)
    out = used.reset()
    rng = np.random.default_rng(0)
    for _ in range(150):
        out = used.step(random_actions(out.mask, rng))
    a, b = fresh.reset(seed=21), used.reset(seed=21)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert np.array_equal(fresh.obs_buffer, used.obs_buffer)


def test_illegal_action_raises_and_leaves_state_untouched():
    vec = VectorSpades(3, seed=0)
    out = vec.reset()
    before = vec.obs_buffer.copy()
    actions = random_actions(out.mask, np.random.default_rng(0))
    actions[1] = 0  # a card during the Blind Nil decision
    with pytest.raises(ValueError, match="illegal action 0 .* in game 1"):
        vec.step(actions)
    with pytest.raises(ValueError, match="not an action id"):
        vec.step(np.full(3, 99))
    assert np.array_equal(vec.obs_buffer, before)


def test_options_are_validated():
    with pytest.raises(ValueError, match="num_envs"):
        VectorSpades(0)
    with pytest.raises(ValueError, match="reward"):
        VectorSpades(2, reward="points")
    with pytest.raises(ValueError, match="target_score"):
        VectorSpades(2, target_score=0)
    with pytest.raises(ValueError, match="repeats"):
        VectorSpades(1).reset(deals=[[list(range(13))] * 4])
    with pytest.raises(ValueError, match="threads must be an integer"):
        VectorSpades(2, threads=0)
    with pytest.raises(ValueError, match="needs the numpy backend"):
        VectorSpades(2, device="cpu", threads=2)


def test_an_illegal_action_in_play_is_refused_before_any_game_moves():
    """The compiled check covers every game before the compiled card play touches any."""
    vec = VectorSpades(4, seed=1, blind_nil=False)
    out = vec.reset()
    rng = np.random.default_rng(1)
    while not out.mask[:, :52].any(axis=1).all():
        out = vec.step(random_actions(out.mask, rng))
    before = [x.copy() for x in (vec.obs_buffer, vec.hands, vec.trick_cards)]
    actions = random_actions(out.mask, rng)
    actions[3] = int(np.flatnonzero(~out.mask[3, :52])[0])  # a card game 3's seat does not hold
    with pytest.raises(ValueError, match="in game 3"):
        vec.step(actions)
    assert all(np.array_equal(x, y) for x, y in zip(before, (vec.obs_buffer, vec.hands, vec.trick_cards)))


@pytest.mark.parametrize("num_players, dtype", [(4, "uint8"), (2, "float32")])
@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="numba has one thread on this machine")
def test_threads_give_the_same_games(num_players, dtype):
    """``threads=2`` splits the compiled passes over two threads; every step is the one-thread step, and so
    are the engine's random actions (always legal) for one seed."""
    one, two = (VectorSpades(24, num_players=num_players, seed=4, max_hands=2, observation_dtype=dtype,
                             threads=t) for t in (1, 2))
    a, b = one.reset(), two.reset()
    rng_one, rng_two = np.random.default_rng(4), np.random.default_rng(4)
    for _ in range(250):
        assert all(np.array_equal(x, y) for x, y in zip(a, b))
        actions = one.random_actions(rng_one)
        assert np.array_equal(actions, two.random_actions(rng_two)) and a.mask[np.arange(24), actions].all()
        a, b = one.step(actions), two.step(actions)
    assert np.array_equal(one.obs_buffer, two.obs_buffer)


@pytest.mark.parametrize("num_players, observation", [(4, "default"), (4, "oracle"), (2, "default")])
def test_uint8_observations_are_the_float32_ones_in_uint8_form(num_players, observation):
    """``observation_dtype="uint8"``: every observation handed out is ``to_uint8`` of the float32 one (which
    the differential tests above hold to the reference env), and nothing else differs, step by step."""
    rng = np.random.default_rng(17)
    rules = dict(num_players=num_players, observation=observation, seed=17, max_hands=3, target_score=200)
    ref, vec = VectorSpades(24, **rules), VectorSpades(24, observation_dtype="uint8", **rules)
    a, b = ref.reset(), vec.reset()
    for _ in range(300):
        assert b.obs.dtype == np.uint8 and np.array_equal(b.obs, to_uint8(a.obs, num_players, observation))
        assert all(np.array_equal(x, y) for x, y in zip(a[1:], b[1:]))
        assert np.array_equal(vec.obs_buffer, to_uint8(ref.obs_buffer, num_players, observation))
        if a.terminated.any() or a.truncated.any():
            assert np.array_equal(vec.final_observations, to_uint8(ref.final_observations, num_players, observation))
        actions = random_actions(a.mask, rng)
        a, b = ref.step(actions), vec.step(actions)
    if observation == "oracle":
        assert np.array_equal(vec.state(), ref.state())  # the state stays float32
    with pytest.raises(ValueError, match="observation_dtype"):
        VectorSpades(2, observation_dtype="float16")


@pytest.mark.parametrize("num_players, observation, dtype", [(4, "default", "float32"), (2, "oracle", "float32"),
                                                             (4, "default", "uint8")])
def test_torch_backend_matches_numpy(num_players, observation, dtype):
    """The torch path on the CPU (CI has no GPU); SPADES_TEST_DEVICE=cuda runs it on a GPU."""
    torch = pytest.importorskip("torch")
    device = os.environ.get("SPADES_TEST_DEVICE", "cpu")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # intra-op threads on a shared 2-core machine make small ops wait for milliseconds
    try:
        check_torch_against_numpy(torch, device, num_players, observation, dtype)
    finally:
        torch.set_num_threads(threads)


def check_torch_against_numpy(torch, device: str, num_players: int, observation: str, dtype: str = "float32") -> None:
    rng = np.random.default_rng(6)
    ref, vec = (VectorSpades(16, num_players=num_players, seed=6, max_hands=2, device=d, observation=observation,
                             observation_dtype=dtype) for d in (None, device))
    a, b = ref.reset(seed=6), vec.reset(seed=6)
    for _ in range(200):
        for x, y in zip(a, b):
            assert isinstance(y, torch.Tensor) and y.device.type == torch.device(device).type
            assert np.array_equal(x, y.cpu().numpy())
        assert np.array_equal(ref.obs_buffer, vec.obs_buffer.cpu().numpy())
        if observation == "oracle":
            assert np.array_equal(ref.state(), vec.state().cpu().numpy())
        actions = random_actions(a.mask, rng)
        a, b = ref.step(actions), vec.step(torch.as_tensor(actions))
    assert [ref.hand_record(i) for i in range(16)] == [vec.hand_record(i) for i in range(16)]
    assert np.array_equal(ref.final_observations, vec.final_observations.cpu().numpy())
