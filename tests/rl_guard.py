"""Helpers for the RL-library tests: count what reaches the rules engine, run torch on one thread, load examples."""

from __future__ import annotations

import contextlib
import runpy
from collections.abc import Iterator
from pathlib import Path

from spades_env.game import SpadesGame

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@contextlib.contextmanager
def engine_actions() -> Iterator[dict[str, int]]:
    """Count every action applied to any :class:`SpadesGame` in this process, and the illegal ones.

    The count is taken before the engine checks the action, so an illegal
    action is counted even though the engine then raises.
    """
    counts = {"actions": 0, "illegal": 0}
    apply = SpadesGame.apply

    def counting_apply(game: SpadesGame, action) -> None:
        counts["actions"] += 1
        counts["illegal"] += not game.is_legal(int(action))
        apply(game, action)

    SpadesGame.apply = counting_apply
    try:
        yield counts
    finally:
        SpadesGame.apply = apply


@contextlib.contextmanager
def one_torch_thread() -> Iterator[None]:
    """Tiny networks on a shared 2-core machine: more threads only contend."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def example(name: str) -> dict:
    """The globals of ``examples/<name>.py`` (run without its ``__main__`` block)."""
    return runpy.run_path(str(EXAMPLES / f"{name}.py"), run_name=f"example_{name}")
