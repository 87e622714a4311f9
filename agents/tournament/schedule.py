"""The schedule of a duplicate tournament: which agents play game ``index``, on which deals, with which seeds.

Everything here is a pure function of a :class:`TournamentSpec` and a game
index, so any process can plan any game without talking to the others; this
is what lets the backends run games in any order and a rerun resume.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import numpy as np

from spades_env.rules import SpadesConfig, describe

from ..registry import display_name, versioned_name

# The version of the rules below that turn a game index into a plan. It is saved in config.json, so a
# rerun does not resume a folder whose games were planned otherwise. 2: agent seeds mirrored by seat.
SCHEDULE_VERSION = 2


def derive_seed(*key: int) -> int:
    """A 63-bit seed from a tuple of non-negative ints (numpy's SeedSequence hashing: well mixed, stable)."""
    return int(np.random.SeedSequence(list(key)).generate_state(1, np.uint64)[0] >> np.uint64(1))


def unique_labels(specs: Sequence[str]) -> tuple[str, ...]:
    """Labels for the pool: each spec's display name (its ``name=``, else the spec), ``#2``, ``#3`` added to repeats."""
    seen: dict[str, int] = {}
    labels = []
    for spec in map(display_name, specs):
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return tuple(labels)


@dataclass(frozen=True)
class GamePlan:
    index: int
    board: int
    pairing: int
    swap: int  # 0: the pairing's first agent holds side 0; 1: it holds side 1
    side_agents: tuple[int, int]  # pool index of the agent on side 0 and side 1
    seat_agents: tuple[int, ...]  # pool index of the agent at each seat
    deal_seed: int
    agent_seeds: tuple[int, ...]


@dataclass(frozen=True)
class TournamentSpec:
    """What defines a tournament's results. ``games`` counts games per pairing (two per board)."""

    agents: tuple[str, ...]
    games: int
    seed: int = 0
    num_players: int = 4
    single_hand: bool = False
    target_score: int | None = None  # None: the preset's
    max_hands: int | None = None  # None: the preset's
    include_self: bool = False
    rules: Mapping[str, Any] = field(default_factory=dict)  # the other SpadesConfig options: nil, bag_limit, ...
    preset: str = "default"  # the rule preset (spades_env.rules.PRESETS) that ``rules`` and the fields above override
    labels: tuple[str, ...] = field(default=(), init=False, compare=False)

    def __post_init__(self) -> None:
        if not self.agents:
            raise ValueError("a tournament needs at least one agent")
        if self.games < 1:
            raise ValueError(f"games must be >= 1, got {self.games}")
        if self.seed < 0:
            raise ValueError(f"seed must be >= 0, got {self.seed}")
        object.__setattr__(self, "agents", tuple(self.agents))
        object.__setattr__(self, "labels", unique_labels(self.agents))
        object.__setattr__(self, "rules", dict(self.rules))
        other = {f.name for f in fields(SpadesConfig)} - {f.name for f in fields(self)}
        if not set(self.rules) <= other:
            raise ValueError(f"rules takes the options {sorted(other)}, got {sorted(set(self.rules) - other)}")
        base = SpadesConfig.from_preset(self.preset)  # validates the preset's name
        for name in ("target_score", "max_hands"):
            if getattr(self, name) is None:
                object.__setattr__(self, name, getattr(base, name))
        self.config()  # validate the rules options now

    def config(self) -> SpadesConfig:
        return SpadesConfig.from_preset(self.preset, num_players=self.num_players, single_hand=self.single_hand,
                                        target_score=self.target_score, max_hands=self.max_hands, **self.rules)

    @property
    def pairings(self) -> list[tuple[int, int]]:
        """Round robin over the pool; a pool of one plays itself (a mirror match)."""
        n = len(self.agents)
        if n == 1:
            return [(0, 0)]
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        return pairs + [(i, i) for i in range(n)] if self.include_self else pairs

    @property
    def boards(self) -> int:
        return math.ceil(self.games / 2)

    @property
    def total_games(self) -> int:
        return self.boards * len(self.pairings) * 2

    def plan(self, index: int) -> GamePlan:
        """Game ``index``: boards outermost, so a partial run has every pairing on the same boards."""
        if not 0 <= index < self.total_games:
            raise IndexError(f"game index {index} is not in 0..{self.total_games - 1}")
        pairing, swap = divmod(index, 2)
        board, pairing = divmod(pairing, len(self.pairings))
        a, b = self.pairings[pairing]
        sides = (a, b) if swap == 0 else (b, a)
        n = self.num_players
        return GamePlan(
            index=index, board=board, pairing=pairing, swap=swap, side_agents=sides,
            seat_agents=tuple(sides[seat % 2] for seat in range(n)),
            deal_seed=derive_seed(self.seed, 0, board),
            agent_seeds=self.agent_seeds(board),
        )

    def agent_seeds(self, board: int) -> tuple[int, ...]:
        """The agents' seeds on ``board``, by seat and the same in both of its games.

        Mirrored like the cards: whoever holds seat 0's cards in the second
        game gets the seed that seat 0 had in the first, so an agent that
        draws from its seed (the heuristic's bid jitter) meets the same luck
        in both orientations, and two copies of one agent play the same game
        twice (every board exactly 0).
        """
        return tuple(derive_seed(self.seed, 1, board, seat) for seat in range(self.num_players))

    def to_dict(self) -> dict:
        d = asdict(self)
        d["agents"], d["labels"] = list(self.agents), list(self.labels)
        d["versions"] = [versioned_name(a) for a in self.agents]  # what played: "heuristic" -> "heuristic-v2"
        d["schedule"] = SCHEDULE_VERSION
        d["config"] = self.config().to_dict()  # every rule option, defaults included
        d["rules_described"] = describe(self.config())
        return d
