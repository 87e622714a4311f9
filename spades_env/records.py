"""Game records as JSON Lines, and replay of hand and game records through the engine.

A *game record* is one JSON object per game::

    {"format": "spades-game/2", "config": {...SpadesConfig...}, "seed": 7, "first_dealer": 2,
     "hands": [<hand record>, ...], "scores": [s0, s1], "winner": 0 | 1 | null, "truncated": false}

where each hand record is exactly what the engine appends to
``SpadesGame.hand_records`` (and the env passes in ``infos``). A file holds
one game per line, so a tournament can append games one at a time, flush
each, and resume after a crash by counting the complete lines.

Versions: ``spades-game/1`` records also carry ``"overtricks"`` in each side
of a hand's ``"sides"``, always equal to ``"bags_taken"``; version 2 drops
the copy. Both replay: a version-1 side's ``overtricks`` must equal its
``bags_taken`` and is then set aside, every other field is compared as is.

Replay never scores anything itself: :func:`replay_hand` re-deals the
recorded hand into a fresh :class:`SpadesGame`, applies the recorded actions
and compares the engine's own record with the stored one, so a record that a
buggy or edited program wrote is caught by the rules engine.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from .actions import DONE
from .cards import to_card
from .game import Phase, SpadesConfig, SpadesGame

FORMAT = "spades-game/2"
LEGACY_FORMATS = ("spades-game/1",)  # read and replayed; see the module docstring


class RecordMismatchError(ValueError):
    """A record disagrees with what the rules engine does with the same deal and actions."""


# ------------------------------------------------------------------ building


def game_record(game: SpadesGame, seed: int | None = None) -> dict:
    """The JSON-ready record of ``game`` (normally a finished one).

    ``seed`` is the seed the game was reset with; the engine does not keep it,
    so the caller passes it along for reproducibility.
    """
    hands = [dict(h) for h in game.hand_records]
    return {
        "format": FORMAT,
        "config": game.config.to_dict(),
        "seed": seed,
        "first_dealer": hands[0]["dealer"] if hands else game.dealer,
        "hands": hands,
        "scores": list(game.scores),
        "winner": game.winner,
        "truncated": game.truncated,
    }


# ------------------------------------------------------------- JSON Lines I/O


class GameWriter:
    """Append game records to a JSON Lines file, one flushed line per game.

    Opening an existing file appends to it (so an interrupted tournament can
    resume). A last line without its newline is what a crash in the middle
    of a write leaves behind; it is not a complete record, so it is cut off
    (with a warning) before anything is appended.
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        _drop_partial_last_line(self.path)
        self._file = open(self.path, "a", encoding="utf-8")

    def write(self, record: Mapping[str, Any]) -> None:
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()  # a finished game survives a crash of the writing process

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> GameWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _drop_partial_last_line(path: Path) -> None:
    if not path.exists() or path.stat().st_size == 0:
        return
    with open(path, "rb+") as f:
        data = f.read()
        if data.endswith(b"\n"):
            return
        keep = data.rfind(b"\n") + 1
        warnings.warn(f"{path}: dropping an incomplete last line ({len(data) - keep} bytes) left by an "
                      "interrupted write", stacklevel=3)
        f.truncate(keep)


def write_games(path: str | os.PathLike, records: Iterable[Mapping[str, Any]]) -> int:
    """Append ``records`` to ``path``; returns how many were written."""
    n = 0
    with GameWriter(path) as writer:
        for record in records:
            writer.write(record)
            n += 1
    return n


def read_games(path: str | os.PathLike) -> Iterator[dict]:
    """Yield the game records of a JSON Lines file, in order (blank lines are skipped).

    A line that is not a JSON object raises ``ValueError`` naming the line,
    except an unfinished last line (no newline), which an interrupted writer
    leaves: it is skipped with a warning, as :class:`GameWriter` would drop it.
    """
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                if not line.endswith("\n"):
                    warnings.warn(f"{path}:{number}: skipping an incomplete last line", stacklevel=2)
                    return
                raise ValueError(f"{path}:{number}: not a JSON game record: {exc}") from None
            if not isinstance(record, dict):
                raise ValueError(f"{path}:{number}: expected a JSON object, got {type(record).__name__}")
            yield record


# ------------------------------------------------------------------- replay


def _config(config: SpadesConfig | Mapping[str, Any] | None) -> SpadesConfig:
    if config is None:
        return SpadesConfig()
    if isinstance(config, SpadesConfig):
        return config
    return SpadesConfig(**config)


def hand_at_start(record: Mapping[str, Any], config: SpadesConfig) -> SpadesGame:
    """A game at the start of the recorded hand: its deal (four players: the hands; two players: the
    stock order), dealer, scores and bags, and its number (which matters for ``max_hands``)."""
    game = SpadesGame(config)
    deal = record["stock"] if game.variant.drawn else record["hands"]
    game.reset(deal=deal, dealer=record["dealer"], scores=record["scores_before"], bags=record["bags_before"])
    game.hand_number = int(record.get("hand", 1)) - 1  # the engine counts hands from its reset
    return game


def recorded_draws(record: Mapping[str, Any]) -> Iterator[int]:
    """The recorded chance outcomes of the hand after its deal: the two-player Blind Nil replacement draws."""
    return iter([to_card(drawn) for _, _, drawn in record.get("replacements") or []])


def recorded_outcome(game: SpadesGame, action: int, draws: Iterator[int]) -> int | None:
    """What to pass as ``outcome`` with ``action`` to repeat the record: the next draw for a replacement."""
    return next(draws, None) if game.phase is Phase.REPLACE and action != DONE else None


def replay_hand(record: Mapping[str, Any], config: SpadesConfig | Mapping[str, Any] | None = None) -> dict:
    """Re-play one hand record through the engine and return the engine's fresh record.

    The hand is re-dealt from the record (``hands``, or for two players the
    ``stock`` and the Blind Nil replacement draws; ``dealer``,
    ``scores_before``, ``bags_before``) and the recorded ``actions`` are
    applied in order. Raises :class:`RecordMismatchError` if an action is
    illegal or made by the wrong player, if the hand does not end exactly
    with the last action, or if any field of the fresh record differs from
    the stored one (bids, plays, trick winners, the score breakdown, ...).
    """
    number = record.get("hand", "?")
    record = _without_legacy_overtricks(record, number)
    try:
        game = hand_at_start(record, _config(config))
        draws = recorded_draws(record)
    except KeyError as exc:
        raise RecordMismatchError(f"hand {number}: record lacks the field {exc}") from None
    except ValueError as exc:
        raise RecordMismatchError(f"hand {number}: the engine rejects the recorded deal: {exc}") from None
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise RecordMismatchError(f"hand {number}: record lacks the list of actions")
    for i, item in enumerate(actions):
        if len(game.hand_records) == 1:
            raise RecordMismatchError(f"hand {number}: the hand was over after {i} actions, "
                                      f"but the record has {len(actions)}")
        try:
            player, action = item
        except (TypeError, ValueError):
            raise RecordMismatchError(f"hand {number}, action {i}: expected [player, action], got {item!r}") from None
        if player != game.current_player:
            raise RecordMismatchError(f"hand {number}, action {i}: recorded for player {player}, "
                                      f"but player {game.current_player} is to act")
        try:
            game.apply(action, recorded_outcome(game, action, draws))
        except ValueError as exc:
            raise RecordMismatchError(f"hand {number}, action {i}: {exc}") from None
    if len(game.hand_records) != 1:
        raise RecordMismatchError(f"hand {number}: the hand is not over after the recorded {len(actions)} actions")
    fresh = game.hand_records[0]
    differ = sorted(k for k in set(fresh) | set(record) if fresh.get(k) != record.get(k))
    if differ:
        detail = "; ".join(f"{k}: recorded {record.get(k)!r}, engine {fresh.get(k)!r}" for k in differ)
        raise RecordMismatchError(f"hand {number}: the record disagrees with the engine: {detail}")
    return fresh


def _without_legacy_overtricks(record: Mapping[str, Any], number: Any) -> Mapping[str, Any]:
    """``record`` with the ``overtricks`` copies that spades-game/1 kept in each side checked and dropped."""
    sides = record.get("sides")
    if not isinstance(sides, list) or not any(isinstance(side, dict) and "overtricks" in side for side in sides):
        return record
    current = []
    for i, side in enumerate(sides):
        if isinstance(side, dict) and "overtricks" in side:
            side = dict(side)
            overtricks = side.pop("overtricks")
            if overtricks != side.get("bags_taken"):
                raise RecordMismatchError(f"hand {number}: sides[{i}] records overtricks {overtricks!r} but "
                                          f"bags_taken {side.get('bags_taken')!r} (spades-game/1 kept them equal)")
        current.append(side)
    return {**record, "sides": current}


def replay_game(game: Mapping[str, Any]) -> list[dict]:
    """Re-score every hand of a game record and check how the hands chain together.

    The format must be :data:`FORMAT` or one of :data:`LEGACY_FORMATS`. Each
    hand is replayed with :func:`replay_hand`; then hand numbers must run
    1, 2, ...; the first dealer is the recorded one and the deal passes left;
    each hand starts from the previous hand's scores and bags; only the last
    hand ends the game, and the game's scores, winner and truncation are the
    last hand's. Returns the fresh hand records; raises
    :class:`RecordMismatchError` on the first disagreement.
    """
    if game.get("format") not in (FORMAT, *LEGACY_FORMATS):
        raise RecordMismatchError(f"unknown record format {game.get('format')!r}: this version reads "
                                  f"{', '.join((FORMAT, *LEGACY_FORMATS))}")
    cfg = _config(game.get("config"))
    hands = game.get("hands")
    if not hands:
        raise RecordMismatchError("game record has no hands")
    fresh = []
    previous = None
    for i, record in enumerate(hands, start=1):
        where = f"hand {i}"
        if record.get("hand") != i:
            raise RecordMismatchError(f"{where}: numbered {record.get('hand')!r}")
        expected_dealer = game.get("first_dealer") if previous is None else (previous["dealer"] + 1) % cfg.num_players
        if expected_dealer is not None and record.get("dealer") != expected_dealer:
            raise RecordMismatchError(f"{where}: dealer {record.get('dealer')!r}, expected {expected_dealer} "
                                      "(the deal passes to the left)")
        if previous is not None:
            for before, after in (("scores_before", "scores"), ("bags_before", "bags")):
                if record.get(before) != previous[after]:
                    raise RecordMismatchError(f"{where}: {before} {record.get(before)!r} does not continue "
                                              f"hand {i - 1}'s {after} {previous[after]!r}")
            if previous["game_over"]:
                raise RecordMismatchError(f"{where}: the game was already over after hand {i - 1}")
        fresh.append(replay_hand(record, cfg))
        previous = record
    if not previous["game_over"]:
        raise RecordMismatchError(f"the game is not over after its last hand ({len(hands)})")
    for key in ("scores", "winner", "truncated"):
        if game.get(key) != previous[key]:
            raise RecordMismatchError(f"game {key} {game.get(key)!r} differs from the last hand's {previous[key]!r}")
    return fresh


__all__ = ["FORMAT", "LEGACY_FORMATS", "RecordMismatchError", "game_record", "GameWriter", "write_games", "read_games",
           "replay_hand", "replay_game"]
