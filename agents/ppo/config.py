"""The training configuration: one flat dataclass in a few named groups, overridable from a file and flags.

The defaults are the recipe ``spades train --num-players 4`` runs from scratch
(see docs/training.md): clone the heuristic, then PPO with the heuristic as a
teacher for card play, the learning rate annealed to 0 over the budget, a
share of the hands dealt at random game scores, under the ``house`` rule
preset that offers Blind Nil only to a side 100 behind (trained under the
game's rule, Blind Nil at any score, a network bids it in every hand and
never learns to bid a hand it has seen; docs/training.md); ``--rules`` picks
the preset and the rule flags override it. Every field is a
command-line flag (``--learning-rate 1e-4``) with one line of help, so
adding a field is a one-line change. Precedence: defaults, then the
``--config`` file (JSON or YAML), then explicit flags.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

from spades_env.rules import FORMAT_OPTIONS, SpadesConfig, add_rule_arguments, describe, rule_overrides

TEACHER_PHASES = ("play", "all")  # which of the learner's decisions a teacher labels


def _option(group: str, default, help: str):
    """A config field in ``group`` with one line of ``help`` (what ``--help`` shows, with the default)."""
    if isinstance(default, list | dict):
        return field(default_factory=lambda: type(default)(default), metadata={"group": group, "help": help})
    return field(default=default, metadata={"group": group, "help": help})


_run = functools.partial(_option, "run")
_hands = functools.partial(_option, "hands and opponents")
_rules = functools.partial(_option, "rules")
_network = functools.partial(_option, "network")
_ppo = functools.partial(_option, "PPO")
_teacher = functools.partial(_option, "cloning and teacher")
_checks = functools.partial(_option, "evaluation and checkpoints")


@dataclass
class PPOConfig:
    """Hyper-parameters of one training run (clone, then PPO); see ``agents/ppo/train.py``."""

    num_players: int = _run(4, "4 (partnership) or 2 (two-player Spades)")
    seed: int = _run(1, "seeds the network, the deals, the opponents and the sampling")
    max_minutes: float = _run(30.0, "wall-time budget of the whole run, cloning included (0: no limit)")
    total_updates: int = _run(4000, "PPO updates at most (the run also ends when max_minutes is spent)")
    workers: int = _run(1, "processes playing a share of the hands with registry agents (0: all in this one)")
    torch_threads: int = _run(2, "threads of the network updates (1 where other jobs share the cores)")
    bf16: bool = _run(True, "update and cloning matmuls in bfloat16 where the CPU has it (about 3x faster)")

    num_envs: int = _hands(512, "hands per rollout, played side by side (network calls batched across them)")
    score_context: float = _hands(0.5, "share of hands dealt at random game scores and bags, rewarded by win chance")
    p_self: float = _hands(0.35, "weight of hands against the current policy (both sides give data)")
    p_pool: float = _hands(0.3, "weight of hands against a past snapshot from the pool")
    p_heuristic: float = _hands(0.3, "weight of hands against heuristic_agent")
    p_random: float = _hands(0.05, "weight of hands against the random agent")
    heuristic_agent: str = _hands("heuristic", "registry name of the heuristic opponent (and evaluation opponent)")
    rules: str = _rules("house", "the rule preset the hands are played under (docs/rules.md#rule-options-and-presets)")
    rule_options: dict = _rules({}, "rule options overriding the preset's, e.g. {bag_limit: 5} (the rule flags "
                                    "below set them)")
    mixed_rules: str = _rules("", "a second preset: a mixed_share of the hands, cloning's too, is played under it "
                                  "(with rule_options); evaluations stay under the rules field")
    mixed_share: float = _rules(0.5, "share of the hands played under mixed_rules")
    pool_size: int = _hands(10, "past snapshots kept in the pool")
    snapshot_every: int = _hands(10, "updates between snapshots added to the pool")

    hidden_sizes: list[int] = _network([256, 256], "widths of the actor's (and the critic's) hidden layers")
    card_features: bool = _network(True, "also feed the card-play features of agents/ppo/features.py")
    privileged_critic: bool = _network(True, "the critic also sees the other hands (training only)")
    init_policy: str = _network("", "start from these weights (policy file or checkpoint) instead of fresh ones")

    learning_rate: float = _ppo(2e-4, "Adam step size")
    anneal_lr: bool = _ppo(True, "anneal the learning rate linearly to 0 over the budget (updates or minutes)")
    gamma: float = _ppo(1.0, "discount (a hand is a short episode: none)")
    gae_lambda: float = _ppo(0.95, "GAE lambda")
    update_epochs: int = _ppo(3, "passes over each rollout")
    num_minibatches: int = _ppo(4, "minibatches per pass")
    norm_adv: bool = _ppo(True, "normalise advantages per minibatch")
    clip_coef: float = _ppo(0.2, "surrogate clipping")
    clip_vloss: bool = _ppo(False, "clip the value loss too")
    ent_coef: float = _ppo(0.003, "entropy bonus")
    vf_coef: float = _ppo(0.5, "value loss weight")
    max_grad_norm: float = _ppo(0.5, "gradient clipping norm")
    target_kl: float = _ppo(0.0, "stop an update's passes early above this KL (0: never)")
    critic_warmup: int = _ppo(0, "first PPO updates that train the critic alone, the actor held (for starting "
                                 "weights without a critic, e.g. a shipped policy)")

    teacher: str = _teacher("heuristic", "registry agent cloned before PPO and labelling the learner's moves in it")
    bc_hands: int = _teacher(8000, "hands the teacher plays at every seat for cloning (0: no cloning)")
    bc_epochs: int = _teacher(8, "passes of cloning over those hands")
    bc_learning_rate: float = _teacher(1e-3, "Adam step size of cloning")
    teacher_coef: float = _teacher(1.0, "weight of the teacher's NLL in the PPO loss (0: off)")
    teacher_phases: str = _teacher("play", "decisions the teacher labels: play (card plays) or all")
    teacher_share: float = _teacher(0.5, "random share of those the teacher labels (each label is a teacher call)")

    eval_every: int = _checks(100, "updates between duplicate evaluations against heuristic_agent (0: at the end)")
    eval_deals: int = _checks(200, "deals per evaluation (each played twice, sides swapped)")
    eval_seed: int = _checks(20261129, "seed of the evaluation deals")
    save_every: int = _checks(5, "updates between checkpoints")
    keep_policy_every: int = _checks(0, "also keep the policy every N updates in policies/ (0: never)")

    def __post_init__(self) -> None:
        if self.num_players not in (2, 4):
            raise ValueError(f"num_players must be 4 or 2, got {self.num_players!r}")
        weights = (self.p_self, self.p_pool, self.p_heuristic, self.p_random)
        if min(weights) < 0 or sum(weights) <= 0:
            raise ValueError(f"opponent weights must be >= 0 and not all 0, got {weights}")
        if self.teacher_phases not in TEACHER_PHASES:
            raise ValueError(f"teacher_phases must be one of {TEACHER_PHASES}, got {self.teacher_phases!r}")
        if self.teacher_coef < 0 or not 0 <= self.score_context <= 1 or not 0 <= self.teacher_share <= 1:
            raise ValueError("teacher_coef must be >= 0, score_context and teacher_share in [0, 1]")
        if not 0 <= self.mixed_share <= 1:
            raise ValueError(f"mixed_share must be in [0, 1], got {self.mixed_share!r}")
        if self.num_envs < 1 or self.num_minibatches < 1 or self.update_epochs < 1:
            raise ValueError("num_envs, num_minibatches and update_epochs must be >= 1")
        if self.critic_warmup < 0:
            raise ValueError(f"critic_warmup must be >= 0 updates, got {self.critic_warmup!r}")
        if not isinstance(self.rule_options, dict) or set(self.rule_options) & set(FORMAT_OPTIONS):
            raise ValueError(f"rule_options must be a mapping of rule options other than {FORMAT_OPTIONS}, "
                             f"got {self.rule_options!r}")
        self.rule_sets()  # a one-line error now for an unknown preset or option, or a bad value

    def game_config(self) -> SpadesConfig:
        """The rules the hands are played under: the preset, its overrides, single hands."""
        return SpadesConfig.from_preset(self.rules, num_players=self.num_players, single_hand=True,
                                        **self.rule_options)

    def game_options(self) -> dict:
        """Every rule option of :meth:`game_config` but the variant and format (``SpadesConfig`` keyword arguments)."""
        return _options(self.game_config())

    def rule_sets(self) -> list[dict]:
        """The rule options of each rule set hands are played under: ``rules``, then ``mixed_rules`` if set
        (``Plan.rules`` indexes this list)."""
        mixed = [SpadesConfig.from_preset(self.mixed_rules, num_players=self.num_players, single_hand=True,
                                          **self.rule_options)] if self.mixed_rules else []
        return [_options(config) for config in [self.game_config(), *mixed]]

    def to_dict(self) -> dict:
        return {**dataclasses.asdict(self), "rules_described": describe(self.game_config())}

    @classmethod
    def from_dict(cls, values: dict) -> PPOConfig:
        values = _without_legacy_rules({k: v for k, v in values.items() if k != "rules_described"})
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"unknown config keys {unknown}; known: {sorted(known)}")
        return cls(**values)


def _options(config: SpadesConfig) -> dict:
    return {k: v for k, v in config.to_dict().items() if k not in FORMAT_OPTIONS}


def _without_legacy_rules(values: dict) -> dict:
    """A run saved before the presets had ``blind_nil_min_deficit`` (0: at any score): the same rules, as a preset."""
    if "blind_nil_min_deficit" not in values:
        return values
    values = dict(values)
    deficit = values.pop("blind_nil_min_deficit") or None
    values.setdefault("rules", "house" if deficit == 100 else "default")
    if deficit not in (None, 100):
        values["rule_options"] = {"blind_nil_min_deficit": deficit, **values.get("rule_options", {})}
    return values


def load_config_file(path: str | Path) -> dict:
    """Read a JSON (``.json``) or YAML (``.yaml``/``.yml``) file of config overrides."""
    path = Path(path)
    text = path.read_text()
    if path.suffix in (".yaml", ".yml"):
        import yaml  # optional: only needed for YAML files (the "train" extra)

        values = yaml.safe_load(text) or {}
    else:
        values = json.loads(text)
    if not isinstance(values, dict):
        raise ValueError(f"{path}: expected a mapping of config keys, got {type(values).__name__}")
    return values


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    """One ``--flag`` per config field, in one argument group per config group; unset flags stay ``None`` so
    the file and the defaults show through."""
    groups: dict[str, argparse._ArgumentGroup] = {}
    for f in dataclasses.fields(PPOConfig):
        group = f.metadata["group"]
        if group not in groups:
            groups[group] = parser.add_argument_group(group)
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        kind = type(default)
        if kind is dict:  # rule_options: set by the rule flags below
            continue
        extra: dict = {"type": kind, "metavar": {int: "N", float: "X", str: "NAME"}.get(kind)}
        if kind is bool:
            extra = {"type": _parse_bool, "metavar": "{true,false}"}
        elif kind is list:
            extra = {"type": int, "nargs": "+", "metavar": "N"}
        shown = " ".join(map(str, default)) if kind is list else default
        groups[group].add_argument("--" + f.name.replace("_", "-"), default=None,
                                   help=f"{f.metadata['help']} (default: {shown})", **extra)
    add_rule_arguments(parser, skip=FORMAT_OPTIONS, preset_flag=False, group=groups["rules"])


def config_from_args(args: argparse.Namespace, base: dict | None = None) -> PPOConfig:
    """Defaults < ``base`` (e.g. a config file or a resumed run's config) < flags given on the command line."""
    values = _without_legacy_rules(dict(base or {}))
    for f in dataclasses.fields(PPOConfig):
        given = getattr(args, f.name, None)
        if given is not None:
            values[f.name] = given
    given = {k: v for k, v in rule_overrides(args).items() if k not in FORMAT_OPTIONS}  # num_players: a field
    if given:
        values["rule_options"] = {**values.get("rule_options", {}), **given}
    return PPOConfig.from_dict(values)


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")
