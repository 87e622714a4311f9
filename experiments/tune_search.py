"""Small paired runs for tuning the search agent: search vs heuristic on deals 1..N, never the evaluation seed.

Deal ``d`` (the engine's seed ``d``, single hand) is played twice, the search
agent's side swapped, agent seeds ``10 d + seat``; the figure is the mean over
deals of the search side's points minus the heuristic side's (per game, halved
per deal), with its standard error, and the agent's mean CPU time per decision.
The same deals under two settings give a paired comparison (``--json`` keeps
the per-deal values)::

    python -m spades_env.experiments.tune_search --deals 1-40 --worlds 16 --ms 100 --bid-worlds 0
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from spades_env.agents.heuristic import HeuristicAgent
from spades_env.agents.match import play_game
from spades_env.agents.search import SearchAgent
from spades_env.game import SpadesConfig
from spades_env.solver import warm_up


def deal_values(search: SearchAgent, deals: range, num_players: int = 4) -> list[float]:
    """Per deal: the search side's points minus the heuristic side's, averaged over the two games."""
    config = SpadesConfig(num_players=num_players, single_hand=True)
    heuristic = HeuristicAgent()
    values = []
    for deal in deals:
        total = 0.0
        for side in (0, 1):
            agents = [search if seat % 2 == side else heuristic for seat in range(num_players)]
            game = play_game(agents, seed=deal, config=config, agent_seeds=[10 * deal + s for s in range(num_players)])
            points = game.hand_records[-1]["points"]
            total += (points[side] - points[1 - side]) / 2
        values.append(total)
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="1-40", help="first-last deal, e.g. 1-40")
    parser.add_argument("--num-players", type=int, choices=(4, 2), default=4)
    parser.add_argument("--worlds", type=int, default=24)
    parser.add_argument("--ms", type=float, default=250)
    parser.add_argument("--max-tricks", type=int, default=9)
    parser.add_argument("--bid-worlds", type=int, default=24)
    parser.add_argument("--json", metavar="PATH", help="also write the per-deal values")
    args = parser.parse_args(argv)
    first, last = (int(x) for x in args.deals.split("-"))
    warm_up()
    search = SearchAgent(worlds=args.worlds, ms=args.ms, max_tricks=args.max_tricks, bid_worlds=args.bid_worlds)
    values = np.array(deal_values(search, range(first, last + 1), args.num_players))
    rows = search.timing_table()
    cpu = sum(r["decisions"] * r["cpu_ms"] for r in rows) / max(1, sum(r["decisions"] for r in rows))
    se = values.std(ddof=1) / np.sqrt(len(values))
    print(f"{len(values)} deals: {values.mean():+.2f} points per deal (se {se:.2f}), {cpu:.1f} CPU ms per decision")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(values.tolist(), fh)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
