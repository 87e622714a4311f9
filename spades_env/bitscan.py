"""Bit scans for the compiled kernels (numba): population count, lowest and highest set bit of an int64,
and the bit gather and scatter of BMI2 (``pext`` / ``pdep``).

Each is one instruction where the CPU has one (LLVM's ``ctpop``, and numba's ``trailing_zeros`` /
``leading_zeros`` intrinsics): written as loops or SWAR sums they took 40% of a solver node's time at
10 tricks left. The double-dummy solver (:mod:`spades_env.solver.kernel`) and the batched
engine's kernels (:mod:`spades_env.vector.kernels`) share them; importing this module loads numba, so
only those import it.

:func:`extract_bits` and :func:`deposit_bits` let the solver read a suit's cards in the order of the
cards still out (whose hand holds the 1st, 2nd, ... highest) without a loop over them: its table key
took 43 ns that way and takes 5 now. They compile to the instructions where numba targets this
machine's CPU and it has fast ones (BMI2, not the microcoded ones of AMD's first two Zen generations),
and to loops over the mask's bits elsewhere, with the same results.
"""

from __future__ import annotations

import llvmlite.binding as llvm
import numba
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

from .compiling import install

install()  # every module with compiled kernels imports this one: the first compile of each is announced


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


def _fast_bmi2() -> bool:
    """Whether numba compiles for this CPU (no ``NUMBA_CPU_NAME``) and it has fast ``pext`` / ``pdep``."""
    if numba.config.CPU_NAME not in (None, "host") or numba.config.CPU_FEATURES:
        return False
    try:
        features = llvm.get_host_cpu_features()  # raises where LLVM cannot read them
    except RuntimeError:
        return False
    return bool(features.get("bmi2")) and llvm.get_host_cpu_name() not in ("znver1", "znver2")


FAST_BMI2 = _fast_bmi2()


def _bmi2(name: str):
    """An intrinsic for LLVM's ``llvm.x86.bmi.<name>.64`` on two int64."""
    def typer(typingctx, x, mask):
        def codegen(context, builder, signature, args):
            fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
            return builder.call(builder.module.declare_intrinsic(f"llvm.x86.bmi.{name}.64", fnty=fnty), args)
        return types.int64(types.int64, types.int64), codegen
    typer.__name__ = f"_{name}"
    return intrinsic(typer)


_pext, _pdep = _bmi2("pext"), _bmi2("pdep")


@njit(cache=True, _nrt=False)
def extract_bits_loop(x: int, mask: int) -> int:
    """:func:`extract_bits` without BMI2."""
    out, bit = 0, 1
    while mask:
        low = mask & -mask
        if x & low:
            out |= bit
        bit <<= 1
        mask ^= low
    return out


@njit(cache=True, _nrt=False)
def deposit_bits_loop(x: int, mask: int) -> int:
    """:func:`deposit_bits` without BMI2."""
    out = 0
    while mask:
        low = mask & -mask
        if x & 1:
            out |= low
        x >>= 1
        mask ^= low
    return out


@njit(cache=True, _nrt=False)
def spread_pairs_shifts(x: int) -> int:
    """:func:`spread_pairs` without BMI2 (cheaper than :func:`deposit_bits_loop` there)."""
    x = (x | x << 8) & 0x00FF00FF
    x = (x | x << 4) & 0x0F0F0F0F
    x = (x | x << 2) & 0x33333333
    return (x | x << 1) & 0x55555555


if FAST_BMI2:
    @njit(cache=True, _nrt=False)
    def extract_bits(x: int, mask: int) -> int:
        """The bits of ``x`` at the set bits of ``mask``, packed from bit 0 up (``pext``)."""
        return _pext(np.int64(x), np.int64(mask))

    @njit(cache=True, _nrt=False)
    def deposit_bits(x: int, mask: int) -> int:
        """The low bits of ``x`` spread to the set bits of ``mask``, from its lowest up (``pdep``)."""
        return _pdep(np.int64(x), np.int64(mask))

    @njit(cache=True, _nrt=False)
    def spread_pairs(x: int) -> int:
        """Bit ``i`` of ``x`` (below 16) moved to bit ``2 i``: the low bit of each two-bit field."""
        return _pdep(np.int64(x), np.int64(0x55555555))
else:
    extract_bits, deposit_bits, spread_pairs = extract_bits_loop, deposit_bits_loop, spread_pairs_shifts
