"""Statistics over tournament game records: per-pairing results with confidence intervals, ratings, the summary.

Everything here is a pure function of the JSON records that
:mod:`spades_env.agents.tournament` writes (and, for the summary, of the
spec), so a results folder can be re-analysed without replaying a game. Each
record holds the labels of the agents on side 0 and side 1 (``"sides"``), the
board (deal sequence) it belongs to, the winner and the engine's per-hand
records.

Points per deal: a *board* is one seed, i.e. one sequence of deals, played
twice with the sides swapped. Its value for agent A against agent B is the
mean, over every hand of both games, of A's side's points minus B's side's
points in that hand. Luck of the cards cancels inside a board, so boards are
the independent units: the 95% confidence interval is the normal
approximation mean +- 1.96 * sd / sqrt(boards).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from .schedule import TournamentSpec

Z95 = 1.959963984540054


def mean_ci(values: Sequence[float]) -> dict:
    """Mean with a 95% normal-approximation confidence interval (None bounds below two values)."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "low": None, "high": None, "sd": None}
    mean = sum(values) / n
    if n < 2:
        return {"n": n, "mean": mean, "low": None, "high": None, "sd": None}
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return {"n": n, "mean": mean, "low": mean - half, "high": mean + half, "sd": sd}


def _rate(successes: int, attempts: int) -> float | None:
    return successes / attempts if attempts else None


class SideTally:
    """Per-hand statistics of whoever sits on one side, summed over hands."""

    def __init__(self) -> None:
        self.hands = 0
        self.points = 0
        self.contracts = 0  # hands with a numeric contract (> 0)
        self.sets = 0
        self.nil = [0, 0]  # [attempts, successes]
        self.blind_nil = [0, 0]
        self.bags = 0
        self.bag_penalties = 0
        self.bid = 0
        self.tricks = 0

    def add_hand(self, hand: dict, side: int) -> None:
        s = hand["sides"][side]
        n = hand["num_players"]
        self.hands += 1
        self.points += s["total"]
        if s["bid"] > 0:
            self.contracts += 1
            self.sets += not s["made"]
        for seat in range(side, n, 2):  # the members of this side
            if hand["bids"][seat] == 0:
                tally = self.blind_nil if hand["blind_nil"][seat] else self.nil
                tally[0] += 1
                tally[1] += hand["tricks"][seat] == 0
            self.tricks += hand["tricks"][seat]
        self.bags += s["bags_taken"]
        self.bag_penalties += s["bag_penalty"] < 0
        self.bid += s["bid"]

    def to_dict(self) -> dict:
        h = self.hands or 1
        return {
            "hands": self.hands,
            "points_per_hand": self.points / h,
            "set_rate": _rate(self.sets, self.contracts),
            "nil_attempts": self.nil[0],
            "nil_success": _rate(self.nil[1], self.nil[0]),
            "blind_nil_attempts": self.blind_nil[0],
            "blind_nil_success": _rate(self.blind_nil[1], self.blind_nil[0]),
            "bags_per_hand": self.bags / h,
            "bag_penalties": self.bag_penalties,
            "mean_bid": self.bid / h,
            "mean_tricks": self.tricks / h,
        }


def a_margin(rec: dict) -> int:
    """Agent A's side's points minus B's over the hands of one game (A holds side ``swap`` of the board)."""
    a_side = rec["swap"]
    return sum(hand["points"][a_side] - hand["points"][1 - a_side] for hand in rec["hands"])


def board_games(records: Iterable[dict]) -> dict[int, list[tuple[int, int]]]:
    """Per board, ``(a_margin, hands)`` of each of its games, in the order of their side swap."""
    boards: dict[int, dict[int, tuple[int, int]]] = {}
    for rec in records:
        boards.setdefault(rec["board"], {})[rec["swap"]] = (a_margin(rec), len(rec["hands"]))
    return {board: [games[swap] for swap in sorted(games)] for board, games in boards.items()}


def board_value(games: Sequence[tuple[int, int]]) -> float | None:
    """A board's points per deal for A: both games' margins over both games' hands (None unless both ended).

    One ratio over the pair rather than a mean of two per-game rates: the
    hands both games played are mirrored, and a game that lasted longer
    weighs by its hands, as each of its deals does.
    """
    hands = sum(h for _, h in games)
    return sum(m for m, _ in games) / hands if len(games) == 2 and hands else None


def pairing_stats(records: Iterable[dict], a: str, b: str) -> dict:
    """Results of agent label ``a`` against ``b`` from the records of their pairing.

    ``a`` is the label on side 0 in the first game of each board. With a
    mirror match (``a == b``) the two copies are told apart by that rule.
    """
    records = list(records)
    tallies = {a: SideTally(), b: SideTally()} if a != b else {"first": SideTally(), "second": SideTally()}
    wins_a = wins_b = draws = truncated = 0
    side0_margin: list[float] = []  # per game: side 0 minus side 1 points per hand (seat bias check)
    for rec in records:
        a_side = rec["swap"]  # A sits on side 0 in swap 0 and on side 1 in swap 1
        keys = (a, b) if a != b else ("first", "second")
        for hand in rec["hands"]:
            tallies[keys[0]].add_hand(hand, a_side)
            tallies[keys[1]].add_hand(hand, 1 - a_side)
        if rec["hands"]:
            side0_margin.append(sum(h["points"][0] - h["points"][1] for h in rec["hands"]) / len(rec["hands"]))
        truncated += bool(rec["truncated"])
        if rec["winner"] is None:
            draws += 1
        elif rec["winner"] == a_side:
            wins_a += 1
        else:
            wins_b += 1
    values = [board_value(games) for games in board_games(records).values()]
    complete = [v for v in values if v is not None]
    games = len(records)
    names = list(tallies)
    return {
        "a": a,
        "b": b,
        "games": games,
        "boards": len(complete),
        "wins_a": wins_a,
        "wins_b": wins_b,
        "draws": draws,
        "truncated": truncated,
        "win_rate_a": (wins_a + 0.5 * draws) / games if games else None,
        "points_per_deal_diff": mean_ci(complete),
        "side0_minus_side1_per_deal": mean_ci(side0_margin),
        "agent_a": tallies[names[0]].to_dict(),
        "agent_b": tallies[names[1]].to_dict(),
    }


def agent_stats(records: Iterable[dict], label: str) -> dict:
    """One agent's own per-hand statistics over every side it held in ``records`` (mirror games count twice)."""
    tally = SideTally()
    for rec in records:
        for side, who in enumerate(rec["sides"]):
            if who == label:
                for hand in rec["hands"]:
                    tally.add_hand(hand, side)
    return tally.to_dict()


def openskill_ratings(records: Iterable[dict], labels: Sequence[str]) -> dict[str, dict]:
    """OpenSkill (Plackett-Luce) ratings from game results, in record order.

    Each game is a match between the two agents (a side counts as one
    player); a game without a winner is a draw. Mirror games (an agent
    against itself) carry no information and are skipped. ``ordinal`` is the
    conservative estimate mu - 3 sigma.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {label: model.rating(name=label) for label in labels}
    for rec in records:
        s0, s1 = rec["sides"]
        if s0 == s1:
            continue
        winner = rec["winner"]
        ranks = [1, 1] if winner is None else [1, 2] if winner == 0 else [2, 1]
        (r0,), (r1,) = model.rate([[ratings[s0]], [ratings[s1]]], ranks=ranks)
        ratings[s0], ratings[s1] = r0, r1
    return {label: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for label, r in ratings.items()}


def summarize(spec: TournamentSpec, records: Sequence[dict]) -> dict:
    """Statistics of a tournament from its records (sorted by index first, so order never matters)."""
    records = sorted(records, key=lambda r: r["index"])
    by_pairing: dict[int, list[dict]] = {}
    for rec in records:
        by_pairing.setdefault(rec["pairing"], []).append(rec)
    pairings = []
    for k, (a, b) in enumerate(spec.pairings):
        stats = pairing_stats(by_pairing.get(k, []), spec.labels[a], spec.labels[b])
        pairings.append(stats)
    ratings = openskill_ratings(records, spec.labels)
    agents = {label: {"spec": s, "games": sum(label in r["sides"] for r in records),
                      "rating": ratings[label], "stats": agent_stats(records, label)}
              for label, s in zip(spec.labels, spec.agents)}
    return {"spec": spec.to_dict(), "games_played": len(records), "games_planned": spec.total_games,
            "pairings": pairings, "agents": agents}
