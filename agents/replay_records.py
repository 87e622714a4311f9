"""The games a recorded file holds, and the parts of a hand record in words: what ``spades replay`` shows
in the terminal (:mod:`spades_env.agents.replay`) and on a web page (:mod:`spades_env.agents.replay_html`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from spades_env.cards import mask_of, str_to_card, to_card
from spades_env.records import read_games
from spades_env.render import SEAT_NAMES

from .play.save import PLAY_SAVE_FORMAT
from .play.table import table


@dataclass
class RecordedGame:
    """The hands of one game as recorded, and what is known of who played them."""

    title: str
    hands: list[dict] = field(default_factory=list)
    seats: list[str] | None = None  # who played at each seat (agent names), when recorded
    note: str = ""  # shown after the last hand
    pending_actions: int = 0  # play saves: actions after the last completed hand
    over: bool = False
    config: dict | None = None  # the rules (SpadesConfig.to_dict()), when the file records them

    @classmethod
    def of_record(cls, record: dict, number: int) -> RecordedGame:
        """A game record (:func:`spades_env.records.game_record`), the ``number``-th game of its file."""
        title = f"game {number} of the file"
        if record.get("index") is not None:
            title += f" (tournament game {record['index']})"
        if record.get("seed") is not None:
            title += f", seed {record['seed']}"
        return cls(title, list(record["hands"]), seats=record.get("seats"), over=True, config=record.get("config"))

    def add_save_line(self, line: dict) -> None:
        """An action, hand or end line of a ``spades play`` save."""
        if line["type"] == "action":
            self.pending_actions += 1
        elif line["type"] == "hand":
            self.hands.append(line["record"])
            self.pending_actions = 0
        else:
            self.over = True


def load_games(path: str) -> list[RecordedGame]:
    """Every game in ``path``; raises ``ValueError`` naming the record that is none of the known kinds."""
    games: list[RecordedGame] = []
    play: RecordedGame | None = None  # the save being read
    loose: RecordedGame | None = None  # the bare hand records, taken as one game
    for number, obj in enumerate(read_games(path), start=1):
        kind = obj.get("type")
        if kind == "header" and obj.get("format") == PLAY_SAVE_FORMAT:
            play = RecordedGame(f"'spades play' game, seed {obj.get('seed')}", seats=list(obj.get("agents") or []),
                                config=obj.get("config"))
            games.append(play)
        elif kind in ("action", "hand", "end") and play is not None:
            play.add_save_line(obj)
        elif "plays" in obj and "sides" in obj:
            if loose is None:
                loose = RecordedGame("hand records")
                games.append(loose)
            loose.hands.append(obj)
        elif isinstance(obj.get("hands"), list) and all(isinstance(h, dict) for h in obj["hands"]):
            games.append(RecordedGame.of_record(obj, len(games) + 1))
        else:
            raise ValueError(f"{path}: record {number} is not a game record, a hand record or a line of a "
                             "'spades play' save")
    for game in games:
        if game.pending_actions and not game.over:
            game.note = (f"(the save stops in the middle of hand {len(game.hands) + 1}, after "
                         f"{game.pending_actions} actions: continue it with spades play --resume {path})")
    return games


def discard_lines(record: dict) -> list[str]:
    """Two players: the cards each player saw and discarded while drawing."""
    short = SEAT_NAMES[record["num_players"]]
    return [f"{short[p]} saw and discarded: {' '.join(cards)}"
            for p, cards in enumerate(record.get("discards") or []) if cards]


def exchange_lines(record: dict) -> list[str]:
    """The Blind Nil exchanges (four players) and replacements (two players) of a hand, in words."""
    short = SEAT_NAMES[record["num_players"]]
    exchanges: dict[tuple[int, int], list[str]] = {}
    for giver, receiver, card in record.get("passes") or []:
        exchanges.setdefault((giver, receiver), []).append(card)
    lines = [f"Blind Nil exchange: {short[giver]} passes {' '.join(cards)} to {short[receiver]}"
             for (giver, receiver), cards in exchanges.items()]
    lines += [f"Blind Nil replacement: {short[p]} puts back {back} and draws {drawn}"
              for p, back, drawn in record.get("replacements") or []]
    return lines


def playing_hands(record: dict) -> list[int]:
    """Each seat's cards when the play starts: as dealt or drawn, after exchanges and replacements."""
    hands = [hand_mask(cards) for cards in record["hands"]]
    for giver, receiver, card in record.get("passes") or []:
        bit = 1 << str_to_card(card)
        hands[giver] &= ~bit
        hands[receiver] |= bit
    for p, back, drawn in record.get("replacements") or []:
        hands[p] = hands[p] & ~(1 << str_to_card(back)) | 1 << str_to_card(drawn)
    return hands


def final_text(record: dict) -> str:
    """The end of the game, from the record of its last hand."""
    return table(record["num_players"]).result_text(record["hand"], record["scores"], record.get("winner"),
                                                    bool(record.get("truncated")))


def hand_mask(cards) -> int:
    """A hand bitmask from a record's cards (text, or ids)."""
    return mask_of(to_card(c) for c in cards)
