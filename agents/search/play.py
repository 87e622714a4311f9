"""Card play by perfect-information Monte Carlo (PIMC): solve sampled worlds double dummy, play the best average.

Each world is a full deal consistent with the seat's view (:mod:`.worlds`);
the solver (:func:`spades_env.solver.solve`, every legal card exact) gives the
hand points of my side minus the other side's after each card, and the card
with the best mean over the worlds is played. The work is bounded in solver
nodes, not seconds, so that a decision depends only on the view and the seed
(a slow machine plays the same cards, slower): a world that needs more than its
share of the budget is dropped, and with fewer than ``min_worlds`` solved the
decision falls back to the heuristic's card (what happens in the first tricks,
where a 13-card deal takes the solver seconds).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from spades_env.cards import RANK_OF, SUIT_OF
from spades_env.game import SpadesGame
from spades_env.solver import NodeLimitReached, WorldSolver, position_of
from spades_env.view import PlayerView

from .inference import likely_worlds
from .worlds import fitted_worlds

TRICKS_PER_HAND = 13


@dataclass(frozen=True)
class PlayBudget:
    """How much a card decision may search (see the module docstring)."""

    worlds: int = 16  # worlds sampled at most
    nodes: int = 100_000  # solver nodes per decision, all worlds together
    min_worlds: int = 4  # fewer solved worlds than this: the heuristic's card
    max_tricks: int = 9  # with more tricks left than this, the heuristic's card without searching ...
    # ... except while a Nil stands with at most this many tricks left: then the Nils' stakes alone are searched
    # (``solve(..., nil_only=True)``, far cheaper than the hand's points), the heuristic's card among equals; 0: never
    nil_tricks: int = 0
    # worlds that fit the other seats' bids (worlds.fitted_worlds): each Nil bidder's dealt hand of Nil danger
    # at most nil_risk; each other bid near the dealt hand's trick estimate, within about bid_sigma tricks
    nil_risk: float | None = None
    bid_sigma: float | None = None
    # against a Blind Nil that was exchanged: the bidder's and its partner's hands as the heuristic's exchange
    # leaves them (worlds.exchanged_worlds)
    exchange_fit: bool = False
    # against a standing Nil, how far its bidder's ducks are believed (worlds.ducked_worlds' trust): 1 (or True),
    # it holds no card they rule out; between, such a card weighs 1 - nil_play in the draw; 0: not read
    nil_play: float = 0.0
    # with nil_play, also how the bidder threw cards when void (worlds.ducked_worlds' discards), believed as far
    nil_discards: bool = False
    # with nil_play, also the bidder's dealt hand one the heuristic bids Nil with in its seat (worlds.ducked_worlds)
    nil_fit: bool = False
    # policy-based inference (inference.py): draw infer times the worlds, keep worlds of them by how likely the
    # network makes the other seats' card plays there, with probability ~ likelihood ** infer_tau (inf: the most
    # likely; 0: any); infer <= 1: every world drawn is solved
    infer: int = 0
    infer_tau: float = 1.0
    # in a game that goes on (not a single hand): each bag a side carries out of the hand counted this many points
    # against it (solver.Position's bag_cost; scoring.eventual_bag_cost is its share of the penalty, 10 by the
    # default rules); 0: the hand's points alone
    bag_cost: int = 0
    # in a game under a rule that offers Blind Nil only to a side some deficit behind (the house preset): a hand
    # that leaves a side that far behind hands it a Blind Nil next hand, made about nine times in ten; each world's
    # value counts that option this many points to the side it goes to (score_context.BLIND_NIL_CATCH_UP models it
    # at 145); 0: not counted. It is priced on the world's value (with bag_cost, the priced points)
    catch_up: int = 0

    def world_cap(self) -> int:
        """The most nodes one world may take: a share of the budget that leaves room for ``min_worlds``."""
        return max(1, self.nodes // max(1, min(self.min_worlds, self.worlds)))


@dataclass(frozen=True)
class PlayChoice:
    card: int
    solved: int  # worlds solved (0: the heuristic's card)
    nodes: int
    means: dict[int, float]  # mean value per legal card over the solved worlds (empty without search)


def check_points(name: str, value: object, meaning: str) -> int:
    """``value`` as whole points of 0 or more, or a ValueError that names ``name`` and says what it is."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value) or value < 0:
        raise ValueError(f"{name} is {meaning}, whole points, 0 or more; got {value!r}")
    return int(value)


def check_bag_cost(bag_cost: object) -> int:
    return check_points("bag_cost", bag_cost, "what a carried bag counts against its side (10: the default rules' "
                        "eventual cost)")


def check_catch_up(catch_up: object) -> int:
    return check_points("catch_up", catch_up, "what the Blind Nil a hand leaves to a side far behind is worth to it "
                        "(145: the trainer's model)")


def check_nil_play(nil_play: float, nil_discards: bool = False, nil_fit: bool = False) -> None:
    """``nil_play`` is a share: 0 (or false) to 1 (or true); ``nil_discards`` and ``nil_fit`` are read with it
    (believed as far), so they need it above 0."""
    if not 0 <= nil_play <= 1:
        raise ValueError(f"nil_play must lie between 0 (the ducks not read) and 1 (or true: read as certain), "
                         f"got {nil_play!r}")
    if (nil_discards or nil_fit) and not nil_play:
        raise ValueError("nil_discards and nil_fit read the Nil bidder's play with nil_play: add nil_play=true "
                         "(or a share above 0)")


def tricks_left(view: PlayerView) -> int:
    """Tricks still to play in this hand, the current one included."""
    return TRICKS_PER_HAND - len(view.completed_tricks)


def nil_standing(view: PlayerView) -> bool:
    """Some seat bid Nil (or Blind Nil) and has taken no trick yet."""
    return any(bid == 0 and taken == 0 for bid, taken in zip(view.bids, view.tricks_won))


def search_card(view: PlayerView, fallback: int, budget: PlayBudget, rng: np.random.Generator) -> PlayChoice:
    """The card to play: the best mean over solved worlds, ``fallback`` (the heuristic's card) among equals.

    Beyond ``max_tricks`` tricks left, only while a Nil stands and within ``nil_tricks``: the best mean of the
    Nils' stakes alone (see :class:`PlayBudget`).
    """
    left = tricks_left(view)
    nil_only = left > budget.max_tricks
    if budget.worlds < 1 or (nil_only and not (left <= budget.nil_tricks and nil_standing(view))):
        return PlayChoice(fallback, 0, 0, {})
    draws = budget.worlds * max(1, budget.infer)
    worlds = fitted_worlds(view, draws, rng, budget.nil_risk, budget.bid_sigma, budget.exchange_fit,
                           budget.nil_play, budget.nil_discards, budget.nil_fit)
    if budget.infer > 1:
        worlds = likely_worlds(view, list(worlds), budget.worlds, budget.infer_tau, rng)
    means, solved, spent = solve_worlds(view, worlds, budget, nil_only)
    if means is None:
        return PlayChoice(fallback, 0, spent, {})
    return PlayChoice(best_card(means, fallback), solved, spent, means)


GAME_END_REACH = 250  # a hand seldom scores more: below target - this, the game surely goes on after the hand


def catch_up_priced(view: PlayerView, catch_up: int) -> Callable[[int], float] | None:
    """What a world's value (my side's hand points minus the other's) is worth with the Blind Nil option it leaves
    counted (:attr:`PlayBudget.catch_up`), or None where no option is at stake: a single hand, a rule with Blind Nil
    at any score or none, a game that may end with this hand."""
    config = view.config
    deficit = config.blind_nil_min_deficit
    if (not catch_up or config.single_hand or deficit is None or not config.blind_nil_offered
            or max(view.scores) >= config.target_score - GAME_END_REACH):
        return None
    lead = view.scores[view.side] - view.scores[1 - view.side]
    return lambda value: value + catch_up * ((lead + value <= -deficit) - (lead + value >= deficit))


def solve_worlds(view: PlayerView, worlds: Iterable[SpadesGame], budget: PlayBudget,
                 nil_only: bool = False) -> tuple[dict[int, float] | None, int, int]:
    """(each legal card's mean value over the worlds solved, worlds solved, nodes spent): ``worlds`` (of ``view``'s
    position) solved in turn while ``budget.nodes`` last, a world past its share (:meth:`PlayBudget.world_cap`)
    dropped; the means None with fewer than ``budget.min_worlds`` solved."""
    totals: dict[int, float] = dict.fromkeys(view.legal_actions, 0.0)
    solved = spent = 0
    cap = budget.world_cap()
    solver: WorldSolver | None = None  # the worlds differ only in the hidden hands
    priced = None if nil_only else catch_up_priced(view, budget.catch_up)
    for world in worlds:
        allowed = min(cap, budget.nodes - spent)
        if allowed <= 0:
            break
        if solver is None:
            bag_cost = 0 if world.config.single_hand else budget.bag_cost  # a single hand's bags go nowhere
            solver = WorldSolver(position_of(world, bag_cost), nil_only)
        try:
            solution = solver.solve(world.hands, max_nodes=allowed)
        except NodeLimitReached:
            spent += allowed
            continue
        spent += solution.nodes
        solved += 1
        for card, value in solution.move_values.items():
            totals[card] += value if priced is None else priced(value)
    if solved < min(budget.min_worlds, budget.worlds):
        return None, solved, spent
    return {card: total / solved for card, total in totals.items()}, solved, spent


def best_card(means: dict[int, float], preferred: int) -> int:
    """The card of the highest mean; among equals ``preferred`` if it is one, else the lowest rank (a
    non-spade first), which keeps the high cards and the trumps."""
    top = max(means.values())
    best = [card for card, mean in means.items() if mean >= top - 1e-9]
    if preferred in best:
        return preferred
    return min(best, key=lambda c: (RANK_OF[c], SUIT_OF[c] == 3, c))
