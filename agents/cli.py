"""The ``spades`` console command: one entry point, subcommands implemented where their logic lives.

Also the argument parser every subcommand uses, so that they behave alike:
an input error is one line on stderr (``spades tournament: error: ...``)
with exit status 2, never a usage dump or a traceback, and ``--help`` shows
each flag's default once.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from importlib import metadata
from typing import NoReturn

# subcommand -> "module:function"; each function takes argv (list[str]) and returns an exit code.
COMMANDS = {
    "tournament": ("spades_env.agents.tournament:main", "duplicate round-robin tournaments between agents"),
    "train": ("spades_env.agents.ppo.train:main", "train a PPO agent by self-play"),
    "play": ("spades_env.agents.play:main", "play against the agents in the terminal"),
    "serve": ("spades_env.agents.serve:main", "play against the agents in the browser (a local web application)"),
    "replay": ("spades_env.agents.replay:main", "step through a recorded game"),
    "analyze": ("spades_env.agents.analyze:main", "double-dummy analysis of recorded hands: points lost to card play"),
    "exploit": ("spades_env.agents.exploit:main", "approximate exploitability: a trained best response's margin"),
    "benchmark": ("spades_env.agents.benchmark:main", "a score card against the versioned pool"),
    "warmup": ("spades_env.agents.warmup:main", "compile the numba kernels now (once per install), not at first use"),
}


class HelpFormatter(argparse.HelpFormatter):
    """Appends ``(default: X)`` to a flag's help unless the help already speaks of its default or there is
    none worth showing (None, False, a required option, a positional argument)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if ("default" in text.lower() or default is None or default is False or default == argparse.SUPPRESS
                or action.required or not action.option_strings):
            return text
        return f"{text} (default: %(default)s)"


class ArgumentParser(argparse.ArgumentParser):
    """``argparse`` with one-line errors, exit status 2, and :class:`HelpFormatter`."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def int_at_least(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number >= ``low`` (and <= ``high``, when given)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low or (high is not None and value > high):
            within = f"at least {low}" if high is None else f"from {low} to {high}"
            raise argparse.ArgumentTypeError(f"must be {within}, got {value}")
        return value

    parse.__name__ = f"whole number >= {low}" if high is None else f"whole number {low}..{high}"  # argparse's messages
    return parse


positive_int = int_at_least(1)


def version() -> str:
    try:
        return metadata.version("spades-env")
    except metadata.PackageNotFoundError:  # a source tree that was never installed
        return "unknown (not installed)"


def usage() -> str:
    lines = ["usage: spades <command> [options]", "       spades --version", "", "commands:"]
    lines += [f"  {name:<11} {about}" for name, (_, about) in COMMANDS.items()]
    lines += ["", "Run 'spades <command> --help' for a command's options."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("-h", "--help"):
        print(usage())
        return 0
    if argv and argv[0] == "--version":
        print(f"spades {version()}")
        return 0
    if not argv:
        print(usage(), file=sys.stderr)
        return 2
    if argv[0] not in COMMANDS:
        print(f"spades: error: unknown command {argv[0]!r}; the commands are {', '.join(COMMANDS)} "
              "(see spades --help)", file=sys.stderr)
        return 2
    module, _, func = COMMANDS[argv[0]][0].partition(":")
    return getattr(importlib.import_module(module), func)(argv[1:]) or 0


if __name__ == "__main__":
    sys.exit(main())
