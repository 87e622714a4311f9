"""The hand as an OpenSpiel game (spades_env.wrappers.openspiel) and OpenSpiel's IS-MCTS as an agent."""

from __future__ import annotations

import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from spades_env import actions as A  # noqa: E402
from spades_env import spades_v0  # noqa: E402
from spades_env.cards import NUM_CARDS  # noqa: E402
from spades_env.game import IllegalActionError, Phase, SpadesConfig, SpadesGame  # noqa: E402
from spades_env.wrappers import openspiel  # noqa: E402

SPECS = ["python_spades", "python_spades(num_players=2)", "python_spades(rules=house,score_1=-120,bags_0=8)"]


def deal(state, rng: np.random.Generator) -> None:
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))


def play_out(state, rng: np.random.Generator) -> None:
    while not state.is_terminal():
        if state.is_chance_node():
            deal(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("spec", SPECS)
def test_openspiels_own_checks_pass(spec):
    """pyspiel's random simulation test: legal actions, chance, clones, returns and strings at every node."""
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("spec", SPECS)
def test_random_hands_score_as_the_engine_and_stay_in_the_declared_bounds(spec):
    game = pyspiel.load_game(spec)
    params = game.get_parameters()
    rng = np.random.default_rng(0)
    for _ in range(20):
        state = game.new_initial_state()
        play_out(state, rng)
        moves = [a for a in state.full_history() if a.player >= 0]
        assert len(moves) <= game.max_game_length()
        # the same hand on the engine, from the dealt cards and the players' actions
        engine = SpadesGame(SpadesConfig.from_preset(params["rules"], num_players=params["num_players"],
                                                     single_hand=True))
        dealt = state.history()[:NUM_CARDS]
        n = params["num_players"]
        engine.reset(0, deal=dealt if n == 2 else [dealt[s::n] for s in range(n)], dealer=n - 1,
                     scores=[params["score_0"], params["score_1"]], bags=[params["bags_0"], params["bags_1"]])
        draws = iter(d for _, _, d in state.game.replacements)
        for move in moves:
            replaces = engine.phase is Phase.REPLACE and move.action != A.DONE
            engine.apply(move.action, outcome=next(draws) if replaces else None)
        points = engine.hand_records[-1]["points"]
        returns = state.returns()
        assert returns == [points[engine.side_of[p]] - points[1 - engine.side_of[p]] for p in range(n)]
        assert sum(returns) == 0 and game.min_utility() <= min(returns) <= max(returns) <= game.max_utility()


def test_the_deal_is_explicit_chance_card_k_to_seat_k_mod_4():
    state = pyspiel.load_game("python_spades").new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == NUM_CARDS
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1)
    other = state.clone()
    other.apply_action(1)
    order = list(reversed(range(NUM_CARDS)))
    state.apply_action(order[0])
    assert other.information_state_string(0) == state.information_state_string(0)  # no one sees a card yet
    for card in order[1:]:
        state.apply_action(card)
    assert [sorted(order[s::4]) for s in range(4)] == [sorted(np.flatnonzero(
        [state.game.hands[s] >> c & 1 for c in range(NUM_CARDS)])) for s in range(4)]
    assert state.current_player() == 0  # the dealer is the last seat: player 0 speaks first


def test_observation_is_spades_v0s_vector_and_the_information_state_its_key():
    rng = np.random.default_rng(1)
    state = pyspiel.load_game("python_spades(rules=house,score_0=-150)").new_initial_state()
    deal(state, rng)
    dealt = state.history()
    env = spades_v0.env(single_hand=True, blind_nil_min_deficit=100)
    env.reset(options={"deal": [dealt[s::4] for s in range(4)], "dealer": 3, "scores": [-150, 0]})
    for _ in range(30):
        player = state.current_player()
        assert env.agent_selection == f"player_{player}"
        for seat in range(4):
            assert np.array_equal(state.observation_tensor(seat), env.observe(f"player_{seat}")["observation"])
            assert state.information_state_string(seat) == state.game.information_state_key(seat)
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        env.step(action)


def test_resampling_keeps_the_players_information_state_and_replays_a_consistent_hand():
    rng = np.random.default_rng(2)
    state = pyspiel.load_game("python_spades").new_initial_state()
    deal(state, rng)
    for _ in range(25):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    seen = set()
    for k in range(8):
        world = state.resample_from_infostate(player, np.random.default_rng(k).uniform)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
        assert len(world.history()) == len(state.history())
        seen.add(tuple(world.game.hands))
        play_out(world, rng)  # each world plays on to a scored hand
    assert len(seen) > 1  # the hidden cards differ


def test_a_two_player_replacement_is_an_action_then_a_chance_draw():
    rng = np.random.default_rng(3)
    state = pyspiel.load_game("python_spades(num_players=2)").new_initial_state()
    deal(state, rng)
    state.apply_action(A.BLIND_NIL)  # the first drawer bids Blind Nil: it draws unseen, replaces after the bidding
    while state.game.phase is not Phase.REPLACE:
        state.apply_action(A.LOOK if A.LOOK in state.legal_actions() else int(rng.choice(state.legal_actions())))
    replacer, card = state.current_player(), state.legal_actions()[0]
    pile = state.game.discard_pile
    state.apply_action(card)
    assert state.is_chance_node()
    drawn = [c for c, _ in state.chance_outcomes()]
    assert all(pile >> c & 1 for c in drawn)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, drawn[0]).startswith("draw ")
    state.apply_action(drawn[0])
    assert not state.game.hands[replacer] >> card & 1 and state.game.hands[replacer] >> drawn[0] & 1


def test_bad_parameters_and_illegal_moves_say_what_was_wrong_and_change_nothing():
    with pytest.raises(ValueError, match="rules must be a preset, one of default, house"):
        pyspiel.load_game("python_spades(rules=nope)")
    with pytest.raises(ValueError, match="dealer must be a seat"):
        pyspiel.load_game("python_spades(dealer=5)")
    with pytest.raises(ValueError, match="one hand"):
        openspiel.SpadesOpenSpielGame(config=SpadesConfig())
    state = pyspiel.load_game("python_spades").new_initial_state()
    state.apply_action(7)
    with pytest.raises(ValueError, match="not dealt yet"):
        state.apply_action(7)
    deal(state, np.random.default_rng(4))
    history = state.history()
    with pytest.raises(IllegalActionError, match="legal actions"):
        state.apply_action(A.bid_action(5))  # player 0 must first look or bid Blind Nil
    assert state.history() == history and state.current_player() == 0


def test_a_custom_rule_set_is_named_custom():
    game = openspiel.SpadesOpenSpielGame(config=SpadesConfig(single_hand=True, bag_limit=5))
    assert game.get_parameters()["rules"] == "custom"
    house = openspiel.SpadesOpenSpielGame(config=SpadesConfig.from_preset("house", single_hand=True))
    assert pyspiel.load_game(str(house)).get_parameters() == house.get_parameters()


def test_openspiels_rl_environment_runs_on_the_observation_tensor():
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(pyspiel.load_game("python_spades"), seed=0)
    assert env.observation_spec()["info_state"] == (spades_v0.env().observation_space("player_0")
                                                   ["observation"].shape[0],)
    step, rng = env.reset(), np.random.default_rng(5)
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
    assert sum(step.rewards) == 0


def test_openspiels_ismcts_plays_a_hand_as_an_agent_reproducibly():
    from spades_env.agents import make_agent
    from spades_env.agents.match import play_game

    def hand(seed):
        seats = [make_agent("openspiel-ismcts:simulations=4"), make_agent("heuristic"),
                 make_agent("openspiel-ismcts:simulations=4"), make_agent("heuristic")]
        return play_game(seats, seed=seed, config=SpadesConfig(single_hand=True),
                         agent_seeds=[1, 2, 2**40, 4]).hand_records[-1]

    first = hand(6)
    assert first["actions"] == hand(6)["actions"]
    seats = [make_agent("openspiel-ismcts:simulations=2"),
             make_agent("openspiel-ismcts:simulations=2,rollout=heuristic")] * 2
    game = play_game(seats, seed=7, config=SpadesConfig(max_hands=2), agent_seeds=[1, 2, 3, 4])
    assert len(game.hand_records) == 2 and any(game.hand_records[1]["scores_before"])  # dealt at the game's score
    with pytest.raises(ValueError, match="simulations >= 1"):
        make_agent("openspiel-ismcts:simulations=0")


def test_without_open_spiel_the_agent_names_its_extra_in_one_line(monkeypatch):
    from spades_env.agents import AgentSpecError, make_agent

    for name in [m for m in sys.modules if m.split(".")[0] == "open_spiel"] + ["open_spiel"]:
        monkeypatch.setitem(sys.modules, name, None)  # as if never installed, whatever was imported before
    with pytest.raises(AgentSpecError, match=r"needs the \[openspiel\] extra .*pip install -e '.\[openspiel\]'"):
        make_agent("openspiel-ismcts")


def test_this_packages_agents_are_openspiel_bots():
    from open_spiel.python.algorithms import evaluate_bots

    from spades_env.agents import make_agent

    game = pyspiel.load_game("python_spades(rules=house)")
    bots = [openspiel.AgentBot(make_agent("heuristic"), p, seed=p) for p in range(4)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(8))
    assert sum(returns) == 0 and returns[0] == returns[2]
    state = game.new_initial_state()
    deal(state, np.random.default_rng(9))
    with pytest.raises(ValueError, match="this bot plays player 1, but player 0 is to act"):
        bots[1].step(state)
