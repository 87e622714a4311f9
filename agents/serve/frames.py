"""What the page shows after each action: a *frame*, built from the person's :class:`~spades_env.view.PlayerView`
only (their own cards, never another seat's), JSON-ready.

The page steps through the frames one by one, at the pace the person chose, so that the bots' moves
can be followed; the words of each frame are ``spades play``'s narration (:class:`~..play.narration.Narrator`),
which keeps the cards other seats pass or put back hidden.
"""

from __future__ import annotations

from spades_env.cards import CARD_NAMES
from spades_env.game import SpadesGame
from spades_env.render import bid_text
from spades_env.render_rgb import display_order
from spades_env.view import player_view

from ..play.table import Table
from ..replay_html import breakdown_rows


def cards(ids) -> list[str]:
    return [CARD_NAMES[c] for c in ids]


def last_trick(game: SpadesGame, record: dict | None) -> dict | None:
    """The last completed trick of the hand being played, or of the hand ``record`` just ended."""
    if record is not None:
        n = record["num_players"]
        return {"plays": [list(p) for p in record["plays"][-n:]], "winner": record["trick_winners"][-1]}
    if not game.completed_tricks:
        return None
    trick = game.completed_tricks[-1]
    return {"plays": [[p, CARD_NAMES[c]] for p, c in trick.plays], "winner": trick.winner}


def hand_result(record: dict, sides: Table) -> dict:
    """A hand just ended: bids, tricks and the score breakdown per side."""
    return {"hand": record["hand"], "bids": [bid_text(b, blind) for b, blind in zip(record["bids"],
                                                                                      record["blind_nil"])],
            "tricks": list(record["tricks"]), "points": list(record["points"]),
            "columns": ["", *(sides.side_label(s) for s in range(2))], "breakdown": breakdown_rows(record)}


def frame(game: SpadesGame, sides: Table, seq: int, actor: int | None, log: list[str], record: dict | None) -> dict:
    """The person's view after ``seq`` actions, the last one by ``actor``; ``log`` says what it did, ``record``
    is the hand it ended (if it ended one)."""
    seat = sides.seat
    view = player_view(game, seat)
    over = game.game_over
    return {
        "seq": seq,
        "actor": actor,
        "hand": game.hand_number + (0 if over else 1),
        "phase": view.phase.name.lower(),
        "to_act": view.to_act,
        "dealer": view.dealer,
        "log": log,
        "looked": view.looked,
        "cards": cards(display_order(list(view.hand))),
        "bids": [bid_text(b, blind) for b, blind in zip(view.bids, view.blind)],
        "tricks": list(view.tricks_won),
        "trick": [[p, CARD_NAMES[c]] for p, c in view.trick],
        "last_trick": last_trick(game, record),
        "scores": list(view.scores),
        "bags": list(view.bags),
        "spades_broken": view.spades_broken,
        "offered": None if view.offered is None else CARD_NAMES[view.offered],
        "stock_left": view.stock_left,
        "discarded": cards(view.discarded),
        "passed": cards(view.passed),
        "received": cards(view.received),
        "legal": list(view.legal_actions),
        "hand_result": None if record is None else hand_result(record, sides),
        "over": over,
        "result": sides.result_text(game.hand_number, game.scores, game.winner, game.truncated).strip()
        if over else None,
    }
