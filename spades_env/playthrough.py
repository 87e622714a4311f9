"""Golden transcripts of whole games, in the spirit of OpenSpiel's playthrough files.

A transcript pins a seeded game step by step (who acts, the legal actions, the
action taken, a checksum of the actor's observation, rewards and each hand's
breakdown), so that any change in rules, encodings or rewards shows up as a
diff. Regenerate after an intended change with
``python -m spades_env.playthrough`` (writes ``tests/playthroughs/``).
"""

from __future__ import annotations

import random
import sys
import zlib
from pathlib import Path

from .actions import action_to_str
from .env import raw_env
from .render import render_hand_result

CASES = {  # file name -> env arguments; played with seed 7 by a seeded uniform-random policy
    "spades_4p_single_hand.txt": {"num_players": 4, "single_hand": True},
    "spades_2p_single_hand.txt": {"num_players": 2, "single_hand": True},
    "spades_4p_game_to_150.txt": {"num_players": 4, "target_score": 150, "max_hands": 4},
}
SEED = 7


def transcript(seed: int = SEED, **env_args) -> str:
    env = raw_env(**env_args)
    env.reset(seed=seed)
    rng = random.Random(seed)
    lines = [f"env: {env_args}  seed: {seed}", f"dealer: player_{env.game.dealer}", ""]
    while env.agents:
        agent = env.agent_selection
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = [int(a) for a in obs["action_mask"].nonzero()[0]]
        action = rng.choice(legal)
        crc = zlib.crc32(obs["observation"].tobytes())
        shown = " ".join(action_to_str(a) for a in legal)
        lines.append(f"{agent} {env.game.phase.name:<7} obs={crc:08x} legal=[{shown}] -> {action_to_str(action)}")
        hands_before = env.game.hand_number
        env.step(action)
        if env.game.hand_number != hands_before:
            lines.append(render_hand_result(env.game.hand_records[-1]))
            lines.append("rewards: " + " ".join(f"{a}={r:+.2f}" for a, r in env.rewards.items()))
    game = env.game
    lines.append(f"end: scores {game.scores}, winner side {game.winner}, truncated {game.truncated}")
    return "\n".join(lines) + "\n"


def folder() -> Path:
    return Path(__file__).resolve().parent.parent / "tests" / "playthroughs"


def main() -> int:
    folder().mkdir(parents=True, exist_ok=True)
    for name, args in CASES.items():
        (folder() / name).write_text(transcript(**args))
        print(f"wrote {folder() / name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
