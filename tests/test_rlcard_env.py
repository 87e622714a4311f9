"""Spades as an RLCard environment (spades_env.wrappers.rlcard) and RLCard agents as agents of this package."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

rlcard = pytest.importorskip("rlcard")

from rlcard.agents import DQNAgent, RandomAgent  # noqa: E402
from rlcard.utils import reorganize, tournament  # noqa: E402

from spades_env import actions as A  # noqa: E402
from spades_env.agents import make_agent  # noqa: E402
from spades_env.agents.match import play_game  # noqa: E402
from spades_env.cards import card_to_str, cards_of  # noqa: E402
from spades_env.game import IllegalActionError, SpadesConfig  # noqa: E402
from spades_env.observations import encode, observation_size  # noqa: E402
from spades_env.wrappers.rlcard import AgentPlayer  # noqa: E402

CONFIGS = [{}, {"game_num_players": 2}, {"game_rules": "house"}, {"game_observation": "history"}]


def random_agents(env, seed: int = 0) -> list[RandomAgent]:
    np.random.seed(seed)  # RLCard's RandomAgent draws from NumPy's global generator
    return [RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)]


@pytest.mark.parametrize("config", CONFIGS)
def test_random_episodes_pay_each_side_its_hand_margin(config):
    env = rlcard.make("spades", config={"seed": 3, **config})
    n = config.get("game_num_players", 4)
    kind = config.get("game_observation", "default")
    assert (env.num_players, env.num_actions) == (n, A.NUM_ACTIONS)
    assert env.state_shape == [[observation_size(n, kind)]] * n
    env.set_agents(random_agents(env))
    for _ in range(5):
        trajectories, payoffs = env.run(is_training=False)
        game = env.game.spades
        assert game.game_over and len(game.hand_records) == 1
        points = game.hand_records[0]["points"]
        for p in range(n):
            side = game.side_of[p]
            assert payoffs[p] == pytest.approx((points[side] - points[1 - side]) / 100)
        assert sum(len(t) // 2 for t in trajectories) == len(game.actions)  # every decision, forced ones too
        last = trajectories[0][-1]
        assert not last["legal_actions"] and np.array_equal(last["obs"], encode(game, 0, kind))
    assert len(tournament(env, 4)) == n


@pytest.mark.parametrize("config", CONFIGS + [{"game_single_hand": False, "game_rules": "house"}])
def test_every_states_vector_is_the_players_observation_then(config):
    """The vectors are kept up to date action by action: each equals a fresh encoding of the game at that state."""
    env = rlcard.make("spades", config={"seed": 5, **config})
    rng = np.random.default_rng(0)
    kind = config.get("game_observation", "default")
    state, player = env.reset()
    while not env.is_over():
        assert np.array_equal(state["obs"], encode(env.game.spades, player, kind))
        state, player = env.step(int(rng.choice(list(state["legal_actions"]))))
    for p in range(env.num_players):
        assert np.array_equal(env.get_state(p)["obs"], encode(env.game.spades, p, kind))


def test_the_state_is_the_players_vector_legal_ids_and_their_names():
    env = rlcard.make("spades", config={"seed": 1})
    state, player = env.reset()
    game = env.game.spades
    assert player == game.current_player
    assert list(state["legal_actions"]) == game.legal_actions()
    assert state["raw_legal_actions"] == [A.action_to_str(a) for a in game.legal_actions()]
    assert np.array_equal(state["obs"], encode(game, player))
    assert "raw_obs" in state and state.get("raw_obs") is state["raw_obs"]  # decoded when first read
    assert state["raw_obs"]["to_act"] == 0 and state["action_record"] == []  # seats relative to the player
    state, _ = env.step(state["raw_legal_actions"][-1], raw_action=True)  # a raw action is its name
    assert env.action_recorder == [(player, game.actions[0][1])] and state["action_record"] is env.action_recorder


def test_a_seed_fixes_the_deals():
    def deals(seed):
        env = rlcard.make("spades", config={"seed": seed})
        env.set_agents(random_agents(env))
        out = []
        for _ in range(3):
            env.run()
            out.append(env.game.spades.start_hands)
        return out

    assert deals(5) == deals(5) != deals(6)


def test_illegal_and_unknown_actions_say_what_was_wrong_and_change_nothing():
    env = rlcard.make("spades", config={"seed": 2})
    state, player = env.reset()
    before = (env.timestep, list(env.action_recorder), env.game.spades.legal_actions(), env.game.spades.phase)
    for action, raw in ((A.bid_action(3), False), (999, False), ("bid 99", True), ("AS", True)):
        with pytest.raises(IllegalActionError) as err:
            env.step(action, raw_action=raw)
        assert "\n" not in str(err.value) and "legal" in str(err.value)
        assert (env.timestep, env.action_recorder, env.game.spades.legal_actions(), env.game.spades.phase) == before


@pytest.mark.parametrize("config, named", [({"game_rules": "houses"}, "game_rules must be a preset"),
                                           ({"game_players": 4}, "unknown RLCard setting 'game_players'"),
                                           ({"game_observation": "full"}, "game_observation must be one of"),
                                           ({"game_num_players": 3}, "game_num_players must be 4 or 2")])
def test_bad_settings_fail_in_one_line(config, named):
    with pytest.raises(ValueError) as err:
        rlcard.make("spades", config=config)
    assert named in str(err.value) and "\n" not in str(err.value)


def test_step_back_returns_to_each_earlier_state():
    env = rlcard.make("spades", config={"seed": 4, "allow_step_back": True})
    state, player = env.reset()
    seen = []
    for _ in range(12):
        seen.append((state["obs"].copy(), player, list(state["legal_actions"])))
        state, player = env.step(list(state["legal_actions"])[0])
    for obs, who, legal in reversed(seen):
        state, player = env.step_back()
        assert np.array_equal(state["obs"], obs) and player == who and list(state["legal_actions"]) == legal
    assert env.step_back() is False


@pytest.mark.parametrize("spec, config", [("heuristic-v2", {}), ("heuristic-v2", {"game_num_players": 2}),
                                          ("ppo-v3", {}), ("ppo-v3", {"game_observation": "history"})])
def test_this_packages_agents_play_in_rlcards_loop_as_in_a_tournament(spec, config):
    """AgentPlayer seats an agent in env.run (a network reading the environment's vector where the kinds match, its
    own kind's where they do not); its hand is the one play_game plays on the same deal."""
    env = rlcard.make("spades", config={"seed": 7, **config})
    players = env.num_players
    env.set_agents([AgentPlayer(make_agent(spec), env, seed=11 + seat) for seat in range(players)])
    for _ in range(3):
        env.run()
        game = env.game.spades
        deal = [cards_of(h) for h in game.start_hands] if players == 4 else list(game.stock)
        again = play_game([make_agent(spec) for _ in range(players)], agent_seeds=range(11, 11 + players),
                          config=game.config, deal=deal, dealer=game.dealer, ask_forced=True)
        assert again.actions == game.actions


def test_one_agent_player_at_two_seats_is_refused_in_one_line():
    env = rlcard.make("spades", config={"seed": 3})
    shared = AgentPlayer(make_agent("heuristic-v2"), env)
    env.set_agents([shared, RandomAgent(num_actions=env.num_actions), shared, RandomAgent(num_actions=env.num_actions)])
    with pytest.raises(ValueError) as err:
        env.run()
    assert "give each seat its own AgentPlayer" in str(err.value) and "\n" not in str(err.value)


def test_a_whole_game_to_the_target_is_one_episode():
    env = rlcard.make("spades", config={"seed": 8, "game_single_hand": False, "game_rules": "house"})
    env.set_agents([AgentPlayer(make_agent("heuristic-v2"), env) for _ in range(4)])
    _, payoffs = env.run()
    game = env.game.spades
    assert game.game_over and len(game.hand_records) > 1 and max(game.scores) >= game.config.target_score
    assert payoffs[0] == pytest.approx((game.scores[0] - game.scores[1]) / 100)


def test_a_trained_dqn_checkpoint_is_the_agent_rlcard_path(tmp_path):
    env = rlcard.make("spades", config={"seed": 0})
    dqn = DQNAgent(num_actions=env.num_actions, state_shape=env.state_shape[0], mlp_layers=[32],
                   replay_memory_init_size=20, batch_size=16, train_every=4)
    env.set_agents([dqn, *random_agents(env)[1:]])
    with contextlib.redirect_stdout(io.StringIO()):
        for _ in range(3):
            trajectories, payoffs = env.run(is_training=True)
            for ts in reorganize(trajectories, payoffs)[0]:
                dqn.feed(ts)
    dqn.save_checkpoint(str(tmp_path), "dqn.pt")
    agent = make_agent(f"rlcard:{tmp_path / 'dqn.pt'}")
    game = play_game([agent, make_agent("random-v1"), agent, make_agent("random-v1")], seed=0,
                     config=SpadesConfig(single_hand=True))
    assert game.game_over
    state = env.reset()[0]  # the loaded agent decides as the trained one did
    assert agent.agent.eval_step(state)[0] == dqn.eval_step(state)[0]


def test_an_rlcard_spec_that_loads_nothing_says_why_in_one_line(tmp_path):
    import torch

    torch.save({"weights": [1, 2]}, tmp_path / "other.pt")
    for spec, named in ((f"rlcard:{tmp_path / 'missing.pt'}", "missing.pt"),
                        (f"rlcard:{tmp_path / 'other.pt'}", "agent_type None")):
        with pytest.raises((ValueError, OSError)) as err:
            make_agent(spec)
        assert named in str(err.value) and "\n" not in str(err.value)


def test_the_raw_observation_reads_the_players_own_cards_and_the_bids():
    env = rlcard.make("spades", config={"seed": 9})
    state, player = env.reset()
    while env.game.spades.phase.name != "PLAY":
        legal = list(state["legal_actions"])
        state, player = env.step(legal[-1 - player % len(legal)])  # seats bid differently
    game = env.game.spades
    assert len(set(game.bids)) > 1
    assert state["raw_obs"]["hand"] == [card_to_str(c) for c in cards_of(game.hands[player])]
    seats = [(player + k) % 4 for k in range(4)]  # relative to the player
    relative = ["blind nil" if game.blind[s] else game.bids[s] for s in seats]
    assert state["raw_obs"]["bids"] == relative and state["raw_obs"]["to_act"] == 0


def test_an_nfsp_checkpoint_plays_its_evaluation_policy(tmp_path):
    from rlcard.agents import NFSPAgent

    env = rlcard.make("spades", config={"seed": 0})
    nfsp = NFSPAgent(num_actions=env.num_actions, state_shape=env.state_shape[0], hidden_layers_sizes=[32],
                     q_mlp_layers=[32])
    nfsp.save_checkpoint(str(tmp_path), "nfsp.pt")
    agent = make_agent(f"rlcard:{tmp_path / 'nfsp.pt'}")
    assert type(agent.agent).__name__ == "NFSPAgent" and agent.obs_size == env.state_shape[0][0]
    game = play_game([agent, make_agent("random-v1"), agent, make_agent("random-v1")], seed=1,
                     config=SpadesConfig(single_hand=True))
    assert game.game_over
