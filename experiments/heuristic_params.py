"""The measurements behind the heuristic's thresholds (:mod:`spades_env.agents.heuristic.params`).

For each threshold, a variant that differs from the defaults in that one
value (one lower, one higher) plays the defaults in a duplicate match of
single-hand boards, in this process: every board is dealt twice, the sides
swapped, so card luck cancels and only the decisions where the threshold
matters make a difference (the tournament gives a seat the same agent
seed in both games of a board, so both sides draw the same bid jitter
there). Each threshold has its own fixed seed, so a
threshold's figures do not move when another is added. The figure is the
variant's points per deal minus the default's, with its 95% confidence
interval over boards: a negative figure favours the default.

    python -m spades_env.experiments.heuristic_params --noise       # the whole sweep (about 15 minutes)
    python -m spades_env.experiments.heuristic_params nil_cover_risk cover_honour_rank --seed 2026  # a second look
    python -m spades_env.experiments.heuristic_params safe hopeless --deals 500

Thresholds that only matter at a game score (behind, near the target or the
bag limit) never come up in a single hand and are not measured here.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

from spades_env.agents.heuristic import HeuristicAgent
from spades_env.agents.heuristic.params import DEFAULT, Params
from spades_env.agents.tournament import evaluate
from spades_env.experiments.aa_study import OtherLuckHeuristic


@dataclass(frozen=True)
class Sweep:
    name: str  # a field of Params
    lower: float
    higher: float
    seed: int


SWEEPS = (
    Sweep("safe", 0.7, 0.9, seed=101),
    Sweep("partner_safe", 0.6, 0.8, seed=102),
    Sweep("hopeless", 0.15, 0.35, seed=103),
    Sweep("cover_honour_rank", 8, 10, seed=104),  # ten, queen
    Sweep("cover_ruff_max_rank", 8, 10, seed=105),
    Sweep("nil_attack_suit", 0.3, 0.7, seed=106),
    Sweep("partner_ruff", 0.3, 0.7, seed=107),
    Sweep("opponent_ruff", 0.1, 0.4, seed=108),
    Sweep("nil_cover_risk", 0.0, 0.3, seed=109),
    Sweep("overbid_discount", 0.15, 0.5, seed=110),
)


def measure(variant: Params, *, deals: int, seed: int, num_players: int = 4) -> dict:
    """``variant`` against the defaults over ``deals`` single-hand boards: ``{"mean", "low", "high", "n"}``."""
    stats = evaluate(lambda: HeuristicAgent(params=variant), lambda: HeuristicAgent(params=DEFAULT),
                     games=2 * deals, seed=seed, num_players=num_players, single_hand=True)
    return stats["points_per_deal_diff"]


def mirror_noise(deals: int, seed: int = 100, num_players: int = 4) -> dict:
    """The default against a copy with its own bid-jitter luck (``aa_study.OtherLuckHeuristic``): the
    spread that a true difference of 0 shows at this many boards."""
    stats = evaluate(lambda: OtherLuckHeuristic(params=DEFAULT), lambda: HeuristicAgent(params=DEFAULT),
                     games=2 * deals, seed=seed, num_players=num_players, single_hand=True)
    return stats["points_per_deal_diff"]


def run(sweeps: Sequence[Sweep], deals: int, num_players: int = 4, out=sys.stdout, noise: bool = False,
        seed: int | None = None) -> list[dict]:
    """Each sweep's two comparisons, printed as they finish; ``seed`` replaces the sweeps' own (a second look)."""
    rows = []
    print(f"{deals} single-hand boards per line, {num_players} players; variant minus default, points per deal",
          file=out)
    if noise:
        ci = mirror_noise(deals, num_players=num_players)
        print(f"{'(default vs own-luck copy)':26} {ci['mean']:+.2f} [{ci['low']:+.2f}, {ci['high']:+.2f}]", file=out)
    for sweep in sweeps:
        default = getattr(DEFAULT, sweep.name)
        for value in (sweep.lower, sweep.higher):
            at = sweep.seed if seed is None else seed
            ci = measure(replace(DEFAULT, **{sweep.name: value}), deals=deals, seed=at, num_players=num_players)
            rows.append({"name": sweep.name, "default": default, "value": value, "seed": at, **ci})
            print(f"{sweep.name:20} default {default:<5} vs {value:<5} (seed {at}): "
                  f"{ci['mean']:+.2f} [{ci['low']:+.2f}, {ci['high']:+.2f}]", file=out, flush=True)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    known = {s.name: s for s in SWEEPS}
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help=f"thresholds to measure (default: all of {', '.join(known)})")
    parser.add_argument("--deals", type=int, default=2000, help="single-hand boards per comparison (default 2000)")
    parser.add_argument("--players", type=int, choices=(2, 4), default=4)
    parser.add_argument("--seed", type=int, help="one seed for every comparison instead of each sweep's own")
    parser.add_argument("--noise", action="store_true",
                        help="first, the default against a copy with its own jitter luck (a zero difference)")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in known]
    if unknown:
        params = {f.name for f in fields(Params)}
        hint = [n for n in unknown if n in params]
        parser.error(f"no sweep for {unknown}" + (f" ({hint} are Params fields with no sweep here)" if hint else ""))
    run([known[n] for n in args.names] or SWEEPS, args.deals, args.players, noise=args.noise, seed=args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
