"""Saying so when numba compiles: the first use of a compiled kernel on a cold cache takes seconds to a minute.

Every module with compiled kernels imports :mod:`spades_env.bitscan`, which
installs :class:`CompileNotice` on numba's ``"numba:compile"`` event. numba
fires that event only when it compiles, never when it loads a kernel from its
cache (``cache=True``), so the notice is exact: the first compilation of a
group of kernels in a process prints one line on stderr, ``compiling the
solver (about 40 s, once per install)...``, and nothing is printed once the
cache is warm. ``spades warmup`` compiles every group at once.

The notice is printed where someone watches: when stderr is a terminal, or
always with ``SPADES_COMPILE_NOTICE=1``; ``SPADES_COMPILE_NOTICE=0`` silences it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TextIO

from numba.core import event

KERNEL_GROUPS: tuple[tuple[str, str, int], ...] = (
    ("spades_env.solver", "the solver", 60),
    ("spades_env.vector", "the batched engine", 10),
    ("spades_env.agents.heuristic", "the heuristic", 10),
    ("spades_env.agents.ppo", "the PPO network's card features", 5),
)
"""(module prefix, what it is called, rough seconds to compile it from scratch) of each group of kernels: the
CPU seconds `spades warmup` reported in a fresh NUMBA_CACHE_DIR on a 2-core machine, rounded (12, 56, 10, 2.5)."""


def group_of(module: str) -> tuple[str, int] | None:
    """The name and rough compile seconds of the kernel group ``module`` belongs to, if any."""
    for prefix, what, seconds in KERNEL_GROUPS:
        if module == prefix or module.startswith(prefix + "."):
            return what, seconds
    return None


def notices_wanted(stream: TextIO) -> bool:
    setting = os.environ.get("SPADES_COMPILE_NOTICE", "")
    if setting in ("0", "1"):
        return setting == "1"
    return bool(getattr(stream, "isatty", lambda: False)())


@dataclass
class CompileNotice(event.Listener):
    """Counts numba's compilations by group and announces each group's first one (see the module docstring)."""

    compiled: dict[str, int] = field(default_factory=dict)
    announced: set[str] = field(default_factory=set)
    stream: TextIO | None = None  # set by :meth:`to`: print there whatever the setting; else stderr, if wanted

    def on_start(self, ev: event.Event) -> None:
        dispatcher = ev.data.get("dispatcher") if isinstance(ev.data, dict) else None
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        group = group_of(module)
        if group is None:
            return
        what, seconds = group
        self.compiled[what] = self.compiled.get(what, 0) + 1
        stream = self.stream or sys.stderr
        if what not in self.announced and (self.stream is not None or notices_wanted(stream)):
            self.announced.add(what)
            print(f"compiling {what} (about {seconds} s, once per install; `spades warmup` compiles everything)...",
                  file=stream, flush=True)

    def on_end(self, ev: event.Event) -> None:
        pass

    def total(self) -> int:
        return sum(self.compiled.values())

    @contextmanager
    def to(self, stream: TextIO | None) -> Iterator[None]:
        """Within the block, notices go to ``stream`` whatever ``SPADES_COMPILE_NOTICE`` says (None: no change)."""
        before, self.stream = self.stream, stream or self.stream
        try:
            yield
        finally:
            self.stream = before


NOTICE = CompileNotice()
_installed = False


def install() -> CompileNotice:
    """Listen to numba's compilations in this process (once); returns the listener."""
    global _installed
    if not _installed:
        event.register("numba:compile", NOTICE)
        _installed = True
    return NOTICE
