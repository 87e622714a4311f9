"""``spades play``: a person takes one seat at the table, agents from the registry take the others.

The game is a match like any other (:func:`spades_env.agents.match.play_game`, as in tournaments):
the person's seat is a :class:`~.human.Human`, an :class:`spades_env.agent.Agent` whose ``act`` shows
the table and reads the keyboard. The parts:

* :mod:`.save`: the ``spades-play/1`` save file (appended after every action, so a killed process loses
  nothing), reading it back and restoring the game from it;
* :mod:`.human`: the human agent, and reading what the person types (the engine decides legality;
  a refused input gets a one-line reason);
* :mod:`.table`, :mod:`.screen`, :mod:`.narration`: the seats in words, what the person sees before
  acting (built from their :class:`~spades_env.view.PlayerView` only), and what is said after each action;
* :mod:`.session`: the match with its save file and narration; resuming replays the saved actions;
* :mod:`.cli`: the command line (``spades play``, or ``python -m spades_env.agents.play``).
"""

from .cli import main
from .human import HUMAN, Human, Quit, parse_input, refusal_reason
from .save import PLAY_SAVE_FORMAT, PlayError, Setup, load_deal, read_save, restore

__all__ = ["HUMAN", "PLAY_SAVE_FORMAT", "Human", "PlayError", "Quit", "Setup", "load_deal", "main", "parse_input",
           "read_save", "refusal_reason", "restore"]
