"""``spades play``: a person takes one seat at the table, agents from the registry take the others.

How it is put together, and why:

* The game runs through the match driver (:func:`spades_env.agents.match.play_game`), exactly as in tournaments;
  the person is one more agent, whose ``act`` reads the keyboard. The screen is built from the
  person's :class:`~spades_env.view.PlayerView`, so it never shows more than a player at that seat knows.
* The rules engine decides every legality question. This module only reads text and, when the engine
  refuses an input, says why in one line.
* Every action of every seat is appended (and flushed) to a JSON Lines save file as it happens, so a
  killed process loses nothing. ``--resume`` rebuilds the game from the saved seed and options and feeds
  the saved actions back through the same driver: the state is exactly the saved one, whatever the
  bots would choose today.

The save file (``spades replay`` shows it too)::

    {"type": "header", "format": "spades-play/1", "seat": 0, "agents": ["human", "heuristic", ...],
     "seed": 7, "config": {...SpadesConfig...}, "deal": null, "dealer": null, "scores": null, "bags": null}
    {"type": "action", "player": 1, "action": 67, "text": "look"}        one line per action, every seat
    {"type": "hand", "record": {...}}        after each hand: the engine's hand record
    {"type": "end", "scores": [512, 430], "winner": 0, "truncated": false}
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np

from spades_env import actions as A
from spades_env.cards import NUM_CARDS, SPADES, SUIT_NAMES, card_to_str, cards_of, hand_to_str, mask_of
from spades_env.game import IllegalActionError, Phase, SpadesConfig, SpadesGame
from spades_env.records import GameWriter, read_games
from spades_env.render import SEAT_NAMES, bid_text, render_hand_result
from spades_env.view import PlayerView

from .base import Agent, make_agent
from .match import play_game

HUMAN = "human"
PLAY_SAVE_FORMAT = "spades-play/1"  # the header line of a save; spades replay reads it too
Reader = Callable[[str], str]
Writer = Callable[[str], None]

PROMPTS = {
    Phase.BLIND: "Blind Nil or look at your cards? [blind/look] > ",
    Phase.BID: "Your bid [0-13, nil] > ",
    Phase.PASS: "Card to pass > ",
    Phase.DRAW: "Keep or discard the top card? [keep/discard] > ",
    Phase.REPLACE: "Card to put back, or done > ",
    Phase.PLAY: "Your card > ",
}
HINTS = {
    Phase.BLIND: "type 'blind' to bid Blind Nil, or 'look' to see your cards",
    Phase.BID: "type a bid from 0 to 13, or 'nil'",
    Phase.PASS: "type a card of your hand to pass, e.g. AS or 10h",
    Phase.DRAW: "type 'keep' or 'discard'",
    Phase.REPLACE: "type a card of your hand to put back, e.g. AS or 10h, or 'done'",
    Phase.PLAY: "type a card of your hand, e.g. AS, 10h or td",
}
HELP = """Type a card (AS, 10h, td, QC), a bid (0-13 or nil), 'blind' or 'look' as the prompt asks.
Other commands: Enter or 'show' shows the table again; 'help' this text; 'quit' saves and stops
(so do Ctrl-D and Ctrl-C). Continue later with: spades play --resume FILE"""


class PlayError(Exception):
    """A problem with the command line or a save file: reported in one line, without a traceback."""


class Quit(Exception):
    """The person asked to stop (``quit`` or the end of the input)."""


# ------------------------------------------------------------------ setup and save file


@dataclass
class Setup:
    """Everything needed to rebuild the game from scratch; it is the save file's header."""

    seat: int
    agents: list[str]  # agent spec per seat, HUMAN at the person's seat
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

    def new_game(self) -> SpadesGame:
        game = SpadesGame(SpadesConfig(**self.config))
        game.reset(self.seed, deal=self.deal, dealer=self.dealer, scores=self.scores, bags=self.bags)
        return game

    def agent_seeds(self) -> list[int]:
        """One seed per seat, derived from the game seed so that a whole session can be reproduced."""
        return [int(s) for s in np.random.SeedSequence(self.seed).generate_state(self.num_players)]


def read_save(path: str) -> tuple[Setup, list[tuple[int, int]]]:
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


def restore(setup: Setup, moves: list[tuple[int, int]]) -> SpadesGame:
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


def load_deal(path: str, num_players: int) -> dict:
    """Reset arguments from a deal file.

    The file holds JSON: a list (the deal: four hands of 13 cards, or the two-player stock order), or
    an object with ``deal`` and optionally ``dealer``, ``scores`` and ``bags``. A hand record (a line
    of a ``spades play`` save or of a tournament record) also works: its ``hands`` (four players) or
    ``stock`` (two players), ``dealer``, ``scores_before`` and ``bags_before`` replay that hand.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            data = json.loads(text.strip().splitlines()[0])  # JSON Lines: the first line
    except (OSError, ValueError, IndexError) as exc:
        raise PlayError(f"cannot read the deal file {path}: {exc}") from None
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


# ------------------------------------------------------------------ reading the person's input


def cards_text(cards) -> str:
    """Cards as text, spades first and high to low, as the hand is shown."""
    return " ".join(card_to_str(c) for c in sorted(cards, key=lambda c: (-(c // 13), -(c % 13))))


def parse_input(view: PlayerView, text: str) -> tuple[int | None, str]:
    """The action the person typed, or ``None`` and a one-line reason.

    Legality is the engine's (``view.legal_actions``); this only reads the text and explains.
    """
    phase = view.phase
    try:
        action = A.str_to_action(text)
    except ValueError as exc:
        if text.strip().isdigit():
            return None, f"{exc}: {HINTS[phase]}"
        return None, f"cannot read {text.strip()!r}: {HINTS[phase]}"
    if action in view.legal_actions:
        return action, ""
    return None, refusal_reason(view, action)


def refusal_reason(view: PlayerView, action: int) -> str:
    """Why the engine does not allow ``action`` now, in words a player understands."""
    phase, cfg = view.phase, view.config
    if A.is_card(action) and phase in (Phase.PLAY, Phase.PASS, Phase.REPLACE):
        card = card_to_str(action)
        if action not in view.hand:
            return f"you don't hold {card}"
        if phase == Phase.PLAY and view.trick:
            led = view.trick[0][1] // 13
            return f"you must follow suit ({SUIT_NAMES[led]}): you can play {cards_text(view.legal_actions)}"
        if phase == Phase.PLAY and action // 13 == SPADES:
            return "spades are not broken yet: lead another suit"
    if phase == Phase.BLIND and A.is_bid(action):
        return "your cards are face down: type 'look' to see them before you bid, or 'blind' for Blind Nil"
    if phase == Phase.BID and action == A.BLIND_NIL:
        if not cfg.blind_nil:
            return "Blind Nil is off in this game: bid 0-13 or nil"
        deficit = cfg.blind_nil_min_deficit
        when = f" (and only when your side trails by {deficit} or more)" if deficit else ""
        return f"Blind Nil is bid before looking at your cards{when}: bid 0-13 or nil"
    if phase == Phase.BID and action == A.BID_BASE and not cfg.nil:
        return "Nil is off in this game: bid 1-13"
    return f"{A.action_to_str(action)} is not possible now: {HINTS.get(phase, 'the game is over')}"


# ------------------------------------------------------------------ the session


@dataclass(frozen=True)
class _Before:
    """What the narration needs to know about the game before an action."""

    phase: Phase
    trick: tuple[tuple[int, int], ...]
    hand_number: int
    my_hand: int
    my_discards: int
    stock_left: int
    spades_broken: bool

    @classmethod
    def of(cls, game: SpadesGame, seat: int) -> _Before:
        return cls(game.phase, tuple(game.trick), game.hand_number, game.hands[seat], game.discards[seat],
                   NUM_CARDS - game.stock_pos, game.spades_broken)


class _Seat:
    """One seat's agent behind the driver: it first hands back the seat's saved actions (resume)."""

    def __init__(self, agent: Agent, seat: int, replay: deque) -> None:
        self.agent, self.seat, self.replay = agent, seat, replay
        # The driver reads these to decide what to build for the agent; pass them through.
        for name in ("needs_observation", "needs_view", "observation_kind"):
            if hasattr(agent, name):
                setattr(self, name, getattr(agent, name))

    def reset(self, seat: int, seed: int | None = None) -> None:
        if hasattr(self.agent, "reset"):
            self.agent.reset(seat, seed)

    def act(self, observation, action_mask, view):
        if self.replay:
            return self.replay[0][1]
        return self.agent.act(observation, action_mask, view)


class _Person:
    """The person's seat as an agent: ``act`` shows the table and reads the keyboard."""

    needs_observation = False  # the person reads the view, not the vector

    def __init__(self, session: Session) -> None:
        self.session = session

    def act(self, observation, action_mask, view: PlayerView) -> int:
        return self.session.ask(view)


class Session:
    """One game at the table: the person's seat, the bots, the save file and what is printed."""

    def __init__(self, setup: Setup, save_path: str, moves: list[tuple[int, int]], copy_moves: bool,
                 read: Reader, write: Writer) -> None:
        self.setup, self.save_path, self.read, self.write = setup, save_path, read, write
        self.seat, n = setup.seat, setup.num_players
        self.replay: deque[tuple[int, int]] = deque(moves)
        self.saved_moves = len(moves)
        self.copy_moves = copy_moves  # write the replayed moves too (resuming into another file)
        self.bots = {p: make_agent(spec) for p, spec in enumerate(setup.agents) if p != self.seat}
        table = setup.new_game()
        self.before = _Before.of(table, self.seat)  # the state before the next action
        self.members, self.side_of, self.partner = table.members, table.side_of, table.partner(self.seat)
        self.names = [self._seat_label(p) for p in range(n)]
        self.writer: GameWriter | None = None

    # -------------------------------------------------------------- names

    def _seat_label(self, p: int) -> str:
        name = SEAT_NAMES[self.setup.num_players][p]
        if p == self.seat:
            return f"{name} (you)"
        if p == self.partner:
            return f"{name} (partner)"
        return name

    def _who(self, p: int) -> str:
        return "You" if p == self.seat else SEAT_NAMES[self.setup.num_players][p]

    def _verb(self, p: int, verb: str) -> str:
        """``"You play"`` / ``"East plays"``."""
        return f"{self._who(p)} {verb if p == self.seat else verb + 's'}"

    def side_label(self, side: int) -> str:
        members = self.members[side]
        label = "+".join(SEAT_NAMES[self.setup.num_players][m] for m in members)
        return label + (" (you)" if self.seat in members else "")

    def legend(self) -> str:
        s, n = self.setup, self.setup.num_players
        parts = [f"You are {SEAT_NAMES[n][self.seat]} (player_{self.seat})."]
        if self.partner is not None:
            parts.append(f"Partner: {SEAT_NAMES[n][self.partner]} ({s.agents[self.partner]}).")
        opponents = [p for p in range(n) if self.side_of[p] != self.side_of[self.seat]]
        parts.append("Opponents: " + ", ".join(f"{SEAT_NAMES[n][p]} ({s.agents[p]})" for p in opponents) + ".")
        target = s.config.get("target_score")
        parts.append(f"Game to {target}; seed {s.seed}; saving to {self.save_path}.")
        return " ".join(parts) + "\nType 'help' for help."

    # -------------------------------------------------------------- running

    def run(self) -> SpadesGame:
        """Play (the rest of) the game; raises :class:`Quit` or ``KeyboardInterrupt`` when the person stops."""
        agents = [_Seat(_Person(self) if p == self.seat else self.bots[p], p, self.replay)
                  for p in range(self.setup.num_players)]
        s = self.setup
        return play_game(agents, seed=s.seed, config=SpadesConfig(**s.config), agent_seeds=s.agent_seeds(),
                         deal=s.deal, dealer=s.dealer, scores=s.scores, bags=s.bags, on_step=self._on_step)

    def open_save(self, new: bool) -> None:
        self.writer = GameWriter(self.save_path)
        if new:
            self.writer.write(self.setup.header())

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()

    def _on_step(self, game: SpadesGame, player: int, action: int) -> None:
        before = self.before
        replaying = bool(self.replay)
        if replaying:
            expected = self.replay.popleft()
            if expected != (player, action):  # restore() checked the save first, so this means a bug here
                raise PlayError(f"replay went out of step: saved {expected}, the driver played {(player, action)}")
        if not replaying or self.copy_moves:
            self._save(game, player, action, hand_over=game.hand_number > before.hand_number)
        if not replaying:
            self._narrate(game, player, action, before)
        self.before = _Before.of(game, self.seat)

    def _save(self, game: SpadesGame, player: int, action: int, hand_over: bool) -> None:
        self.writer.write({"type": "action", "player": player, "action": action, "text": A.action_to_str(action)})
        if hand_over:
            self.writer.write({"type": "hand", "record": game.hand_records[-1]})
        if game.game_over:
            self.writer.write({"type": "end", "scores": list(game.scores), "winner": game.winner,
                               "truncated": game.truncated})

    # -------------------------------------------------------------- narration

    def announce_hand(self, game: SpadesGame) -> None:
        first = (game.dealer + 1) % game.num_players
        if game.num_players == 4:
            opening = self._verb(game.dealer, "deal")
        else:
            opening = f"{self._verb(game.dealer, 'draw')} first"
        leads = "lead" if first == self.seat else "leads"
        who = f"{opening}; {self._verb(first, 'bid')} and {leads} first"
        self.write(f"\n=== Hand {game.hand_number + 1}: {who} ===")

    def _narrate(self, game: SpadesGame, player: int, action: int, before: _Before) -> None:
        say, who, n = self.write, self._who, game.num_players
        phase = before.phase
        hand_over = game.hand_number > before.hand_number
        if phase == Phase.BLIND and action == A.BLIND_NIL:
            say(f"{self._verb(player, 'bid')} Blind Nil!")
        elif phase == Phase.BID:
            say(f"{self._verb(player, 'bid')} {bid_text(action - A.BID_BASE, False)}.")
        elif phase == Phase.PASS:
            giver, receiver, card = game.passes[-1]
            if giver == self.seat:
                say(f"You pass {card_to_str(card)} to {who(receiver)}.")
            elif receiver == self.seat:
                say(f"{who(giver)} passes you {card_to_str(card)}.")
            elif sum(g == giver for g, _, _ in game.passes) == 3:  # others' cards stay hidden: one line per 3
                say(f"{who(giver)} passes 3 cards to {who(receiver)}.")
        elif phase == Phase.DRAW and player == self.seat:
            kept = cards_text(cards_of(game.hands[self.seat] & ~before.my_hand))
            seen = cards_text(cards_of(game.discards[self.seat] & ~before.my_discards))
            say(f"You keep {kept} and discard {seen}." if action == A.KEEP else f"You discard {seen} and take {kept}.")
        elif phase == Phase.REPLACE:
            if action == A.DONE:
                say(f"{who(player)} {'are' if player == self.seat else 'is'} done replacing.")
            elif player == self.seat:
                _, back, drawn = game.replacements[-1]
                say(f"You put back {card_to_str(back)} and draw {card_to_str(drawn)}.")
            else:
                say(f"{who(player)} puts back a card and draws one from the discard pile.")
        elif phase == Phase.PLAY:
            say(f"{self._verb(player, 'play')} {card_to_str(action)}.")
            if len(before.trick) + 1 == n:
                record = game.hand_records[-1] if hand_over else None
                winners = record["trick_winners"] if record else game.trick_winners
                tricks = record["tricks"] if record else game.tricks
                winner = winners[-1]
                cards = ", ".join(f"{who(p)} {card_to_str(c)}" for p, c in (*before.trick, (player, action)))
                taken = " · ".join(f"{self.side_label(s)} {sum(tricks[m] for m in game.members[s])}"
                                   for s in range(2))
                say(f"  -> {self._verb(winner, 'win')} trick {len(winners)}: {cards}. Tricks: {taken}")
            if not hand_over and game.spades_broken and not before.spades_broken:
                say("  Spades are broken.")
        if before.stock_left > 0 and game.stock_pos == NUM_CARDS and not hand_over:  # two players
            say("The draw is over: each player holds 13 cards.")
        if hand_over:
            self.show_hand_result(game.hand_records[-1])
            if not game.game_over:
                self.announce_hand(game)
        if game.game_over:
            say(self.game_over_text(game))

    def show_hand_result(self, record: dict) -> None:
        n = record["num_players"]
        took = " · ".join(f"{SEAT_NAMES[n][p]} bid {bid_text(record['bids'][p], record['blind_nil'][p])}, "
                          f"took {record['tricks'][p]}" for p in range(n))
        sides = ", ".join(f"side {s} = {self.side_label(s)}" for s in range(2))
        self.write(f"\nHand {record['hand']} is over. {took}.\n({sides})\n{render_hand_result(record)}")

    def game_over_text(self, game: SpadesGame) -> str:
        scores = f"{game.scores[0]} to {game.scores[1]}"
        hands = f"{game.hand_number} hand{'s' if game.hand_number != 1 else ''}"
        if game.winner is not None:
            return f"\nGame over after {hands}: {self.side_label(game.winner)} won the game, {scores}."
        if game.truncated:
            return f"\nGame stopped after {hands} (max_hands) without a winner: {scores}."
        return f"\nGame over after {hands}: a tie, {scores}."

    # -------------------------------------------------------------- the person's turn

    def screen(self, view: PlayerView) -> str:
        """What the person sees before acting: scores, bids, tricks, the trick, the hand and the choices."""
        n, names = view.num_players, self.names
        phase = view.phase
        if phase == Phase.DRAW:  # thirteen draw turns a hand: a short screen
            top = card_to_str(view.offered) if view.offered is not None else "?"
            return (f"Draw: stock {view.stock_left} cards, discard pile {view.discard_pile_size}. "
                    f"Your cards: {hand_to_str(mask_of(view.hand))}\nTop card: {top}. {self._choices(view)}")
        lines = []
        head = f"--- Hand {view.hand_number + 1}"
        if phase == Phase.PLAY:
            head += f", trick {len(view.plays) // n + 1} of 13"
        lines.append(head + " " + "-" * max(3, 60 - len(head)))
        score = " | ".join(f"{self.side_label(s)}: {view.scores[s]} pts, {view.bags[s]} bags" for s in range(2))
        lines.append(f"Score:  {score} | game to {view.config.target_score}")
        bidding_over = phase in (Phase.PASS, Phase.REPLACE, Phase.PLAY)
        bids = " · ".join(f"{names[p]} {bid_text(view.bids[p], view.blind[p])}"
                          + (f" took {view.tricks[p]}" if bidding_over else "") for p in range(n))
        lines.append(("Bids:   " if not bidding_over else "Bid/took: ") + bids)
        if n == 2 and view.stock_left > 0:
            top = "" if view.offered is None else f" · top card: {card_to_str(view.offered)}"
            lines.append(f"Draw:   stock {view.stock_left} cards · discard pile {view.discard_pile_size}{top}")
        if view.received:
            lines.append(f"Received from your partner: {cards_text(view.received)}")
        if view.passed:
            lines.append(f"Passed to your partner: {cards_text(view.passed)}")
        if view.replacements:
            swaps = ", ".join(f"{card_to_str(b)} -> {card_to_str(d)}" for b, d in view.replacements)
            lines.append(f"Replaced: {swaps}")
        if phase == Phase.PLAY:
            if view.trick:
                played = ", ".join(f"{self._who(p)} {card_to_str(c)}" for p, c in view.trick)
                lines.append(f"Trick:  {played}   ({self._who(view.trick[0][0])} led)")
            else:
                lines.append("Trick:  you lead" + ("" if view.spades_broken else " (spades not broken yet)"))
        if n == 2 and phase == Phase.BLIND:
            lines.append("Hand:   no cards yet (Blind Nil is chosen before your first draw)")
        else:
            lines.append("Hand:   " + (hand_to_str(mask_of(view.hand)) if view.looked else "face down"))
        lines.append(self._choices(view))
        return "\n".join(lines)

    def _choices(self, view: PlayerView) -> str:
        legal, phase = view.legal_actions, view.phase
        cards = [a for a in legal if A.is_card(a)]
        if phase == Phase.PLAY:
            return f"You can play: {cards_text(cards)}"
        if phase == Phase.PASS:
            partner = self._who(view.partner) if view.partner is not None else "your partner"
            return f"Pass card {len(view.passed) + 1} of 3 to {partner}. You can pass: {cards_text(cards)}"
        if phase == Phase.REPLACE:
            left = 3 - len(view.replacements)
            return f"Put back up to {left} more card(s), or done. You can put back: {cards_text(cards)}"
        if phase == Phase.BID:
            bids = [a - A.BID_BASE for a in legal if A.is_bid(a)]
            return f"Bid {min(bids)}-{max(bids)}" + (" (0 = nil)" if 0 in bids else "")
        if phase == Phase.BLIND:
            return "Blind Nil (bid before seeing your cards) or look at your cards: blind / look"
        if phase == Phase.DRAW:
            return "keep it (you then see the next card and discard it) or discard it (and take the next card)"
        return ""

    def ask(self, view: PlayerView) -> int:
        """Show the table and read inputs until one is legal."""
        self.write("\n" + self.screen(view))
        while True:
            try:
                text = self.read(PROMPTS[view.phase])
            except EOFError:
                raise Quit from None
            command = text.strip().lower()
            if command in ("q", "quit", "exit"):
                raise Quit
            if command in ("", "show"):
                self.write(self.screen(view))
                continue
            if command in ("?", "help", "h"):
                self.write(HELP)
                continue
            action, reason = parse_input(view, text)
            if action is not None:
                return action
            self.write(f"  ! {reason}")


# ------------------------------------------------------------------ command line


def _read_line(prompt: str) -> str:
    text = input(prompt)
    if not sys.stdin.isatty():
        print(text)  # echo piped input, so that a transcript reads like the session
    return text


def _print(text: str) -> None:
    print(text, flush=True)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="spades play", description=__doc__.split("\n\n")[0],
                                epilog="Input: a card (AS, 10h, td), a bid (0-13, nil), blind, look, keep, discard, "
                                       "done; 'help' at the prompt. Ctrl-C or Ctrl-D saves and stops.")
    p.add_argument("--seat", type=int, help="your seat, 0..3 (0..1 with two players); default 0")
    p.add_argument("--partner", help="your partner's agent (four players); default heuristic")
    p.add_argument("--opponents", help="the opponents' agent; default heuristic")
    p.add_argument("--num-players", type=int, choices=(4, 2), help="4 (partnership, default) or 2")
    p.add_argument("--seed", type=int, help="seed of the deals (default: a random one, saved)")
    p.add_argument("--deal", metavar="FILE", help="JSON file fixing the first deal (see load_deal)")
    p.add_argument("--target", type=int, help="target score (default 500)")
    p.add_argument("--save", metavar="FILE", help="save file (JSON Lines); default spades-play-<time>.jsonl")
    p.add_argument("--resume", metavar="FILE", help="continue the game saved in FILE (into FILE, or --save)")
    return p


def _new_setup(args: argparse.Namespace) -> Setup:
    n = args.num_players or 4
    seat = 0 if args.seat is None else args.seat
    if not 0 <= seat < n:
        raise PlayError(f"--seat must be in 0..{n - 1}")
    if n == 2 and args.partner:
        raise PlayError("--partner: the two-player game has no partners (use --opponents)")
    partner, opponents = args.partner or "heuristic", args.opponents or "heuristic"
    side_of = SpadesGame(num_players=n).side_of
    agents = [HUMAN if p == seat else partner if side_of[p] == side_of[seat] else opponents for p in range(n)]
    rules = {"num_players": n} | ({"target_score": args.target} if args.target is not None else {})
    try:
        config = SpadesConfig(**rules).to_dict()
    except ValueError as exc:
        raise PlayError(str(exc)) from None
    seed = secrets.randbelow(2**31) if args.seed is None else args.seed
    setup = Setup(seat, agents, seed, config)
    if args.deal:
        for key, value in load_deal(args.deal, n).items():
            setattr(setup, key, value)
    return setup


def session_from_args(args: argparse.Namespace, read: Reader, write: Writer) -> tuple[Session, SpadesGame]:
    """The session to run and the game as it stands (restored from the save when resuming)."""
    if args.resume:
        given = [f"--{k.replace('_', '-')}" for k in ("seat", "partner", "opponents", "num_players", "seed",
                                                        "deal", "target") if getattr(args, k) is not None]
        if given:
            raise PlayError(f"{', '.join(given)}: a resumed game keeps the options it was saved with")
        setup, moves = read_save(args.resume)
        save_path = args.save or args.resume
        if args.save and Path(args.save).resolve() == Path(args.resume).resolve():
            save_path = args.resume
    else:
        setup, moves = _new_setup(args), []
        save_path = args.save or time.strftime("spades-play-%Y%m%d-%H%M%S.jsonl")
    copy = not args.resume or save_path != args.resume
    if copy and Path(save_path).exists():
        raise PlayError(f"{save_path} exists: continue it with --resume {save_path}, or choose another --save")
    try:
        game = restore(setup, moves)
    except ValueError as exc:  # the engine refuses the deal or options
        raise PlayError(str(exc)) from None
    try:
        session = Session(setup, save_path, moves, copy, read, write)
    except (ValueError, OSError, ImportError) as exc:  # an unknown agent, a missing checkpoint
        raise PlayError(f"cannot make the agents {setup.agents}: {exc}") from None
    return session, game


def main(argv: list[str] | None = None, read: Reader = _read_line, write: Writer = _print) -> int:
    """``spades play``: returns 0 when the game ends or the person quits, 130 on Ctrl-C, 2 on bad options."""
    args = build_parser().parse_args(argv)
    try:
        session, game = session_from_args(args, read, write)
    except PlayError as exc:
        print(f"spades play: {exc}", file=sys.stderr)
        return 2
    write(session.legend())
    if game.game_over:
        for record in game.hand_records:
            session.show_hand_result(record)
        write(session.game_over_text(game) + f"\n(the game saved in {args.resume} is over)")
        return 0
    if args.resume:
        trick = f", trick {len(game.trick_winners) + 1}" if game.phase == Phase.PLAY else ""
        write(f"Resuming {args.resume}: {session.saved_moves} saved actions; hand {game.hand_number + 1}{trick}.")
    else:
        session.announce_hand(game)
    code = 0
    try:
        session.open_save(new=session.copy_moves)
        if session.copy_moves and args.resume:
            write(f"Copying the game of {args.resume} to {session.save_path}.")
        session.run()
    except Quit:
        write(f"\nStopped. The game is saved in {session.save_path}; continue it with:\n"
              f"  spades play --resume {session.save_path}")
    except KeyboardInterrupt:
        write(f"\nInterrupted. The game is saved in {session.save_path}; continue it with:\n"
              f"  spades play --resume {session.save_path}")
        code = 130
    except (PlayError, IllegalActionError) as exc:  # a bot chose an illegal action, or a corrupt save
        print(f"spades play: {exc}\nThe game so far is saved in {session.save_path}.", file=sys.stderr)
        code = 1
    finally:
        session.close()
    return code


if __name__ == "__main__":
    sys.exit(main())
