"""sb3-contrib's MaskablePPO on one seat of Spades, the other seats played by built-in agents.

    pip install -e ".[sb3]"
    python examples/sb3_maskable_ppo.py --timesteps 50000 --opponents heuristic
    python examples/sb3_maskable_ppo.py --timesteps 512 --eval-games 20    # a smoke run: one update

It saves the model (``model.save``) and scores that file, loaded as the agent
``sb3:PATH``, in duplicate matches against the heuristic and random; the same
spec enters ``spades tournament --agents sb3:PATH heuristic``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.logger import KVWriter, Logger

import spades_env.wrappers  # noqa: F401  (registers "spades_env/Spades-v0")
from spades_env.agents.library import score, score_lines


class LossRecorder(KVWriter):
    """Keeps the ``train/*`` figures sb3 logs after each update, so callers can check them."""

    def __init__(self) -> None:
        self.rows: list[dict[str, float]] = []

    def write(self, key_values: dict, key_excluded: dict, step: int = 0) -> None:
        row = {k: float(v) for k, v in key_values.items() if k.startswith("train/")}
        if row:
            self.rows.append(row)


def train(timesteps: int = 20_000, seed: int = 0, **env_kwargs) -> tuple[MaskablePPO, list[dict[str, float]]]:
    """Train on ``gymnasium.make("spades_env/Spades-v0", **env_kwargs)``; returns the model and its loss rows."""
    env = gymnasium.make("spades_env/Spades-v0", **env_kwargs)
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, n_epochs=4, seed=seed, verbose=0)
    recorder = LossRecorder()
    model.set_logger(Logger(folder=None, output_formats=[recorder]))
    model.learn(total_timesteps=timesteps)
    # sb3 writes an update's figures at the start of the next rollout, so the last update's are still pending.
    model.logger.dump(step=model.num_timesteps)
    return model, recorder.rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=50_000,
                        help="environment steps; one update per 512 (rounded up)")
    parser.add_argument("--opponents", default="heuristic", help="agent name for the other three seats")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default="results/sb3_policy.zip", help="where model.save() writes the policy")
    parser.add_argument("--eval-games", type=int, default=400, help="games per duplicate match (two per deal)")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # small networks: more CPU threads only contend
    env_kwargs = {"opponents": args.opponents, "illegal_action": "raise"}
    model, rows = train(args.timesteps, args.seed, single_hand=True, **env_kwargs)
    print(f"updates: {len(rows)}, last loss {rows[-1]['train/loss']:.4f}")
    print("illegal actions sent:", sum(model.get_env().get_attr("illegal_actions")))
    save = Path(args.save)
    save = save if save.suffix else save.with_suffix(".zip")  # the name model.save() gives a path without one
    model.save(save)
    print(f"saved {save}; scoring it as the agent sb3:{save} on seeded single-hand deals")
    for line in score_lines(score(f"sb3:{save}", games=args.eval_games, single_hand=True)):
        print(line)


if __name__ == "__main__":
    main()
