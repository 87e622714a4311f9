"""What the person sees: the legend at the start, and the table before each of their decisions.

Everything here is built from the person's :class:`~spades_env.view.PlayerView`, so the screen never
shows more than a player at that seat knows.
"""

from __future__ import annotations

from spades_env import actions as A
from spades_env.cards import mask_of
from spades_env.game import Phase
from spades_env.render import bid_text
from spades_env.view import PlayerView

from .save import Setup
from .style import card_text, hand_text
from .table import Table, cards_text


def legend(table: Table, setup: Setup, save_path: str) -> str:
    """Who plays where, the target, the seed and the save file."""
    names = table.names
    parts = [f"You are {names[table.seat]} (player_{table.seat})."]
    if table.partner is not None:
        parts.append(f"Partner: {names[table.partner]} ({setup.agents[table.partner]}).")
    opponents = ", ".join(f"{names[p]} ({setup.agents[p]})" for p in table.opponents())
    parts.append(f"Opponents: {opponents}.")
    parts.append(f"Game to {setup.config.get('target_score')}; seed {setup.seed}; saving to {save_path}.")
    return " ".join(parts) + "\nType 'help' for help."


def screen(table: Table, view: PlayerView) -> str:
    """The table before the person acts: scores, bids, tricks, the trick, the hand and the choices."""
    if view.phase == Phase.DRAW:  # thirteen draw turns a hand: a short screen
        top = card_text(view.offered) if view.offered is not None else "?"
        return (f"Draw: stock {view.stock_left} cards, discard pile {view.discard_pile_size}. "
                f"Your cards: {hand_text(mask_of(view.hand))}\nTop card: {top}. {choices(table, view)}")
    lines = [_heading(view), _score_line(table, view), _bids_line(table, view)]
    lines += _stock_lines(view) + _exchange_lines(view) + _trick_lines(table, view)
    lines.append(_hand_line(view))
    lines.append(choices(table, view))
    return "\n".join(lines)


def _heading(view: PlayerView) -> str:
    head = f"--- Hand {view.hand_number + 1}"
    if view.phase == Phase.PLAY:
        head += f", trick {len(view.plays) // view.num_players + 1} of 13"
    return head + " " + "-" * max(3, 60 - len(head))


def _score_line(table: Table, view: PlayerView) -> str:
    return f"Score:  {table.scores_text(view.scores, view.bags)} | game to {view.config.target_score}"


def _bids_line(table: Table, view: PlayerView) -> str:
    bidding_over = view.phase in (Phase.PASS, Phase.REPLACE, Phase.PLAY)
    bids = " · ".join(f"{table.label(p)} {bid_text(view.bids[p], view.blind[p])}"
                      + (f" took {view.tricks_won[p]}" if bidding_over else "") for p in range(view.num_players))
    return ("Bid/took: " if bidding_over else "Bids:   ") + bids


def _stock_lines(view: PlayerView) -> list[str]:
    if view.num_players != 2 or view.stock_left == 0:
        return []
    top = "" if view.offered is None else f" · top card: {card_text(view.offered)}"
    return [f"Draw:   stock {view.stock_left} cards · discard pile {view.discard_pile_size}{top}"]


def _exchange_lines(view: PlayerView) -> list[str]:
    """The Blind Nil exchanges of this hand: cards passed and received, cards replaced."""
    lines = []
    if view.received:
        lines.append(f"Received from your partner: {cards_text(view.received)}")
    if view.passed:
        lines.append(f"Passed to your partner: {cards_text(view.passed)}")
    if view.replacements:
        swaps = ", ".join(f"{card_text(b)} -> {card_text(d)}" for b, d in view.replacements)
        lines.append(f"Replaced: {swaps}")
    return lines


def _trick_lines(table: Table, view: PlayerView) -> list[str]:
    if view.phase != Phase.PLAY:
        return []
    if not view.trick:
        return ["Trick:  you lead" + ("" if view.spades_broken else " (spades not broken yet)")]
    played = ", ".join(f"{table.who(p)} {card_text(c)}" for p, c in view.trick)
    return [f"Trick:  {played}   ({table.who(view.trick[0][0])} led)"]


def _hand_line(view: PlayerView) -> str:
    if view.num_players == 2 and view.phase == Phase.BLIND:
        return "Hand:   no cards yet (Blind Nil is chosen before your first draw)"
    return "Hand:   " + (hand_text(mask_of(view.hand)) if view.looked else "face down")


def choices(table: Table, view: PlayerView) -> str:
    """What the person may do now, in one line."""
    legal, phase = view.legal_actions, view.phase
    cards = [a for a in legal if A.is_card(a)]
    if phase == Phase.PLAY:
        return f"You can play: {cards_text(cards)}"
    if phase == Phase.PASS:
        partner = table.who(view.partner) if view.partner is not None else "your partner"
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
