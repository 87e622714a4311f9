"""``spades analyze FILE``: double-dummy analysis of recorded hands, to see where a bot loses points.

For each completed hand of the file (a tournament's ``games.jsonl``, a
``spades play`` save, or hand records: whatever :func:`~spades_env.agents.replay.load_games`
reads), replayed through the engine:

* **par**: the double-dummy result of the deal from the first card (every
  hand visible, every seat playing perfectly for its side's hand points minus
  the other side's, :mod:`spades_env.solver`): the value, and the points and
  tricks of each side along one perfect line;
* **errors**: each card play that cost its side points against double-dummy
  play: the value of the best card minus the value of the card played, in
  hand points of the player's side minus the other side's;
* per agent (the tournament's ``seats``, or the play save's agents): the
  points lost to card play per hand, and its costliest card plays.

``--html OUT.html`` writes the replay page of one game (``--game N``) with
each hand's analysis on it and each costly card marked where it is played
(the same page as ``spades replay --html OUT.html --analyze``).

A position the solver cannot finish within ``--max-nodes`` (the first tricks
of a deal with a Nil still standing can take millions of nodes) is left out
and counted as not analysed; ``--last-tricks K`` analyses only the last K
tricks, which is fast. ``--json`` prints one object per hand and the summary
(docs/search.md describes the shape).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import asdict, dataclass, field

from spades_env.cards import CARD_NAMES
from spades_env.game import Phase, SpadesConfig, SpadesGame
from spades_env.records import (
    RecordMismatchError,
    hand_at_start,
    recorded_draws,
    recorded_outcome,
    replay_hand,
)
from spades_env.render import SEAT_NAMES
from spades_env.solver import NodeLimitReached, solve, warm_up

from .cli import ArgumentParser, positive_int
from .replay_records import RecordedGame, load_games

TRICKS_PER_HAND = 13
DEFAULT_MAX_NODES = 2_000_000
TOP_MISTAKES = 3  # per agent, in the text


@dataclass
class CardError:
    """A card play that lost its side ``loss`` points against the best card (double dummy)."""

    play: int  # index of the card in the hand's plays, from 0
    trick: int  # from 1
    seat: int
    card: str
    best: list[str]  # the best cards in that position
    loss: int


@dataclass
class HandAnalysis:
    """The double-dummy analysis of one hand; values are hand points, side 0 (N-S, or the first player) first."""

    game: int
    hand: int
    num_players: int
    seats: list[str] | None  # the agent at each seat, when the file says
    points: list[int]  # what each side scored in the hand
    tricks: list[int]  # tricks each side took
    par_value: int | None = None  # side 0 minus side 1 under perfect play from the first card
    par_points: list[int] | None = None  # each side's points along one perfect line
    par_tricks: list[int] | None = None
    analyzed: list[int] = field(default_factory=list)  # per seat: its card plays whose position was solved
    errors: list[CardError] = field(default_factory=list)

    def lost_by_side(self) -> list[int]:
        lost = [0, 0]
        for error in self.errors:
            lost[error.seat % 2] += error.loss
        return lost

    def to_dict(self) -> dict:
        out = asdict(self)
        out["lost"] = self.lost_by_side()
        return out


def analyze_hand(record: dict, config: SpadesConfig, game_number: int = 1, seats: list[str] | None = None,
                 max_nodes: int = DEFAULT_MAX_NODES, last_tricks: int = TRICKS_PER_HAND) -> HandAnalysis:
    """Analyse one hand record (checked first with :func:`spades_env.records.replay_hand`)."""
    replay_hand(record, config)
    game, draws = hand_at_start(record, config), recorded_draws(record)
    sides = range(2)
    analysis = HandAnalysis(game_number, int(record["hand"]), game.num_players, seats,
                            list(record["points"]), [sum(record["tricks"][s::2]) for s in sides],
                            analyzed=[0] * game.num_players)
    for player, action in record["actions"]:
        if game.phase == Phase.PLAY:
            _analyze_card(game, player, action, analysis, max_nodes, last_tricks)
        game.apply(action, recorded_outcome(game, action, draws))
    return analysis


def _analyze_card(game: SpadesGame, player: int, card: int, analysis: HandAnalysis, max_nodes: int,
                  last_tricks: int) -> None:
    """Solve the position before ``card`` and record what playing it cost (and the par, at the first card)."""
    first = not game.plays
    left = TRICKS_PER_HAND - len(game.trick_winners)
    if left > last_tricks:
        return
    if len(game.legal_actions()) == 1 and not first:
        analysis.analyzed[player] += 1
        return
    try:
        solution = solve(game, every_move=True, max_nodes=max_nodes)
    except NodeLimitReached:
        return
    analysis.analyzed[player] += 1
    loss = solution.value - solution.move_values[card]
    if loss > 0:
        analysis.errors.append(CardError(len(game.plays), len(game.trick_winners) + 1, player, CARD_NAMES[card],
                                         [CARD_NAMES[c] for c in solution.best_moves], loss))
    if first:
        sign = 1 if game.side_of[game.current_player] == 0 else -1
        analysis.par_value = sign * solution.value
        _par_line(game.clone(), analysis, max_nodes)


def _par_line(game: SpadesGame, analysis: HandAnalysis, max_nodes: int) -> None:
    """Play one perfect line to the end of the hand, for each side's par points and tricks."""
    try:
        while len(game.hand_records) == 0:
            legal = game.legal_actions()
            best = legal if len(legal) == 1 else solve(game, every_move=False, max_nodes=max_nodes).best_moves
            game.apply(best[0])
    except NodeLimitReached:
        return
    record = game.hand_records[-1]
    analysis.par_points = list(record["points"])
    analysis.par_tricks = [sum(record["tricks"][s::2]) for s in range(2)]


def analyze_games(games: list[RecordedGame], max_nodes: int = DEFAULT_MAX_NODES,
                  last_tricks: int = TRICKS_PER_HAND, first_number: int = 1) -> list[HandAnalysis]:
    """Every completed hand of ``games``, in order; the games are numbered from ``first_number`` (their place in
    the file)."""
    out = []
    for number, recorded in enumerate(games, start=first_number):
        for record in recorded.hands:
            config = _config(recorded, record)
            seats = recorded.seats if recorded.seats and len(recorded.seats) == config.num_players else None
            out.append(analyze_hand(record, config, number, seats, max_nodes, last_tricks))
    return out


def annotate(games: list[RecordedGame], analyses: list[HandAnalysis]) -> None:
    """Attach each analysis (of :func:`analyze_games` on ``games``) to its hand record as ``"analysis"``: the
    replay page shows it and marks the costly cards (:mod:`spades_env.agents.replay_html`)."""
    records = [record for game in games for record in game.hands]
    for record, analysis in zip(records, analyses, strict=True):
        record["analysis"] = analysis.to_dict()


def _config(recorded: RecordedGame, record: dict) -> SpadesConfig:
    """The game's rules when the file records them, else the default rules of the hand's variant."""
    if recorded.config:
        return SpadesConfig(**recorded.config)
    return SpadesConfig(num_players=int(record["num_players"]))


# ------------------------------------------------------------------ the summary per agent


def summary(analyses: list[HandAnalysis]) -> list[dict]:
    """Per agent (by seat name when the file names none): hands played, share of its card plays analysed,
    points lost to card play per hand, and errors per hand. A hand counts once per agent even when the
    agent holds both seats of a side."""
    hands: dict[str, int] = defaultdict(int)
    lost: dict[str, int] = defaultdict(int)
    errors: dict[str, int] = defaultdict(int)
    plays: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for a in analyses:
        names = a.seats or list(SEAT_NAMES[a.num_players])
        for name in set(names):
            hands[name] += 1
        for seat, analyzed in enumerate(a.analyzed):
            plays[names[seat]][0] += TRICKS_PER_HAND
            plays[names[seat]][1] += analyzed
        for error in a.errors:
            lost[names[error.seat]] += error.loss
            errors[names[error.seat]] += 1
    return [{"agent": name, "hands": hands[name], "analyzed": round(plays[name][1] / max(1, plays[name][0]), 3),
             "lost_per_hand": round(lost[name] / hands[name], 2),
             "errors_per_hand": round(errors[name] / hands[name], 2)} for name in sorted(hands)]


# ------------------------------------------------------------------ the command


def table_text(analyses: list[HandAnalysis], rows: list[dict]) -> str:
    lines = [f"{'game':>4} {'hand':>4} {'par':>6} {'par points':>12} {'par tricks':>10} {'points':>12} "
             f"{'tricks':>7} {'lost':>9} {'analysed':>8}"]
    for a in analyses:
        cards = a.num_players * TRICKS_PER_HAND
        par = "-" if a.par_value is None else f"{a.par_value:+d}"
        par_points = "-" if a.par_points is None else "{} / {}".format(*a.par_points)
        par_tricks = "-" if a.par_tricks is None else "{}-{}".format(*a.par_tricks)
        lines.append(f"{a.game:>4} {a.hand:>4} {par:>6} {par_points:>12} {par_tricks:>10} "
                     f"{'{} / {}'.format(*a.points):>12} {'{}-{}'.format(*a.tricks):>7} "
                     f"{'{} / {}'.format(*a.lost_by_side()):>9} {sum(a.analyzed):>4}/{cards:<3}")
    lines += ["", "Points lost to card play against double-dummy play (own side minus the other side's), per agent:",
              f"{'agent':<24} {'hands':>6} {'analysed':>9} {'lost/hand':>10} {'errors/hand':>12}"]
    lines += [f"{r['agent']:<24} {r['hands']:>6} {100 * r['analyzed']:>8.1f}% {r['lost_per_hand']:>10.2f} "
              f"{r['errors_per_hand']:>12.2f}" for r in rows]
    mistakes = top_mistakes(analyses)
    if mistakes:
        lines += ["", f"The costliest card plays, up to {TOP_MISTAKES} per agent (points lost against the best card):"]
        for agent, found in mistakes.items():
            lines.append(f"{agent}:")
            lines += [f"  game {a.game} hand {a.hand} trick {e.trick}: {SEAT_NAMES[a.num_players][e.seat]} played "
                      f"{e.card}, best {' '.join(e.best)}, lost {e.loss}" for a, e in found]
    return "\n".join(lines)


def top_mistakes(analyses: list[HandAnalysis], per_agent: int = TOP_MISTAKES) -> dict[str, list]:
    """Per agent (named as in :func:`summary`): its ``per_agent`` costliest errors as (hand analysis, error),
    the largest loss first, earlier hands first among equal losses."""
    found: dict[str, list] = defaultdict(list)
    for a in analyses:
        names = a.seats or list(SEAT_NAMES[a.num_players])
        for error in a.errors:
            found[names[error.seat]].append((a, error))
    return {agent: sorted(errors, key=lambda ae: -ae[1].loss)[:per_agent] for agent, errors in sorted(found.items())}


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="spades analyze", description=__doc__.split("\n\n")[0])
    p.add_argument("file", help="JSON Lines: tournament / records game records, a 'spades play' save, hand records")
    p.add_argument("--max-nodes", type=positive_int, default=DEFAULT_MAX_NODES,
                   help="solver nodes per position; a position that needs more is not analysed")
    p.add_argument("--last-tricks", type=positive_int, default=TRICKS_PER_HAND,
                   help="analyse only the card plays of the last K tricks (par needs all 13)")
    p.add_argument("--games", type=positive_int, default=None, help="only the first N games of the file")
    p.add_argument("--json", action="store_true", help="print JSON (one object: hands and summary) instead")
    p.add_argument("--html", metavar="OUT.html", default=None,
                   help="also write the replay page of one game (--game) with the analysis and its costly cards")
    p.add_argument("--game", type=positive_int, default=1, help="the game of the file --html shows, from 1")
    return p


def main(argv: list[str] | None = None) -> int:
    """``spades analyze``: 0 when analysed, 2 when the file or a record is wrong."""
    args = build_parser().parse_args(argv)
    try:
        games = load_games(args.file)[:args.games]
        if args.html and not 1 <= args.game <= len(games):
            raise ValueError(f"--game must be in 1..{len(games)}, got {args.game}")
        warm_up()
        analyses = analyze_games(games, args.max_nodes, min(args.last_tricks, TRICKS_PER_HAND))
        annotate(games, analyses)
    except (OSError, ValueError, KeyError, RecordMismatchError) as exc:
        print(f"spades analyze: {args.file}: {exc}", file=sys.stderr)
        return 2
    rows = summary(analyses)
    if args.json:
        print(json.dumps({"hands": [a.to_dict() for a in analyses], "summary": rows}))
    else:
        print(table_text(analyses, rows))
    if args.html:
        from .replay_html import write_game_page

        path = write_game_page(games[args.game - 1], args.html)
        print(f"wrote {path}", file=sys.stderr if args.json else sys.stdout)
    return 0
