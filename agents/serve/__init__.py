"""``spades serve``: play against the agents in the browser.

A local web application (Starlette, served by uvicorn on 127.0.0.1): a person picks a seat, a partner and
opponents among the agents the server was started with, the variant and rules, and plays by clicking;
after each hand the double-dummy analysis, at the end the HTML replay viewer. The parts:

* :mod:`.roster`: the agents offered, the rules, a new game's request checked into a ``spades play`` setup;
* :mod:`.frames`: what the page shows after each action, from the person's view only;
* :mod:`.table`: one game being played: the person's checked actions, the bots in a thread, the save;
* :mod:`.store`: the folder of saves (one ``spades play`` save per game), opened again after a restart;
* :mod:`.app`: the Starlette application and its JSON API; :mod:`.cli`: the command line;
* :mod:`.dataset`: a folder of saved games as a dataset of the person's decisions (imitation learning).

Only :mod:`.app` needs the ``serve`` extra (Starlette; uvicorn for the command).
"""

from .cli import main
from .dataset import HumanDecisions, read_human_games

__all__ = ["HumanDecisions", "main", "read_human_games"]
