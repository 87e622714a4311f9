"""How often the solver's table holds one position under several classes of the tricks taken (Nil positions).

    taskset -c 1 python docs/results/search/class_duplicates.py --tricks 10

With a Nil standing the table keys on the class of the tricks taken since the root (``kernel.past_classes``); the
same position and pattern reached after tricks of another class is searched and stored again. After each of
``bench_solver``'s positions with a Nil is solved (value and best cards), its entries are grouped by everything
but the class: the entries per group bound what keys free of the tricks taken could save.
"""

import argparse

from spades_env.experiments.bench_solver import benchmark_positions
from spades_env.solver import kernel, solve_arrays, warm_up
from spades_env.solver.api import default_table


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tricks", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    warm_up()
    table = default_table()
    print(f"# bench_solver's {args.tricks}-trick positions with a Nil standing (seed {args.seed})")
    print("| position | nodes | entries | without the class | entries per position |")
    print("|---|---|---|---|---|")
    for i, arrays in enumerate(benchmark_positions(4, args.tricks, 30, args.seed)):
        if not arrays["nil_bid"].any():
            continue
        _, _, nodes = solve_arrays(**arrays, every_move=False, max_nodes=5_000_000)
        words = table.entries[table.entries[:, kernel.W_INFO] >> 32 == table.stamp, :kernel.W_BOUNDS].copy()
        distinct = len({tuple(row) for row in words})
        words[:, kernel.W_STATE] &= ~0xFFFF  # the class's bits of the key
        merged = len({tuple(row) for row in words})
        print(f"| {i} | {nodes:,} | {distinct:,} | {merged:,} | {distinct / merged:.2f} |")


if __name__ == "__main__":
    main()
