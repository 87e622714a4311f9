"""Errors (four players): bad deals and config values fail early and clearly; an illegal action
raises ValueError naming the action, phase and legal actions and changes nothing; the opt-in
TerminateIllegalWrapper; stepping after the game has ended."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from pettingzoo.utils.env_logger import EnvLogger

from spades_env import SpadesConfig, SpadesGame, spades_v0
from spades_env import actions as A
from spades_env.cards import SPADE_MASK, card_to_str, cards_of, suit_of
from spades_env.game import IllegalActionError, Phase

SUITED = [[s * 13 + r for r in range(13)] for s in range(4)]  # seat p holds all of suit p


# ------------------------------------------------------------------ bad deals


@pytest.mark.parametrize("deal, message", [
    ([[0] * 13] + SUITED[1:], "repeats cards: 2C"),
    ([SUITED[0][:12] + [13]] + SUITED[1:], "repeats cards: 2D"),
    (SUITED[:3], r"4 hands of 13 cards, got sizes \[13, 13, 13\]"),
    ([SUITED[0] + [SUITED[1][0]], SUITED[1][1:]] + SUITED[2:], r"got sizes \[14, 12, 13, 13\]"),
    (SUITED + [[]], "4 hands of 13 cards"),
    ([SUITED[0][:12] + [52]] + SUITED[1:], "card id 52 is not in 0..51"),
    ([SUITED[0][:12] + [-1]] + SUITED[1:], "card id -1 is not in 0..51"),
    ([SUITED[0][:12] + ["XY"]] + SUITED[1:], "cannot read 'XY' as a card"),
    ([SUITED[0][:12] + ["1S"]] + SUITED[1:], "cannot read '1S' as a card"),
    (list(range(52)), "deal must be 4 lists of 13 cards"),
    ("AS KS", "deal must be 4 lists of 13 cards"),
])
def test_bad_deals_are_rejected_clearly(deal, message):
    env = spades_v0.env()
    with pytest.raises(ValueError, match=message):
        env.reset(seed=0, options={"deal": deal})
    with pytest.raises(ValueError, match=message):
        SpadesGame().reset(0, deal=deal)


def test_a_rejected_deal_leaves_the_previous_game_alone():
    game = SpadesGame()
    game.reset(4)
    before = snapshot(game)
    with pytest.raises(ValueError):
        game.reset(5, deal=[[0] * 13] * 4)
    assert snapshot(game) == before


@pytest.mark.parametrize("options, message", [
    ({"dealer": 4}, "dealer must be <= 3"),
    ({"dealer": -1}, "dealer must be >= 0"),
    ({"dealer": "north"}, "dealer must be an integer"),
    ({"scores": [0]}, "scores must give 2 values"),
    ({"scores": [0, "a"]}, "scores must be an integer"),
    ({"bags": [0, 10]}, "bags must be <= 9"),
    ({"bags": [-1, 0]}, "bags must be >= 0"),
])
def test_bad_reset_options(options, message):
    with pytest.raises(ValueError, match=message):
        spades_v0.env().reset(seed=0, options=options)


# ------------------------------------------------------------------ bad config


@pytest.mark.parametrize("option, value", [
    ("num_players", 3), ("num_players", True),
    ("target_score", 0), ("target_score", -500), ("target_score", 500.5), ("target_score", "500"),
    ("bag_limit", 0), ("bag_limit", 2.5),
    ("bag_penalty", -100), ("bag_penalty", None),
    ("nil", 1), ("nil", "yes"), ("blind_nil", 0), ("blind_nil", None), ("single_hand", "no"),
    ("blind_nil_min_deficit", -1), ("blind_nil_min_deficit", 1.5),
    ("mercy_threshold", 500), ("mercy_threshold", 600), ("mercy_threshold", -1.5),
    ("max_hands", 0), ("max_hands", None), ("max_hands", 10.0),
])
def test_invalid_options_fail_at_construction(option, value):
    for make in (lambda: spades_v0.env(**{option: value}), lambda: SpadesGame(**{option: value}),
                 lambda: SpadesConfig(**{option: value})):
        with pytest.raises(ValueError, match=option):
            make()


@pytest.mark.parametrize("argument, value", [("observation", "full"), ("reward", "points"),
                                             ("render_mode", "rgb"), ("illegal_action", "ignore")])
def test_invalid_env_arguments_fail_at_construction(argument, value):
    with pytest.raises(ValueError, match=argument):
        spades_v0.env(**{argument: value})


def test_unknown_option_fails_at_construction():
    with pytest.raises(ValueError, match="unknown option.*bag_limt"):
        spades_v0.env(bag_limt=5)


def test_valid_options_are_accepted():
    env = spades_v0.env(target_score=300, bag_limit=5, bag_penalty=50, nil=False, blind_nil=False,
                        blind_nil_min_deficit=100, mercy_threshold=-300, max_hands=10, single_hand=False)
    env.reset(seed=0)
    assert env.unwrapped.game.config == SpadesConfig(target_score=300, bag_limit=5, bag_penalty=50, nil=False,
                                                     blind_nil=False, blind_nil_min_deficit=100,
                                                     mercy_threshold=-300, max_hands=10)


# -------------------------------------------------------------- illegal actions


def snapshot(game: SpadesGame) -> dict:
    """Everything in the engine, deep-copied (the generator by its state)."""
    state = {k: copy.deepcopy(v) for k, v in vars(game).items() if k not in ("_rng", "_rng_shared")}
    if game.rng is not None:
        state["rng"] = copy.deepcopy(game.rng.bit_generator.state)
    return state


def env_snapshot(env) -> dict:
    raw = env.unwrapped
    return {
        "game": snapshot(raw.game),
        "observations": {a: {k: v.tolist() for k, v in raw.observe(a).items()} for a in raw.possible_agents},
        "state": raw.state().tolist(),
        "rest": copy.deepcopy({k: getattr(raw, k) for k in ("agents", "agent_selection", "rewards",
                                                            "_cumulative_rewards", "terminations", "truncations",
                                                            "infos")}),
    }


def drive(env, actions) -> None:
    for a in actions:
        env.step(a)


def scenarios():
    """(name, env, the position's legal actions) at one position of each phase."""
    out = []
    env = spades_v0.env()
    env.reset(seed=0, options={"dealer": 3})
    out.append(("BLIND", env))
    env = spades_v0.env()
    env.reset(seed=0, options={"dealer": 3})
    drive(env, [A.LOOK])
    out.append(("BID", env))
    env = spades_v0.env()
    env.reset(seed=0, options={"dealer": 3})
    drive(env, [A.BLIND_NIL, A.LOOK, A.bid_action(3), A.LOOK, A.bid_action(4), A.LOOK, A.bid_action(2)])
    out.append(("PASS", env))
    env = spades_v0.env(blind_nil=False)
    env.reset(seed=1, options={"dealer": 3})
    drive(env, [A.bid_action(3)] * 4)
    out.append(("PLAY", env))  # leading, spades not broken
    env = spades_v0.env(blind_nil=False)
    env.reset(seed=1, options={"dealer": 3})
    drive(env, [A.bid_action(3)] * 4)
    drive(env, [env.unwrapped.game.legal_actions()[0]])
    out.append(("PLAY", env))  # following
    return out


def illegal_actions(game: SpadesGame) -> list:
    legal = set(game.legal_actions())
    wrong_ids = [a for a in range(A.NUM_ACTIONS) if a not in legal]
    held = set(cards_of(game.hands[game.current_player]))
    picks = [wrong_ids[0], wrong_ids[-1], -1, A.NUM_ACTIONS, 10**6, None, "AS", 3.5, True, np.float32(1),
             np.int64(wrong_ids[len(wrong_ids) // 2])]
    picks += sorted(held - legal)[:3]  # cards held but not playable: a revoke, an early spade lead
    picks += [c for c in range(52) if c not in held][:2]  # cards not held
    return picks


def test_the_scenarios_reach_the_intended_positions():
    phases = [(name, env.unwrapped.game) for name, env in scenarios()]
    assert [g.phase.name for _, g in phases] == [name for name, _ in phases]
    lead, follow = phases[3][1], phases[4][1]
    assert lead.hands[lead.current_player] & SPADE_MASK and not lead.spades_broken  # a spade lead is illegal
    led = suit_of(follow.trick[0][1])
    hand = follow.hands[follow.current_player]
    assert cards_of(hand) != follow.legal_actions() and all(suit_of(c) == led for c in follow.legal_actions())


@pytest.mark.parametrize("index", range(5))
def test_illegal_action_raises_and_changes_nothing(index):
    name, env = scenarios()[index]
    game = env.unwrapped.game
    legal = game.legal_actions()
    before = env_snapshot(env)
    for action in illegal_actions(game):
        with pytest.raises(ValueError) as info:
            env.step(action)
        message = str(info.value)
        assert isinstance(info.value, IllegalActionError)
        assert repr(action) in message, message
        assert f"phase {name}" in message and f"player {game.current_player}" in message
        for a in legal:
            assert f"{a} ({A.action_to_str(a)})" in message
        assert env_snapshot(env) == before, f"illegal action {action!r} changed the game"
    env.step(legal[0])  # and the game goes on normally
    assert env_snapshot(env) != before


def test_illegal_action_message_reads_well():
    _, env = scenarios()[3]
    game = env.unwrapped.game
    spade = cards_of(game.hands[game.current_player] & SPADE_MASK)[0]
    with pytest.raises(ValueError, match=rf"illegal action {spade} \({card_to_str(spade)}\) for player 0 "
                                         r"in phase PLAY; legal actions: \d+ \(\w\w\), "):
        env.step(spade)


def test_numpy_integer_actions_are_accepted():
    _, env = scenarios()[1]
    env.step(np.int64(A.bid_action(4)))
    assert env.unwrapped.game.bids[0] == 4


def test_engine_rejects_actions_after_the_game_is_over():
    game = SpadesGame(single_hand=True)
    game.reset(0)
    rng = random.Random(0)
    while not game.game_over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.legal_actions() == []
    before = snapshot(game)
    for action in (0, A.LOOK, 999):
        with pytest.raises(IllegalActionError, match="game is over"):
            game.apply(action)
    assert snapshot(game) == before


# ----------------------------------------------- terminate-on-illegal (opt-in)


def test_terminate_illegal_wrapper_opt_in():
    env = spades_v0.env(illegal_action="terminate")
    env.reset(seed=0, options={"dealer": 3})
    env.step(A.LOOK)  # legal actions still pass through
    assert env.unwrapped.game.phase == Phase.BID
    offender = env.agent_selection
    obs, *_ = env.last()
    assert not obs["action_mask"][A.LOOK]
    env.step(A.LOOK)  # illegal now: the game ends, the offender gets -1, the others 0
    assert all(env.terminations.values()) and len(env.agents) == 4
    final = {}
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        assert term or trunc
        final[agent] = reward
        env.step(None)
    assert final == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    assert env.agents == []


def test_raise_is_the_default():
    env = spades_v0.env()
    env.reset(seed=0, options={"dealer": 3})
    with pytest.raises(ValueError):
        env.step(A.bid_action(3))  # Blind Nil decision first
    assert not any(env.terminations.values())


# --------------------------------------------------------- after the game ended


def finish(env, seed: int = 0) -> None:
    env.reset(seed=seed)
    rng = random.Random(seed)
    while not env.unwrapped.game.game_over:
        env.step(rng.choice(env.unwrapped.game.legal_actions()))


def test_step_after_the_game_ended_follows_pettingzoo():
    env = spades_v0.env(single_hand=True)
    finish(env)
    assert all(env.terminations.values()) and len(env.agents) == 4
    before = snapshot(env.unwrapped.game)
    with pytest.raises(ValueError, match="only valid action is None"):  # PettingZoo's dead-step rule
        env.step(0)
    removed = []
    while env.agents:
        agent = env.agent_selection
        obs, _, term, _, _ = env.last()
        assert term and not obs["action_mask"].any()
        env.step(None)  # a dead agent steps with None and leaves
        removed.append(agent)
    assert sorted(removed) == env.possible_agents
    EnvLogger.mqueue.clear()
    env.step(None)  # with no agents left, PettingZoo warns and does nothing
    assert any("step() called after all agents are terminated" in m for m in EnvLogger.mqueue)
    assert snapshot(env.unwrapped.game) == before
    env.reset(seed=1)  # and a reset starts a new game
    assert len(env.agents) == 4 and not env.unwrapped.game.game_over


@pytest.mark.parametrize("action", [3.5, True, np.float32(7.0)])
def test_a_non_integer_action_is_not_described_as_a_card(action):
    """3.5 is not card 3 (5C): the message should say it is not an action id, not call it 5C."""
    _, env = scenarios()[3]
    with pytest.raises(ValueError) as info:
        env.step(action)
    assert "not an action id" in str(info.value), str(info.value)


def test_no_nil_means_no_blind_nil_either():
    game = SpadesGame(nil=False)
    game.reset(seed=0)
    assert game.phase == Phase.BID and min(game.legal_actions()) == A.bid_action(1)
