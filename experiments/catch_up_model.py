"""How much of a single-hand lead a game to 500 keeps when the side behind may bid Blind Nil.

Under the house rule only a side 100 or more behind may bid Blind Nil, made about nine times in ten after
the exchange and worth about 145 points of difference to it (``agents/ppo/score_context.py``'s
``BLIND_NIL_CATCH_UP``, measured in house-rule games). The stronger side falls behind less often, so its
opponent gets more of those hands, and the points per deal of games to 500 (the tournament's figure: the
hands' points difference averaged over the hands played) keep only part of the lead the same agents show
on single hands.

This simulates that and nothing else: each hand's points difference drawn from a normal law with mean
``edge`` (the single-hand lead) and the spread of heuristic self-play (``score_context.RATES``), each side
scoring the per-hand rate plus or minus half of it, and the catch-up added to the side that starts a hand
``deficit`` or more behind; bags, Nil and the bidding's response to the score are left out. Its figures are
set beside measured pairs of (single-hand, games-to-500) leads in docs/training.md: it says roughly what
single-hand lead a +10 in house-rule games to 500 needs.

Usage::

    python -m spades_env.experiments.catch_up_model                  # the house rule's table
    python -m spades_env.experiments.catch_up_model --catch-up 0     # no catch-up: games keep the lead
    python -m spades_env.experiments.catch_up_model --shave 20       # the leader may stay under the deficit

``--shave N`` bounds what keeping a lead under the deficit could be worth: a hand that would carry the modelled
side's lead to between ``deficit`` and ``deficit + N`` without ending the game is scored one point under the
deficit instead, for free (a real agent pays for it in expected points and cannot aim that well).
"""

from __future__ import annotations

import argparse

import numpy as np

from spades_env.agents.ppo.score_context import BLIND_NIL_CATCH_UP, RATES
from spades_env.game import SpadesConfig
from spades_env.rules import preset_options

EDGES = (0, 5, 10, 15, 20, 25, 30, 35, 40, 50, 60)
HOUSE_DEFICIT = preset_options("house")["blind_nil_min_deficit"]
GAME = SpadesConfig()  # the target and the hands' cap of a game to 500


def games_lead(edge: float, games: int = 20000, *, catch_up: float = BLIND_NIL_CATCH_UP[4],
               deficit: int = HOUSE_DEFICIT, target: int = GAME.target_score, max_hands: int = GAME.max_hands,
               rate: float = RATES[4][0], spread: float = RATES[4][1], seed: int = 0, shave: float = 0) -> float:
    """The modelled points per deal over ``games`` games to ``target`` of a side whose single-hand lead is
    ``edge``: the summed points difference of every hand played over the number of hands (``shave``: see the
    module docstring)."""
    rng = np.random.default_rng(seed)
    scores = np.zeros((games, 2))
    playing = np.ones(games, bool)
    total, hands = 0.0, 0
    for _ in range(max_hands):
        lead = scores[:, 0] - scores[:, 1]
        difference = rng.normal(edge, spread, games)
        difference += catch_up * ((lead <= -deficit).astype(float) - (lead >= deficit))
        if shave:
            ends = np.maximum(scores[:, 0] + rate + difference / 2, scores[:, 1] + rate - difference / 2) >= target
            after = lead + difference
            kept = ~ends & (after >= deficit) & (after < deficit + shave)
            difference[kept] -= after[kept] - (deficit - 1)
        scores[playing, 0] += rate + difference[playing] / 2
        scores[playing, 1] += rate - difference[playing] / 2
        total += difference[playing].sum()
        hands += int(playing.sum())
        playing &= ~((scores.max(axis=1) >= target) & (scores[:, 0] != scores[:, 1]))
        if not playing.any():
            break
    return total / hands


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edges", type=float, nargs="+", default=EDGES,
                        help="single-hand leads (points per deal) to model")
    parser.add_argument("--catch-up", type=float, default=BLIND_NIL_CATCH_UP[4],
                        help="points of difference a hand is worth to the side that may bid Blind Nil (0: none)")
    parser.add_argument("--deficit", type=int, default=HOUSE_DEFICIT,
                        help="how far behind a side must stand to bid Blind Nil (the house preset's)")
    parser.add_argument("--games", type=int, default=20000, help="games modelled per lead")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shave", type=float, default=0,
                        help="points a hand may give back, free, to keep the lead under the deficit (an upper bound)")
    args = parser.parse_args(argv)
    print(f"catch-up {args.catch_up:g} points for a side {args.deficit} or more behind; {args.games} games each")
    print("| single-hand lead | games to 500, points per deal |")
    print("|---:|---:|")
    for edge in args.edges:
        lead = games_lead(edge, args.games, catch_up=args.catch_up, deficit=args.deficit, seed=args.seed,
                          shave=args.shave)
        print(f"| {edge:+g} | {lead:+.1f} |")


if __name__ == "__main__":
    main()
