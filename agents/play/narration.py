"""What ``spades play`` says after each action, as the person at the table sees it.

Cards that others pass or put back stay hidden; the person's own draws, passes and replacements are
named. The narrator compares the game after an action with a snapshot taken before it
(:class:`Before`), because the engine keeps no "last event" of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from spades_env import actions as A
from spades_env.cards import NUM_CARDS, cards_of
from spades_env.game import Phase, SpadesGame
from spades_env.render import bid_text

from .style import card_text
from .table import Table, cards_text
from .terminal import Writer


@dataclass(frozen=True)
class Before:
    """What the narration needs to know about the game before an action."""

    phase: Phase
    trick: tuple[tuple[int, int], ...]
    hand_number: int
    my_hand: int
    my_discards: int
    stock_left: int
    spades_broken: bool

    @classmethod
    def of(cls, game: SpadesGame, seat: int) -> Before:
        return cls(game.phase, tuple(game.trick), game.hand_number, game.hands[seat], game.discards[seat],
                   NUM_CARDS - game.stock_pos, game.spades_broken)


class Narrator:
    """Writes a line or two per action, the hand results, and the announcements of hands and of the end."""

    def __init__(self, table: Table, write: Writer, game: SpadesGame) -> None:
        self.table, self.write = table, write
        self.before = Before.of(game, table.seat)  # the state before the next action
        self._by_phase = {Phase.BLIND: self._blind, Phase.BID: self._bid, Phase.PASS: self._pass,
                          Phase.DRAW: self._draw, Phase.REPLACE: self._replace, Phase.PLAY: self._play}

    def step(self, game: SpadesGame, player: int, action: int, silent: bool = False) -> None:
        """``action`` of ``player`` was just applied to ``game``: say what it did (unless ``silent``)."""
        before, self.before = self.before, Before.of(game, self.table.seat)
        if not silent:
            self.narrate(game, player, action, before)

    def narrate(self, game: SpadesGame, player: int, action: int, before: Before) -> None:
        hand_over = game.hand_number > before.hand_number
        say = self._by_phase.get(before.phase)
        if say is not None:
            say(game, player, action, before)
        if before.stock_left > 0 and game.stock_pos == NUM_CARDS and not hand_over:  # two players
            self.write("The draw is over: each player holds 13 cards.")
        if hand_over:
            self.show_hand_result(game.hand_records[-1])
            if not game.game_over:
                self.announce_hand(game)
        if game.game_over:
            self.write(self.game_over_text(game))

    # -------------------------------------------------------------- one method per phase

    def _blind(self, game: SpadesGame, player: int, action: int, before: Before) -> None:
        if action == A.BLIND_NIL:
            self.write(f"{self.table.verb(player, 'bid')} Blind Nil!")

    def _bid(self, game: SpadesGame, player: int, action: int, before: Before) -> None:
        self.write(f"{self.table.verb(player, 'bid')} {bid_text(action - A.BID_BASE, False)}.")

    def _pass(self, game: SpadesGame, player: int, action: int, before: Before) -> None:
        who, seat = self.table.who, self.table.seat
        giver, receiver, card = game.passes[-1]
        if giver == seat:
            self.write(f"You pass {card_text(card)} to {who(receiver)}.")
        elif receiver == seat:
            self.write(f"{who(giver)} passes you {card_text(card)}.")
        elif sum(g == giver for g, _, _ in game.passes) == 3:  # others' cards stay hidden: one line per 3
            self.write(f"{who(giver)} passes 3 cards to {who(receiver)}.")

    def _draw(self, game: SpadesGame, player: int, action: int, before: Before) -> None:
        seat = self.table.seat
        if player != seat:
            return
        kept = cards_text(cards_of(game.hands[seat] & ~before.my_hand))
        seen = cards_text(cards_of(game.discards[seat] & ~before.my_discards))
        kept_first = action == A.KEEP
        self.write(f"You keep {kept} and discard {seen}." if kept_first else f"You discard {seen} and take {kept}.")

    def _replace(self, game: SpadesGame, player: int, action: int, before: Before) -> None:
        who, seat = self.table.who, self.table.seat
        if action == A.DONE:
            self.write(f"{who(player)} {'are' if player == seat else 'is'} done replacing.")
        elif player == seat:
            _, back, drawn = game.replacements[-1]
            self.write(f"You put back {card_text(back)} and draw {card_text(drawn)}.")
        else:
            self.write(f"{who(player)} puts back a card and draws one from the discard pile.")

    def _play(self, game: SpadesGame, player: int, action: int, before: Before) -> None:
        hand_over = game.hand_number > before.hand_number
        self.write(f"{self.table.verb(player, 'play')} {card_text(action)}.")
        if len(before.trick) + 1 == game.num_players:
            self._trick_won(game, (*before.trick, (player, action)), hand_over)
        if not hand_over and game.spades_broken and not before.spades_broken:
            self.write("  Spades are broken.")

    def _trick_won(self, game: SpadesGame, trick: tuple[tuple[int, int], ...], hand_over: bool) -> None:
        """The trick just completed: who won it, its cards, and the tricks of each side so far this hand."""
        table = self.table
        record = game.hand_records[-1] if hand_over else None  # the engine has moved on to the next hand
        winners = record["trick_winners"] if record else game.trick_winners
        tricks = record["tricks"] if record else game.tricks
        cards = ", ".join(f"{table.who(p)} {card_text(c)}" for p, c in trick)
        self.write(f"  -> {table.verb(winners[-1], 'win')} trick {len(winners)}: {cards}. "
                   f"Tricks: {table.tricks_text(tricks)}")

    # -------------------------------------------------------------- hands and the end

    def announce_hand(self, game: SpadesGame) -> None:
        verb = self.table.verb
        first = (game.dealer + 1) % game.num_players
        opening = verb(game.dealer, "deal") if game.num_players == 4 else f"{verb(game.dealer, 'draw')} first"
        leads = "lead" if first == self.table.seat else "leads"
        self.write(f"\n=== Hand {game.hand_number + 1}: {opening}; {verb(first, 'bid')} and {leads} first ===")

    def show_hand_result(self, record: dict) -> None:
        self.write(f"\nHand {record['hand']} is over. {self.table.hand_summary(record)}")

    def game_over_text(self, game: SpadesGame) -> str:
        return self.table.result_text(game.hand_number, game.scores, game.winner, game.truncated)
