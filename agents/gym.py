"""The ``gymnasium.make("spades_env/Spades-v0")`` entry point: agent names resolved into opponents.

:class:`~spades_env.wrappers.gym_env.SpadesGymEnv` takes agent objects only
(the environment layer knows no registry); this factory builds one registry
agent per seat from names such as ``"heuristic"`` or ``{1: "random", 2: "ppo",
3: "heuristic"}``, and is what gymnasium's registry calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spades_env.variant import variant_of
from spades_env.wrappers.gym_env import Opponent, SpadesGymEnv

from .registry import make_agent

OpponentSpec = str | Opponent | Mapping[int, str | Opponent]


def spades_gym_env(opponents: OpponentSpec = "heuristic", seat: int = 0, partnership: bool = False,
                   **kwargs: Any) -> SpadesGymEnv:
    """A :class:`SpadesGymEnv`; names in ``opponents`` become one registry agent per seat."""
    num_players = kwargs.get("num_players", 4)
    if isinstance(opponents, Mapping):
        chosen = dict(opponents)
    else:
        learners = set(variant_of(num_players).sides[seat % 2]) if partnership else {seat}
        chosen = {s: opponents for s in range(num_players) if s not in learners}
    resolved = {s: make_agent(a) if isinstance(a, str) else a for s, a in chosen.items()}
    return SpadesGymEnv(seat=seat, partnership=partnership, opponents=resolved, **kwargs)
