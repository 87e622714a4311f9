"""Evaluate saved PPO policies against the heuristic after the fact (``python -m spades_env.agents.ppo.evaluate``).

Training evaluates as it goes (``eval.csv``); this re-runs the same duplicate
evaluation (:func:`spades_env.agents.ppo.train.evaluate`: single-hand boards, each deal
played twice with the sides swapped, fixed seed) on any policy files, e.g. the
copies a run keeps with ``--keep-policy-every``, and appends one CSV row per
file. It is how the from-scratch and behaviour-cloned runs are compared at
equal training.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import torch

from .config import PPOConfig
from .train import EVAL_FIELDS, evaluate

FIELDS = ["policy"] + EVAL_FIELDS + ["eval_s"]


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
