"""``spades warmup``: compile every numba kernel now, once per install, instead of at its first use.

The compiled code (the double-dummy solver, the batched engine, the
heuristic's card play and bidding, the PPO network's card features) is
compiled on first use and cached on disk (numba's ``cache=True``); on a cold
cache the first search game waits about a minute and the first heuristic game
several seconds. Each part here runs the smallest workload that reaches every
kernel of its group with the argument types real play uses, so nothing
compiles later (``tests/test_warmup.py`` checks that a hand played after the
warm-up compiles nothing). On a warm cache the whole command loads the
kernels in a few seconds.

``spades play`` calls :func:`warm` for the parts its agents use before the
first prompt, so no hand stops mid-way to compile.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TextIO

from spades_env.compiling import NOTICE, install, notices_wanted

from .cli import ArgumentParser
from .registry import versioned_name


def _heuristic() -> None:
    import numpy as np

    from spades_env import SpadesConfig

    from .heuristic.bidding import KEEP_VALUES, kept_counts
    from .match import play_game
    from .registry import make_agent

    for n in (4, 2):
        play_game([make_agent("heuristic") for _ in range(n)], seed=0,
                  config=SpadesConfig(num_players=n, single_hand=True))
    kept_counts(np.arange(26).reshape(1, 26), KEEP_VALUES)  # the draw a two-player search models, not played above


def _solver() -> None:
    from spades_env.solver import warm_up

    warm_up()


def _batched_engine() -> None:
    import numpy as np

    from spades_env.vector import VectorSpades

    rng = np.random.default_rng(0)
    for n in (4, 2):
        for threads in (1, 2):
            for dtype in ("float32", "uint8"):
                env = VectorSpades(4, num_players=n, seed=0, threads=threads, observation_dtype=dtype)
                env.reset(seed=0)
                hands = 0
                while hands < 4:  # every slot through a whole hand (bids, the draw, 13 tricks)
                    hands += int(env.step(env.random_actions(rng)).hand_done.sum())


def _ppo() -> None:
    from spades_env import SpadesConfig

    from .match import play_game
    from .registry import make_agent

    play_game([make_agent("ppo"), make_agent("heuristic"), make_agent("ppo"), make_agent("heuristic")], seed=0,
              config=SpadesConfig(single_hand=True))


PARTS: dict[str, tuple[str, Callable[[], None]]] = {
    "heuristic": ("the heuristic", _heuristic),
    "solver": ("the solver", _solver),
    "engine": ("the batched engine", _batched_engine),
    "ppo": ("the PPO network's card features", _ppo),
}
"""Each part: the kernel group it compiles (spades_env.compiling.KERNEL_GROUPS) and the workload that does it."""

def parts_for(specs: Iterable[str]) -> list[str]:
    """The parts the agents named by ``specs`` use: the heuristic always (the default partner and opponents),
    the solver for ``search`` agents, the PPO features for ``ppo`` agents and for ``search-v3`` on (which search on
    the four-player network)."""
    text = " ".join(versioned_name(spec) for spec in specs)  # an alias read as the version it stands for
    on_network = "ppo" in text or any(int(v) >= 3 for v in re.findall(r"search-v(\d+)", text))
    return ["heuristic"] + ["solver"] * ("search" in text) + ["ppo"] * on_network


def warm(parts: Sequence[str] = tuple(PARTS), stream: TextIO | None = None) -> dict[str, float]:
    """Compile (or load from the cache) the kernels of ``parts``; returns the seconds each took.

    A part whose kernels compile is announced before it starts (with the rough time it takes) and
    timed when done: on ``stream`` when given, else on stderr where :mod:`spades_env.compiling`'s
    notices are wanted (a terminal). With ``stream``, a part loaded from the cache says so too.
    """
    install()
    seconds = {}
    for part in parts:
        what, run = PARTS[part]
        before = NOTICE.total()
        start, cpu = time.perf_counter(), time.process_time()
        with NOTICE.to(stream):
            run()
        seconds[part] = time.perf_counter() - start
        compiled = NOTICE.total() - before
        out = stream or sys.stderr
        if compiled and (stream is not None or notices_wanted(out)):
            print(f"{what}: compiled {compiled} kernels in {seconds[part]:.1f} s "
                  f"({time.process_time() - cpu:.1f} s of CPU)", file=out, flush=True)
        elif stream is not None:
            print(f"{what}: loaded from the cache in {seconds[part]:.1f} s", file=out, flush=True)
    return seconds


def build_parser() -> ArgumentParser:
    p = ArgumentParser(prog="spades warmup", description=__doc__.split("\n\n")[0])
    p.add_argument("parts", nargs="*", metavar="PART", help=f"what to compile: {', '.join(PARTS)} (default: all)")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    unknown = [part for part in args.parts if part not in PARTS]
    if unknown:  # checked here: argparse's choices refuse an empty list for nargs="*"
        parser.error(f"unknown part {unknown[0]!r}; the parts are {', '.join(PARTS)}")
    start = time.perf_counter()
    warm(args.parts or tuple(PARTS), stream=sys.stdout)
    print(f"ready in {time.perf_counter() - start:.1f} s: nothing compiles at first use now")
    return 0


if __name__ == "__main__":
    sys.exit(main())
