"""One game at the table: a match (:func:`spades_env.agents.match.play_game`) with the person's
:class:`~spades_env.agents.play.human.Human` at one seat and bots from the registry at the others,
saved and narrated as it goes.

Resuming runs the same match from the start: every seat first plays back its saved actions
(:class:`SavedFirst`), silently, then the game goes on from exactly the saved state.
"""

from __future__ import annotations

import sys
from collections import deque

from spades_env.agent import Agent, reset_agent
from spades_env.game import SpadesConfig, SpadesGame

from ..match import play_game
from ..registry import make_agent
from ..warmup import parts_for, warm
from . import style
from .human import Human
from .narration import Narrator
from .save import Move, PlayError, SaveFile, Setup
from .screen import legend
from .table import table
from .terminal import LiveScreen, Reader, Writer, print_line


class SavedFirst:
    """A seat's agent that plays back the save first (resume), then asks the agent.

    The saves of all seats share one queue, in order: the driver asks only the seat to act, so the
    queue's head is always that seat's own saved action.
    """

    def __init__(self, agent: Agent, saved: deque[Move]) -> None:
        self.agent, self.saved = agent, saved
        # The driver reads these to decide what to build for the agent; pass them through.
        for name in ("needs_observation", "needs_view", "observation_kind"):
            if hasattr(agent, name):
                setattr(self, name, getattr(agent, name))

    def reset(self, seat: int, seed: int | None = None, config: SpadesConfig | None = None) -> None:
        reset_agent(self.agent, seat, seed, config)

    def act(self, observation, action_mask, view) -> int:
        if self.saved:
            return self.saved[0][1]  # popped by Session._on_step once the driver has applied it
        return self.agent.act(observation, action_mask, view)


class Session:
    """The agents of one game, its save file and its narration."""

    def __init__(self, setup: Setup, save_path: str, moves: list[Move], copy_moves: bool,
                 read: Reader, write: Writer) -> None:
        self.setup, self.save_path = setup, save_path
        self.table = table(setup.num_players, setup.seat)
        # On the program's own terminal: suit symbols and colour, and the table redrawn in place.
        style.use(style.detect(sys.stdout) if write is print_line else style.PLAIN)
        live = LiveScreen(write, legend(self.table, setup, save_path)) if style.current().redraw else None
        self.write = live.event if live else write
        self.saved: deque[Move] = deque(moves)
        self.saved_moves = len(moves)
        self.copy_moves = copy_moves  # write the saved moves too (a new save, or resuming into another file)
        self.agents: list[Agent] = [Human(self.table, read, self.write, live.show if live else None)
                                    if p == setup.seat else make_agent(spec) for p, spec in enumerate(setup.agents)]
        # Compiled now, before the first prompt, so that no hand stops mid-way to compile (a terminal is told).
        warm(parts_for(spec for p, spec in enumerate(setup.agents) if p != setup.seat))
        self.narrator = Narrator(self.table, self.write, setup.new_game())
        self.save: SaveFile | None = None

    def open_save(self) -> None:
        self.save = SaveFile(self.save_path, self.setup, new=self.copy_moves)

    def close(self) -> None:
        if self.save is not None:
            self.save.close()

    def run(self) -> SpadesGame:
        """Play (the rest of) the game; raises :class:`~.human.Quit` or ``KeyboardInterrupt`` when the person stops."""
        s = self.setup
        return play_game([SavedFirst(agent, self.saved) for agent in self.agents], config=s.spades_config(),
                         agent_seeds=s.agent_seeds(), on_step=self._on_step, **s.reset_args())

    def _on_step(self, game: SpadesGame, player: int, action: int) -> None:
        replaying = bool(self.saved)
        if replaying:
            expected = self.saved.popleft()
            if expected != (player, action):  # restore() checked the save first, so this means a bug here
                raise PlayError(f"replay went out of step: saved {expected}, the driver played {(player, action)}")
        if not replaying or self.copy_moves:
            self.save.record(game, player, action, hand_over=game.hand_number > self.narrator.before.hand_number)
        self.narrator.step(game, player, action, silent=replaying)
