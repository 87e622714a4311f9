"""The measurements behind the heuristic's parameters (:mod:`spades_env.agents.heuristic.params`).

For each parameter, variants that differ from a base parameter set in that
one value play the base in a duplicate match, in this process: every board
is dealt twice, the sides swapped, so card luck cancels and only the
decisions where the value matters make a difference (the tournament gives a
seat the same agent seed in both games of a board, so both sides draw the
same bid jitter there). Each sweep has its own fixed seed, below 1,000 and
apart from every evaluation seed, so a sweep's figures do not move when
another is added. The figure is the variant's points per deal minus the
base's, with its 95% confidence interval over boards: negative favours the base.

heuristic-v2's grids (``--base v2``) hold every legal extreme of each
decision (always, never) beside the values in between; heuristic-v1's
sweeps (``--base v1``) are its neighbours of each default, as they were measured.

    python -m spades_env.experiments.heuristic_params --base v2 --workers 2            # every v2 grid
    python -m spades_env.experiments.heuristic_params --base v2 blind_nil_margin --players 2 --format games
    python -m spades_env.experiments.heuristic_params --base v1 safe hopeless --deals 500

Thresholds that only matter at a game score (behind, near the target or the
bag limit) never come up in a single hand: measure them with ``--format games``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, fields, replace

from spades_env.agents.heuristic import HeuristicAgent
from spades_env.agents.heuristic.params import V1, V2, Params
from spades_env.agents.tournament import evaluate
from spades_env.experiments.aa_study import OtherLuckHeuristic

LOW, HIGH = -1e9, 1e9  # thresholds beyond any value a hand or a score takes: a decision's two extremes


@dataclass(frozen=True)
class Sweep:
    name: str  # a field of Params
    values: tuple
    seed: int
    players: tuple[int, ...] = (2, 4)  # the variants in which the parameter acts


SWEEPS_V1 = (
    Sweep("safe", (0.7, 0.9), seed=101),
    Sweep("partner_safe", (0.6, 0.8), seed=102),
    Sweep("hopeless", (0.15, 0.35), seed=103),
    Sweep("cover_honour_rank", (8, 10), seed=104),  # ten, queen
    Sweep("cover_ruff_max_rank", (8, 10), seed=105),
    Sweep("nil_attack_suit", (0.3, 0.7), seed=106),
    Sweep("partner_ruff", (0.3, 0.7), seed=107),
    Sweep("opponent_ruff", (0.1, 0.4), seed=108),
    Sweep("nil_cover_risk", (0.0, 0.3), seed=109),
    Sweep("overbid_discount", (0.15, 0.5), seed=110),
)
# heuristic-v2: each grid runs from "always" to "never" for the decision the parameter gates.
SWEEPS_V2 = (
    Sweep("blind_nil_margin", (LOW, -100.0, 50.0, 100.0, 150.0, None), seed=201),  # None: never by value
    Sweep("blind_nil_deficit_4p", (0, 50, 200, 300, None), seed=202, players=(4,)),  # None: never
    Sweep("blind_nil_deficit_2p", (0, 100, 250, 400), seed=203, players=(2,)),  # v2's: None, never
    Sweep("nil_risk_4p", (LOW, 0.5, 1.0, 1.5, HIGH), seed=204, players=(4,)),  # LOW: never Nil, HIGH: always
    Sweep("nil_risk_2p", (LOW, 0.25, 0.7, 1.0, HIGH), seed=205, players=(2,)),
    Sweep("nil_max_tricks", (0.0, 1.5, 3.5, HIGH), seed=206),
    Sweep("bid_shift_4p", (-0.5, -0.2, 0.4, 0.7), seed=207, players=(4,)),
    Sweep("bid_shift_2p", (-2.5, -1.8, -1.0, -0.5), seed=208, players=(2,)),
    Sweep("nil_attack_suit", (LOW, 0.3, 0.7, HIGH), seed=209),
    Sweep("nil_cover_risk", (0.0, 0.3, 0.6), seed=210, players=(4,)),
    Sweep("replace_margin", (LOW, 0.0, 0.15, HIGH), seed=211, players=(2,)),
    Sweep("set_slack", (0, 1, 2), seed=212),  # 13 (v2's): try to set whenever they can still be set
    Sweep("blind_partner_tricks", (0.0, 0.5, 1.0, 1.5, 3.0), seed=213, players=(4,)),
    Sweep("cover_ruff_max_rank", (0, 8, 10, 12), seed=214, players=(4,)),  # never (a two), ten, queen, any (ace)
    Sweep("attack_slack", (LOW, -1.0, 1.0, 2.0, HIGH), seed=216, players=(4,)),  # LOW: never attack, HIGH: always
    Sweep("attack_blind_nil", (True,), seed=217, players=(4,)),
    # The card-play thresholds v1 measured at its neighbours only, now from one extreme to the other.
    Sweep("safe", (LOW, 0.6, 0.9, HIGH), seed=218),  # LOW: any card that can win is a winner, HIGH: none is
    Sweep("partner_safe", (LOW, 0.5, 0.9, HIGH), seed=219),  # LOW: never overtake a partner, HIGH: always
    Sweep("hopeless", (LOW, 0.1, 0.4, HIGH), seed=220),
    Sweep("cover_honour_rank", (0, 6, 10, 12), seed=221),  # cover any card / a jack (v2's) / an ace only
    Sweep("partner_ruff", (LOW, 0.3, 0.7, HIGH), seed=222, players=(4,)),
    Sweep("opponent_ruff", (LOW, 0.1, 0.5, HIGH), seed=223),
    Sweep("overbid_discount", (0.0, 0.15, 0.6, 1.0), seed=224),
)
BASES = {"v1": (V1, SWEEPS_V1), "v2": (V2, SWEEPS_V2)}


def measure(variant: Params, base: Params, *, deals: int, seed: int, num_players: int = 4,
            single_hand: bool = True, rules: dict | None = None) -> dict:
    """``variant`` against ``base`` over ``deals`` boards: ``{"mean", "low", "high", "n"}``."""
    stats = evaluate(lambda: HeuristicAgent(params=variant), lambda: HeuristicAgent(params=base),
                     games=2 * deals, seed=seed, num_players=num_players, single_hand=single_hand, rules=rules)
    return stats["points_per_deal_diff"]


def mirror_noise(deals: int, seed: int = 100, num_players: int = 4, base: Params = V1) -> dict:
    """The base against a copy with its own bid-jitter luck (``aa_study.OtherLuckHeuristic``): the
    spread that a true difference of 0 shows at this many boards."""
    stats = evaluate(lambda: OtherLuckHeuristic(params=base), lambda: HeuristicAgent(params=base),
                     games=2 * deals, seed=seed, num_players=num_players, single_hand=True)
    return stats["points_per_deal_diff"]


def _job(args: tuple) -> dict:
    name, value, base, kwargs = args
    return {"name": name, "value": value, **measure(replace(base, **{name: value}), base, **kwargs)}


def run(sweeps: Sequence[Sweep], deals: int, num_players: int = 4, out=sys.stdout, noise: bool = False,
        seed: int | None = None, base: Params = V1, single_hand: bool = True, rules: dict | None = None,
        workers: int = 1) -> list[dict]:
    """Each sweep's comparisons, printed as they finish; ``seed`` replaces the sweeps' own (a second look)."""
    fmt = "single-hand boards" if single_hand else "games to the target"
    print(f"{deals} {fmt} per line, {num_players} players, rules {rules or 'default'}; "
          "variant minus base, points per deal", file=out)
    if noise:
        ci = mirror_noise(deals, num_players=num_players, base=base)
        print(f"{'(base vs own-luck copy)':26} {ci['mean']:+.2f} [{ci['low']:+.2f}, {ci['high']:+.2f}]", file=out)
    jobs = [(s.name, v, base, {"deals": deals, "seed": s.seed if seed is None else seed, "num_players": num_players,
                               "single_hand": single_hand, "rules": rules})
            for s in sweeps if num_players in s.players for v in s.values]
    rows = []
    with ProcessPoolExecutor(workers) as pool:
        for job, row in zip(jobs, pool.map(_job, jobs)):
            row = {**row, "base": getattr(base, row["name"]), "seed": job[3]["seed"]}
            rows.append(row)
            print(f"{row['name']:22} base {row['base']!s:<6} vs {row['value']!s:<8} (seed {row['seed']}): "
                  f"{row['mean']:+.2f} [{row['low']:+.2f}, {row['high']:+.2f}]", file=out, flush=True)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="parameters to measure (default: every sweep of the base)")
    parser.add_argument("--base", choices=BASES, default="v1", help="the parameter set the variants differ from")
    parser.add_argument("--deals", type=int, default=2000, help="boards per comparison (default 2000)")
    parser.add_argument("--players", type=int, choices=(2, 4), default=4)
    parser.add_argument("--format", choices=("single", "games"), default="single",
                        help="single-hand boards, or games to 500")
    parser.add_argument("--house", action="store_true", help="the house rule: Blind Nil only 100 or more behind")
    parser.add_argument("--seed", type=int, help="one seed for every comparison instead of each sweep's own")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--noise", action="store_true",
                        help="first, the base against a copy with its own jitter luck (a zero difference)")
    args = parser.parse_args(argv)
    base, sweeps = BASES[args.base]
    known = {s.name: s for s in sweeps}
    unknown = [n for n in args.names if n not in known]
    if unknown:
        params = {f.name for f in fields(Params)}
        hint = [n for n in unknown if n in params]
        parser.error(f"no {args.base} sweep for {unknown}" + (f" ({hint} are Params fields with no sweep here)"
                                                              if hint else ""))
    run([known[n] for n in args.names] or sweeps, args.deals, args.players, noise=args.noise, seed=args.seed,
        base=base, single_hand=args.format == "single", rules={"blind_nil_min_deficit": 100} if args.house else None,
        workers=args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
