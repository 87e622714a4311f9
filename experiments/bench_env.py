"""Decisions per second: ``spades_v0`` through the full AEC API, side by side with OpenSpiel's ``spades``.

Every row plays single hands with random agents that choose uniformly among
the legal action ids with Python's ``random`` (the same helper on every
side). What each row times:

- ``spades_v0 AEC env``: ``spades_v0.env(single_hand=True, blind_nil=False)``
  driven by ``agent_iter`` / ``last()`` / ``step``; the observation vector
  and the action mask are read at every decision; ``reset`` (the deal) and the
  closing dead steps are timed too.
- ``OpenSpiel spades (pyspiel)``: ``new_initial_state``, the 52 chance nodes
  of the deal, then ``observation_tensor()`` and ``legal_actions_mask()`` at
  every decision.
- ``SpadesGame engine only``: the rules engine without the env
  (``legal_actions`` / ``apply``, no observation).
- ``spades_v0 AEC env, 2 players``: when the engine has the two-player
  variant (detected by trying to build it); its hands have the draw phase,
  so they are longer, but a decision is still one ``last()`` + ``step``.

Rows run in alternating rounds so a machine shared with other jobs loads
them alike. Add a row by writing a ``run_*(budget, rng) -> Tally | None``
function and listing it in :func:`rows` (the batched engine has one row per
batch size).

- ``vector engine, B=N``: the batched engine (:mod:`spades_env.vector`)
  stepping N single hands at once; one decision is one game's action, and
  the observation (of the seat to act) and the legal mask of every game come
  back from every step. The random agent draws its N choices in one
  call, timed with the rest (``VectorSpades.random_actions``: one compiled
  pass over the masks on numpy, ``multinomial`` on torch). ``--device cuda`` runs these rows on
  a GPU through torch.
- ``vector engine, uint8 obs, B=N``: the same with
  ``observation_dtype="uint8"`` (the observations in a quarter of the bytes,
  :func:`spades_env.observations.to_uint8`).
- ``vector engine, uint8 obs, B=N, 2 threads``: the same with ``threads=2``
  (the engine's compiled passes split over both cores; every other row,
  OpenSpiel's included, runs on one core).

Usage: ``python -m spades_env.experiments.bench_env --seconds 10 --json bench.json``; ``--rows TEXT``
(repeatable) keeps the rows whose name contains TEXT, and the OpenSpiel reference.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from itertools import compress

import numpy as np

from spades_env import SpadesGame, spades_v0

OPENSPIEL_ROW = "OpenSpiel spades (pyspiel)"
OURS_ROW = "spades_v0 AEC env"


@dataclass
class Budget:
    """Stop after ``hands`` hands or ``seconds`` seconds, whichever is given (checked between hands)."""

    hands: int | None = None
    seconds: float | None = None

    def done(self, hands: int, elapsed: float) -> bool:
        return hands >= self.hands if self.hands is not None else elapsed >= self.seconds


@dataclass
class Tally:
    """What one row measured: decisions (chance nodes excluded), hands and the seconds they took."""

    decisions: int = 0
    hands: int = 0
    seconds: float = 0.0

    def add(self, other: Tally) -> None:
        self.decisions += other.decisions
        self.hands += other.hands
        self.seconds += other.seconds

    @property
    def rate(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0


def legal_ids(mask) -> Sequence[int]:
    """The set ids of a 0/1 mask, by the quickest route for its type (so neither side is handicapped):
    ``nonzero`` for our numpy int8 mask, ``itertools.compress`` for OpenSpiel's Python list."""
    if isinstance(mask, np.ndarray):
        return mask.nonzero()[0]
    return list(compress(range(len(mask)), mask))


def choose(rng: random.Random, mask) -> int:
    """A uniform choice among the legal ids of a mask with Python's ``random``: the same on every row."""
    return int(rng.choice(legal_ids(mask)))


def _timed(budget: Budget, play_hand: Callable[[], int]) -> Tally:
    """Call ``play_hand`` (returns its decision count) until the budget is spent."""
    tally = Tally()
    start = time.perf_counter()
    while not budget.done(tally.hands, time.perf_counter() - start):
        tally.decisions += play_hand()
        tally.hands += 1
    tally.seconds = time.perf_counter() - start
    return tally


def _run_aec(budget: Budget, rng: random.Random, **config) -> Tally:
    env = spades_v0.env(single_hand=True, blind_nil=False, **config)

    def play_hand() -> int:
        decisions = 0
        env.reset(seed=rng.randrange(2**31))
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                action = None
            else:  # last() has built this agent's observation vector and mask
                action = choose(rng, obs["action_mask"])
                decisions += 1
            env.step(action)
        return decisions

    return _timed(budget, play_hand)


def run_env(budget: Budget, rng: random.Random) -> Tally:
    """Partnership Spades through the full AEC API (the headline row)."""
    return _run_aec(budget, rng)


def run_two_player_env(budget: Budget, rng: random.Random) -> Tally | None:
    """Two-player Spades through the AEC API; ``None`` when the engine does not have that variant."""
    try:
        spades_v0.env(num_players=2)
    except (TypeError, ValueError):
        return None
    return _run_aec(budget, rng, num_players=2)


def run_engine(budget: Budget, rng: random.Random) -> Tally:
    """The rules engine alone: legal actions and apply, no observation, no env."""
    game = SpadesGame(blind_nil=False, single_hand=True)

    def play_hand() -> int:
        decisions = 0
        game.reset(rng.randrange(2**31))
        while not game.game_over:
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
        return decisions

    return _timed(budget, play_hand)


def run_openspiel(budget: Budget, rng: random.Random) -> Tally | None:
    """OpenSpiel's spades from Python, observation tensor and legal mask read at every decision."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")

    def play_hand() -> int:
        decisions = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():  # the deal: uniform over the cards left
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            player = state.current_player()
            state.observation_tensor(player)
            state.apply_action(choose(rng, state.legal_actions_mask(player)))
            decisions += 1
        return decisions

    return _timed(budget, play_hand)


def rows(device: str | None = None) -> list[tuple[str, Callable[[Budget, random.Random], Tally | None]]]:
    """The benchmark rows in display order; OpenSpiel is the reference for the ratio column."""
    return [
        (OURS_ROW, run_env),
        (OPENSPIEL_ROW, run_openspiel),
        ("SpadesGame engine only", run_engine),
        ("spades_v0 AEC env, 2 players", run_two_player_env),
        *vector_rows(device),
    ]


def benchmark(budget: Budget, seed: int, rounds: int, device: str | None = None,
              only: Sequence[str] = ()) -> dict[str, Tally | None]:
    """Run every row in ``rounds`` alternating rounds (after a one-hand warm-up each) and sum their tallies.
    ``only``: keep the rows whose name contains one of these strings (and the OpenSpiel reference)."""
    share = Budget(hands=None if budget.hands is None else max(1, budget.hands // rounds),
                   seconds=None if budget.seconds is None else budget.seconds / rounds)
    chosen = [(index, name, run) for index, (name, run) in enumerate(rows(device))
              if not only or name == OPENSPIEL_ROW or any(part in name for part in only)]
    results: dict[str, Tally | None] = {}
    for _, name, run in chosen:
        warm = run(Budget(hands=1), random.Random(seed))
        results[name] = None if warm is None else Tally()
    for r in range(rounds):
        for index, name, run in chosen:
            if results[name] is not None:
                results[name].add(run(share, random.Random(seed * 1000 + r * 100 + index)))
    return results


def table(results: dict[str, Tally | None]) -> str:
    reference = results.get(OPENSPIEL_ROW)
    w = max(32, *map(len, results))
    lines = [f"{'row':{w}} {'decisions/s':>12} {'vs OpenSpiel':>13} {'decisions':>10} {'hands':>7} {'seconds':>8}"]
    for name, tally in results.items():
        if tally is None:
            lines.append(f"{name:{w}} {'(not available)':>12}")
            continue
        ratio = f"{tally.rate / reference.rate:.2f}x" if reference and reference.rate else "-"
        lines.append(f"{name:{w}} {tally.rate:12,.0f} {ratio:>13} {tally.decisions:10d} {tally.hands:7d} "
                     f"{tally.seconds:8.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--seconds", type=float, default=None, help="time per row, all rounds together (default 6)")
    group.add_argument("--hands", type=int, default=None, help="hands per row instead of a time budget")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds the budget is split into")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="PATH", help="also write the figures to this JSON file")
    parser.add_argument("--device", default=None,
                        help="run the vector engine rows on this torch device (e.g. cuda) instead of numpy")
    parser.add_argument("--rows", action="append", default=[], metavar="TEXT",
                        help="only the rows whose name contains TEXT (repeat for more; OpenSpiel is always kept)")
    parser.add_argument("--processes", type=int, default=1,
                        help="run the whole benchmark this many times, each in a fresh process, and report each "
                             "row's median (default 1: this process)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    budget = Budget(hands=args.hands) if args.hands is not None else Budget(seconds=args.seconds or 6.0)
    started, load_before = datetime.datetime.now().astimezone().isoformat(timespec="seconds"), os.getloadavg()
    runs = None
    if args.processes == 1:
        results = benchmark(budget, args.seed, args.rounds, args.device, args.rows)
    else:
        runs = in_processes(args, budget)
        results = medians(runs)
    load_after = os.getloadavg()
    print(table(results) if runs is None else median_table(results, runs))
    print(f"\nload average (1, 5, 15 min) before: {_load(load_before)}, after: {_load(load_after)} "
          f"on {os.cpu_count()} cores")
    ours, peer = results.get(OURS_ROW), results.get(OPENSPIEL_ROW)
    ratio = ours.rate / peer.rate if ours and peer and peer.rate else None
    if ratio is not None:
        print(f"\nspades_v0 / OpenSpiel: {ratio:.2f}x")
    if args.json:
        report = {
            "date": started,
            "command": " ".join(["python -m spades_env.experiments.bench_env", *(argv or sys.argv[1:])]),
            "cpu_count": os.cpu_count(), "load_average_before": load_before, "load_average_after": load_after,
            "python": sys.version.split()[0], "platform": platform.platform(), "processor": platform.processor(),
            "budget": asdict(budget), "rounds": args.rounds, "seed": args.seed, "device": args.device,
            "rows": {name: None if t is None else {**asdict(t), "decisions_per_second": t.rate}
                     for name, t in results.items()},
            "ratio_env_vs_openspiel": ratio,
            **({} if runs is None else {"processes": args.processes, "runs": runs}),
        }
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
    return 0


def in_processes(args: argparse.Namespace, budget: Budget) -> list[dict]:
    """The whole benchmark run ``args.processes`` times one after another, each in a fresh Python process:
    on a shared machine one process's rates move by up to 20% from the next's (the same code, the same
    seed), ours more than OpenSpiel's, so a single process can be lucky or not. Returns each run's rows
    (name -> decisions, hands, seconds, decisions_per_second, or None)."""
    forwarded = ["--seconds", str(budget.seconds)] if budget.hands is None else ["--hands", str(budget.hands)]
    forwarded += ["--rounds", str(args.rounds), "--seed", str(args.seed)]
    forwarded += [] if args.device is None else ["--device", args.device]
    for part in args.rows:
        forwarded += ["--rows", part]
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        for k in range(args.processes):
            path = os.path.join(folder, f"run{k}.json")
            subprocess.run([sys.executable, "-m", "spades_env.experiments.bench_env", *forwarded, "--json", path],
                           check=True, stdout=subprocess.DEVNULL)
            with open(path) as f:
                runs.append(json.load(f)["rows"])
            print(f"process {k + 1} of {args.processes} done", file=sys.stderr, flush=True)
    return runs


def medians(runs: list[dict]) -> dict[str, Tally | None]:
    """Per row, the run of median rate (an odd count; the upper middle one otherwise), as a Tally."""
    out: dict[str, Tally | None] = {}
    for name in runs[0]:
        measured = sorted((run[name] for run in runs if run.get(name)), key=lambda r: r["decisions_per_second"])
        middle = measured[len(measured) // 2] if measured else None
        out[name] = None if middle is None else Tally(middle["decisions"], middle["hands"], middle["seconds"])
    return out


def median_table(results: dict[str, Tally | None], runs: list[dict]) -> str:
    """:func:`table` of the median runs, with each row's lowest and highest rate over the processes."""
    lines = table(results).split("\n")
    lines[0] += f" {'lowest':>12} {'highest':>12}"
    for i, name in enumerate(results, start=1):
        rates = [run[name]["decisions_per_second"] for run in runs if run.get(name)]
        if rates:
            lines[i] += f" {min(rates):12,.0f} {max(rates):12,.0f}"
    return f"median of {len(runs)} processes (each row its own median run)\n" + "\n".join(lines)


def _load(load: tuple[float, float, float]) -> str:
    return " / ".join(f"{x:.2f}" for x in load)


# ------------------------------------------------------------ the batched engine

VECTOR_BATCH_SIZES = (1, 64, 256, 1024, 4096)
UINT8_BATCH_SIZES = (512, 1024, 2048, 4096)
THREADED_BATCH_SIZES = (1024, 2048)
GPU_BATCH_SIZES = (1024, 4096, 16384, 65536, 262144)  # a GPU needs far more games per call to be busy


def vector_rows(device: str | None = None) -> list[tuple[str, Callable[[Budget, random.Random], Tally | None]]]:
    """One row per batch size of the batched engine, on numpy or on a torch ``device``."""
    where = "" if device is None else f", {device}"
    sizes = GPU_BATCH_SIZES if device is not None and device.startswith("cuda") else VECTOR_BATCH_SIZES
    found = [(f"vector engine, B={size}{where}", functools.partial(run_vector, num_envs=size, device=device))
             for size in sizes]
    found += [(f"vector engine, uint8 obs, B={size}{where}",
               functools.partial(run_vector, num_envs=size, device=device, observation_dtype="uint8"))
              for size in (UINT8_BATCH_SIZES if device is None else sizes[-2:])]
    size = 1024 if device is None else sizes[-2]
    found.append((f"vector engine, 2 players, B={size}{where}",
                  functools.partial(run_vector, num_envs=size, device=device, num_players=2)))
    if device is None and numba_threads() >= 2:  # both cores: the compiled passes split over two threads
        found += [(f"vector engine, uint8 obs, B={size}, 2 threads",
                   functools.partial(run_vector, num_envs=size, observation_dtype="uint8", threads=2))
                  for size in THREADED_BATCH_SIZES]
    return found


def numba_threads() -> int:
    """The threads numba may use here (its NUMBA_NUM_THREADS: the cores, unless set)."""
    import numba

    return numba.config.NUMBA_NUM_THREADS


def run_vector(budget: Budget, rng: random.Random, num_envs: int, device: str | None = None,
               num_players: int = 4, observation_dtype: str = "float32", threads: int = 1) -> Tally | None:
    """``num_envs`` single hands stepped together (same rules options as the AEC row); ``None`` when the
    torch device is not available. Every step returns the observations and masks and checks the actions;
    a random agent picks one legal action per game in one vectorised draw (timed too)."""
    from spades_env.vector import VectorSpades

    if device is not None:
        import torch

        if device.startswith("cuda") and not torch.cuda.is_available():
            return None
    vec = VectorSpades(num_envs, num_players=num_players, device=device, seed=rng.randrange(2**31), single_hand=True,
                       blind_nil=False, observation_dtype=observation_dtype, threads=threads)
    choose_batch = _batch_chooser(vec, rng.randrange(2**31))
    out = vec.reset()
    tally = Tally()
    start = time.perf_counter()
    while not budget.done(tally.hands, time.perf_counter() - start):
        out = vec.step(choose_batch(out.mask))
        tally.decisions += num_envs
        tally.hands += int(out.hand_done.sum())
    if device is not None and device.startswith("cuda"):
        import torch

        torch.cuda.synchronize()
    tally.seconds = time.perf_counter() - start
    return tally


def _batch_chooser(vec, seed: int) -> Callable:
    """The batched random agent: :meth:`VectorSpades.random_actions`, a uniform legal action per game under
    the masks of the engine's last step (on numpy one compiled pass; on torch ``multinomial``). The
    returned chooser takes the mask only to look like any agent."""
    if vec.device == "numpy":
        gen = np.random.default_rng(seed)
    else:
        import torch

        gen = torch.Generator(device=vec.device).manual_seed(seed)
    return lambda mask: vec.random_actions(gen)


if __name__ == "__main__":
    raise SystemExit(main())
