"""Training hands dealt in the middle of a game, and the reward that makes the score matter.

A single hand from 0-0 teaches the network to maximise the hand's points,
which is what single-hand deals score, but a game to 500 is won by the
first side to the target: far behind near the end a risky Blind Nil is
right, far ahead a safe bid is, and bags near the limit cost 100 points.
The observation carries the scores, the bags and the target, so one network
can learn both, if it trains on hands that start from game scores and is
rewarded for what a hand does to its side's chance of winning the game.

:func:`random_start` draws such a state (each side's score uniform on
-100..target-10 in steps of 10, bags uniform). :func:`hand_rewards` scores
a hand: from 0-0 (the single-hand format, and a game's first hand) the
points difference / ``POINTS_PER_REWARD``, as the env's ``"score"``
reward; from a drawn state the change in :func:`win_chance`, scaled so that
near 0-0 one point is worth the same in both. A potential-based reward:
over a whole game it adds up to the win, whatever the estimate.

:func:`win_chance` is a model, not a measurement: the side's lead (bags
counted at their eventual cost, ``bag_penalty / bag_limit`` each) against a
random walk of the points difference over the hands the leader still needs
to reach the target, at the heuristic's rate. The rates and spreads, from
heuristic self-play single hands with random carried bags (384 hands each):
four players 51 points per side per hand, difference spread 107; two
players 32 and 67. Where a rule offers Blind Nil only to a side some
deficit behind (the ``house`` preset), the side that stands that far behind
has a Blind Nil in hand, made about nine times in ten: its next hand is worth
:data:`BLIND_NIL_CATCH_UP` points of difference more than the other side's,
and the lead is counted with it. Without that, a lead just past the deficit
looks better than one just short of it, and it is worse.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from spades_env.game import SpadesConfig
from spades_env.scoring import POINTS_PER_REWARD, decide_winner, eventual_bag_cost

RATES = {4: (51.0, 107.0), 2: (32.0, 67.0)}  # per hand: points per side, spread of the points difference
SCORE_FLOOR = -100  # lowest drawn starting score
# Mean points difference of a hand in which a side may bid Blind Nil and the other may not, for that side
# (house-rule games to 500 between agents that bid it whenever offered: heuristic-v2, ppo-v2 and a ppo-v3
# candidate, four players 143-148 over 642-736 hands each; docs/results/ppo_v3_catchup/).
BLIND_NIL_CATCH_UP = {4: 145.0, 2: 0.0}


@dataclass(frozen=True)
class Start:
    """The game state a hand is dealt at: both sides' scores and carried bags."""

    scores: tuple[int, int] = (0, 0)
    bags: tuple[int, int] = (0, 0)

    @property
    def in_game(self) -> bool:
        """False for the 0-0 start of the single-hand format (rewarded by points)."""
        return any(self.scores) or any(self.bags)


GAME_START = Start()


def random_start(rng: np.random.Generator, config: SpadesConfig) -> Start:
    """A game state to deal a training hand at: scores uniform in steps of 10, bags uniform."""
    steps = (config.target_score - SCORE_FLOOR) // 10
    scores = SCORE_FLOOR + 10 * rng.integers(steps, size=2)
    bags = rng.integers(config.bag_limit, size=2)
    return Start((int(scores[0]), int(scores[1])), (int(bags[0]), int(bags[1])))


def draw_start(rng: np.random.Generator, config: SpadesConfig, share: float) -> Start:
    """Where a training hand is dealt: a ``share`` of them at a :func:`random_start`, the rest at 0-0."""
    if share > 0 and rng.random() < share:
        return random_start(rng, config)
    return GAME_START


def win_chance(scores: Sequence[int], bags: Sequence[int], side: int, config: SpadesConfig) -> float:
    """The modelled chance that ``side`` wins a game standing at ``scores`` and ``bags`` (see the module)."""
    rate, spread = RATES[config.num_players]
    bag_cost = eventual_bag_cost(config.bag_limit, config.bag_penalty)
    lead = (scores[side] - scores[1 - side]) - bag_cost * (bags[side] - bags[1 - side])
    lead += blind_nil_catch_up(scores, side, config)
    hands_left = max(1.0, (config.target_score - max(scores)) / rate)
    return 0.5 * (1 + math.erf(lead / (spread * math.sqrt(2 * hands_left))))


def blind_nil_catch_up(scores: Sequence[int], side: int, config: SpadesConfig) -> float:
    """What ``side``'s next hand is worth over the other's because only one of them may bid Blind Nil in it:
    +:data:`BLIND_NIL_CATCH_UP` if only ``side`` may, minus that if only the other may, 0 where both or
    neither may (the rule itself: :meth:`SpadesConfig.blind_nil_open`)."""
    mine, theirs = (config.blind_nil_open(scores, s) for s in (side, 1 - side))
    return BLIND_NIL_CATCH_UP[config.num_players] * (int(mine) - int(theirs))


def game_value_scale(config: SpadesConfig) -> float:
    """Reward units per unit of win chance: one point near 0-0 is worth 1 / POINTS_PER_REWARD, as in a single
    hand (the slope of :func:`win_chance` there is 1 / (spread * sqrt(2 pi * hands)))."""
    rate, spread = RATES[config.num_players]
    return spread * math.sqrt(2 * math.pi * config.target_score / rate) / POINTS_PER_REWARD


def hand_rewards(record: dict, start: Start, side_of: Sequence[int], config: SpadesConfig) -> list[float]:
    """Each seat's reward for a scored hand (a record with ``points``, ``scores`` and ``bags``) dealt at
    ``start``: points difference / POINTS_PER_REWARD from 0-0, else the scaled change in win chance."""
    points = record["points"]
    if not start.in_game:
        return [(points[side] - points[1 - side]) / POINTS_PER_REWARD for side in side_of]
    scale = game_value_scale(config)
    winner = decide_winner(record["scores"], points, config.target_score)
    side_reward = []
    for side in (0, 1):
        before = win_chance(start.scores, start.bags, side, config)
        after = (float(winner == side) if winner is not None
                 else win_chance(record["scores"], record["bags"], side, config))
        side_reward.append(scale * (after - before))
    return [side_reward[side] for side in side_of]
