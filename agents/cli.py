"""The ``spades`` console command: one entry point, subcommands implemented where their logic lives."""

from __future__ import annotations

import importlib
import sys

# subcommand -> "module:function"; each function takes argv (list[str]) and returns an exit code.
COMMANDS = {
    "tournament": ("spades_env.agents.tournament:main", "duplicate round-robin tournaments between agents"),
    "train": ("spades_env.agents.ppo.train:main", "train a PPO agent by self-play"),
    "play": ("spades_env.agents.play:main", "play against the agents in the terminal"),
    "replay": ("spades_env.agents.replay:main", "step through a recorded game"),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in COMMANDS:
        print("usage: spades <command> [options]\n\ncommands:")
        for name, (_, about) in COMMANDS.items():
            print(f"  {name:<11} {about}")
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    module, _, func = COMMANDS[argv[0]][0].partition(":")
    return getattr(importlib.import_module(module), func)(argv[1:]) or 0


if __name__ == "__main__":
    sys.exit(main())
