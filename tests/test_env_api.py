"""The PettingZoo AEC environment (four players): PettingZoo's own tests, spaces, masks, rewards,
infos, state() and fixed-deal resets."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from spades_env import NUM_ACTIONS, spades_v0
from spades_env import actions as A
from spades_env.cards import card_to_str, cards_of, to_card
from spades_env.observations import KINDS, decode, encode_state
from spades_env.records import replay_hand


def random_game(env, seed: int, rng: random.Random, check=None) -> None:
    """Play one game through the full AEC loop with random legal actions; ``check(env)`` after each step."""
    env.reset(seed=seed)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        action = None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        env.step(action)
        if check is not None:
            check(env)


# ------------------------------------------------------------ PettingZoo's tests


@pytest.mark.parametrize("kind", KINDS)
def test_pettingzoo_api_test(kind):
    api_test(spades_v0.env(observation=kind), num_cycles=300)


@pytest.mark.parametrize("kind", KINDS)
def test_pettingzoo_api_test_short_games(kind):
    """Also across game ends: single-hand games end inside api_test's cycles."""
    api_test(spades_v0.env(observation=kind, single_hand=True), num_cycles=300)


@pytest.mark.parametrize("kind", KINDS)
def test_pettingzoo_seed_test(kind):
    seed_test(functools.partial(spades_v0.env, observation=kind), num_cycles=300)


@pytest.mark.parametrize("kind", KINDS)
def test_pettingzoo_render_test(kind):
    render_test(functools.partial(spades_v0.env, observation=kind))


# ------------------------------------------------------------ spaces and masks


def test_metadata_and_spaces():
    env = spades_v0.env()
    assert env.metadata["name"] == "spades_v0" and env.metadata["is_parallelizable"] is False
    assert set(env.metadata["render_modes"]) == {"human", "ansi", "rgb_array"}
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    for agent in env.possible_agents:
        assert env.action_space(agent).n == NUM_ACTIONS == 71
        assert env.observation_space(agent) is env.observation_space(agent)  # cached
        assert env.action_space(agent) is env.action_space(agent)
        mask_space = env.observation_space(agent)["action_mask"]
        assert mask_space.dtype == np.int8 and mask_space.shape == (NUM_ACTIONS,)


def test_masks_equal_the_engine_legal_set_and_observations_fit_the_space():
    env = spades_v0.env(max_hands=5)
    rng = random.Random(1)
    decisions = 0

    def check(env):
        nonlocal decisions
        game = env.unwrapped.game
        for p, agent in enumerate(env.possible_agents):
            obs = env.observe(agent)
            assert obs["action_mask"].dtype == np.int8
            assert env.observation_space(agent).contains(obs)
            legal = game.legal_actions() if p == game.current_player and not game.game_over else []
            assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        decisions += 1

    for seed in range(12):
        random_game(env, seed, rng, check)
    assert decisions > 12 * 5 * 56


def test_fixed_deal_reset_with_text_or_ids():
    rng = random.Random(4)
    deck = list(range(52))
    rng.shuffle(deck)
    ids = [sorted(deck[13 * p:13 * p + 13]) for p in range(4)]
    text = [[card_to_str(c).lower().replace("t", "10") for c in hand] for hand in ids]  # "10h", "as", ...
    results = []
    for deal in (ids, text):
        env = spades_v0.env()
        env.reset(seed=123, options={"deal": deal, "dealer": 1, "scores": [120, -40], "bags": [3, 8]})
        game = env.unwrapped.game
        assert [cards_of(h) for h in game.hands] == ids
        assert game.dealer == 1 and env.agent_selection == "player_2"
        assert game.scores == [120, -40] and game.bags == [3, 8]
        results.append(env.observe("player_2")["observation"])
    np.testing.assert_array_equal(*results)
    assert [to_card(c) for c in text[0]] == ids[0]


def test_fixed_deal_applies_to_the_first_hand_only():
    env = spades_v0.env(max_hands=2, blind_nil=False)
    deal = [[s * 13 + r for r in range(13)] for s in (3, 2, 1, 0)]
    random_game(env, 5, random.Random(0))
    env.reset(seed=5, options={"deal": deal, "dealer": 3})
    rng = random.Random(0)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    records = env.unwrapped.hand_records
    assert records[0]["hands"] == [[card_to_str(c) for c in hand] for hand in deal]
    assert records[1]["hands"] != records[0]["hands"] and records[1]["dealer"] == 0


def test_unknown_reset_option_is_reported():
    env = spades_v0.env()
    with pytest.warns(UserWarning, match="ignoring unknown reset option"):
        env.reset(seed=0, options={"dael": []})


# ---------------------------------------------------------------- rewards


def collect_rewards(env, seed: int, rng: random.Random, options: dict | None = None) -> tuple[list[dict], dict]:
    """Per-step ``env.rewards`` after each step, and each agent's total as read through ``last()``."""
    per_step, through_last = [], dict.fromkeys(env.possible_agents, 0.0)
    env.reset(seed=seed, options=options)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        through_last[agent] += reward
        action = None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        env.step(action)
        per_step.append({"rewards": dict(env.rewards), "hands": len(env.unwrapped.hand_records),
                         "infos": {a: dict(i) for a, i in env.infos.items()}, "live": action is not None})
    return per_step, through_last


def test_score_rewards_partners_equal_sides_zero_sum_paid_at_each_hand():
    env = spades_v0.env(max_hands=4)
    rng = random.Random(2)
    for seed in range(4):
        per_step, through_last = collect_rewards(env, seed, rng)
        records = env.unwrapped.hand_records
        hands_seen = 0
        expected_total = dict.fromkeys(env.possible_agents, 0.0)
        for step in per_step:
            r = step["rewards"]
            if step["hands"] > hands_seen and len(r) == 4:  # the step that scored a hand
                hands_seen = step["hands"]
                record = records[hands_seen - 1]
                diff = (record["points"][0] - record["points"][1]) / 100
                assert r == {"player_0": diff, "player_1": -diff, "player_2": diff, "player_3": -diff}
                for a in r:
                    expected_total[a] += r[a]
                    assert step["infos"][a]["hand_record"] is record or step["infos"][a]["hand_record"] == record
            else:
                assert all(v == 0 for v in r.values()), "rewards are paid only when a hand is scored"
                if step["live"]:  # (after the game, the last infos stay readable until each agent leaves)
                    assert all("hand_record" not in i for i in step["infos"].values())
        assert hands_seen == len(records) == 4
        assert through_last == pytest.approx(expected_total)  # every reward reaches its agent via last()


def test_win_rewards():
    """+1 / -1 once, at the step that ends the game; nothing before; 0 for everyone when truncated."""
    rng = random.Random(3)
    for config, options in (({"single_hand": True}, None), ({"mercy_threshold": -100}, {"scores": [30, 20]})):
        env = spades_v0.env(reward="win", **config)
        won = 0
        for seed in range(4):
            per_step, through_last = collect_rewards(env, seed, rng, options)
            game = env.unwrapped.game
            if game.winner is None:  # a tied single hand, or a long game truncated
                assert set(through_last.values()) == {0.0}
                continue
            won += 1
            expected = {a: 1.0 if p % 2 == game.winner else -1.0 for p, a in enumerate(env.possible_agents)}
            final = next(i for i, s in enumerate(per_step) if s["hands"] == len(game.hand_records))
            for i, s in enumerate(per_step):
                assert s["rewards"] == expected if i == final else not any(s["rewards"].values())
            assert through_last == expected
        assert won >= 2
    env = spades_v0.env(reward="win", max_hands=1)  # truncated: no winner, no reward
    per_step, through_last = collect_rewards(env, 0, rng)
    game = env.unwrapped.game
    assert game.truncated and game.winner is None and set(through_last.values()) == {0.0}
    assert all(v == 0 for s in per_step for v in s["rewards"].values())


def test_terminal_flags_for_a_win_and_for_truncation():
    for config, terminated in (({"single_hand": True}, True), ({"max_hands": 1}, False)):
        env = spades_v0.env(**config)
        env.reset(seed=0)
        rng = random.Random(0)
        while not env.unwrapped.game.game_over:
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(rng.choice(np.flatnonzero(mask).tolist()))
        assert set(env.terminations.values()) == {terminated}
        assert set(env.truncations.values()) == {not terminated}
        assert len(env.unwrapped.hand_records) == 1


def test_hand_records_in_infos_replay():
    env = spades_v0.env(max_hands=3)
    per_step, _ = collect_rewards(env, 8, random.Random(8))
    from_infos = [s["infos"]["player_0"]["hand_record"] for s in per_step
                  if s["live"] and "hand_record" in s["infos"]["player_0"]]
    assert from_infos == env.unwrapped.hand_records and len(from_infos) == 3
    for record in from_infos:
        assert replay_hand(record, env.unwrapped.config) == record


# ------------------------------------------------------------------- state


def test_state_shape_and_bounds():
    env = spades_v0.env(max_hands=2)
    states = 0

    def check(env):
        nonlocal states
        if not env.agents:
            return
        state = env.state()
        assert state.shape == env.unwrapped.state_space.shape and state.dtype == np.float32
        assert env.unwrapped.state_space.contains(state)
        np.testing.assert_array_equal(state, encode_state(env.unwrapped.game))
        states += 1

    random_game(env, 0, random.Random(5), check)
    assert states > 2 * 56


def test_state_holds_all_four_hands_in_every_phase():
    """A centralised critic's state should hold every card. It is seat 0's oracle observation, so
    while seat 0 has not yet looked at its hand (Blind Nil decision) seat 0's 13 cards are missing."""
    env = spades_v0.env()
    env.reset(seed=0, options={"dealer": 3})  # seat 0 bids first and has not looked
    state = decode(env.state(), kind="oracle")
    held = state["hand"] + [c for hand in state["other_hands"] for c in hand]
    assert len(held) == 52, f"state() holds {len(held)} of the 52 cards in phase {state['phase']}"


def test_observe_is_valid_for_any_agent_at_any_time():
    env = spades_v0.env(single_hand=True)
    env.reset(seed=2)
    rng = random.Random(2)
    for _agent in env.agent_iter():
        for other in env.possible_agents:
            obs = env.observe(other)
            assert env.observation_space(other).contains(obs)
            if other != env.agent_selection:
                assert not obs["action_mask"].any()
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    for other in env.possible_agents:  # after the game, observations still come, with empty masks
        obs = env.observe(other)
        assert env.observation_space(other).contains(obs) and not obs["action_mask"].any()


def test_render_ansi_shows_the_table():
    env = spades_v0.env(render_mode="ansi", blind_nil=False)
    env.reset(seed=0, options={"dealer": 3})
    for bid in (4, 3, 2, 2):
        env.step(A.bid_action(bid))
    env.step(env.unwrapped.game.legal_actions()[0])
    text = env.render()
    assert isinstance(text, str)
    for piece in ("player_0", "player_3", "trick", "PLAY"):
        assert piece in text


# ------------------------------------------- PettingZoo's order-enforcing privates

# spades_env.env.OrderEnforcingWrapper takes direct paths for last/step/agent_iter that read and write
# the base class's private flags _has_reset and _has_updated. pettingzoo has no upper bound, so these
# tests pin what the subclass relies on and fail with a message that names it.

PRIVATES_CHANGED = ("pettingzoo {version}: OrderEnforcingWrapper's private flags _has_reset/_has_updated {what}; "
                    "spades_env.env.OrderEnforcingWrapper's fast paths write them: update them to the new "
                    "wrapper or put an upper bound on pettingzoo in pyproject.toml")


def _privates_changed(what: str) -> str:
    import pettingzoo

    return PRIVATES_CHANGED.format(version=pettingzoo.__version__, what=what)


def _base_wrapper(**rules):
    """Our raw env under PettingZoo's own OrderEnforcingWrapper (what ``spades_v0.env()`` subclasses)."""
    from pettingzoo.utils import wrappers

    from spades_env.env import raw_env

    return wrappers.OrderEnforcingWrapper(raw_env(**rules))


def _outcome(call) -> tuple:
    """What a call did: its result's type, or the error it raised (type and message)."""
    try:
        return ("ok", type(call()).__name__)
    except Exception as exc:  # noqa: BLE001 - the comparison is of whatever each wrapper raises
        return (type(exc).__name__, str(exc))


def test_order_enforcing_privates_exist_on_a_fresh_wrapper_and_reset_sets_them():
    base = _base_wrapper()
    flags = {name: vars(base).get(name) for name in ("_has_reset", "_has_updated")}
    assert flags == {"_has_reset": False, "_has_updated": False}, _privates_changed(f"read {flags} on a fresh wrapper")
    base.reset(seed=0)
    assert (base._has_reset, base._has_updated) == (True, True), _privates_changed("are not both set by reset()")


def test_order_enforcing_checks_read_the_privates():
    # Clearing a flag by hand must bring back the check that guards it: that is what the fast paths rely on.
    base = _base_wrapper()
    base.reset(seed=0)
    base._has_reset = False
    assert _outcome(lambda: base.step(0))[0] == "AssertionError", _privates_changed("no longer guard step() (reset)")
    base = _base_wrapper()
    base.reset(seed=0)
    loop = iter(base.agent_iter())
    next(loop)
    assert _outcome(lambda: next(loop))[0] == "AssertionError", _privates_changed("no longer guard agent_iter()")
    base._has_updated = True
    assert _outcome(lambda: next(loop)) == ("ok", "str"), _privates_changed("are not what agent_iter() checks")


def _order_trace(wrapper) -> list:
    """Calls in and out of order, and one whole random game, recorded with the flags after each step."""
    trace = [_outcome(lambda: wrapper.last()), _outcome(lambda: wrapper.step(0)),
             _outcome(lambda: wrapper.agent_iter()), _outcome(lambda: wrapper.agents)]
    wrapper.reset(seed=3)
    loop = iter(wrapper.agent_iter())
    next(loop)
    trace.append(_outcome(lambda: next(loop)))  # a second agent without a step: refused
    trace.append(_outcome(lambda: next(iter(wrapper.agent_iter()))))  # ... by a new loop as well
    rng = random.Random(3)
    wrapper.reset(seed=3)
    for agent in wrapper.agent_iter():
        obs, reward, term, trunc, info = wrapper.last()
        trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term, trunc,
                      sorted(info), wrapper._has_reset, wrapper._has_updated))
        wrapper.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        trace.append((wrapper._has_reset, wrapper._has_updated))
    trace.append(_outcome(lambda: wrapper.step(None)))  # after the game: the base class warns, does nothing
    trace.append((wrapper._has_reset, wrapper._has_updated))
    return trace


def test_fast_paths_behave_as_the_base_order_enforcing_wrapper():
    ours, base = _order_trace(spades_v0.env(single_hand=True)), _order_trace(_base_wrapper(single_hand=True))
    assert len(ours) == len(base)
    for i, (a, b) in enumerate(zip(ours, base)):
        assert a == b, _privates_changed(f"are handled differently by the fast paths at record {i}: {a!r} != {b!r}")
