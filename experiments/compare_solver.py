"""Time this checkout's solver against another commit's, in one process, position by position.

This machine's speed moves by up to 2x from one minute to the next, so two
runs of ``bench_solver`` a minute apart do not compare kernels. Here both
kernels solve the benchmark's positions (:func:`bench_solver.benchmark_positions`)
in turn, the order alternating, each position ``--rounds`` times; a
position's time is the least of its rounds, and the ratio is of the sums
(and of the medians). Node counts are exact and the same on any machine.
The other commit's ``spades_env/solver/kernel.py`` is loaded beside this
one (its compiled code is cached like this one's), so its ``solve_root``
must take the same arguments. Even so, one run is good to about ±10% here
(the same kernel against itself gave 0.90, 0.99 and 1.05): repeat it.

Usage: ``python -m spades_env.experiments.compare_solver --against d3a3820 --tricks 10``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import inspect
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import numpy as np

import spades_env.solver
from spades_env.cards import NUM_CARDS
from spades_env.experiments.bench_solver import add_position_arguments, benchmark_positions, position_notes
from spades_env.solver import kernel
from spades_env.solver.api import DEFAULT_TABLE_BITS, SearchTable


def kernel_of(revision: str) -> ModuleType:
    """The solver kernel of ``revision``, imported as a module of :mod:`spades_env.solver` (for its relative
    imports)."""
    root = Path(spades_env.solver.__file__).resolve().parents[2]
    try:
        source = subprocess.run(["git", "show", f"{revision}:spades_env/solver/kernel.py"], cwd=root, check=True,
                                capture_output=True, text=True).stdout
    except (subprocess.CalledProcessError, FileNotFoundError) as err:
        sys.exit(f"compare_solver: cannot read spades_env/solver/kernel.py at {revision!r} in {root} ({err}); "
                 "give a commit of this repository")
    digest = hashlib.sha1(source.encode()).hexdigest()[:12]  # a stable name and file: numba's cache keys on both
    path = Path(tempfile.gettempdir()) / f"spades_kernel_{digest}.py"
    if not path.exists() or path.read_text() != source:
        path.write_text(source)
    name = f"spades_env.solver._kernel_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class Solver:
    """One kernel with its own table (laid out by that kernel's constants)."""

    def __init__(self, module: ModuleType) -> None:
        self.k = module
        self.didx = module.compact_index()
        self.table = SearchTable(DEFAULT_TABLE_BITS)
        size = len(self.table.entries)
        # the table as the kernel takes it: one array of entries, or (older kernels) words, bounds and info apart
        self.entries = (self.table.entries,) if hasattr(module, "W_INFO") else (
            np.zeros((size, module.ENTRY_WORDS), np.int64), np.zeros((size, 2), np.int64),
            np.full((size, 3), -1, np.int32))
        # newer kernels take ``one_best`` (False here: the value and every optimal card, as older ones give)
        self.one_best = (False,) if "one_best" in inspect.signature(module.solve_root.py_func).parameters else ()

    def solve(self, a: dict) -> int:
        """Nodes to solve the position ``a`` (:func:`~spades_env.solver.position_arrays`), value and optimal cards."""
        t = self.table
        values = np.full(NUM_CARDS, self.k.INF, np.int64)
        _, nodes, _ = self.k.solve_root(a["hands"], a["trick"], a["nt"], a["leader"], int(a["spades_broken"]),
                                        a["num_players"], a["tables"], a["merge"], a["nil_bid"],
                                        self.didx, t.trick_bounds, *self.entries,
                                        t.next_stamp(), t.history, values, False, *self.one_best, 5_000_000,
                                        t.stats)
        return int(nodes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD~1", help="the commit whose solver this checkout's is timed against")
    parser.add_argument("--tricks", type=int, default=10, help="tricks left in the positions")
    parser.add_argument("--players", type=int, choices=(2, 4), default=4, help="the variant")
    parser.add_argument("--positions", type=int, default=30, help="positions (the benchmark's, from its seed)")
    parser.add_argument("--rounds", type=int, default=5, help="solves of each position by each kernel")
    parser.add_argument("--seed", type=int, default=2026, help="the positions' seed (bench_solver's default)")
    add_position_arguments(parser)
    args = parser.parse_args()
    positions = benchmark_positions(args.players, args.tricks, args.positions, args.seed, not args.no_nil,
                                    args.bag_cost)
    solvers = {args.against: Solver(kernel_of(args.against)), "this checkout": Solver(kernel)}
    for s in solvers.values():
        s.solve(positions[0])  # compile or load the cache outside the timing
    best = {name: [float("inf")] * len(positions) for name in solvers}
    nodes = {name: [0] * len(positions) for name in solvers}
    for r in range(args.rounds):
        for i, a in enumerate(positions):
            order = list(solvers) if (r + i) % 2 == 0 else list(solvers)[::-1]
            for name in order:
                start = time.perf_counter()
                nodes[name][i] = solvers[name].solve(a)
                best[name][i] = min(best[name][i], (time.perf_counter() - start) * 1000)
    print(f"{args.players} players, {args.tricks} tricks, {args.positions} positions "
          f"({', '.join([f'seed {args.seed}', *position_notes(args)])}), least of {args.rounds} rounds each, "
          "value + best moves")
    print(f"{'solver':>16} {'nodes':>12} {'sum ms':>9} {'median ms':>10}")
    for name in solvers:
        print(f"{name:>16} {sum(nodes[name]):>12,} {sum(best[name]):>9.0f} {statistics.median(best[name]):>10.2f}")
    old, new = best[args.against], best["this checkout"]
    print(f"this checkout / {args.against}: sum {sum(new) / sum(old):.3f}, "
          f"median {statistics.median(new) / statistics.median(old):.3f}")


if __name__ == "__main__":
    main()
