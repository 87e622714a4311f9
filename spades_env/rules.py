"""Every rule option of the game, declared once, and the named rule sets (presets).

Each option is one field of :class:`SpadesConfig` declared with :func:`option`: its name, type and
default (the field), one line of help, the engines that honour it and the test that pins it. The
rest is generated from these declarations: the rule flags of every command
(:func:`add_rule_arguments`), the option tables of the ``spades_v0`` docstring and of docs/rules.md
and docs/environment.md (:func:`options_table`; ``python -m spades_env.docs --write``), and each
engine's refusal of an option it does not implement (:func:`check_engine`).

A preset (:data:`PRESETS`) is a named set of option values: ``"default"`` is the game's rules as
written (Blind Nil at any score, with the three-card exchange), ``"house"`` the common house rule
(Blind Nil only to a side 100 or more behind). ``SpadesConfig.from_preset("house", bag_limit=5)``
builds one with any option overridden; :func:`describe` names a config's rules in one line and
:func:`preset_of` says which preset it is, if any.

Pure: the standard library only, so that every layer (the engine, the env, the commands) reads it.
"""

from __future__ import annotations

import argparse
import functools
import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

# The engines that play a game under a config. Each option names those that honour it: the ones that
# implement it, and the ones it cannot change (the solver plays out one hand's cards: the target score
# is nothing to it). An engine refuses a config that sets an option it does not honour (check_engine).
ENGINES: dict[str, str] = {
    "game": "the reference engine (spades_env.game)",
    "vector": "the batched engine (spades_env.vector)",
    "solver": "the double-dummy solver (spades_env.solver)",
    "resampler": "search's hidden-hand resampler (spades_env.determinize)",
}
# Not rules that a preset sets: the variant and the format (summaries state them on their own).
FORMAT_OPTIONS = ("num_players", "single_hand")


class UnsupportedRuleError(ValueError):
    """An engine was given a rule option it does not implement."""


def option(default: Any, help: str, *, test: str, implemented_by: Iterable[str] = ("game", "vector"),
           unaffected: Iterable[str] = (), choices: tuple | None = None) -> Any:
    """A rule option of :class:`SpadesConfig`: its default, one line of ``help``, the ``test`` that pins it
    (``tests/x.py::test_y``), the engines that implement it and those it cannot change."""
    implemented, unchanged = frozenset(implemented_by), frozenset(unaffected)
    unknown = (implemented | unchanged) - set(ENGINES)
    if unknown or "game" not in implemented:
        raise ValueError(f"an option is implemented by the reference engine and names engines of {list(ENGINES)}, "
                         f"got {sorted(unknown)}")
    return field(default=default, metadata={"help": help, "test": test, "implemented_by": implemented,
                                            "unaffected": unchanged, "choices": choices})


def check_int(name: str, value: Any, low: int | None = None, high: int | None = None,
              allow_none: bool = False) -> None:
    """Raise a one-line ValueError unless ``value`` is an int in [low, high] (or None where allowed)."""
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer{' or None' if allow_none else ''}, got {value!r}")
    if low is not None and value < low:
        raise ValueError(f"{name} must be >= {low}, got {value!r}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be <= {high}, got {value!r}")


_SCORING = ("game", "vector", "solver")  # options of a hand's score: the solver scores the hands it solves
_NOT_PLAY = ("solver", "resampler")  # options that change no card play and no hidden card


@dataclass(frozen=True)
class SpadesConfig:
    """Every rule option (docs/rules.md); the defaults are the rules as written.

    ``max_hands`` ends an endless game by truncation (never a win); ``single_hand`` ends the episode
    after one hand (a training mode; the side with more points in the hand is the winner, a tie has
    none). ``SpadesConfig.from_preset("house", bag_limit=5)``: a preset of :data:`PRESETS`, overridden.
    """

    num_players: int = option(4, "4 (partnership Spades) or 2 (two-player Spades, the hands drawn from a stock)",
                              choices=(4, 2), implemented_by=ENGINES,
                              test="tests/test_two_player.py::test_draw_gives_13_cards_each_and_26_discards")
    target_score: int = option(500, "a side reaching this score wins the game", unaffected=_NOT_PLAY,
                               test="tests/test_rules.py::test_target_score_option")
    bag_limit: int = option(10, "every bag_limit bags (overtricks) cost bag_penalty points", implemented_by=_SCORING,
                            unaffected=("resampler",),
                            test="tests/test_rules.py::test_sandbagging_example_11_bags_then_9_more")
    bag_penalty: int = option(100, "points lost each time a side's bags reach bag_limit", implemented_by=_SCORING,
                              unaffected=("resampler",),
                              test="tests/test_rules.py::test_sandbagging_example_11_bags_then_9_more")
    nil: bool = option(True, "allow Nil bids (off also removes Blind Nil)", unaffected=_NOT_PLAY,
                       test="tests/test_rules.py::test_nil_disabled")
    blind_nil: bool = option(True, "allow Blind Nil bids", unaffected=_NOT_PLAY,
                             test="tests/test_rules.py::test_blind_nil_disabled_has_no_decision_step")
    blind_nil_exchange: bool = option(
        True, "a Blind Nil bidder exchanges three cards with the partner (two players: replaces up to three with "
              "the discard pile); off: no exchange", unaffected=_NOT_PLAY,
        test="tests/test_rules.py::test_no_blind_nil_exchange_option")
    blind_nil_min_deficit: int | None = option(
        None, "offer Blind Nil only to a side trailing by at least this many points (none: at any score)",
        unaffected=_NOT_PLAY, test="tests/test_rules.py::test_blind_nil_min_deficit")
    mercy_threshold: int | None = option(None, "a side at or below this score loses, e.g. -350 (none: no mercy rule)",
                                         unaffected=_NOT_PLAY, test="tests/test_rules.py::test_mercy_threshold")
    max_hands: int = option(50, "a game still open after this many hands is truncated (never a win)",
                            unaffected=_NOT_PLAY,
                            test="tests/test_rules.py::test_max_hands_ends_by_truncation_never_a_win")
    single_hand: bool = option(False, "each episode is one hand (a training mode; the side with more points wins)",
                               unaffected=_NOT_PLAY, test="tests/test_rules.py::test_single_hand_mode")

    def __post_init__(self) -> None:
        if self.num_players not in (2, 4) or isinstance(self.num_players, bool):
            raise ValueError(f"num_players must be 4 (partnership) or 2 (two-player), got {self.num_players!r}")
        check_int("target_score", self.target_score, low=1)
        check_int("bag_limit", self.bag_limit, low=1)
        check_int("bag_penalty", self.bag_penalty, low=0)
        check_int("blind_nil_min_deficit", self.blind_nil_min_deficit, low=0, allow_none=True)
        check_int("mercy_threshold", self.mercy_threshold, high=self.target_score - 1, allow_none=True)
        check_int("max_hands", self.max_hands, low=1)
        for f in fields(self):
            if f.type == "bool" and not isinstance(getattr(self, f.name), bool):
                raise ValueError(f"{f.name} must be True or False, got {getattr(self, f.name)!r}")

    @property
    def blind_nil_offered(self) -> bool:
        """Whether Blind Nil is in the game at all: it is a Nil bid, so ``nil=False`` removes it too."""
        return self.blind_nil and self.nil

    def blind_nil_open(self, scores: Sequence[int], side: int) -> bool:
        """Whether ``side`` may bid Blind Nil in a hand dealt at the totals ``scores`` (one per side)."""
        if not self.blind_nil_offered:
            return False
        deficit = self.blind_nil_min_deficit
        return deficit is None or scores[1 - side] - scores[side] >= deficit

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_preset(cls, name: str, **overrides: Any) -> SpadesConfig:
        """The rules of preset ``name`` (:data:`PRESETS`), with any option overridden."""
        check_option_names(overrides)
        return cls(**{**preset_options(name), **overrides})


@dataclass(frozen=True)
class RuleOption:
    """One option as declared on :class:`SpadesConfig`."""

    name: str
    type: str  # the annotation: "int", "bool" or "int | None"
    default: Any
    help: str
    test: str
    implemented_by: frozenset[str]
    unaffected: frozenset[str]
    choices: tuple | None

    def honoured_by(self, engine: str) -> bool:
        return engine in self.implemented_by or engine in self.unaffected


OPTIONS: dict[str, RuleOption] = {
    f.name: RuleOption(f.name, str(f.type), f.default, **f.metadata) for f in fields(SpadesConfig)
}

PRESETS: dict[str, dict[str, Any]] = {
    "default": {},
    "house": {"blind_nil_min_deficit": 100},
}
PRESET_HELP: dict[str, str] = {
    "default": "the rules as written: Blind Nil at any score, with the three-card exchange",
    "house": "Blind Nil only to a side 100 or more behind",
}


def check_option_names(names: Iterable[str]) -> None:
    """Raise a one-line ValueError naming any name that is not a rule option."""
    unknown = sorted(set(names) - set(OPTIONS))
    if unknown:
        raise ValueError(f"unknown rule option(s) {unknown}; the options: {', '.join(OPTIONS)}")


def preset_options(name: str) -> dict[str, Any]:
    """The option values preset ``name`` sets (the others keep their defaults)."""
    if name not in PRESETS:
        raise ValueError(f"unknown rules preset {name!r}; the presets: {', '.join(PRESETS)}")
    return dict(PRESETS[name])


def _differences(config: SpadesConfig, preset: str) -> dict[str, Any]:
    """The rule options (the variant and format left out) where ``config`` departs from ``preset``."""
    expected = {**{name: o.default for name, o in OPTIONS.items()}, **PRESETS[preset]}
    return {name: getattr(config, name) for name in OPTIONS
            if name not in FORMAT_OPTIONS and getattr(config, name) != expected[name]}


def preset_of(config: SpadesConfig) -> str | None:
    """The preset whose rules ``config`` has (whatever its variant and format), or None."""
    return next((name for name in PRESETS if not _differences(config, name)), None)


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)


def describe(config: SpadesConfig) -> str:
    """A readable line naming ``config``'s rules: its preset and what it changes, e.g. "default rules + bag
    limit 5" or "house rules (Blind Nil only to a side 100 or more behind)"."""
    name = min(PRESETS, key=lambda p: len(_differences(config, p)))  # the closest; ties: the first declared
    text = f"{name} rules" + ("" if name == "default" else f" ({PRESET_HELP[name]})")
    changed = [f"{option.replace('_', ' ')} {_shown(value)}" for option, value in _differences(config, name).items()]
    return text + (" + " + ", ".join(changed) if changed else "")


@functools.lru_cache(maxsize=256)
def check_engine(config: SpadesConfig, engine: str) -> None:
    """Raise :class:`UnsupportedRuleError` (one line) when ``config`` sets an option ``engine`` does not honour."""
    refused = [f"{name}={getattr(config, name)!r}" for name, o in OPTIONS.items()
               if getattr(config, name) != o.default and not o.honoured_by(engine)]
    if refused:
        raise UnsupportedRuleError(f"{ENGINES[engine]} does not implement the rule option {', '.join(refused)}; "
                                   "use the reference engine (spades_env.game), or the option's default")


# ------------------------------------------------------------------ command-line flags


def flag_of(name: str) -> str:
    """The command-line flag of option ``name``: ``--bag-limit``."""
    return "--" + name.replace("_", "-")


def _int_or_none(text: str) -> int | None:
    if text.lower() in ("none", "off"):
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer or none, got {text!r}") from None


def _flag_help(o: RuleOption) -> str:
    defaults = [f"{_shown(o.default)}"] + [f"{p}: {_shown(v[o.name])}" for p, v in PRESETS.items() if o.name in v]
    return f"{o.help} (default: {'; '.join(defaults)})".replace("%", "%%")


def preset_help(default_preset: str) -> str:
    """The help of a ``--rules`` flag: the other presets, then the one taken without the flag."""
    others = "; ".join(f"{p} ({h})" for p, h in PRESET_HELP.items() if p != default_preset)
    return f"the rule preset: {others}; without the flag, {default_preset} ({PRESET_HELP[default_preset]})"


def add_rule_arguments(parser: argparse.ArgumentParser, *, skip: Iterable[str] = (), preset_flag: bool = True,
                       default_preset: str = "default", group: Any = None) -> None:
    """``--rules PRESET`` and one flag per rule option (``--bag-limit 5``, ``--no-nil``), in ``group`` (default: a
    new one); a flag given overrides the preset. Options not given are absent from the parsed namespace (see
    :func:`rule_overrides`)."""
    group = group or parser.add_argument_group("rules (docs/rules.md): a preset, and any option overriding it")
    if preset_flag:
        group.add_argument("--rules", choices=tuple(PRESETS), default=default_preset, help=preset_help(default_preset))
    for o in OPTIONS.values():
        if o.name in skip:
            continue
        if o.type == "bool":
            group.add_argument(flag_of(o.name), action=argparse.BooleanOptionalAction, default=argparse.SUPPRESS,
                               help=_flag_help(o))
        else:
            group.add_argument(flag_of(o.name), type=_int_or_none if "None" in o.type else int,
                               choices=o.choices, metavar=None if o.choices else "N", default=argparse.SUPPRESS,
                               help=_flag_help(o))


def rule_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The rule options given as flags (:func:`add_rule_arguments`), by name."""
    return {name: getattr(args, name) for name in OPTIONS if hasattr(args, name)}


def config_from_args(args: argparse.Namespace, **fixed: Any) -> SpadesConfig:
    """The config the flags name: ``--rules``' preset, the options given, then ``fixed`` (what the command sets)."""
    return SpadesConfig.from_preset(getattr(args, "rules", "default"), **{**rule_overrides(args), **fixed})


# ------------------------------------------------------------------ docs tables


def _code(value: Any) -> str:
    return f"`{value!r}`"


def _engines_text(o: RuleOption) -> str:
    text = ", ".join(e for e in ENGINES if e in o.implemented_by)
    return text + (f" ({', '.join(e for e in ENGINES if e in o.unaffected)}: unaffected)" if o.unaffected else "")


def options_table(kind: str = "argument") -> str:
    """The Markdown table of the rule options. ``"argument"``: name, default and meaning (beside the env's
    argument table); ``"rules"``: also each preset's value, the engines that honour it and the test that pins it."""
    if kind == "argument":
        rows = ["| option | default | meaning |", "|---|---|---|"]
        rows += [f"| `{o.name}` | {_code(o.default)} | {o.help} |" for o in OPTIONS.values()]
        return "\n".join(rows)
    others = [p for p in PRESETS if p != "default"]
    rows = ["| option | type | default | " + " | ".join(others) + " | meaning | engines | pinned by |",
            "|---|---|---|" + "---|" * len(others) + "---|---|---|"]
    for o in OPTIONS.values():
        preset_cells = " | ".join(_code(PRESETS[p][o.name]) if o.name in PRESETS[p] else "" for p in others)
        rows.append(f"| `{o.name}` | {o.type.replace(' | ', ' or ')} | {_code(o.default)} | {preset_cells} | {o.help} "
                    f"| {_engines_text(o)} | `{o.test}` |")
    return "\n".join(rows)


def presets_table() -> str:
    """The Markdown table of the presets: name, what sets it apart, the options it sets."""
    rows = ["| preset | rules | options |", "|---|---|---|"]
    for name, values in PRESETS.items():
        shown = ", ".join(f"`{k}={v!r}`" for k, v in values.items()) or "every option at its default"
        rows.append(f"| `{name}` | {PRESET_HELP[name]} | {shown} |")
    return "\n".join(rows)


def check_presets(presets: Mapping[str, Mapping[str, Any]] = PRESETS) -> None:
    """Raise ValueError unless every preset sets known rule options (not the variant or format) to valid values."""
    for name, values in presets.items():
        check_option_names(values)
        if set(values) & set(FORMAT_OPTIONS):
            raise ValueError(f"preset {name!r} sets {sorted(set(values) & set(FORMAT_OPTIONS))}: not rules")
        for n in (4, 2):
            SpadesConfig(num_players=n, **values)
