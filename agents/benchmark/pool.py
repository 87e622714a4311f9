"""What ``spades benchmark`` plays: the versioned pool, the published seeds, the tiers, and the cells.

A *cell* is one duplicate match of the benchmarked agent against one
opponent of the pool, under one rule preset, in one format (single hands or
games to 500). Every opponent of a (preset, format) plays on the same seed,
so on the same deals. The seeds are published constants: a figure made at
them is comparable with any other made at them, and they were used for
nothing else (no tuning); ``--seed S`` plays the cells at ``S + offset``
instead, for private runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..registry import AgentSpec, AgentSpecError, versioned_name

# The pool, by variant: versioned names only, so that a score card says exactly what it was measured against.
POOLS: dict[int, tuple[str, ...]] = {
    4: ("random-v1", "heuristic-v1", "heuristic-v2", "ppo-v1", "search-v1"),
    2: ("random-v1", "heuristic-v1", "heuristic-v2", "ppo-2p-v1", "search-v1"),
}
PRESET_ORDER: tuple[str, ...] = ("default", "house")
FORMATS: dict[str, str] = {"single": "single hands", "games": "games to 500"}

# The published benchmark seeds: cell seed = BENCHMARK_SEED + SEED_OFFSETS[(players, preset, format)].
BENCHMARK_SEED = 51000
SEED_OFFSETS: dict[tuple[int, str, str], int] = {
    (4, "default", "single"): 1, (4, "default", "games"): 2, (4, "house", "single"): 3, (4, "house", "games"): 4,
    (2, "default", "single"): 5, (2, "default", "games"): 6, (2, "house", "single"): 7, (2, "house", "games"): 8,
}


@dataclass(frozen=True)
class Tier:
    """Cell sizes: single-hand deals (each played twice, the sides swapped) and games to 500, for cells
    without and with a ``search`` agent at the table (about 100 times dearer a decision)."""

    deals: int
    games: int
    search_deals: int
    search_games: int


TIERS: dict[str, Tier] = {
    "quick": Tier(deals=500, games=100, search_deals=50, search_games=20),
    "full": Tier(deals=2000, games=400, search_deals=500, search_games=100),
}


def cell_folder(preset: str, fmt: str, opponent: str) -> str:
    """The tournament folder of the cell against ``opponent``, under a benchmark's ``--out``."""
    return f"{preset}/{fmt}/{re.sub(r'[^A-Za-z0-9._=-]+', '_', opponent)}"


@dataclass(frozen=True)
class Cell:
    """One match of the card: the opponent (a versioned spec), the preset, the format, its seed and size."""

    opponent: str
    preset: str
    format: str  # a key of FORMATS
    seed: int
    games: int  # games of the match: two per single-hand deal; the games to 500 themselves

    @property
    def folder(self) -> str:
        """The cell's tournament folder under ``--out``: ``default/single/heuristic-v1``."""
        return cell_folder(self.preset, self.format, self.opponent)

    @property
    def deals(self) -> int | None:
        return self.games // 2 if self.format == "single" else None


def is_search(spec: str) -> bool:
    """Whether ``spec`` names a search agent (the cells it plays in use the tier's search sizes)."""
    try:
        head = AgentSpec.parse(versioned_name(spec)).head
    except AgentSpecError:
        return False
    return head == "search" or head.startswith("search-v")


def cell_seed(num_players: int, preset: str, fmt: str, seed: int | None = None) -> int:
    """The seed of a (variant, preset, format): the published one, or ``seed + offset`` for a private run."""
    return (BENCHMARK_SEED if seed is None else seed) + SEED_OFFSETS[(num_players, preset, fmt)]


def plan_cells(agent: str, num_players: int, tier: Tier, pool: tuple[str, ...] | None = None,
               seed: int | None = None, deals: int | None = None, games: int | None = None) -> list[Cell]:
    """Every cell of the card, presets outermost. ``deals`` and ``games`` override the tier's sizes (for every
    cell); an opponent that is the agent itself is left out (a mirror match is 0 by construction)."""
    me = versioned_name(agent)
    cells = []
    for preset in PRESET_ORDER:
        for fmt in FORMATS:
            for opponent in map(versioned_name, pool or POOLS[num_players]):
                if opponent == me:
                    continue
                slow = is_search(agent) or is_search(opponent)
                size = {"single": 2 * (deals or (tier.search_deals if slow else tier.deals)),
                        "games": games or (tier.search_games if slow else tier.games)}[fmt]
                cells.append(Cell(opponent, preset, fmt, cell_seed(num_players, preset, fmt, seed), size))
    return cells

