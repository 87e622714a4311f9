"""Frames per second of ``render_mode="rgb_array"``, and the frame pictures the docs show.

Each variant plays ``--games`` games at random (seeds 0, 1, ...) through ``spades_v0.env`` and
renders after every action; only the ``env.render()`` calls are timed, and the figure is frames
rendered over the seconds spent rendering them, the best of ``--rounds`` rounds (the least
disturbed by other jobs). ``--frame PATH`` also saves a four-player frame in the middle of a
trick (the picture in docs/viewer.md).

    python -m spades_env.experiments.bench_render
    python -m spades_env.experiments.bench_render --frame docs/images/rgb_array_frame.png
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from spades_env import spades_v0


def frames_per_second(num_players: int, games: int, seed: int = 0) -> tuple[float, int]:
    """Frames rendered per second of rendering, and how many frames."""
    env = spades_v0.env(num_players=num_players, render_mode="rgb_array", single_hand=True)
    spent, frames = 0.0, 0
    for g in range(games):
        env.reset(seed=seed + g)
        rng = np.random.default_rng(seed + g)
        for _ in env.agent_iter():
            start = time.perf_counter()
            env.render()
            spent += time.perf_counter() - start
            frames += 1
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return frames / spent, frames


def save_frame(path: str, seed: int = 2) -> None:
    """A four-player frame with two cards of the fifth trick on the table."""
    from PIL import Image

    env = spades_v0.env(render_mode="rgb_array", blind_nil=False)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    game = env.unwrapped.game
    while len(game.plays) < 18:
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    Image.fromarray(env.render()).save(path, optimize=True)
    print(f"wrote {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="single-hand games per variant and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--frame", default=None, help="also save a frame as this PNG")
    args = parser.parse_args()
    for n in (4, 2):
        best, frames = max(frames_per_second(n, args.games) for _ in range(args.rounds))
        print(f"{n} players: {best:,.0f} frames/s ({frames} frames of 960x720, best of {args.rounds} rounds)")
    if args.frame:
        save_frame(args.frame)


if __name__ == "__main__":
    main()
