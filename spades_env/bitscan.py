"""Bit scans for the compiled kernels (numba): population count, lowest and highest set bit of an int64.

Each is one instruction where the CPU has one (LLVM's ``ctpop``, and numba's ``trailing_zeros`` /
``leading_zeros`` intrinsics): written as loops or SWAR sums they took 40% of a solver node's time at
10 tricks left (2026-12-02). The double-dummy solver (:mod:`spades_env.solver.kernel`) and the batched
engine's kernels (:mod:`spades_env.vector.kernels`) share them; importing this module loads numba, so
only those import it.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic


@intrinsic
def _ctpop(typingctx, x):
    """LLVM's population count of an int64."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@njit(cache=True, _nrt=False)
def popcount(x: int) -> int:
    return _ctpop(np.int64(x))


@njit(cache=True, _nrt=False)
def lowest_card(x: int) -> int:
    """The index of the lowest set bit of a nonzero ``x``."""
    return trailing_zeros(np.int64(x))


@njit(cache=True, _nrt=False)
def highest_card(x: int) -> int:
    """The index of the highest set bit of a nonzero ``x``."""
    return 63 - leading_zeros(np.int64(x))
