"""The rule options, declared once in ``spades_env/rules.py``, and the presets built on them.

- every option is declared with its help, its test and the engines that honour it, and every engine
  either honours an option or refuses it with a one-line error (options x engines);
- the presets: ``from_preset``, overrides, ``describe``, ``preset_of``, one-line errors;
- each preset reaches every entry point (the engine, the env, the tournament, training, the batched
  engine): under ``house`` a side that is not 100 behind is not offered Blind Nil in any of them.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from spades_env import actions as A
from spades_env import rules, spades_v0
from spades_env.game import Phase, SpadesConfig, SpadesGame
from spades_env.rules import OPTIONS, PRESETS, describe, preset_of
from spades_env.rules import SpadesConfig as RulesConfig
from spades_env.vector import VectorSpades


def test_spades_config_is_declared_in_rules_and_imported_from_the_engine():
    assert SpadesConfig is RulesConfig
    assert list(OPTIONS) == [f.name for f in dataclasses.fields(SpadesConfig)]
    for o in OPTIONS.values():
        assert o.help and "\n" not in o.help and o.test.startswith("tests/") and "game" in o.implemented_by


# ------------------------------------------------------------------ presets


def test_presets_are_valid_and_default_is_the_rules_as_written():
    rules.check_presets()
    assert set(PRESETS) >= {"default", "house"}
    assert SpadesConfig.from_preset("default") == SpadesConfig()
    assert SpadesConfig.from_preset("house") == SpadesConfig(blind_nil_min_deficit=100)


def test_a_preset_with_overrides():
    config = SpadesConfig.from_preset("house", num_players=2, bag_limit=5)
    assert (config.blind_nil_min_deficit, config.bag_limit, config.num_players) == (100, 5, 2)
    assert SpadesConfig.from_preset("house", blind_nil_min_deficit=None) == SpadesConfig()


@pytest.mark.parametrize("call, message", [
    (lambda: SpadesConfig.from_preset("casual"), "unknown rules preset 'casual'; the presets: default, house"),
    (lambda: SpadesConfig.from_preset("house", bag_limt=5), "unknown rule option(s) ['bag_limt']; the options:"),
    (lambda: SpadesConfig.from_preset("house", bag_limit=0), "bag_limit must be >= 1"),
])
def test_bad_presets_and_overrides_are_one_line_errors(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert message in str(info.value) and "\n" not in str(info.value)


def test_describe_and_preset_of():
    house = SpadesConfig.from_preset("house")
    assert describe(house) == "house rules (Blind Nil only to a side 100 or more behind)"
    assert describe(SpadesConfig()) == "default rules"
    assert describe(SpadesConfig(bag_limit=5)) == "default rules + bag limit 5"
    assert describe(SpadesConfig.from_preset("house", nil=False)) == ("house rules (Blind Nil only to a side 100 or "
                                                                       "more behind) + nil off")
    assert describe(SpadesConfig(blind_nil_min_deficit=50)) == "default rules + blind nil min deficit 50"
    assert describe(SpadesConfig(blind_nil_exchange=False)) == "default rules + blind nil exchange off"
    # the variant and the format are not rules: summaries state them on their own
    assert describe(SpadesConfig(num_players=2, single_hand=True)) == "default rules"
    assert preset_of(house) == "house" and preset_of(SpadesConfig(num_players=2)) == "default"
    assert preset_of(SpadesConfig(bag_limit=5)) is None


# ------------------------------------------------------------------ flags


def test_rule_flags_are_generated_for_any_command():
    """``--rules`` and one flag per option on any parser; the options given override the preset, the rest are not
    passed at all (so a config file or the preset shows through)."""
    import argparse

    parser = argparse.ArgumentParser()
    rules.add_rule_arguments(parser, skip=("num_players",))
    flags = {s for a in parser._actions for s in a.option_strings}
    assert flags >= {"--rules"} | {rules.flag_of(o) for o in OPTIONS if o != "num_players"}
    assert "--num-players" not in flags and "--no-blind-nil-exchange" in flags
    args = parser.parse_args(["--rules", "house", "--bag-limit", "5", "--no-nil", "--mercy-threshold", "-350"])
    assert rules.rule_overrides(args) == {"bag_limit": 5, "nil": False, "mercy_threshold": -350}
    assert rules.config_from_args(args, num_players=2) == SpadesConfig.from_preset(
        "house", bag_limit=5, nil=False, mercy_threshold=-350, num_players=2)
    assert rules.config_from_args(parser.parse_args(["--blind-nil-min-deficit", "none"])) == SpadesConfig()
    assert rules.config_from_args(parser.parse_args([])) == SpadesConfig()


# ------------------------------------------------------------------ options x engines

# A valid value away from the default for every option: a new option adds its own here.
NON_DEFAULT = {"num_players": 2, "target_score": 300, "bag_limit": 5, "bag_penalty": 50, "nil": False,
               "blind_nil": False, "blind_nil_exchange": False, "blind_nil_min_deficit": 100, "mercy_threshold": -300,
               "max_hands": 3, "single_hand": True}
START = {"scores": [60, -60], "bags": [4, 4]}  # bags near a bag limit of 5; a side 120 behind


def play_until(game: SpadesGame, done, rng: np.random.Generator) -> None:
    while not done(game):
        game.apply(int(rng.choice(game.legal_actions())))


def engine_game(config: SpadesConfig, seed: int = 1) -> SpadesGame:
    game = SpadesGame(config)
    game.reset(seed=seed, **START)
    return game


def honour_game(config: SpadesConfig) -> None:
    """The reference engine defines the rules (each option's own test pins it: ``OPTIONS[name].test``)."""
    game = engine_game(config)
    play_until(game, lambda g: g.hand_records, np.random.default_rng(0))
    assert game.config == config


def honour_vector(config: SpadesConfig) -> None:
    """Step by step equal to the reference engine (tests/test_vector.py's differential run)."""
    from test_vector import play_differential

    changed = {k: v for k, v in config.to_dict().items() if v != OPTIONS[k].default}
    play_differential(4, 4, seed=5, start_scores=(-150, 150), **{"max_hands": 3, **changed})


def honour_solver(config: SpadesConfig) -> None:
    """The solver's value of the last trick (every card forced) is the engine's score of the hand."""
    from spades_env.solver import solve

    for seed in range(3):
        game = engine_game(config, seed)
        play_until(game, lambda g: g.phase == Phase.PLAY and not g.trick and len(g.trick_winners) == 12,
                   np.random.default_rng(seed))
        side = game.side_of[game.current_player]
        value = solve(game).value
        play_until(game, lambda g: g.hand_records, np.random.default_rng(seed))
        points = game.hand_records[0]["points"]
        assert value == points[side] - points[1 - side], (seed, value, points)


def honour_resampler(config: SpadesConfig) -> None:
    """A resampled state is one the seat cannot tell from the real one, and plays on to the end of the hand."""
    from spades_env.determinize import resample
    from spades_env.view import player_view

    game = engine_game(config)
    rng = np.random.default_rng(0)
    play_until(game, lambda g: g.phase == Phase.PLAY and len(g.trick_winners) == 3, rng)
    for seat in range(config.num_players):
        sample = resample(game, seat, rng)
        assert player_view(sample, seat) == player_view(game, seat)
        play_until(sample, lambda g: g.hand_records, rng)


HONOUR = {"game": honour_game, "vector": honour_vector, "solver": honour_solver, "resampler": honour_resampler}


def refusal(engine: str, config: SpadesConfig) -> None:
    """Build ``engine`` under ``config`` the way its users do (the reference engine never refuses)."""
    if engine == "vector":
        VectorSpades(2, seed=0, **config.to_dict())
    elif engine == "solver":
        from spades_env.solver.position import position_of

        game = engine_game(config)
        play_until(game, lambda g: g.phase == Phase.PLAY, np.random.default_rng(0))
        position_of(game)
    elif engine == "resampler":
        from spades_env.determinize import resample

        resample(engine_game(config), 0, 0)


def test_every_option_has_a_value_to_try():
    assert set(NON_DEFAULT) == set(OPTIONS)
    assert all(value != OPTIONS[name].default for name, value in NON_DEFAULT.items())


@pytest.mark.parametrize("engine", list(rules.ENGINES))
@pytest.mark.parametrize("name", list(OPTIONS))
def test_every_engine_honours_or_refuses_every_option(name, engine):
    """Each option away from its default, on each engine: played as the reference plays it, or refused."""
    config = SpadesConfig(**{name: NON_DEFAULT[name]})
    if OPTIONS[name].honoured_by(engine):
        HONOUR[engine](config)
    else:
        with pytest.raises(rules.UnsupportedRuleError, match=f"does not implement the rule option {name}="):
            refusal(engine, config)


@pytest.mark.parametrize("engine", ["vector", "solver", "resampler"])
def test_an_engine_refuses_an_option_it_does_not_implement(engine, monkeypatch):
    """Declared for the reference engine alone, an option is refused elsewhere in one line; its default is not."""
    only_game = dataclasses.replace(OPTIONS["bag_penalty"], implemented_by=frozenset({"game"}), unaffected=frozenset())
    monkeypatch.setitem(OPTIONS, "bag_penalty", only_game)
    rules.check_engine.cache_clear()
    try:
        with pytest.raises(rules.UnsupportedRuleError) as info:
            refusal(engine, SpadesConfig(bag_penalty=50))
        assert str(info.value).startswith(f"{rules.ENGINES[engine]} does not implement the rule option bag_penalty=50")
        assert "\n" not in str(info.value)
        refusal(engine, SpadesConfig())
    finally:
        rules.check_engine.cache_clear()


# ------------------------------------------------------------------ the presets reach every entry point

DEFICITS = (0, 50, 99, 100, 250)  # how far side 0 (the first to bid: seat 0, left of dealer 3) trails


def offered_by_engine(preset: str, deficit: int) -> bool:
    game = SpadesGame(SpadesConfig.from_preset(preset))
    game.reset(seed=1, dealer=3, scores=[0, deficit])
    return A.BLIND_NIL in game.legal_actions()


def offered_by_env(preset: str, deficit: int) -> bool:
    env = spades_v0.env(rules=preset)
    env.reset(seed=1, options={"dealer": 3, "scores": [0, deficit]})
    assert env.agent_selection == "player_0"
    return bool(env.observe("player_0")["action_mask"][A.BLIND_NIL])


def offered_by_gym_env(preset: str, deficit: int) -> bool:
    from spades_env.wrappers.gym_env import SpadesGymEnv

    env = SpadesGymEnv(rules=preset).aec
    env.reset(seed=1, options={"dealer": 3, "scores": [0, deficit]})
    return bool(env.observe("player_0")["action_mask"][A.BLIND_NIL])


def offered_by_batched_engine(preset: str, deficit: int) -> bool:
    vec = VectorSpades(2, seed=1, rules=preset)
    out = vec.reset(scores=np.array([[0, deficit]] * 2), dealers=np.array([3, 3]))
    assert list(out.player) == [0, 0]
    return bool(out.mask[0, A.BLIND_NIL])


def offered_by_tournament(preset: str, deficit: int) -> bool:
    from spades_env.agents.tournament.schedule import TournamentSpec

    game = SpadesGame(TournamentSpec(agents=("random",), games=2, preset=preset).config())
    game.reset(seed=1, dealer=3, scores=[0, deficit])
    return A.BLIND_NIL in game.legal_actions()


def offered_in_training(preset: str, deficit: int) -> bool:
    """The training config's rules, as its collectors build their engines (both engines: tests/test_ppo.py)."""
    from spades_env.agents.ppo.config import PPOConfig

    vec = VectorSpades(2, seed=1, single_hand=True, **PPOConfig(rules=preset).game_options())
    out = vec.reset(scores=np.array([[0, deficit]] * 2), dealers=np.array([3, 3]))
    return bool(out.mask[0, A.BLIND_NIL])


ENTRY_POINTS = [offered_by_engine, offered_by_env, offered_by_gym_env, offered_by_batched_engine,
                offered_by_tournament, offered_in_training]


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("preset", list(PRESETS))
def test_each_preset_reaches_every_entry_point(preset, entry):
    """Under "house" a side less than 100 behind is not offered Blind Nil; under "default" every side is."""
    minimum = SpadesConfig.from_preset(preset).blind_nil_min_deficit or 0
    assert [entry(preset, d) for d in DEFICITS] == [d >= minimum for d in DEFICITS]


# ------------------------------------------------------------------ the option added by the recipe


@pytest.mark.parametrize("num_players", [4, 2])
def test_without_the_exchange_search_rebuilds_worlds_the_seat_cannot_tell_apart(num_players):
    """``blind_nil_exchange=False`` reaches the search agent's worlds too (it rebuilds the exchange from the view):
    each world shows the seat what the real game does, and no seat holds a suit it has shown out of."""
    from spades_env.agents.search.worlds import worlds
    from spades_env.cards import SUIT_MASKS
    from spades_env.view import player_view

    config = SpadesConfig(num_players=num_players, blind_nil_exchange=False, single_hand=True)
    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(12):
        game = SpadesGame(config)
        game.reset(seed=seed)
        while game.phase != Phase.PLAY:  # one Blind Nil bidder a side (two: one in all), its partner looks
            legal = game.legal_actions()
            first = not any(game.blind[p] for p in game.variant.sides[game.side_of[game.current_player]])
            first &= num_players == 4 or not any(game.blind)
            game.apply(A.BLIND_NIL if A.BLIND_NIL in legal and first else int(rng.choice(legal)))
        play_until(game, lambda g: len(g.trick_winners) == 6, rng)
        view = player_view(game, game.current_player)
        if not view.looked:
            continue
        for world in worlds(view, 8, rng):
            assert player_view(world, view.seat) == view
            for seat in range(num_players):
                assert not world.hands[seat] & sum(SUIT_MASKS[s] for s in range(4) if game.voids[seat] >> s & 1)
        checked += 1
    assert checked >= 6
