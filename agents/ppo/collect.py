"""``Collector.collect``: play a rollout's hands, each on the engine that suits it, into one buffer.

Hands whose every seat is a network (self-play, the pool) run on the batched
engine (:mod:`.vector_rollout`: one array call per step for all of them);
hands with a registry agent at the table (the heuristic, the random agent)
run on ``SpadesGame`` (:mod:`.rollout`), the only engine that builds the
structured view those agents read, and so the only one where a teacher
labels the learner's moves. The caller sees one list of hand results in
plan order and one buffer; which engine played a hand shows only in its
record (the batched engine's lacks the card-level lists such as ``plays``).
"""

from __future__ import annotations

import numpy as np
import torch

from .buffer import RolloutBuffer
from .model import ActorCritic
from .plans import LEARNER, Key, Plan, RolloutStats, is_network_plan
from .rollout import GameCollector
from .vector_rollout import VectorCollector

# Below this many all-network hands, they stay on the per-game engine (the batched engine's fixed cost per
# step, ~0.1 ms, is not repaid): the two broke even near 12 hands in
# ``python -m spades_env.experiments.bench_ppo --num-envs 2 4 8 16 32 --iteration-envs``.
MIN_VECTOR_HANDS = 16


class Collector:
    """Both engines, sized for ``num_envs`` hands, and the rule that routes each hand to one of them."""

    def __init__(self, num_players: int, num_envs: int, observation_kind: str = "default",
                 teacher: str | None = None, teacher_phases: str = "play",
                 min_vector_hands: int = MIN_VECTOR_HANDS) -> None:
        """``observation_kind``: ``"oracle"`` for networks with a privileged critic. ``teacher``: the registry
        agent that labels the learner's decisions in hands on the per-game engine (None: no labels)."""
        self.num_players = num_players
        self.num_envs = num_envs
        self.games = GameCollector(num_players, num_envs, observation_kind, teacher, teacher_phases)
        self.vector = VectorCollector(num_players, num_envs, observation_kind)
        self.min_vector_hands = min_vector_hands

    def collect(self, plans: list[Plan], rng: np.random.Generator, model: ActorCritic | None,
                pool: list[ActorCritic], generator: torch.Generator, buffer: RolloutBuffer,
                record: frozenset[Key] = frozenset({LEARNER})) -> RolloutStats:
        """Play one hand per plan (any number: they run ``num_envs`` at a time); store the decisions of the
        seats whose key is in ``record`` as trajectories in ``buffer``.

        ``HandResult.slot`` indexes ``plans`` and the hands come back in that
        order. Every random choice comes from ``rng`` and ``generator``, so a
        rollout is a pure function of their states.
        """
        network = [i for i, plan in enumerate(plans) if is_network_plan(plan)]
        if len(network) < self.min_vector_hands:
            network = []
        others = sorted(set(range(len(plans))) - set(network))
        stats = RolloutStats()
        for engine, chosen in ((self.vector, network), (self.games, others)):
            for first in range(0, len(chosen), self.num_envs):
                part = chosen[first:first + self.num_envs]
                played = engine.run([plans[i] for i in part], rng, model, pool, generator, buffer, record)
                stats.merge(played, part)
        stats.hands.sort(key=lambda h: h.slot)
        return stats
