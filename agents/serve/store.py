"""The folder of saved games: one ``spades play`` save per game (``<id>.jsonl``), written as the game goes.

A game is opened from its save the first time a page asks for it (after a restart too): the saved
actions are replayed through the engine, and the bots go on if one is to act. Only a game whose bots
are all among the agents this server was started with can be opened; the save says which they were.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..play.human import HUMAN
from ..play.save import PLAY_SAVE_FORMAT, PlayError, read_save
from .roster import RequestError, Roster, new_game
from .table import ServedGame

GAME_ID = re.compile(r"\d{8}-\d{6}-[0-9a-f]{6}\Z")
LISTED = 50  # the most recent saves the start page lists
ANALYSIS_NODES = 200_000  # solver nodes per position: a hand in a second or two (spades analyze's 2M: up to ten)


class GameStore:
    """The games of one server: those opened so far, and the folder they are saved in."""

    def __init__(self, folder: str | Path, roster: Roster, analysis_nodes: int = ANALYSIS_NODES) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.roster, self.analysis_nodes = roster, analysis_nodes
        self.games: dict[str, ServedGame] = {}
        self.lock = threading.Lock()
        # One analysis at a time: the solver is CPU-bound and would slow every game's bots.
        self.analysis_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analysis")

    def path(self, game_id: str) -> Path:
        return self.folder / f"{game_id}.jsonl"

    def create(self, body: object) -> ServedGame:
        """A new game from a page's request (checked by :func:`.roster.new_game`), saved from its first line."""
        request = new_game(body, self.roster)
        with self.lock:
            game_id = time.strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)
            while game_id in self.games or self.path(game_id).exists():
                game_id = time.strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)
            game = ServedGame(game_id, self.path(game_id), request.setup, request.offered, [], new=True)
            self.games[game_id] = game
        game.start_bots()
        return game

    def get(self, game_id: str) -> ServedGame:
        """The game ``game_id``, opened from its save if this server has not opened it yet."""
        if not GAME_ID.match(game_id):
            raise RequestError(404, f"no game {game_id!r}: game ids look like 20261205-141500-a1b2c3")
        with self.lock:
            game = self.games.get(game_id)
            if game is None:
                game = self.games[game_id] = self._open(game_id)
        game.start_bots()
        return game

    def _open(self, game_id: str) -> ServedGame:
        path = self.path(game_id)
        if not path.is_file():
            raise RequestError(404, f"no game {game_id!r} in {self.folder}")
        try:
            setup, moves = read_save(str(path))
        except PlayError as exc:
            raise RequestError(409, f"cannot open game {game_id}: {exc}") from None
        if setup.agents[setup.seat] != HUMAN:
            raise RequestError(409, f"cannot open game {game_id}: its seat {setup.seat} is not a person's")
        offered = {}
        for seat, spec in enumerate(setup.agents):
            if seat != setup.seat:
                offered[seat] = self.roster.by_spec(spec)
                if offered[seat] is None:
                    raise RequestError(409, f"cannot open game {game_id}: it was played with the agent {spec!r}, "
                                            "which this server was not started with (add it to --agents)")
        try:
            return ServedGame(game_id, path, setup, offered, moves, new=False)
        except PlayError as exc:
            raise RequestError(409, f"cannot open game {game_id}: {exc}") from None

    def listing(self) -> list[dict]:
        """The most recent saves, newest first: who played, how far the game went, whether it can be opened."""
        rows = []
        for path in sorted(self.folder.glob("*.jsonl"), reverse=True)[:LISTED]:
            if GAME_ID.match(path.stem):
                row = _summary(path, self.roster)
                if row is not None:
                    rows.append(row)
        return rows

    def close(self) -> None:
        self.analysis_pool.shutdown(wait=False, cancel_futures=True)
        with self.lock:
            for game in self.games.values():
                game.close()


def _summary(path: Path, roster: Roster) -> dict | None:
    """One row of the listing, read from the save's lines (None for a file that is no save of a person)."""
    try:
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.endswith("}")]
    except (OSError, ValueError):
        return None
    header = lines[0] if lines and isinstance(lines[0], dict) else {}
    if header.get("format") != PLAY_SAVE_FORMAT or not isinstance(header.get("agents"), list):
        return None
    agents = header["agents"]
    missing = [a for a in agents if a != HUMAN and roster.by_spec(a) is None]
    end = next((line for line in lines if isinstance(line, dict) and line.get("type") == "end"), None)
    return {"id": path.stem, "agents": agents, "versions": header.get("versions"),
            "num_players": len(agents), "seat": header.get("seat"),
            "single_hand": bool((header.get("config") or {}).get("single_hand")),
            "hands": sum(1 for line in lines if isinstance(line, dict) and line.get("type") == "hand"),
            "over": end is not None, "scores": None if end is None else end.get("scores"),
            "missing": missing}
