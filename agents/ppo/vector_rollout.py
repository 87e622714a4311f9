"""Experience collection on the batched engine (:class:`~spades_env.vector.VectorSpades`).

:class:`~spades_env.agents.ppo.rollout.GameCollector` steps one
:class:`SpadesGame` per hand in a Python loop and updates an
:class:`ObservationTracker` per game; the network calls are batched but the
rules and the observations cost tens of microseconds per decision.
:class:`VectorCollector` plays the same hands on one ``VectorSpades`` (one
array call per step for every game together), with the same ``run(...)``
interface and outputs. It takes only plans whose seats are all network
policies (``LEARNER`` or ``("pool", i)``): registry agents read a
:class:`~spades_env.view.PlayerView`, which the batched engine does not
build. :class:`~spades_env.agents.ppo.collect.Collector` chooses the engine
of each hand.

Differences from ``Collector`` (outputs have the same types and shapes):

* The hand records are :meth:`VectorSpades.hand_record` (scores, bids,
  tricks, sides, points, ...) plus ``"actions"`` (``[seat, action]`` for
  every action of the hand, forced ones included, as ``SpadesGame`` records
  them), with four players ``"hands"`` (the deal: with ``actions`` and
  ``bags_before`` the hand replays on ``SpadesGame``) and, with
  ``per_game_seeds=True``, ``"seed"`` (the hand replays
  ``SpadesGame.reset(seed, bags=record["bags_before"])``). The other
  card-level lists of ``SpadesGame.hand_records`` (``passes``, ``stock``,
  ``discards``, ``replacements``, ``plays``, ``trick_winners``) are absent,
  and so is ``hands`` with two players.
* Deals come from the batched engine's generator (seeded from ``rng``), so
  the same ``rng`` state gives other deals than ``GameCollector``: a run is
  still a pure function of ``rng`` and ``generator``, but not the same function.
* Trajectories enter the buffer ordered by slot, then seat (``GameCollector``
  adds them as hands finish).
"""

from __future__ import annotations

import numpy as np
import torch

from spades_env.cards import CARD_NAMES, cards_of
from spades_env.game import SpadesConfig, SpadesGame
from spades_env.variant import variant_of
from spades_env.vector import VecStep, VectorSpades

from .buffer import RolloutBuffer
from .model import ActorCritic, masked_log_probs, sample_actions
from .plans import LEARNER, HandResult, Key, Plan, RolloutStats
from .score_context import hand_rewards


class VectorCollector:
    """Plays batches of single hands of all-network plans on a :class:`VectorSpades`.

    ``per_game_seeds=True`` gives each hand its own seed (recorded as
    ``record["seed"]``) so that it can be replayed on ``SpadesGame``; it is
    slower to deal, and meant for checks.
    """

    def __init__(self, num_players: int, num_envs: int, observation_kind: str = "default",
                 per_game_seeds: bool = False, rules: dict | None = None) -> None:
        self.num_players = num_players
        self.num_envs = num_envs
        self.observation_kind = observation_kind
        self.per_game_seeds = per_game_seeds
        self.rules = dict(rules or {})
        self.config = SpadesConfig(num_players=num_players, single_hand=True, **self.rules)
        self.side_of = SpadesGame(self.config).side_of
        self._vec: VectorSpades | None = None

    def _engine(self, size: int) -> VectorSpades:
        """One engine of exactly ``size`` games (building one costs well under a millisecond; kept while the
        size stays the same)."""
        if self._vec is None or self._vec.num_envs != size:
            self._vec = VectorSpades(size, self.num_players, observation=self.observation_kind,
                                     per_game_seeds=self.per_game_seeds, single_hand=True, **self.rules)
        return self._vec

    @torch.no_grad()
    def run(self, plans: list[Plan], rng: np.random.Generator, model: ActorCritic,
            pool: list[ActorCritic], generator: torch.Generator, buffer: RolloutBuffer,
            record: frozenset[Key] = frozenset({LEARNER})) -> RolloutStats:
        """Play one hand per plan (at most ``num_envs``) to the end; store the recorded seats' trajectories.

        Same contract as :meth:`GameCollector.run`. Slots whose hand is over keep
        stepping (the engine steps every game) with their first legal action;
        nothing of theirs is counted or stored.
        """
        keys = self._policy_keys(plans, pool)
        nets = {LEARNER: model} | {("pool", i): net for i, net in enumerate(pool)}
        size = len(plans)
        key_ids = np.array([[keys.index(key) for key in plan.seats] for plan in plans])  # (size, n)
        recorded = {k for k, key in enumerate(keys) if key in record}
        vec, out, seeds, deals = self._deal(plans, rng)

        slots = np.arange(size)
        active = np.ones(size, bool)
        stats = RolloutStats()
        players: list[np.ndarray] = []  # per step, every slot: the seat to act and the action taken
        taken: list[np.ndarray] = []
        steps = np.zeros(size, np.int64)  # actions in each slot's hand
        rows: dict[str, list[np.ndarray]] = {name: [] for name in ("slot", "seat", "obs", "mask", "action",
                                                                   "log_prob")}
        while active.any():
            player = out.player
            actions = self._choose(out, key_ids[slots, player], active, [nets[key] for key in keys], recorded,
                                   generator, rows)
            players.append(player)
            taken.append(actions)
            stats.decisions += int(active.sum())
            out = vec.step(actions, check=False)  # sampling under the mask never picks an illegal action
            finished = np.flatnonzero(active & out.hand_done)
            stats.hands += [self._hand_result(vec, int(slot), plans[slot], seeds, deals) for slot in finished]
            active[finished] = False
            steps[finished] = len(taken)
        history = np.stack([np.stack(players, axis=1), np.stack(taken, axis=1)], axis=2)  # (size, steps, 2)
        for hand in stats.hands:
            hand.record["actions"] = history[hand.slot, :steps[hand.slot]].tolist()
        stats.recorded = self._store(rows, stats.hands, buffer)
        return stats

    def _policy_keys(self, plans: list[Plan], pool: list[ActorCritic]) -> list[Key]:
        """The distinct policies of ``plans``, sorted; raises unless all are networks this call has."""
        if not 0 < len(plans) <= self.num_envs:
            raise ValueError(f"give 1..{self.num_envs} plans, got {len(plans)}")
        keys = sorted({key for plan in plans for key in plan.seats})
        for key in keys:
            if not (key == LEARNER or (key[0] == "pool" and 0 <= key[1] < len(pool))):
                raise ValueError(f"VectorCollector plays network policies only (learner, pool 0..{len(pool) - 1}); "
                                 f"got {key!r}: use collect.Collector")
        return keys

    def _deal(self, plans: list[Plan], rng: np.random.Generator) -> tuple[VectorSpades, VecStep, np.ndarray | None,
                                                                         list | None]:
        """Reset the engine for one hand per plan (seeds from ``rng``, scores and bags from the plans);
        returns it, its first step output, the per-game seeds (or None) and, with four players, every seat's
        dealt hand (or None)."""
        size = len(plans)
        vec = self._engine(size)
        scores = np.array([plan.start.scores for plan in plans])
        bags = np.array([plan.start.bags for plan in plans])
        seeds = rng.integers(2**62, size=size) if self.per_game_seeds else None
        out = vec.reset(seed=None if seeds is not None else int(rng.integers(2**62)), seeds=seeds, scores=scores,
                        bags=bags)
        # Four players: the deal is every seat's hand now (two players draw their hands during the hand).
        deals = None if variant_of(self.num_players).drawn else vec.hands.reshape(size, self.num_players).tolist()
        return vec, out, seeds, deals

    @staticmethod
    def _choose(out: VecStep, acting: np.ndarray, active: np.ndarray, nets: list[ActorCritic], recorded: set[int],
                generator: torch.Generator, rows: dict[str, list[np.ndarray]]) -> np.ndarray:
        """Every slot's action this step: one forward pass per policy (``acting[slot]`` indexes ``nets``) for
        the slots with a choice; the first legal action elsewhere. Recorded policies' rows go to ``rows``."""
        mask, player = out.mask, out.player
        actions = mask.argmax(axis=1)  # forced moves and finished slots: the first (for forced: only) legal one
        choose = active & (mask.sum(axis=1) > 1)
        for k in np.unique(acting[choose]):
            games = np.flatnonzero(choose & (acting == k))
            obs, legal = out.obs[games], mask[games]
            # the actor alone: the critic's values of the stored rows come later, in one batch
            log_probs = masked_log_probs(nets[k].logits(torch.from_numpy(obs)), torch.from_numpy(legal))
            sampled = sample_actions(log_probs, generator)
            actions[games] = sampled.numpy()
            if k in recorded:
                for name, value in (("slot", games), ("seat", player[games]), ("obs", obs), ("mask", legal),
                                    ("action", actions[games]),
                                    ("log_prob", log_probs.gather(1, sampled.unsqueeze(1)).squeeze(1).numpy())):
                    rows[name].append(value)
        return actions

    def _hand_result(self, vec: VectorSpades, slot: int, plan: Plan, seeds: np.ndarray | None,
                     deals: list | None) -> HandResult:
        """A finished hand's record (with its seed and deal where known) and rewards, as ``GameCollector``
        gives."""
        rec = vec.hand_record(slot)
        if seeds is not None:
            rec["seed"] = int(seeds[slot])
        if deals is not None:
            rec["hands"] = [[CARD_NAMES[c] for c in cards_of(h)] for h in deals[slot]]
        # rewards as GameCollector computes them (float64, not the engine's float32)
        return HandResult(slot, plan, rec, hand_rewards(rec, plan.start, self.side_of, self.config))

    def _store(self, rows: dict[str, list[np.ndarray]], hands: list[HandResult], buffer: RolloutBuffer) -> int:
        """Cut the stored rows into one trajectory per (slot, seat), in slot then seat order, each ending with
        the hand's reward for that seat; returns the number of rows stored."""
        if not rows["action"]:
            return 0
        data = {name: np.concatenate(parts) for name, parts in rows.items()}
        owner = data["slot"] * self.num_players + data["seat"]
        order = np.argsort(owner, kind="stable")  # one seat's steps stay in play order
        data = {name: value[order] for name, value in data.items()}
        owner = owner[order]
        starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
        reward = {hand.slot: hand.rewards for hand in hands}
        finals = [reward[int(data["slot"][a])][int(data["seat"][a])] for a in starts]
        buffer.add_trajectories(data["obs"], data["mask"], data["action"], data["log_prob"],
                                np.diff(np.r_[starts, len(owner)]), finals)
        return len(owner)
