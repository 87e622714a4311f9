"""Evaluate PPO policies against the heuristic: during training, and after the fact
(``python -m spades_env.agents.ppo.evaluate``).

:func:`evaluate` is the duplicate evaluation the trainer runs as it goes
(``eval.csv``: single-hand boards, each deal played twice with the sides
swapped, fixed seed); the command re-runs it on any policy files, e.g. the
copies a run keeps with ``--keep-policy-every``, and appends one CSV row per
file, so that runs can be compared at equal training.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from pathlib import Path

import torch

from .config import PPOConfig

EVAL_FIELDS = ["update", "decisions", "wall_s", "deals", "points_per_deal", "ci95", "win_rate", "set_rate",
               "nil_success", "bags_per_hand", "opp_set_rate", "opp_nil_success", "opp_bags_per_hand"]
FIELDS = ["policy"] + EVAL_FIELDS + ["eval_s"]


def evaluate(policy_path: Path, cfg: PPOConfig, deals: int | None = None) -> dict[str, float]:
    """The policy (greedy) against the heuristic in the duplicate tournament: single-hand boards, fixed seed.

    Each deal is played twice with the sides swapped (``spades_env.agents.tournament.evaluate``); the
    points per deal are the PPO side's points minus the heuristic side's, 95% CI over deals.
    """
    from spades_env.agents.tournament import evaluate as duplicate_match

    from .model import PPOAgent

    deals = deals or cfg.eval_deals
    stats = duplicate_match(PPOAgent(policy_path, greedy=True), cfg.heuristic_agent, games=2 * deals,
                            seed=cfg.eval_seed, num_players=cfg.num_players, single_hand=True, preset=cfg.rules,
                            rules=cfg.rule_options)
    ci = stats["points_per_deal_diff"]
    ppo, heuristic = stats["agent_a"], stats["agent_b"]
    return {"deals": stats["boards"], "points_per_deal": ci["mean"],
            "ci95": math.nan if ci["low"] is None else (ci["high"] - ci["low"]) / 2,
            "win_rate": stats["win_rate_a"], "set_rate": ppo["set_rate"], "nil_success": ppo["nil_success"],
            "bags_per_hand": ppo["bags_per_hand"], "opp_set_rate": heuristic["set_rate"],
            "opp_nil_success": heuristic["nil_success"], "opp_bags_per_hand": heuristic["bags_per_hand"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m spades_env.agents.ppo.evaluate",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("policies", nargs="+", type=Path, help="policy files (policy.pt, policies/update_*.pt)")
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals per policy (two games each)")
    parser.add_argument("--seed", type=int, default=PPOConfig.eval_seed)
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--out", type=Path, required=True, help="CSV to append rows to")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    new = not args.out.exists()
    with open(args.out, "a", newline="") as fh:
        writer = csv.DictWriter(fh, FIELDS)
        if new:
            writer.writeheader()
        for path in args.policies:
            meta = torch.load(path, map_location="cpu", weights_only=False)
            meta = meta.get("policy", meta)
            cfg = PPOConfig(num_players=meta["num_players"], heuristic_agent=args.opponent, eval_seed=args.seed)
            start = time.perf_counter()
            result = evaluate(path, cfg, args.deals)
            row = {"policy": str(path), "update": meta["meta"].get("update"),
                   "decisions": meta["meta"].get("decisions"), **result, "eval_s": time.perf_counter() - start}
            writer.writerow({k: row.get(k, "") for k in FIELDS})
            fh.flush()
            print(f"{path}: {result['points_per_deal']:+.1f} +- {result['ci95']:.1f} points/deal, "
                  f"win rate {result['win_rate']:.3f} over {result['deals']} deals", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
