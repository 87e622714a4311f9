"""A recorded game as one self-contained web page (``spades replay FILE --html OUT.html``).

The page carries its data (one JSON block), its style and its script (``agents/html/``): it opens
from disk, with no server, no network, no external script or font. The suit symbols are SVG drawn
from :data:`spades_env.render_rgb.SUIT_SHAPES`, the shapes of the ``rgb_array`` frames, so no font
needs ♠♥♦♣. What the page shows of a hand is built here from the records (:func:`hand_view`); the
script only steps through it. A hand record may carry an ``"analysis"`` dict (the double-dummy
analysis of ``spades analyze``); the page shows it beside that hand, and marks each card play it
found costly on the table, with the points it lost and the best cards.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from spades_env.cards import CARD_NAMES, cards_of, hand_to_str
from spades_env.render import SEAT_NAMES, bid_text
from spades_env.render_rgb import SUIT_SHAPES, display_order

from .play.table import table
from .replay_records import RecordedGame, discard_lines, exchange_lines, final_text, hand_mask, playing_hands

AREAS = {4: ("north", "east", "south", "west"), 2: ("south", "north")}  # where each seat sits on the page
# The score breakdown of a hand, a row per field of spades_env.scoring.SideScore (signed: points), a column per side.
BREAKDOWN_ROWS = (("bid", "bid", False), ("counted tricks", "counted_tricks", False), ("contract", "contract", True),
                  ("bags", "bags_taken", True), ("nil", "nil", True), ("bag penalty", "bag_penalty", True),
                  ("hand points", "total", True))


def hand_view(record: dict, labels: list[str]) -> dict:
    """What the page shows of one hand record, JSON-ready: hands in the order they are laid out."""
    n = record["num_players"]
    sides = table(n)
    start = playing_hands(record)
    dealt = [hand_mask(cards) for cards in record["hands"]]
    return {
        "number": record["hand"],
        "players": n,
        "names": list(SEAT_NAMES[n]),
        "labels": labels,
        "areas": list(AREAS[n]),
        "dealer": record["dealer"],
        "role": "dealer" if n == 4 else "first drawer",
        "before": sides.scores_text(record["scores_before"], record["bags_before"]),
        "hands": [[CARD_NAMES[c] for c in display_order(cards_of(mask))] for mask in start],
        "dealt": None if dealt == start else [f"{labels[p]}: {hand_to_str(m)}" for p, m in enumerate(dealt)],
        "bids": [bid_text(b, blind) for b, blind in zip(record["bids"], record["blind_nil"])],
        "events": discard_lines(record) + exchange_lines(record),
        "plays": [[p, card] for p, card in record["plays"]],
        "winners": list(record["trick_winners"]),
        "columns": ["", *(sides.side_label(s) for s in range(2))],
        "breakdown": breakdown_rows(record),
        "analysis": record.get("analysis"),
        "costly": costly_cards(record.get("analysis")),
    }


def costly_cards(analysis: dict | None) -> dict[str, dict]:
    """The card plays an analysis (``spades analyze``'s ``errors``) found costly, by their index in the hand's
    plays (as text: JSON keys): what each lost and the best cards instead. The page marks them on the table."""
    errors = (analysis or {}).get("errors") or []
    return {str(e["play"]): {"loss": e["loss"], "best": list(e["best"])} for e in errors}


def breakdown_rows(record: dict) -> list[list]:
    """The score breakdown of a hand record: a row per field, a value per side, then the scores after it."""
    rows = [[name, *(f"{side[key]:+d}" if signed else side[key] for side in record["sides"])]
            for name, key, signed in BREAKDOWN_ROWS]
    return rows + [["score after", *record["scores"]], ["bags after", *record["bags"]]]


def game_view(game: RecordedGame, first_hand: int = 1) -> dict:
    """The whole game as the page's script reads it; it opens at hand number ``first_hand``."""
    hands = game.hands
    n = hands[0]["num_players"] if hands else 4
    seats = game.seats if game.seats and len(game.seats) == n else None
    labels = [SEAT_NAMES[n][p] + (f" ({seats[p]})" if seats else "") for p in range(n)]
    last = hands[-1] if hands else None
    return {
        "title": game.title,
        "hands": [hand_view(record, labels) for record in hands],
        "final": final_text(last).strip() if last is not None and last.get("game_over") else "",
        "note": game.note,
        "start": next((i for i, record in enumerate(hands) if record.get("hand", 0) >= first_hand), 0),
    }


def suit_symbols() -> str:
    """An invisible SVG block defining ``#suit-C`` .. ``#suit-S``, which the cards ``<use>``."""
    symbols = []
    for suit, letter in enumerate("CDHS"):
        parts = []
        for kind, *values in SUIT_SHAPES[suit]:
            if kind == "circle":
                parts.append('<circle cx="{}" cy="{}" r="{}"/>'.format(*values))
            else:
                points = " ".join(f"{x},{y}" for x, y in zip(values[::2], values[1::2]))
                parts.append(f'<polygon points="{points}"/>')
        symbols.append(f'<symbol id="suit-{letter}" viewBox="0 0 100 100">{"".join(parts)}</symbol>')
    return f'<svg xmlns="http://www.w3.org/2000/svg" style="display:none">{"".join(symbols)}</svg>'


def _asset(name: str) -> str:
    return resources.files("spades_env.agents").joinpath("html", name).read_text(encoding="utf-8")


def game_page(game: RecordedGame, title: str | None = None, first_hand: int = 1) -> str:
    """The page of one recorded game, as text."""
    data = json.dumps(game_view(game, first_hand), separators=(",", ":"))
    data = data.replace("<", "\\u003c")  # no "</script>" inside the data block
    fill = {"title": html.escape(title or f"Spades: {game.title}"), "style": _asset("viewer.css"),
            "script": _asset("viewer.js"), "suits": suit_symbols(), "data": data}
    return re.sub(r"\{\{(\w+)\}\}", lambda m: fill[m.group(1)], _asset("viewer.html"))


def write_game_page(game: RecordedGame, path: str | Path, title: str | None = None, first_hand: int = 1) -> Path:
    """Write the page of ``game`` to ``path`` (its folder made if needed); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(game_page(game, title, first_hand), encoding="utf-8")
    return path


def write_game_pages(records: Iterable[dict], folder: str | Path) -> Path:
    """One page per game record (a tournament's ``games.jsonl``) in ``folder``, and ``index.html`` linking them.

    Pages are named by the record's ``index`` (its place in the tournament) when it has one.
    """
    folder = Path(folder)
    rows = []
    for number, record in enumerate(records, start=1):
        index = record.get("index")
        name = f"game_{index if index is not None else number - 1:05d}.html"
        game = RecordedGame.of_record(record, number)
        write_game_page(game, folder / name)
        seats = ", ".join(record.get("seats") or [])
        rows.append(f'<tr><td><a href="{name}">{html.escape(game.title)}</a></td><td>{html.escape(seats)}</td>'
                    f'<td>{len(game.hands)}</td><td>{html.escape(str(record.get("scores")))}</td></tr>')
    index_page = ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Games</title></head><body>'
                  "<h1>Games</h1><table><tr><th>game</th><th>agents by seat</th><th>hands</th><th>scores</th></tr>"
                  + "".join(rows) + "</table></body></html>\n")
    (folder / "index.html").write_text(index_page, encoding="utf-8")
    return folder / "index.html"
