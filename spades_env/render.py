"""Text rendering of a game: hands, bids, the trick, tricks taken and scores."""

from __future__ import annotations

from .cards import card_to_str, hand_to_str
from .game import Phase, SpadesGame
from .variant import VARIANTS

SEAT_NAMES = {n: variant.seat_names for n, variant in VARIANTS.items()}


def seat_name(game: SpadesGame, player: int) -> str:
    return f"{SEAT_NAMES[game.num_players][player]} (player_{player})"


def bid_text(bid: int | None, blind: bool) -> str:
    """``"-"`` (not yet), ``"Nil"``, ``"Blind Nil"`` or the number."""
    if bid is None:
        return "-"
    return "Blind Nil" if blind else ("Nil" if bid == 0 else str(bid))


def render_text(game: SpadesGame, show_hands: bool = True) -> str:
    """A multi-line view of the table, as ``render_mode="ansi"`` returns it."""
    lines = []
    sides = " | ".join(
        f"side {s} ({'+'.join(f'player_{m}' for m in game.members[s])}): {game.scores[s]} pts, {game.bags[s]} bags"
        for s in range(2))
    starter = game.variant.starter
    lines.append(f"Hand {game.hand_number + 1}  {starter}: player_{game.dealer}  phase: {game.phase.name}  |  {sides}")
    for p in range(game.num_players):
        marker = ">" if p == game.current_player and game.phase != Phase.GAME_OVER else " "
        hand = hand_to_str(game.hands[p]) if show_hands else f"{game.hands[p].bit_count()} cards"
        bid = bid_text(game.bids[p], game.blind[p])
        lines.append(f"{marker} {seat_name(game, p):<20} bid {bid:>9}  tricks {game.tricks[p]:>2}  {hand}")
    if game.variant.drawn and game.stock_pos < 52:
        offered = "" if game.offered is None else (
            f"  offered to player_{game.current_player}: {card_to_str(game.offered)}")
        pile = game.discard_pile.bit_count()
        lines.append(f"  stock: {52 - game.stock_pos} cards  discard pile: {pile} cards{offered}")
    if game.trick:
        lines.append("  trick: " + "  ".join(f"player_{p}:{card_to_str(c)}" for p, c in game.trick))
    if game.spades_broken:
        lines.append("  spades broken")
    if game.phase == Phase.GAME_OVER:
        if game.winner is not None:
            lines.append(f"  game over: side {game.winner} wins")
        else:
            lines.append("  game over: " + ("truncated after max_hands" if game.truncated else "no winner"))
    return "\n".join(lines)


def render_hand_result(record: dict) -> str:
    """The score breakdown of one completed hand (from its record)."""
    lines = [f"Hand {record['hand']} scored:"]
    for s, side in enumerate(record["sides"]):
        lines.append(
            f"  side {s}: bid {side['bid']}, counted tricks {side['counted_tricks']}, contract {side['contract']:+d}, "
            f"bags {side['bags_taken']:+d}, nil {side['nil']:+d}, bag penalty {side['bag_penalty']:+d} "
            f"-> {side['total']:+d}  (score {record['scores'][s]}, bags {record['bags'][s]})")
    return "\n".join(lines)
