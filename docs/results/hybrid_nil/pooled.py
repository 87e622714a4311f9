"""One agent's points per deal against an opponent, pooled over the boards of several tournaments (their seeds differ).

    python docs/results/hybrid_nil/pooled.py [--opponent heuristic-v2] DIR [DIR ...]

Each board is the agent's side's points minus the opponent's per hand over its two games (nil_play/paired.py's
figure); the interval is normal over every board of every folder.
"""

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "nil_play"))
from paired import boards  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--opponent", default="heuristic-v2")
    args = parser.parse_args()
    figures = []
    for folder in args.folders:
        own = [figure for _, figure in boards(folder, args.opponent).values()]
        print(f"{folder}: {len(own)} boards, {sum(own) / len(own):+.1f}")
        figures += own
    mean = sum(figures) / len(figures)
    half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in figures) / (len(figures) - 1) / len(figures))
    print(f"pooled: {len(figures)} boards, {mean:+.1f} [{mean - half:+.1f}, {mean + half:+.1f}] points per deal")


if __name__ == "__main__":
    main()
