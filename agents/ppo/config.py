"""The training configuration: one dataclass, overridable from a JSON/YAML file and the command line.

Every field is a command-line flag (``--learning-rate 1e-4``) generated from
the dataclass, so adding a field is a one-line change. Precedence: defaults,
then the ``--config`` file, then explicit flags.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

TEACHER_PHASES = ("play", "all")  # which of the learner's decisions a teacher labels


@dataclass
class PPOConfig:
    """Hyper-parameters of one PPO self-play run (see ``agents/ppo/train.py``).

    The defaults are the settings of the first stage of the first-generation
    four-player agent (``ppo-gen1``, ``runs/ppo-4p-bc2``); its later stages
    lowered and annealed the learning rate (``--anneal-lr true --learning-rate
    1e-4``). The shipped agent's full chain is in its ``meta["provenance"]``.
    """

    # --- game
    num_players: int = 4  # 4 (partnership) or 2 (two-player Spades)
    random_start_bags: bool = False  # start each training hand with random carried bags (0..9 per side), so the
    # agent sees the sandbagging penalty; False starts every hand at 0 bags
    # --- run
    seed: int = 1
    total_updates: int = 1000  # PPO updates (each one rollout of num_envs hands)
    max_minutes: float = 0.0  # stop (and save) after this much wall time; 0 = no limit. Not part of the results.
    torch_threads: int = 1  # the rollout runs batches of ~num_envs rows: one thread is as fast and leaves cores free
    # --- rollout
    num_envs: int = 128  # hands played in parallel (and per rollout); network calls are batched across them
    # --- PPO (CleanRL names)
    learning_rate: float = 2e-4
    anneal_lr: bool = False
    gamma: float = 1.0  # one hand is one short episode: no discounting
    gae_lambda: float = 0.95
    update_epochs: int = 3
    num_minibatches: int = 4
    norm_adv: bool = True
    clip_coef: float = 0.2
    clip_vloss: bool = False
    ent_coef: float = 0.003
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float | None = None
    # --- network
    hidden_sizes: list[int] = field(default_factory=lambda: [256, 256])
    card_features: bool = False  # also feed the card-play features of agents/ppo/features.py (see there why)
    privileged_critic: bool = True  # the critic also sees the other hands (training only; see model.ActorCritic)
    # --- opponents: the learner plays one side; the other side is drawn per hand with these weights
    p_self: float = 0.25  # the current policy (both sides then give training data)
    p_pool: float = 0.25  # a past snapshot of the policy
    p_heuristic: float = 0.45
    p_random: float = 0.05
    heuristic_agent: str = "heuristic"  # registry names (spades_env.agents.make_agent)
    random_agent: str = "random"
    pool_size: int = 10  # most recent snapshots kept
    snapshot_every: int = 10  # updates between snapshots added to the pool
    init_policy: str = ""  # start from these weights (a policy file or checkpoint of the same shape) instead
    # of a fresh network; behaviour cloning, if asked for, then runs on top
    # --- imitation during PPO: a cross-entropy term pulling the learner toward the choice the teacher makes in
    # the same position, on the learner's own states (DAgger style). Only hands with a registry-agent opponent
    # are labelled (the batched engine builds no views). 0 = off.
    teacher_coef: float = 0.0
    teacher_agent: str = ""  # registry name; "" = heuristic_agent
    teacher_phases: str = "play"  # "play": label card plays only; "all": every decision
    # --- behaviour cloning on heuristic games before PPO (0 hands = off)
    bc_hands: int = 10000
    bc_agent: str = ""  # the demonstrator (registry name); "" = heuristic_agent. "ppo-bids" distils the shipped
    # network's bids and the heuristic's card play into this network
    bc_epochs: int = 10
    bc_learning_rate: float = 1e-3
    bc_batch_size: int = 512
    # --- evaluation (duplicate tournament vs the heuristic, fixed seed)
    eval_every: int = 20  # updates; 0 = only at the end
    eval_deals: int = 200
    eval_seed: int = 20261129
    # --- checkpoints
    save_every: int = 5  # updates
    keep_policy_every: int = 0  # also keep a copy of the policy every N updates in policies/ (0 = never)

    def __post_init__(self) -> None:
        if self.num_players not in (2, 4):
            raise ValueError(f"num_players must be 4 or 2, got {self.num_players!r}")
        weights = (self.p_self, self.p_pool, self.p_heuristic, self.p_random)
        if min(weights) < 0 or sum(weights) <= 0:
            raise ValueError(f"opponent weights must be >= 0 and not all 0, got {weights}")
        if self.teacher_phases not in TEACHER_PHASES:
            raise ValueError(f"teacher_phases must be one of {TEACHER_PHASES}, got {self.teacher_phases!r}")
        if self.teacher_coef < 0:
            raise ValueError(f"teacher_coef must be >= 0, got {self.teacher_coef!r}")
        if self.num_envs < 1 or self.num_minibatches < 1 or self.update_epochs < 1:
            raise ValueError("num_envs, num_minibatches and update_epochs must be >= 1")

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values: dict) -> PPOConfig:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"unknown config keys {unknown}; known: {sorted(known)}")
        return cls(**values)


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
    """One ``--flag`` per config field; unset flags stay ``None`` so the file and defaults show through."""
    for f in dataclasses.fields(PPOConfig):
        flag = "--" + f.name.replace("_", "-")
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        kind = type(default)
        if kind is bool:
            parser.add_argument(flag, type=_parse_bool, default=None, metavar="{true,false}",
                                help=f"(default {default})")
        elif kind is list:
            parser.add_argument(flag, type=int, nargs="+", default=None, help=f"(default {default})")
        elif default is None:
            parser.add_argument(flag, type=float, default=None, help="(default None)")
        else:
            parser.add_argument(flag, type=kind, default=None, help=f"(default {default})")


def config_from_args(args: argparse.Namespace, base: dict | None = None) -> PPOConfig:
    """Defaults < ``base`` (e.g. a config file or a resumed run's config) < flags given on the command line."""
    values = dict(base or {})
    for f in dataclasses.fields(PPOConfig):
        given = getattr(args, f.name, None)
        if given is not None:
            values[f.name] = given
    return PPOConfig.from_dict(values)


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")
