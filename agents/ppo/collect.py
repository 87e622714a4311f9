"""``Collector.collect``: play a rollout's hands, each on the engine that suits it, into one buffer.

Hands whose every seat is a network (self-play, the pool) run on the batched
engine (:mod:`.vector_rollout`: one array call per step for all of them);
hands with a registry agent at the table (the heuristic, the random agent)
run on ``SpadesGame`` (:mod:`.rollout`), the only engine that builds the
structured view those agents read, and so the only one where a teacher
labels the learner's moves. Those hands cost several times more per hand
(the agents are Python), so with ``workers=1`` a second process plays a
share of them while this one plays the rest: the shares are sized to take
about the same time, and each is played from its own seed drawn from
``rng``, so the rollout is the same with or without the worker.

The caller sees one list of hand results in plan order and one buffer
(rows: batched-engine hands, then this process's agent hands, then the
worker's); which engine played a hand shows only in its record (the
batched engine's lacks the card-level lists such as ``plays``).
"""

from __future__ import annotations

import multiprocessing
import time
import traceback

import numpy as np
import torch

from .buffer import RolloutBuffer
from .model import ActorCritic
from .plans import LEARNER, Key, Plan, RolloutStats, is_network_plan
from .rollout import GameCollector
from .vector_rollout import VectorCollector

# Below this many all-network hands, they stay on the per-game engine (the batched engine's fixed cost per
# step, ~0.1 ms, is not repaid): the two broke even near 12 hands in bench_ppo's collection table.
MIN_VECTOR_HANDS = 16
# A batched-engine hand's CPU time in hands with a registry agent, with the default recipe (card features, the
# teacher on half the card plays). It only sets how the agent hands are shared out: with the heuristic's card
# play compiled, 0.7 left this process no agent hand, waiting for the worker; 0.35 against 0.7 (`bench_ppo
# --baseline HEAD --ways before now`): collection 0.90-0.95x, end to end 1.04x-1.08x in three paired runs.
VECTOR_HAND_COST = 0.35


class Collector:
    """Both engines, sized for ``num_envs`` hands, a worker process if asked for, and the routing rule."""

    def __init__(self, num_players: int, num_envs: int, observation_kind: str = "default",
                 teacher: str | None = None, teacher_phases: str = "play", teacher_share: float = 1.0,
                 workers: int = 0, min_vector_hands: int = MIN_VECTOR_HANDS, rules: dict | None = None) -> None:
        """``observation_kind``: ``"oracle"`` for networks with a privileged critic. ``teacher``: the registry
        agent that labels (a ``teacher_share`` of) the learner's decisions in hands on the per-game engine
        (None: no labels). ``workers``: 0 or 1 processes playing a share of those hands. ``rules``: game
        options the hands are played under (``SpadesConfig`` keyword arguments)."""
        self.num_players = num_players
        self.num_envs = num_envs
        engine = (num_players, num_envs, observation_kind, teacher, teacher_phases, teacher_share, rules)
        self.games = GameCollector(*engine)
        self.vector = VectorCollector(num_players, num_envs, observation_kind, rules=rules)
        self.min_vector_hands = min_vector_hands
        self.worker = Worker(*engine) if workers else None

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
        mine = max(0, round((len(others) - VECTOR_HAND_COST * len(network)) / 2))
        my_slots, its_slots = others[:mine], others[mine:]
        my_seed, its_seed = (int(seed) for seed in rng.integers(2**62, size=2))
        remote = self.worker is not None and bool(its_slots)
        if remote:
            self.worker.start([plans[i] for i in its_slots], its_seed, model, pool, record)
        stats = RolloutStats()
        stats.merge(play(self.vector, [plans[i] for i in network], rng, model, pool, generator, buffer, record),
                    network)
        for slots, seed in [(my_slots, my_seed)] + ([] if remote else [(its_slots, its_seed)]):
            stats.merge(play(self.games, [plans[i] for i in slots], np.random.default_rng(seed), model, pool,
                             torch.Generator().manual_seed(seed), buffer, record), slots)
        if remote:
            part, rows = self.worker.result()
            if rows is not None:
                buffer.add_rows(rows)
            stats.merge(part, its_slots)
        stats.hands.sort(key=lambda h: h.slot)
        return stats

    def close(self) -> None:
        """Stop the worker process, if any."""
        if self.worker:
            self.worker.close()
            self.worker = None


class MixedCollector:
    """A :class:`Collector` per rule set (``PPOConfig.rule_sets()``): each plan's hand is played by the one its
    ``Plan.rules`` names, and the results come back in plan order as from one collector."""

    def __init__(self, collectors: list[Collector]) -> None:
        self.collectors = collectors
        self.num_players, self.num_envs = collectors[0].num_players, collectors[0].num_envs

    def collect(self, plans: list[Plan], rng: np.random.Generator, model: ActorCritic | None,
                pool: list[ActorCritic], generator: torch.Generator, buffer: RolloutBuffer,
                record: frozenset[Key] = frozenset({LEARNER})) -> RolloutStats:
        """:meth:`Collector.collect`, the plans shared out by rule set."""
        stats = RolloutStats()
        for index, collector in enumerate(self.collectors):
            slots = [i for i, plan in enumerate(plans) if plan.rules == index]
            if slots:
                stats.merge(collector.collect([plans[i] for i in slots], rng, model, pool, generator, buffer,
                                              record), slots)
        stats.hands.sort(key=lambda h: h.slot)
        return stats

    def close(self) -> None:
        for collector in self.collectors:
            collector.close()


def play(engine: GameCollector | VectorCollector, plans: list[Plan], rng: np.random.Generator,
         model: ActorCritic | None, pool: list[ActorCritic], generator: torch.Generator, buffer: RolloutBuffer,
         record: frozenset[Key]) -> RolloutStats:
    """``plans`` on one engine, ``num_envs`` at a time."""
    stats = RolloutStats()
    for first in range(0, len(plans), engine.num_envs):
        part = plans[first:first + engine.num_envs]
        stats.merge(engine.run(part, rng, model, pool, generator, buffer, record),
                    range(first, first + len(part)))
    return stats


class Worker:
    """A process with its own per-game engine: it plays the hands it is sent, with the weights it is sent,
    from the seed it is sent, and returns their results and buffer rows."""

    def __init__(self, *engine) -> None:
        """``engine``: the :class:`GameCollector`'s arguments."""
        context = multiprocessing.get_context("spawn")  # a fresh interpreter: no forked torch threads
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, daemon=True, name="spades-collect-worker",
                                       args=(child, *engine))
        self.process.start()

    def start(self, plans: list[Plan], seed: int, model: ActorCritic | None, pool: list[ActorCritic],
              record: frozenset[Key]) -> None:
        keys = {key for plan in plans for key in plan.seats}
        nets = {key: _network_message(net) for key, net in [(LEARNER, model)] + list(
            (("pool", i), net) for i, net in enumerate(pool)) if key in keys and net is not None}
        self.connection.send((plans, seed, nets, len(pool), record))

    def result(self) -> tuple[RolloutStats, dict | None]:
        answer = self.connection.recv()
        if isinstance(answer, str):
            raise RuntimeError(f"the collection worker failed:\n{answer}")
        return answer

    def close(self) -> None:
        self.connection.send(None)
        self.process.join(timeout=10)


def _network_message(net: ActorCritic) -> tuple:
    return net.shape, net.state_dict()


def _serve(connection, *engine_args) -> None:
    """The worker's loop: play what :meth:`Worker.start` sends until it sends None."""
    torch.set_num_threads(1)
    engine = GameCollector(*engine_args)
    nets: dict = {}
    while (message := connection.recv()) is not None:
        try:
            plans, seed, weights, pool_size, record = message
            for key, (shape, state) in weights.items():
                if key not in nets or nets[key].shape != shape:
                    nets[key] = ActorCritic(*shape).eval()
                nets[key].load_state_dict(state)
            pool = [nets.get(("pool", i)) for i in range(pool_size)]
            buffer, began = RolloutBuffer(1.0, 1.0), time.process_time()
            stats = play(engine, plans, np.random.default_rng(seed), nets.get(LEARNER), pool,
                         torch.Generator().manual_seed(seed), buffer, record)
            stats.worker_cpu_s = time.process_time() - began
            connection.send((stats, buffer.rows() if len(buffer) else None))
        except Exception:  # noqa: BLE001 - reported to the main process, which raises
            connection.send(traceback.format_exc())

