"""A folder of games people played (``spades serve`` or ``spades play`` saves) as a dataset for imitation
learning: at each of the person's decisions, the observation the environment would have given their seat,
the action mask, and the action they took.

The observations are ``spades_v0``'s own vectors (:class:`~spades_env.observations.ObservationTracker`,
as the match driver keeps them), so a network trained on them plays through the usual agent protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from spades_env.actions import NUM_ACTIONS, mask_array
from spades_env.agent import forced_action
from spades_env.observations import ObservationTracker, observation_size

from ..play.human import HUMAN
from ..play.save import PlayError, read_save


@dataclass
class HumanDecisions:
    """The person's decisions of a set of games, one row each, in game order then play order."""

    observations: np.ndarray  # (N, observation size) float32
    masks: np.ndarray  # (N, 71) int8: the legal actions
    actions: np.ndarray  # (N,) int64: what the person chose
    games: np.ndarray  # (N,) int64: the row's game, an index into files
    files: list[str]  # the saves read, in order

    def __len__(self) -> int:
        return len(self.actions)


def read_human_games(folder: str | Path, num_players: int = 4, kind: str = "default",
                     include_forced: bool = False) -> HumanDecisions:
    """The person's decisions in every save of ``folder`` for the ``num_players`` variant.

    Files that are not saves of a game with a person (other JSON Lines, the other variant) are passed
    over; a save whose actions do not replay through the engine raises ``ValueError`` naming it.
    ``kind`` is the observation kind (``"default"``, ``"history"``, ``"oracle"``); forced decisions (a
    single legal action, which agents are never asked) are left out unless ``include_forced``.
    Unfinished games count: every decision saved so far is in.
    """
    rows: tuple[list, list, list, list] = ([], [], [], [])
    files: list[str] = []
    for path in sorted(Path(folder).glob("*.jsonl")):
        try:
            setup, moves = read_save(str(path))
        except PlayError:
            continue  # not a save
        if setup.num_players != num_players or setup.agents[setup.seat] != HUMAN:
            continue
        _read_game(path, setup, moves, kind, include_forced, len(files), rows)
        files.append(str(path))
    observations, masks, actions, games = rows
    return HumanDecisions(
        np.array(observations, np.float32).reshape(len(actions), observation_size(num_players, kind)),
        np.array(masks, np.int8).reshape(len(actions), NUM_ACTIONS), np.array(actions, np.int64),
        np.array(games, np.int64), files)


def _read_game(path: Path, setup, moves, kind: str, include_forced: bool, index: int, rows: tuple) -> None:
    game = setup.new_game()
    tracker = ObservationTracker(game, kind)
    tracker.rebuild()
    for number, (player, action) in enumerate(moves, start=1):
        if game.game_over or player != game.current_player or not game.is_legal(action):
            raise ValueError(f"{path}: saved action {number} ({player}, {action}) does not replay through the engine")
        if player == setup.seat:
            legal = game.legal_mask()
            if include_forced or forced_action(legal) is None:
                for row, value in zip(rows, (tracker.vectors[player].copy(), mask_array(legal), action, index)):
                    row.append(value)
        phase = game.phase
        game.apply(action)
        tracker.update(player, action, phase)
