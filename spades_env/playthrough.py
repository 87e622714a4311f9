"""Golden transcripts of whole games, in the spirit of OpenSpiel's playthrough files.

A transcript pins a seeded game step by step (who acts, the legal actions, the
action taken, a checksum of the actor's observation, rewards and each hand's
breakdown), so that any change in rules, encodings or rewards shows up as a
diff. ``python -m spades_env.playthrough --check`` compares the golden files
in ``tests/playthroughs/`` with freshly played games and writes nothing;
after an intended change, ``python -m spades_env.playthrough`` rewrites them
(``--out DIR`` writes them elsewhere).
"""

from __future__ import annotations

import argparse
import difflib
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


def first_difference(expected: str, actual: str) -> str:
    """The first differing lines of two transcripts, as a short unified diff."""
    diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(), "golden", "now", lineterm="", n=1)
    return "\n".join(list(diff)[:8])


def check(out: Path) -> list[str]:
    """The names of the cases whose file in ``out`` is missing or differs from a fresh transcript."""
    stale = []
    for name, args in CASES.items():
        path = out / name
        expected = path.read_text() if path.is_file() else ""
        actual = transcript(**args)
        if expected != actual:
            stale.append(name)
            print(f"{path}: " + ("missing" if not path.is_file() else "differs\n" + first_difference(expected, actual)),
                  file=sys.stderr)
    return stale


def write(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, args in CASES.items():
        (out / name).write_text(transcript(**args))
        print(f"wrote {out / name}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m spades_env.playthrough",
        description="Play the golden games (" + ", ".join(sorted(CASES)) + ") and write or check their transcripts.")
    parser.add_argument("--check", action="store_true",
                        help="compare the files in --out with fresh transcripts and write nothing; "
                             "exit status 1 if any is missing or differs")
    parser.add_argument("--out", type=Path, default=folder(), metavar="DIR",
                        help="folder of the transcripts (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.check:
        stale = check(args.out)
        print(f"{len(CASES) - len(stale)} of {len(CASES)} transcripts match", file=sys.stderr)
        return 1 if stale else 0
    write(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
