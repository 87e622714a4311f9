"""sb3-contrib's MaskablePPO on one seat of Spades, the other seats played by built-in agents.

    pip install -e ".[sb3]"
    python examples/sb3_maskable_ppo.py --timesteps 50000 --opponents heuristic
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.logger import KVWriter, Logger

import spades_env.wrappers  # noqa: F401  (registers "spades_env/Spades-v0")


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
    return model, recorder.rows


def evaluate(model: MaskablePPO, hands: int = 400, **env_kwargs) -> tuple[float, float]:
    """Mean reward per hand (and its standard error) of the greedy masked policy on seeded single hands."""
    env = gymnasium.make("spades_env/Spades-v0", single_hand=True, **env_kwargs)
    returns = []
    for seed in range(10_000, 10_000 + hands):
        obs, _ = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(action)
            total, done = total + reward, terminated or truncated
        returns.append(total)
    return float(np.mean(returns)), float(np.std(returns) / np.sqrt(hands))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=50_000)
    parser.add_argument("--opponents", default="heuristic", help="agent name for the other three seats")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)  # small networks: more CPU threads only contend
    env_kwargs = {"opponents": args.opponents, "illegal_action": "raise"}
    model, rows = train(args.timesteps, args.seed, single_hand=True, **env_kwargs)
    print(f"{len(rows)} updates, last loss {rows[-1]['train/loss']:.4f}")
    print("illegal actions sent:", sum(model.get_env().get_attr("illegal_actions")))
    mean, stderr = evaluate(model, **env_kwargs)
    print(f"greedy policy: {mean:+.3f} ± {stderr:.3f} per hand (points difference / 100) over 400 seeded hands")


if __name__ == "__main__":
    main()
