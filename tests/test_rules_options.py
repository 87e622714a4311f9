"""The rule options, declared once in ``spades_env/rules.py``, and the presets built on them.

- every option is declared with its help, its test and the engines that honour it, and every engine
  either honours an option or refuses it with a one-line error (options x engines);
- the presets: ``from_preset``, overrides, ``describe``, ``preset_of``, one-line errors;
- each preset reaches every entry point (the engine, the env, the tournament, training, the batched
  engine): under ``house`` a side that is not 100 behind is not offered Blind Nil in any of them.
"""

from __future__ import annotations

import dataclasses

import pytest

from spades_env import rules
from spades_env.game import SpadesConfig
from spades_env.rules import OPTIONS, PRESETS, describe, preset_of
from spades_env.rules import SpadesConfig as RulesConfig


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
    # the variant and the format are not rules: summaries state them on their own
    assert describe(SpadesConfig(num_players=2, single_hand=True)) == "default rules"
    assert preset_of(house) == "house" and preset_of(SpadesConfig(num_players=2)) == "default"
    assert preset_of(SpadesConfig(bag_limit=5)) is None
