"""The person at the keyboard as an :class:`~spades_env.agent.Agent`.

:class:`Human` is the seat's agent in the match like any bot: the driver asks it for an action with
the person's view, it shows the table and reads lines until one is a legal action. The rules engine
decides every legality question (``view.legal_actions``); this module only reads the text and, when
the engine refuses it, says why in one line.
"""

from __future__ import annotations

from spades_env import actions as A
from spades_env.cards import SPADES, SUIT_NAMES, suit_of
from spades_env.game import Phase
from spades_env.view import PlayerView

from .screen import screen
from .style import card_text
from .table import Table, cards_text
from .terminal import Reader, Writer

HUMAN = "human"  # the agent spec of the person's seat in a save's header

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


class Quit(Exception):
    """The person asked to stop (``quit`` or the end of the input)."""


class Human:
    """The person's seat: ``act`` shows the table and reads the keyboard until the input is legal."""

    needs_observation = False  # the person reads the view, not the vector

    def __init__(self, table: Table, read: Reader, write: Writer, show: Writer | None = None) -> None:
        self.table, self.read, self.write = table, read, write
        self.show = show or (lambda text: write("\n" + text))  # a LiveScreen's show redraws in place

    def act(self, observation, action_mask, view: PlayerView) -> int:
        """The legal action the person types; raises :class:`Quit` when they stop."""
        self.show(screen(self.table, view))
        while True:
            try:
                text = self.read(PROMPTS[view.phase])
            except EOFError:
                raise Quit from None
            command = text.strip().lower()
            if command in ("q", "quit", "exit"):
                raise Quit
            if command in ("", "show"):
                self.show(screen(self.table, view))
                continue
            if command in ("?", "help", "h"):
                self.write(HELP)
                continue
            action, reason = parse_input(view, text)
            if action is not None:
                return action
            self.write(f"  ! {reason}")


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
        card = card_text(action)
        if action not in view.hand:
            return f"you don't hold {card}"
        if phase == Phase.PLAY and view.trick:
            led = suit_of(view.trick[0][1])
            return f"you must follow suit ({SUIT_NAMES[led]}): you can play {cards_text(view.legal_actions)}"
        if phase == Phase.PLAY and suit_of(action) == SPADES:
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
