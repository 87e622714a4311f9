"""Experience collection on the per-game rules engine: the hands with registry agents at the table.

Each game is a bare :class:`SpadesGame` (no PettingZoo wrapper) with an
:class:`ObservationTracker` that keeps every seat's observation vector up to
date incrementally; ``num_envs`` hands are played side by side, and at each
step the decisions of all games whose player to act uses the same network
are evaluated in one forward pass. Registry agents (the heuristic, the
random agent, a teacher) read the structured view, which only this engine
builds; :mod:`.collect` sends the all-network hands to the batched engine.

Forced moves (one legal action) are taken without asking anyone and are not
stored: they carry no gradient. The decisions of the seats whose key is in
``record`` are stored as trajectories in a
:class:`~spades_env.agents.ppo.buffer.RolloutBuffer`. With a ``teacher`` (a
registry name), a random ``teacher_share`` of the learner's card plays (or,
with ``teacher_phases="all"``, of all its decisions) also store what the
teacher would have done in the same position, which the trainer's teacher
term reads (each label is one call of the teacher, as dear as an opponent's
move).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
import torch

from spades_env.actions import mask_array
from spades_env.agent import Agent, ask, forced_action
from spades_env.agents.registry import make_agent
from spades_env.game import Phase, SpadesConfig, SpadesGame
from spades_env.observations import ObservationTracker, observation_size

from .buffer import RolloutBuffer
from .config import TEACHER_PHASES
from .model import ActorCritic, masked_log_probs, sample_actions
from .plans import LEARNER, HandResult, Key, Plan, RolloutStats
from .score_context import hand_rewards


@dataclass
class Trajectory:
    """One recorded seat's decisions in one hand, in play order (the hand's reward comes after the last)."""

    obs: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    log_probs: list[float] = field(default_factory=list)
    teacher: list[int] = field(default_factory=list)  # the teacher's choice at each step, -1 where none

    def add(self, obs: np.ndarray, mask: np.ndarray, action: int, log_prob: float, teacher_action: int = -1) -> None:
        self.obs.append(obs)
        self.masks.append(mask)
        self.actions.append(action)
        self.log_probs.append(log_prob)
        self.teacher.append(teacher_action)

    def store(self, buffer: RolloutBuffer, reward: float) -> None:
        buffer.add_trajectory(self.obs, self.masks, self.actions, self.log_probs, reward, self.teacher)


class GameCollector:
    """Plays batches of single hands on ``SpadesGame``; reuses its games, trackers and agent objects."""

    def __init__(self, num_players: int, num_envs: int, observation_kind: str = "default",
                 teacher: str | None = None, teacher_phases: str = "play", teacher_share: float = 1.0,
                 rules: dict | None = None) -> None:
        """``rules``: game options (``SpadesConfig`` keyword arguments) the hands are played under.
        ``observation_kind="oracle"`` feeds networks with a privileged critic (see :class:`ActorCritic`);
        agents from the registry always get the default observation (its prefix). ``teacher`` names the
        agent that labels the learner's decisions (None: no labels): its card plays only
        (``teacher_phases="play"``) or every decision (``"all"``), a random ``teacher_share`` of them."""
        if teacher_phases not in TEACHER_PHASES:
            raise ValueError(f"teacher_phases must be one of {TEACHER_PHASES}, got {teacher_phases!r}")
        self.num_players = num_players
        self.num_envs = num_envs
        self.teacher = teacher
        self.teacher_phases = teacher_phases
        self.teacher_share = teacher_share
        self._rng = np.random.default_rng(0)  # run()'s generator while it runs: which moves the teacher labels
        self.agent_obs_size = observation_size(num_players)
        self.config = SpadesConfig(num_players=num_players, single_hand=True, **(rules or {}))
        self.games = [SpadesGame(self.config) for _ in range(num_envs)]
        self.trackers = [ObservationTracker(g, observation_kind) for g in self.games]
        self._agents: dict[tuple[int, int, str], Agent] = {}

    def _agent(self, slot: int, seat: int, name: str) -> Agent:
        """One agent object per (game slot, seat, name): agents may keep per-seat state during a hand."""
        key = (slot, seat, name)
        if key not in self._agents:
            self._agents[key] = make_agent(name)
        return self._agents[key]

    @torch.no_grad()
    def run(self, plans: list[Plan], rng: np.random.Generator, model: ActorCritic | None,
            pool: list[ActorCritic], generator: torch.Generator, buffer: RolloutBuffer,
            record: frozenset[Key] = frozenset({LEARNER})) -> RolloutStats:
        """Play one hand per plan (at most ``num_envs``) to the end; store the recorded seats' trajectories.

        Every random choice comes from ``rng`` (deals, agent seeds) and
        ``generator`` (network sampling), so a run is a pure function of
        their states.
        """
        self._rng = rng
        trajectories = self._deal(plans, rng, record)
        nets = {LEARNER: model} | {("pool", i): net for i, net in enumerate(pool)}
        stats = RolloutStats()
        active = list(range(len(plans)))
        while active:
            chosen, deciders = self._forced_moves(active, plans)
            for key, slots in deciders.items():
                players = [self.games[s].current_player for s in slots]
                if key[0] == "agent":
                    self._ask_agents(key, slots, players, key in record, trajectories, chosen)
                else:
                    self._sample(key, nets[key], slots, players, generator, key in record, trajectories, chosen)
            active = self._step(active, chosen, plans, trajectories, buffer, stats)
        return stats

    def _deal(self, plans: list[Plan], rng: np.random.Generator,
              record: frozenset[Key]) -> dict[tuple[int, int], Trajectory]:
        """Start one hand per plan (deal and agent seeds from ``rng``, scores and bags from the plan); returns
        an empty trajectory per recorded (slot, seat)."""
        trajectories: dict[tuple[int, int], Trajectory] = {}
        for slot, plan in enumerate(plans):
            game = self.games[slot]
            game.reset(int(rng.integers(2**62)), scores=plan.start.scores, bags=plan.start.bags)
            self.trackers[slot].rebuild()
            for seat, key in enumerate(plan.seats):
                if key[0] == "agent":
                    agent = self._agent(slot, seat, key[1])
                    if hasattr(agent, "reset"):  # agents without per-hand state draw no seed
                        agent.reset(seat, int(rng.integers(2**62)))
                if key in record:
                    trajectories[slot, seat] = Trajectory()
                if key == LEARNER and self.teacher:
                    teacher = self._agent(slot, seat, self.teacher)
                    if hasattr(teacher, "reset"):
                        teacher.reset(seat, int(rng.integers(2**62)))
        return trajectories

    def _forced_moves(self, active: list[int], plans: list[Plan]) -> tuple[dict[int, int], dict[Key, list[int]]]:
        """The action of every game with one legal action (nobody decides: nothing to learn), and the other
        games grouped by the policy to act (one forward pass per network)."""
        chosen: dict[int, int] = {}
        deciders: dict[Key, list[int]] = defaultdict(list)
        for slot in active:
            game = self.games[slot]
            forced = forced_action(game.legal_mask())
            if forced is not None:
                chosen[slot] = forced
            else:
                deciders[plans[slot].seats[game.current_player]].append(slot)
        return chosen, deciders

    def _legal_masks(self, slots: list[int]) -> np.ndarray:
        return np.stack([mask_array(self.games[s].legal_mask()) for s in slots]).astype(bool)

    def _ask_agents(self, key: Key, slots: list[int], players: list[int], store: bool,
                    trajectories: dict[tuple[int, int], Trajectory], chosen: dict[int, int]) -> None:
        """Registry agents choose one by one; stored with log-prob 0 (they are not networks)."""
        masks = self._legal_masks(slots) if store else None
        for s, p in zip(slots, players):
            chosen[s] = ask(self._agent(s, p, key[1]), self.games[s], self._agent_observation(s, p))
        if store:
            for s, p, m in zip(slots, players, masks):
                trajectories[s, p].add(self.trackers[s].vectors[p].copy(), m, chosen[s], 0.0)

    def _sample(self, key: Key, net: ActorCritic, slots: list[int], players: list[int], generator: torch.Generator,
                store: bool, trajectories: dict[tuple[int, int], Trajectory], chosen: dict[int, int]) -> None:
        """One forward pass of the actor of ``net`` for all its games; sample under the legal mask (the
        learner's stored steps also get the teacher's label; the critic's values come later, in one batch)."""
        masks = self._legal_masks(slots)
        obs = np.stack([self.trackers[s].vectors[p] for s, p in zip(slots, players)])
        log_probs = masked_log_probs(net.logits(torch.from_numpy(obs)), torch.from_numpy(masks))
        actions = sample_actions(log_probs, generator)
        taken = log_probs.gather(1, actions.unsqueeze(1)).squeeze(1)
        for i, (s, p) in enumerate(zip(slots, players)):
            chosen[s] = int(actions[i])
            if store:
                trajectories[s, p].add(obs[i], masks[i], chosen[s], float(taken[i]),
                                       self._teacher_action(s, p) if key == LEARNER else -1)

    def _step(self, active: list[int], chosen: dict[int, int], plans: list[Plan],
              trajectories: dict[tuple[int, int], Trajectory], buffer: RolloutBuffer, stats: RolloutStats) -> list[int]:
        """Apply every game's chosen action; finished hands give their results and trajectories. Returns the
        games still being played."""
        still = []
        for slot in active:
            game = self.games[slot]
            player, phase = game.current_player, game.phase
            game.apply(chosen[slot])  # raises IllegalActionError if an agent ever broke the rules
            self.trackers[slot].update(player, chosen[slot], phase)
            stats.decisions += 1
            if game.game_over:
                self._finish(slot, plans[slot], trajectories, buffer, stats)
            else:
                still.append(slot)
        return still

    def _finish(self, slot: int, plan: Plan, trajectories: dict[tuple[int, int], Trajectory],
                buffer: RolloutBuffer, stats: RolloutStats) -> None:
        """A hand is scored: record its result and move its seats' trajectories into the buffer."""
        game = self.games[slot]
        rec = game.hand_records[-1]
        rewards = hand_rewards(rec, plan.start, game.side_of, self.config)
        stats.hands.append(HandResult(slot, plan, rec, rewards))
        for seat in range(self.num_players):
            trajectory = trajectories.pop((slot, seat), None)
            if trajectory is not None and trajectory.actions:
                trajectory.store(buffer, rewards[seat])
                stats.recorded += len(trajectory.actions)

    def _teacher_action(self, slot: int, seat: int) -> int:
        """What the teacher would do in this position (-1: no teacher, a phase it does not label, or a move
        left out of its share)."""
        game = self.games[slot]
        if not self.teacher or (self.teacher_phases == "play" and game.phase != Phase.PLAY):
            return -1
        if self.teacher_share < 1 and self._rng.random() >= self.teacher_share:
            return -1
        return ask(self._agent(slot, seat, self.teacher), game, self._agent_observation(slot, seat))

    def _agent_observation(self, slot: int, seat: int):
        """Registry agents read the default observation: the prefix of the tracked vector, whatever its kind."""
        return lambda kind: self.trackers[slot].vectors[seat][:self.agent_obs_size].copy()
