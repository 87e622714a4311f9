"""The ``spades-play/1`` save file: its header (:class:`Setup`), writing it as the game goes, reading it back.

A save is JSON Lines, appended and flushed after every action of every seat, so a killed process loses
nothing::

    {"type": "header", "format": "spades-play/1", "seat": 0, "agents": ["human", "heuristic", ...],
     "seed": 7, "config": {...SpadesConfig...}, "deal": null, "dealer": null, "scores": null, "bags": null}
    {"type": "action", "player": 1, "action": 67, "text": "look"}        one line per action, every seat
    {"type": "hand", "record": {...}}        after each hand: the engine's hand record
    {"type": "end", "scores": [512, 430], "winner": 0, "truncated": false}

Resuming rebuilds the game from the header's seed and options and re-applies the saved actions, so the
state is exactly the saved one whatever the bots would choose today. ``spades replay`` reads saves too
(it recognises them by :data:`PLAY_SAVE_FORMAT`).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np

from spades_env import actions as A
from spades_env.game import IllegalActionError, SpadesConfig, SpadesGame
from spades_env.records import GameWriter, read_games

PLAY_SAVE_FORMAT = "spades-play/1"  # the "format" of a save's header line

Move = tuple[int, int]  # (player, action)


class PlayError(Exception):
    """A problem with the command line or a save file: reported in one line, without a traceback."""


@dataclass
class Setup:
    """Everything needed to rebuild the game from scratch; it is the save file's header."""

    seat: int
    agents: list[str]  # agent spec per seat, "human" at the person's seat
    seed: int
    config: dict  # SpadesConfig.to_dict()
    deal: list | None = None  # SpadesGame.reset(deal=...): four hands, or the two-player stock order
    dealer: int | None = None
    scores: list[int] | None = None
    bags: list[int] | None = None

    @property
    def num_players(self) -> int:
        return len(self.agents)

    def header(self) -> dict:
        return {"type": "header", "format": PLAY_SAVE_FORMAT, **asdict(self)}

    @classmethod
    def from_header(cls, header: dict, path: str) -> Setup:
        if header.get("type") != "header" or header.get("format") != PLAY_SAVE_FORMAT:
            raise PlayError(f"{path} is not a 'spades play' save (its first line is not a {PLAY_SAVE_FORMAT} header)")
        try:
            return cls(**{f.name: header[f.name] for f in fields(cls)})
        except KeyError as exc:
            raise PlayError(f"{path}: the header lacks {exc}") from None

    def spades_config(self) -> SpadesConfig:
        return SpadesConfig(**self.config)

    def reset_args(self) -> dict:
        """The arguments of :meth:`SpadesGame.reset` (and of ``play_game``) that start this game."""
        return {"seed": self.seed, "deal": self.deal, "dealer": self.dealer, "scores": self.scores, "bags": self.bags}

    def new_game(self) -> SpadesGame:
        game = SpadesGame(self.spades_config())
        game.reset(**self.reset_args())
        return game

    def agent_seeds(self) -> list[int]:
        """One seed per seat, derived from the game seed so that a whole session can be reproduced."""
        return [int(s) for s in np.random.SeedSequence(self.seed).generate_state(self.num_players)]


def read_save(path: str) -> tuple[Setup, list[Move]]:
    """The setup and every saved action ``(player, action)`` of a save file, in order.

    An unfinished last line (a write cut short by a kill) is skipped: that action was never applied.
    """
    try:
        lines = list(read_games(path))
    except (OSError, ValueError) as exc:
        raise PlayError(str(exc)) from None
    if not lines:
        raise PlayError(f"{path} is empty")
    setup = Setup.from_header(lines[0], path)
    moves = []
    for line in lines[1:]:
        if line.get("type") == "action":
            try:
                moves.append((int(line["player"]), int(line["action"])))
            except (KeyError, TypeError, ValueError):
                raise PlayError(f"{path}: bad action line {line!r}") from None
    return setup, moves


def restore(setup: Setup, moves: list[Move]) -> SpadesGame:
    """The game after re-applying ``moves`` (checked by the engine) to a fresh game from ``setup``."""
    game = setup.new_game()
    for i, (player, action) in enumerate(moves, start=1):
        if game.game_over or player != game.current_player:
            who = "nobody" if game.game_over else f"player {game.current_player}"
            raise PlayError(f"saved action {i} is for player {player}, but {who} is to act: "
                            "the save does not match this version of the engine")
        try:
            game.apply(action)
        except IllegalActionError as exc:
            raise PlayError(f"saved action {i}: {exc}") from None
    return game


class SaveFile:
    """Appends a game to a save as it is played: the header once, then a line per action, hand and end."""

    def __init__(self, path: str, setup: Setup, new: bool) -> None:
        self.writer = GameWriter(path)
        if new:
            self.writer.write(setup.header())

    def record(self, game: SpadesGame, player: int, action: int, hand_over: bool) -> None:
        """Save ``action`` of ``player``, just applied to ``game``, and what it ended."""
        self.writer.write({"type": "action", "player": player, "action": action, "text": A.action_to_str(action)})
        if hand_over:
            self.writer.write({"type": "hand", "record": game.hand_records[-1]})
        if game.game_over:
            self.writer.write({"type": "end", "scores": list(game.scores), "winner": game.winner,
                               "truncated": game.truncated})

    def close(self) -> None:
        self.writer.close()


def load_deal(path: str, num_players: int) -> dict:
    """Reset arguments from a deal file (``spades play --deal``).

    The file holds JSON: a list (the deal: four hands of 13 cards, or the two-player stock order), or
    an object with ``deal`` and optionally ``dealer``, ``scores`` and ``bags``. A hand record (a line
    of a ``spades play`` save or of a tournament record) also works: its ``hands`` (four players) or
    ``stock`` (two players), ``dealer``, ``scores_before`` and ``bags_before`` replay that hand.
    """
    data = _read_json(path)
    if isinstance(data, list):
        return {"deal": data}
    if not isinstance(data, dict):
        raise PlayError(f"{path}: expected a JSON list or object")
    data = data.get("record", data)  # a "hand" line of a play save
    if isinstance(data.get("hands"), list) and data["hands"] and isinstance(data["hands"][0], dict):
        data = data["hands"][0]  # a game record: its first hand
    deal = data.get("deal")
    if deal is None:
        deal = data.get("stock") if num_players == 2 else data.get("hands")
    if not deal:
        raise PlayError(f"{path}: no deal found (expected 'deal', 'hands' or 'stock')")
    return {"deal": deal, "dealer": data.get("dealer"),
            "scores": data.get("scores_before", data.get("scores")),
            "bags": data.get("bags_before", data.get("bags"))}


def _read_json(path: str):
    """A JSON document, or the first line of a JSON Lines file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return json.loads(text.strip().splitlines()[0])
    except (OSError, ValueError, IndexError) as exc:
        raise PlayError(f"cannot read the deal file {path}: {exc}") from None
