"""``spades replay FILE``: step through a recorded game, hand by hand and trick by trick, every hand face up.

It reads the JSON Lines files the project writes:

* game records (:mod:`spades_env.records`, tournaments): one game per line, ``{"hands": [<hand record>, ...]}``;
* ``spades play`` saves: a header line, then action, hand and end lines (only completed hands can be shown);
* bare hand records (for instance the env's ``infos["hand_record"]`` written one per line), taken as one game.

The viewer shows what the records say and scores nothing itself; :func:`spades_env.records.replay_game`
is the tool that checks a record against the rules engine.
"""

from __future__ import annotations

import argparse
import os
import sys

from spades_env.cards import hand_to_str, str_to_card
from spades_env.render import SEAT_NAMES, bid_text
from spades_env.variant import variant_of

from .play.table import table
from .play.terminal import Reader, Writer, print_line, read_line
from .replay_records import (
    RecordedGame,
    discard_lines,
    exchange_lines,
    final_text,
    hand_mask,
    load_games,
    playing_hands,
)

PAUSE_PROMPT = "[Enter] next trick · n next hand · c to the end · q quit > "


class Viewer:
    """Prints a recorded game and pauses between tricks as the person asks."""

    def __init__(self, game: RecordedGame, write: Writer, read: Reader | None) -> None:
        self.game, self.write, self.read = game, write, read
        self.mode = "trick" if read is not None else "all"  # pause after each "trick", each "hand", or never

    def pause(self, level: str) -> bool:
        """Wait at a trick or hand boundary; False when the person quits."""
        if self.mode == "all" or (self.mode == "hand" and level == "trick"):
            return True
        try:
            answer = self.read(PAUSE_PROMPT).strip().lower()
        except EOFError:  # nothing more to read: show the rest
            self.mode = "all"
            return True
        if answer in ("q", "quit"):
            return False
        self.mode = {"n": "hand", "c": "all"}.get(answer, "trick")
        return True

    def show(self, first_hand: int = 1) -> None:
        self.write(f"Replaying {self.game.title}: {len(self.game.hands)} hand(s).")
        for record in self.game.hands:
            if record.get("hand", 0) < first_hand:
                continue
            if not self.show_hand(record):
                return
            if self.mode == "hand":
                self.mode = "trick"
        last = self.game.hands[-1] if self.game.hands else None
        if last is not None and last.get("game_over"):
            self.write(final_text(last))
        if self.game.note:
            self.write(self.game.note)

    def labels(self, n: int) -> list[str]:
        seats = self.game.seats if self.game.seats and len(self.game.seats) == n else None
        return [SEAT_NAMES[n][p] + (f" ({seats[p]})" if seats else "") for p in range(n)]

    def show_hand(self, record: dict) -> bool:
        n = record["num_players"]
        labels = self.labels(n)
        short = SEAT_NAMES[n]
        self.write("\n" + hand_intro(record, labels))
        hands = playing_hands(record)
        plays, winners = record["plays"], record["trick_winners"]
        tricks = [0] * n
        sides = table(n)
        if not self.pause("trick"):
            return False
        for t, winner in enumerate(winners):
            trick = plays[t * n:(t + 1) * n]
            width = max(len(label) for label in labels)
            lines = [f"Trick {t + 1} of 13 · {short[trick[0][0]]} leads"]
            lines += [f"  {labels[p]:<{width}}  {hand_to_str(hands[p])}" for p in range(n)]
            tricks[winner] += 1
            lines.append("  " + ", ".join(f"{short[p]} {c}" for p, c in trick)
                         + f"  -> {short[winner]} wins   (tricks: {sides.tricks_text(tricks)})")
            self.write("\n".join(lines))
            for p, c in trick:
                hands[p] &= ~(1 << str_to_card(c))
            if t + 1 < len(winners) and not self.pause("trick"):
                return False
        self.write(sides.hand_summary(record))
        return self.pause("hand")


def hand_intro(record: dict, labels: list[str]) -> str:
    """The hand as dealt (as drawn, with two players), the bids and the exchanges."""
    n = record["num_players"]
    short, sides = SEAT_NAMES[n], table(n)
    role = "dealer" if n == 4 else "first drawer"
    scores = sides.scores_text(record["scores_before"], record["bags_before"])
    lines = [f"=== Hand {record['hand']} · {role} {short[record['dealer']]} · before: {scores} ==="]
    width = max(len(label) for label in labels)
    lines.append(f"{variant_of(n).dealt_word}:")
    lines += [f"  {labels[p]:<{width}}  {hand_to_str(hand_mask(record['hands'][p]))}" for p in range(n)]
    lines += [f"  {line}" for line in discard_lines(record)]
    lines.append("Bids:  " + " · ".join(f"{short[p]} {bid_text(b, record['blind_nil'][p])}"
                                        for p, b in enumerate(record["bids"])))
    lines += exchange_lines(record)
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="spades replay", description=__doc__.split("\n\n")[0])
    p.add_argument("file", help="JSON Lines: tournament / records game records, a 'spades play' save, hand records")
    p.add_argument("--game", type=int, default=1, help="which game of the file, from 1 (default 1)")
    p.add_argument("--hand", type=int, default=1, help="start at this hand (default 1)")
    p.add_argument("--no-pause", action="store_true", help="print everything without waiting for Enter")
    p.add_argument("--html", metavar="OUT.html", default=None,
                   help="write the game as one self-contained web page instead (arrow keys step through it)")
    p.add_argument("--analyze", action="store_true",
                   help="with --html: analyse each hand double dummy (spades analyze) and mark the costly cards")
    return p


def main(argv: list[str] | None = None, read: Reader = read_line, write: Writer = print_line) -> int:
    """``spades replay``: 0 when shown (or quit), 2 when the file or the options are wrong."""
    args = build_parser().parse_args(argv)
    try:
        games = load_games(args.file)
    except (OSError, ValueError, KeyError) as exc:
        print(f"spades replay: {exc}", file=sys.stderr)
        return 2
    if not games:
        print(f"spades replay: {args.file} holds no game", file=sys.stderr)
        return 2
    if not 1 <= args.game <= len(games):
        print(f"spades replay: --game must be in 1..{len(games)} ({args.file} holds {len(games)} games)",
              file=sys.stderr)
        return 2
    if args.analyze and not args.html:
        print("spades replay: --analyze marks the costly cards on the web page: give --html OUT.html too "
              "(or run spades analyze FILE for the text)", file=sys.stderr)
        return 2
    if len(games) > 1:
        write(f"{args.file} holds {len(games)} games; this is game {args.game} (choose with --game K).")
    try:
        if args.html:
            from .replay_html import write_game_page

            game = games[args.game - 1]
            if args.analyze:
                from .analyze import analyze_games, annotate

                annotate([game], analyze_games([game], first_number=args.game))
            write(f"wrote {write_game_page(game, args.html, first_hand=args.hand)}")
            return 0
        Viewer(games[args.game - 1], write, None if args.no_pause else read).show(args.hand)
    except (KeyError, ValueError, IndexError, TypeError) as exc:  # a record lacking fields, or odd values
        print(f"spades replay: malformed record in {args.file}: {exc!r}", file=sys.stderr)
        return 2
    except OSError as exc:  # the page could not be written
        print(f"spades replay: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the output went to `head` or a pager that was closed: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
    return 0


if __name__ == "__main__":
    sys.exit(main())
