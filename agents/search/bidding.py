"""Bidding by search: the expected hand points of each bid over sampled deals, each played out.

The double-dummy solver would score a bid exactly on a deal, but a 13-trick
deal takes it seconds; so each world (a deal consistent with the view,
:mod:`.worlds`) is played out instead, every seat by the heuristic
(:class:`~spades_env.agents.heuristic.HeuristicAgent`): the seats still to bid
bid as it would, and the hand is played to the end. One play-out with the
heuristic's own bid gives my side's tricks in that world, which score every
bid near it (a bid hardly changes how the cards fall, except a Nil, which
changes the play); one more with a Nil, where Nil is open, scores the Nil. The
bid of the best mean of my side's points minus the other side's is made; both
play-outs of a world use the same deal, so the comparison is paired.

Blind Nil (four players) the same way, before the seat has seen a card: over
uniform deals (:func:`.worlds.unseen_world`), one play-out after Blind Nil
(the exchange and the play by the heuristic) and one after looking (the
heuristic's bid), paired; Blind Nil when its mean is higher.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spades_env import actions as A
from spades_env.agent import ask
from spades_env.game import SpadesGame
from spades_env.scoring import score_side
from spades_env.view import PlayerView

from ..heuristic import HeuristicAgent
from ..heuristic.params import DEFAULT, Params
from .worlds import drawn_worlds, worlds

SPREAD = 2  # bids within this many tricks of the heuristic's are scored


@dataclass(frozen=True)
class BidChoice:
    bid: int
    means: dict[int, float]  # mean points difference per bid considered


def search_bid(view: PlayerView, heuristic_bid: int, count: int, rng: np.random.Generator,
               params: Params = DEFAULT) -> BidChoice:
    """The bid with the best mean points difference over ``count`` worlds (see the module docstring), played
    out by the heuristic with ``params``."""
    seat, side = view.seat, view.side
    low = max(1, heuristic_bid - SPREAD)
    candidates = range(low, min(13, max(heuristic_bid, low) + SPREAD) + 1)
    try_nil = view.config.nil and _partner_bid(view) != 0
    normal = dict.fromkeys(candidates, 0.0)
    nil = 0.0
    player = HeuristicAgent(seed=int(rng.integers(2**31)), params=params)
    for world in drawn_worlds(view, count, rng):
        record = _play_out(world.clone() if try_nil else world, A.bid_action(max(heuristic_bid, 1)), player)
        other = record["points"][1 - side]
        for bid in candidates:
            normal[bid] += _side_points(record, view, seat, bid) - other
        if try_nil:
            record = _play_out(world, A.bid_action(0), player)
            nil += record["points"][side] - record["points"][1 - side]
    means = {bid: total / count for bid, total in normal.items()}
    if try_nil:
        means[0] = nil / count
    best = max(means.values())
    choice = heuristic_bid if means.get(heuristic_bid, -np.inf) >= best else max(means, key=means.get)
    return BidChoice(choice, means)


@dataclass(frozen=True)
class BlindChoice:
    blind_nil: bool
    blind_mean: float  # mean points difference after Blind Nil
    look_mean: float  # ... after looking and bidding as the heuristic does


def search_blind_nil(view: PlayerView, count: int, rng: np.random.Generator, params: Params = DEFAULT) -> BlindChoice:
    """Blind Nil or look, by the mean points difference of paired play-outs by the heuristic with ``params``
    (see the module docstring)."""
    side = view.side
    totals = {A.BLIND_NIL: 0.0, A.LOOK: 0.0}
    player = HeuristicAgent(seed=int(rng.integers(2**31)), params=params)
    for world in worlds(view, count, rng):
        for action in totals:
            record = _play_out(world.clone(), action, player)
            totals[action] += record["points"][side] - record["points"][1 - side]
    blind, look = totals[A.BLIND_NIL] / max(1, count), totals[A.LOOK] / max(1, count)
    return BlindChoice(blind > look, blind, look)


def _partner_bid(view: PlayerView) -> int | None:
    return None if view.partner is None else view.bids[view.partner]


def _play_out(game: SpadesGame, my_bid: int, player: HeuristicAgent) -> dict:
    """Make ``my_bid`` (a bid, Blind Nil or look), then play the hand to its end by the heuristic at every
    seat; its hand record."""
    hands = len(game.hand_records)
    game.apply(my_bid)
    while len(game.hand_records) == hands:
        game.apply(ask(player, game))
    return game.hand_records[-1]


def _side_points(record: dict, view: PlayerView, seat: int, bid: int) -> int:
    """My side's hand points in ``record`` had I bid ``bid`` (the tricks as they fell)."""
    members = [seat] if view.partner is None else sorted((seat, view.partner))
    bids = [bid if m == seat else record["bids"][m] for m in members]
    cfg = view.config
    return score_side(bids, [record["blind_nil"][m] for m in members], [record["tricks"][m] for m in members],
                      view.bags[view.side], cfg.bag_limit, cfg.bag_penalty).total
