"""Who plays each training hand, and at what score: the plans the collectors play.

A plan gives one policy key per seat -- ``LEARNER`` (the network being
trained), ``("pool", i)`` (a frozen past snapshot) or ``("agent", name)``
(an agent from the registry, e.g. the heuristic, which reads the structured
view) -- the game state the hand is dealt at (:mod:`.score_context`), and
the kind of opponent, for the logs. The learner plays one side (both
partners: they share the side's reward); the other side is drawn per hand
with the ``p_*`` weights of the config.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from spades_env.game import SpadesGame

from .config import PPOConfig
from .score_context import GAME_START, Start, draw_start

Key = tuple  # ("learner",) | ("pool", index) | ("agent", registry name)
LEARNER: Key = ("learner",)
RANDOM_AGENT = "random"
OPPONENT_KINDS = ("self", "pool", "heuristic", "random")


@dataclass(frozen=True)
class Plan:
    """One hand to play: a policy key per seat, the state it is dealt at, the opponent kind, the rule set it is
    played under (an index into ``PPOConfig.rule_sets()``)."""

    seats: tuple[Key, ...]
    start: Start = GAME_START
    kind: str = "self"
    rules: int = 0


@dataclass
class HandResult:
    """One finished hand: its slot and plan, its record (the engine's JSON dict) and each seat's reward."""

    slot: int  # index into the plans given to the collector
    plan: Plan
    record: dict
    rewards: list[float]  # per seat: score_context.hand_rewards


@dataclass
class RolloutStats:
    hands: list[HandResult] = field(default_factory=list)
    decisions: int = 0  # every action taken by any seat (forced ones included)
    recorded: int = 0  # decisions stored in the buffer
    worker_cpu_s: float = 0.0  # CPU seconds a worker process spent on its share (the trainer's and bench's logs)

    def merge(self, other: RolloutStats, slots: Sequence[int]) -> None:
        """Add ``other``, played on the plans ``slots`` of the whole rollout (its hands renumbered)."""
        self.hands += [HandResult(slots[h.slot], h.plan, h.record, h.rewards) for h in other.hands]
        self.decisions += other.decisions
        self.recorded += other.recorded
        self.worker_cpu_s += other.worker_cpu_s


def is_network_plan(plan: Plan) -> bool:
    """True when every seat is played by the learner or a pool snapshot (the batched engine's hands)."""
    return all(key == LEARNER or key[0] == "pool" for key in plan.seats)


def plan_hands(cfg: PPOConfig, rng: np.random.Generator, pool_size: int) -> list[Plan]:
    """The ``num_envs`` hands of the next rollout: opponents by the ``p_*`` weights, the learner's side at
    random, a ``score_context`` share dealt at a random game state."""
    game = cfg.game_config()
    side_of = SpadesGame(game).side_of
    weights = np.array([cfg.p_self, cfg.p_pool if pool_size else 0.0, cfg.p_heuristic, cfg.p_random])
    plans = []
    for _ in range(cfg.num_envs):
        kind = OPPONENT_KINDS[int(rng.choice(len(weights), p=weights / weights.sum()))]
        learner_side = int(rng.integers(2))
        opponent = {"self": LEARNER, "heuristic": ("agent", cfg.heuristic_agent),
                    "random": ("agent", RANDOM_AGENT)}.get(kind)
        if kind == "pool":
            opponent = ("pool", int(rng.integers(pool_size)))
        seats = tuple(LEARNER if side == learner_side else opponent for side in side_of)
        plans.append(Plan(seats, draw_start(rng, game, cfg.score_context), kind, draw_rules(cfg, rng)))
    return plans


def draw_rules(cfg: PPOConfig, rng: np.random.Generator) -> int:
    """The rule set of a hand: ``mixed_rules`` (1) for a ``mixed_share`` of them; with none, 0 and no draw (the
    rollouts of a run without it stay what they were)."""
    return int(rng.random() < cfg.mixed_share) if cfg.mixed_rules else 0


def learner_rewards(hands: list[HandResult]) -> dict[str, float]:
    """Mean reward per hand of the learner's side, by opponent kind (self-play, 0 by symmetry, is left out)."""
    by_kind: dict[str, list[float]] = {}
    for hand in hands:
        if hand.plan.kind != "self":
            by_kind.setdefault(hand.plan.kind, []).append(hand.rewards[hand.plan.seats.index(LEARNER)])
    return {f"reward_vs_{k}": float(np.mean(v)) for k, v in by_kind.items()}
