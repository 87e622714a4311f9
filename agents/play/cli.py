"""The ``spades play`` command line: options to a :class:`~.save.Setup` (or a save to resume), then the session."""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from pathlib import Path

from spades_env.game import IllegalActionError, Phase, SpadesConfig, SpadesGame
from spades_env.rules import PRESETS, preset_help

from .human import HUMAN, Quit
from .save import PlayError, Setup, load_deal, read_save, restore
from .screen import legend
from .session import Session
from .terminal import Reader, Writer, print_line, read_line

NEW_GAME_OPTIONS = ("seat", "partner", "opponents", "num_players", "seed", "deal", "target", "rules")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="spades play",
                                description="A person takes one seat at the table, agents from the registry "
                                            "take the others.",
                                epilog="Input: a card (AS, 10h, td), a bid (0-13, nil), blind, look, keep, discard, "
                                       "done; 'help' at the prompt. Ctrl-C or Ctrl-D saves and stops.")
    p.add_argument("--seat", type=int, help="your seat, 0..3 (0..1 with two players); default 0")
    p.add_argument("--partner", help="your partner's agent (four players); default heuristic")
    p.add_argument("--opponents", help="the opponents' agent; default heuristic")
    p.add_argument("--num-players", type=int, choices=(4, 2), help="4 (partnership, default) or 2")
    p.add_argument("--seed", type=int, help="seed of the deals (default: a random one, saved)")
    p.add_argument("--deal", metavar="FILE", help="JSON file fixing the first deal (see load_deal)")
    p.add_argument("--target", type=int, help="target score (default 500)")
    p.add_argument("--rules", choices=tuple(PRESETS), help=preset_help("default"))
    p.add_argument("--save", metavar="FILE", help="save file (JSON Lines); default spades-play-<time>.jsonl")
    p.add_argument("--resume", metavar="FILE", help="continue the game saved in FILE (into FILE, or --save)")
    return p


def new_setup(args: argparse.Namespace) -> Setup:
    """The setup of a new game from the options; raises :class:`PlayError` on a bad combination."""
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
        config = SpadesConfig.from_preset(args.rules or "default", **rules).to_dict()
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
        given = [f"--{k.replace('_', '-')}" for k in NEW_GAME_OPTIONS if getattr(args, k) is not None]
        if given:
            raise PlayError(f"{', '.join(given)}: a resumed game keeps the options it was saved with")
        setup, moves = read_save(args.resume)
        save_path = args.save or args.resume
        if args.save and Path(args.save).resolve() == Path(args.resume).resolve():
            save_path = args.resume
    else:
        setup, moves = new_setup(args), []
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


def main(argv: list[str] | None = None, read: Reader = read_line, write: Writer = print_line) -> int:
    """``spades play``: returns 0 when the game ends or the person quits, 130 on Ctrl-C, 2 on bad options."""
    args = build_parser().parse_args(argv)
    try:
        session, game = session_from_args(args, read, write)
    except PlayError as exc:
        print(f"spades play: {exc}", file=sys.stderr)
        return 2
    write(legend(session.table, session.setup, session.save_path))
    if game.game_over:
        for record in game.hand_records:
            session.narrator.show_hand_result(record)
        write(session.narrator.game_over_text(game) + f"\n(the game saved in {args.resume} is over)")
        return 0
    if args.resume:
        trick = f", trick {len(game.trick_winners) + 1}" if game.phase == Phase.PLAY else ""
        write(f"Resuming {args.resume}: {session.saved_moves} saved actions; hand {game.hand_number + 1}{trick}.")
    else:
        session.narrator.announce_hand(game)
    return _play(session, args.resume)


def _play(session: Session, resumed: str | None) -> int:
    """Run the session to the end of the game or until the person stops; the exit status."""
    code = 0
    try:
        session.open_save()
        if session.copy_moves and resumed:
            session.write(f"Copying the game of {resumed} to {session.save_path}.")
        session.run()
    except Quit:
        _say_saved(session, "Stopped")
    except KeyboardInterrupt:
        _say_saved(session, "Interrupted")
        code = 130
    except (PlayError, IllegalActionError) as exc:  # a bot chose an illegal action, or a corrupt save
        print(f"spades play: {exc}\nThe game so far is saved in {session.save_path}.", file=sys.stderr)
        code = 1
    finally:
        session.close()
    return code


def _say_saved(session: Session, how: str) -> None:
    session.write(f"\n{how}. The game is saved in {session.save_path}; continue it with:\n"
                  f"  spades play --resume {session.save_path}")
