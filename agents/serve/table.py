"""One game at the server: the engine, the bots, the save file, and the frames the page steps through.

Who may change the game, and when:

* the person's action (:meth:`ServedGame.act`) is checked in full (the tab's token, the move number,
  the turn, the engine's legality) under the game's lock, applied, written to the save and only then
  answered, so a refused request changes nothing and a killed server loses nothing that was answered;
* the bots play in a thread of their own (:meth:`ServedGame.start_bots`), one at a time per game, the lock
  held only to apply a move: a slow agent holds up its own game, never the server's event loop or another
  game. While a bot thinks the person is not to act, so nothing else can change the state it reads.

Pages that wait for the bots park on :meth:`ServedGame.wait` (a future of the event loop, woken from the
bots' thread), so a waiting page holds no thread.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from concurrent.futures import Executor, Future
from pathlib import Path

from spades_env import actions as A
from spades_env.agent import ask, check_config, close_agent, reset_agent
from spades_env.records import GameWriter
from spades_env.render import SEAT_NAMES
from spades_env.view import player_view

from ..analyze import HandAnalysis, analyze_hand
from ..play.human import refusal_reason
from ..play.narration import Narrator
from ..play.save import Move, PlayError, SaveFile, Setup
from ..play.table import table
from ..registry import make_agent
from .frames import frame
from .roster import Offered, RequestError, describe

SERVER = "spades serve"  # the "server" of a save's header: a save this program wrote


class ServedGame:
    """A game being played (or finished), rebuilt from its save when the server opens it again."""

    def __init__(self, game_id: str, path: Path, setup: Setup, offered: dict[int, Offered], moves: list[Move],
                 new: bool) -> None:
        self.id, self.path, self.setup, self.offered = game_id, path, setup, offered
        self.seat = setup.seat
        self.sides = table(setup.num_players, setup.seat)
        self.config = setup.spades_config()
        self.bots = self._make_bots()
        self.lock = threading.Lock()
        self.token: str | None = None  # the tab that holds the person's seat
        self.running = False  # the bots' thread is playing
        self.error: str | None = None  # why the game stopped (a bot failed, the save cannot be written)
        self.waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future]] = []
        self.analyses: dict[int, Future] = {}
        self.game = setup.new_game()
        self._lines: list[str] = []
        self.narrator = Narrator(self.sides, self._lines.append, setup.new_game())
        self.narrator.announce_hand(self.game)
        self.frames = [frame(self.game, self.sides, 0, None, self._take_lines(), None)]
        for number, (player, action) in enumerate(moves, start=1):
            if self.game.game_over or player != self.game.current_player or not self.game.is_legal(action):
                raise PlayError(f"saved action {number} ({player}, {action}) does not replay through the engine")
            self._step(player, action)
        if new:
            with GameWriter(path) as writer:
                writer.write(setup.header() | {"server": SERVER, "versions": self.versions()})
        self.save = SaveFile(str(path), setup, new=False)

    # ------------------------------------------------------------------ who sits where

    def _make_bots(self) -> dict:
        bots, seeds = {}, self.setup.agent_seeds()
        for seat, offered in self.offered.items():
            agent = make_agent(offered.spec)
            try:
                check_config(agent, self.config, offered.label)
            except ValueError as exc:
                close_agent(agent)
                raise RequestError(422, str(exc)) from None
            reset_agent(agent, seat, seeds[seat], self.config)
            bots[seat] = agent
        return bots

    def versions(self) -> list[str]:
        return ["human" if p == self.seat else self.offered[p].version for p in range(self.setup.num_players)]

    def seats(self) -> list[dict]:
        names = SEAT_NAMES[self.setup.num_players]
        return [{"name": names[p], "you": p == self.seat, "partner": p == self.sides.partner,
                 "agent": None if p == self.seat else self.offered[p].label,
                 "version": None if p == self.seat else self.offered[p].version}
                for p in range(self.setup.num_players)]

    def meta(self) -> dict:
        return {"id": self.id, "num_players": self.setup.num_players, "seat": self.seat, "seats": self.seats(),
                "sides": [self.sides.side_label(s) for s in range(2)], "rules": describe(self.config),
                "mode": "hand" if self.config.single_hand else "game", "target": self.config.target_score,
                "seed": self.setup.seed}

    # ------------------------------------------------------------------ moves

    def _take_lines(self) -> list[str]:
        lines = [line.strip("\n") for line in self._lines]
        self._lines.clear()
        return lines

    def _step(self, player: int, action: int, save: bool = False) -> None:
        """Apply a checked ``action`` of ``player``; save it (``save``), narrate it, add its frame."""
        game = self.game
        hand = game.hand_number
        game.apply(action)
        hand_over = game.hand_number > hand
        if save:
            self.save.record(game, player, action, hand_over)
        self.narrator.step(game, player, action)
        record = game.hand_records[-1] if hand_over else None
        self.frames.append(frame(game, self.sides, len(self.frames), player, self._take_lines(), record))
        self._wake()

    @property
    def seq(self) -> int:
        """The move number: actions applied so far (the frame the page acts from)."""
        return len(self.frames) - 1

    def claim(self) -> str:
        """A new token for the tab that takes the person's seat; the tab that held it can no longer act."""
        with self.lock:
            self.token = secrets.token_urlsafe(16)
            return self.token

    def _holds(self, token: object) -> bool:
        """Whether ``token`` is the one the seat's tab holds (compared in constant time, any text)."""
        return self.token is not None and isinstance(token, str) and \
            secrets.compare_digest(token.encode(), self.token.encode())

    def act(self, token: object, seq: object, action: object) -> None:
        """The person's action, checked in full first; raises :class:`RequestError` and changes nothing."""
        if type(seq) is not int or type(action) is not int:
            raise RequestError(400, "an action is {\"token\": ..., \"seq\": move number, \"action\": action id}, "
                                    f"with whole numbers; got seq {seq!r}, action {action!r}")
        with self.lock:
            if self.error:
                raise RequestError(409, f"this game has stopped: {self.error}")
            if not self._holds(token):
                raise RequestError(403, "this tab does not hold the seat (another tab took it, or the server "
                                        "restarted): take the seat to play here")
            if seq != self.seq:
                raise RequestError(409, f"move {seq} is not the current move {self.seq}: the request is stale or "
                                        "replayed; reload the game")
            game = self.game
            if game.game_over:
                raise RequestError(409, "the game is over")
            if game.current_player != self.seat:
                name = SEAT_NAMES[game.num_players][game.current_player]
                raise RequestError(409, f"it is not your turn: {name} is to act")
            if not game.is_legal(action):
                view = player_view(game, self.seat)
                known = 0 <= action < A.NUM_ACTIONS
                raise RequestError(422, refusal_reason(view, action) if known else f"no action has the id {action}")
            try:
                self._step(self.seat, action, save=True)
            except OSError as exc:
                self.error = f"the save {self.path} cannot be written ({exc.strerror}); restart the server"
                raise RequestError(409, self.error) from None
        self.start_bots()

    # ------------------------------------------------------------------ the bots

    def _bot_to_act(self) -> bool:
        return not self.game.game_over and self.game.current_player != self.seat and self.error is None

    def start_bots(self) -> None:
        """Let the bots play up to the person's next turn (or the end), in a thread of this game."""
        with self.lock:
            if self.running or not self._bot_to_act():
                return
            self.running = True
        threading.Thread(target=self._run_bots, name=f"bots-{self.id}", daemon=True).start()

    def _run_bots(self) -> None:
        game = self.game
        try:
            while True:
                with self.lock:
                    if not self._bot_to_act():
                        return
                    player = game.current_player
                action = ask(self.bots[player], game)
                with self.lock:
                    if not game.is_legal(action):
                        self.error = f"{self.offered[player].label} chose an illegal action {action!r}"
                        return
                    self._step(player, action, save=True)
        except Exception as exc:  # a bot's bug or a full disk stops this game only, with the reason shown
            self.error = f"{type(exc).__name__}: {exc}".replace("\n", " ")
        finally:
            with self.lock:
                self.running = False
                self._wake()

    # ------------------------------------------------------------------ pages that wait

    def _wake(self) -> None:
        """Wake the pages waiting for a new frame (called with the lock held)."""
        for loop, future in self.waiters:
            loop.call_soon_threadsafe(_resolve, future)
        self.waiters.clear()

    async def wait(self, since: int, timeout: float) -> None:
        """Return when a frame after ``since`` exists, the bots stop, or ``timeout`` seconds pass."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        with self.lock:
            if self.seq > since or not self.running:
                return
            self.waiters.append((loop, future))
        try:
            await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:  # noqa: UP041 (3.10: not the built-in TimeoutError)
            with self.lock:
                if (loop, future) in self.waiters:
                    self.waiters.remove((loop, future))

    def state(self, since: int, token: object) -> dict:
        """The frames after ``since`` (only the latest when ``since`` is negative), and the game's status."""
        with self.lock:
            frames = self.frames[since + 1:] if since >= 0 else self.frames[-1:]
            holder = None if self.token is None else "you" if self._holds(token) else "other"
            return {"seq": self.seq, "frames": frames, "running": self.running, "error": self.error,
                    "holder": holder, "over": self.game.game_over, "hands_done": len(self.game.hand_records)}

    # ------------------------------------------------------------------ analysis

    def analysis(self, hand: int, executor: Executor, max_nodes: int) -> dict | None:
        """The double-dummy analysis of completed hand ``hand`` (from 1), or None while it is computed."""
        records = self.game.hand_records
        if not 1 <= hand <= len(records):
            raise RequestError(404, f"hand {hand} is not over (hands over: {len(records)})")
        with self.lock:
            future = self.analyses.get(hand)
            if future is None:
                future = self.analyses[hand] = executor.submit(analyze_hand, records[hand - 1], self.config,
                                                               1, None, max_nodes)
        if not future.done():
            return None
        if future.exception() is not None:
            return {"hand": hand, "error": f"the analysis failed: {future.exception()}"}
        return analysis_json(future.result(), SEAT_NAMES[self.setup.num_players])

    def finished_analyses(self) -> dict[int, dict]:
        """The analyses computed so far, by hand."""
        names = SEAT_NAMES[self.setup.num_players]
        with self.lock:
            done = {hand: f for hand, f in self.analyses.items() if f.done() and f.exception() is None}
        return {hand: analysis_json(f.result(), names) for hand, f in done.items()}

    def close(self) -> None:
        self.save.close()
        for agent in self.bots.values():
            close_agent(agent)


def _resolve(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


def analysis_json(analysis: HandAnalysis, names: tuple[str, ...]) -> dict:
    """A hand's analysis for the page: par, the points each side lost to card play, and each costly card."""
    return {"hand": analysis.hand, "par": analysis.par_value, "par_points": analysis.par_points,
            "par_tricks": analysis.par_tricks, "points": analysis.points, "tricks": analysis.tricks,
            "lost": analysis.lost_by_side(), "analyzed": sum(analysis.analyzed),
            "plays": analysis.num_players * 13,
            "errors": [{"play": e.play, "trick": e.trick, "seat": names[e.seat], "card": e.card, "best": e.best,
                        "cost": e.loss} for e in analysis.errors]}


def analysis_for_viewer(analysis: dict) -> dict:
    """The same analysis as the replay page shows it beside a hand (its ``costly plays`` rows are marked as the
    page steps through them)."""
    return {"par (side 1 minus side 2)": analysis["par"], "par points": analysis["par_points"],
            "points lost to card play": analysis["lost"],
            "plays analysed": f"{analysis['analyzed']} of {analysis['plays']}",
            "costly plays": [{"play": e["play"], "trick": e["trick"], "seat": e["seat"], "card": e["card"],
                              "best": " ".join(e["best"]), "cost": e["cost"]} for e in analysis["errors"]]}


__all__ = ["SERVER", "ServedGame", "analysis_for_viewer", "analysis_json"]
