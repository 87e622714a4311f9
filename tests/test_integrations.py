"""The single-agent gymnasium wrapper (``spades_env/Spades-v0``): gymnasium's checker, masks, rewards, seeding."""

import re
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from spades_env.agents.gym import spades_gym_env
from spades_env.observations import observation_size
from spades_env.wrappers import ENV_ID, SpadesGymEnv


def play(env: gymnasium.Env, seed: int, policy_seed: int = 0) -> tuple[list[np.ndarray], float, dict]:
    """One episode with uniformly random legal actions; returns the observations, the return and the last info."""
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    observations, total, done = [obs], 0.0, False
    while not done:
        mask = env.unwrapped.action_masks()
        assert mask.dtype == bool and (mask == info["action_mask"].astype(bool)).all()
        obs, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(mask)))
        observations.append(obs)
        total += reward
        done = terminated or truncated
    return observations, total, info


@pytest.mark.parametrize("kwargs", [
    {},
    {"partnership": True, "seat": 1},
    {"num_players": 2, "seat": 1, "opponents": "random"},
    {"observation": "history", "single_hand": True},
])
def test_gymnasium_check_env(kwargs):
    env = gymnasium.make(ENV_ID, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env reports problems as warnings: make them fail
        check_env(env.unwrapped, skip_render_check=True)


def test_make_by_module_path_registers_the_id():
    env = gymnasium.make("spades_env.wrappers:spades_env/Spades-v0", single_hand=True)
    assert isinstance(env.unwrapped, SpadesGymEnv)  # built by the named-agents entry point
    assert env.observation_space.shape == (observation_size(4, "default"),)
    assert env.action_space.n == 71


@pytest.mark.parametrize("kwargs", [{}, {"partnership": True}, {"num_players": 2}])
def test_masks_are_the_engine_legal_set_of_a_learner_seat(kwargs):
    env = spades_gym_env(single_hand=True, **kwargs)
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=5)
    decisions = 0
    while True:
        game = env.aec.game
        assert info["seat"] in env.learner_seats and game.current_player == info["seat"]
        assert sorted(np.flatnonzero(env.action_masks())) == game.legal_actions()
        obs, _, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(env.action_masks())))
        decisions += 1
        if terminated or truncated:
            break
    assert not env.action_masks().any() and not info["action_mask"].any()
    assert "hand_record" in info
    assert decisions >= 13  # a bid (or Blind Nil choice) and 13 cards at least per seat played by the learner


@pytest.mark.parametrize("kwargs", [{"max_hands": 3}, {"partnership": True, "seat": 3, "max_hands": 3},
                                    {"num_players": 2, "max_hands": 2}])
def test_return_is_the_score_difference(kwargs):
    env = spades_gym_env(**kwargs)
    _, total, _ = play(env, seed=11)
    game = env.aec.game
    side = game.side_of[env.seat]
    assert game.game_over and game.hand_number >= 1
    assert total == pytest.approx((game.scores[side] - game.scores[1 - side]) / 100)


def test_seeded_episodes_repeat():
    a, ra, _ = play(spades_gym_env(single_hand=True), seed=3)
    b, rb, _ = play(spades_gym_env(single_hand=True), seed=3)
    c, _, _ = play(spades_gym_env(single_hand=True), seed=4)
    assert ra == rb and len(a) == len(b) and all((x == y).all() for x, y in zip(a, b))
    assert len(a) != len(c) or any((x != y).any() for x, y in zip(a, c))


def test_illegal_action_terminate_mode():
    env = spades_gym_env(single_hand=True)
    obs, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.aec.game.legal_actions()
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info2["illegal_action"] and env.illegal_actions == 1
    assert env.aec.game.legal_actions() == before  # the action never reached the game
    assert (obs2 == obs).all() and not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_illegal_action_raise_mode():
    env = spades_gym_env(single_hand=True, illegal_action="raise")
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="legal actions"):
        env.step(illegal)
    assert env.illegal_actions == 1


def test_opponents_argument():
    class FixedKind:
        """Records the observation it is given; plays the first legal action."""
        observation_kind = "history"
        needs_view = False

        def __init__(self):
            self.sizes = set()

        def act(self, observation, action_mask, view):
            self.sizes.add(len(observation))
            return int(np.flatnonzero(action_mask)[0])

    spy = FixedKind()
    env = spades_gym_env(opponents={1: "random", 2: spy, 3: "heuristic"}, single_hand=True)
    play(env, seed=0)
    assert spy.sizes == {observation_size(4, "history")}
    with pytest.raises(ValueError, match="each of seats"):
        spades_gym_env(opponents={1: "random"})
    with pytest.raises(ValueError, match="four-player"):
        spades_gym_env(num_players=2, partnership=True)
    with pytest.raises(ValueError, match="illegal_action"):
        spades_gym_env(illegal_action="ignore")
    with pytest.raises(TypeError, match="agent object or an act function"):
        SpadesGymEnv(opponents="heuristic")  # names are resolved a layer above, by spades_gym_env


def test_opponents_may_be_act_functions():
    def first_legal(observation, action_mask, view):
        return int(np.flatnonzero(action_mask)[0])

    env = SpadesGymEnv(opponents=first_legal, single_hand=True)
    _, _, info = play(env, seed=1)
    assert "hand_record" in info


def test_library_docs_have_a_snippet_per_library_and_link_every_example():
    """docs/rl_libraries.md: one snippet per library section (tests/test_docs.py runs them), and a
    link to every script of examples/."""
    root = Path(__file__).resolve().parents[1]
    text = (root / "docs" / "rl_libraries.md").read_text()
    for library in ("Stable-Baselines3", "TorchRL", "Tianshou", "RLlib"):
        section = text.split(f"\n## {library}", 1)[1].split("\n## ", 1)[0]
        (code,) = re.findall(r"```python\n(.*?)```", section, re.S)
        compile(code, f"docs/rl_libraries.md {library} snippet", "exec")
    linked = set(re.findall(r"\]\(\.\./(examples/\w+\.py)\)", text))
    assert linked == {f"examples/{p.name}" for p in (root / "examples").glob("*.py") if not p.name.startswith("_")}


def test_the_class_without_opponents_plays_the_heuristic_as_make_does():
    alone = SpadesGymEnv(single_hand=True)
    made = gymnasium.make(ENV_ID, single_hand=True)
    for env in (alone, made.unwrapped):
        assert sorted(env.opponents) == [1, 2, 3]
        assert {type(agent).__name__ for agent in env.opponents.values()} == {"HeuristicAgent"}
    _, _, info = play(alone, seed=4)
    assert "hand_record" in info


def test_action_masks_through_the_wrappers_of_make():
    env = gymnasium.make(ENV_ID, single_hand=True)
    assert isinstance(env, gymnasium.Wrapper)  # what make returns is wrapped (order enforcer, checker)
    obs, info = env.reset(seed=0)
    done = False
    while not done:
        mask = env.action_masks()
        assert mask.dtype == bool and (mask == info["action_mask"].astype(bool)).all()
        obs, _, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        done = terminated or truncated
    assert not env.action_masks().any()
    assert gymnasium.make(env.spec).action_masks is not None  # the spec (with its wrapper) remakes the env
